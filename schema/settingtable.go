package schema

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"kcalab/records"
)

// Kind is the type of a setting's value.
type Kind int

const (
	String Kind = iota
	Int
	Float
	Bool
	StringList // a value that is itself a list: never a grid axis
)

func (k Kind) String() string {
	switch k {
	case String:
		return "string"
	case Int:
		return "integer"
	case Float:
		return "number"
	case Bool:
		return "boolean (true/false)"
	case StringList:
		return "list of strings"
	}
	return "?"
}

// Setting describes one key a spec may set, read from the tags of Settings
// (or RunSettings). Reports read the display metadata (Short, Order, Sweep,
// Size, Labels) instead of knowing keys.
type Setting struct {
	Key      string // dotted path, e.g. "svd.backend"
	Kind     Kind
	Default  any      // string, int, float64, bool or []string; nil when Required
	Required bool     // a run key without a default (name)
	Enum     []string // allowed values of a String kind (nil = free text); see Allowed
	Min      *float64 // inclusive bounds for Int and Float kinds
	Max      *float64
	Doc      string

	Short     string // label format: "{}" the value, "{method}", "{set}"; "" = key=value
	Order     int    // place in derived labels; -1 = none (alphabetical, after)
	SweepAxis string // axis title of a sweep chart against this setting ("" = none)
	SweepID   string // short id of that chart
	SweepLog  bool   // a sweep against it may use a log axis
	Size      bool   // sets the size of a scaling trial
	SizeAxis  bool   // the scaling x axis when the vocabulary size is unknown
	Series    bool   // scaling figures draw one line per value of it first
	// SeriesOption says how the Series setting's value computes (an SVD
	// backend's options): its value names a scaling line with the
	// backend's, and lines that differ in it are compared as backends are,
	// never kept apart as other settings keep them.
	SeriesOption bool
	Intro        string // the score tables' introduction names its value under this title
	NoID         bool   // not part of the trial id (how many replicates, not what a trial is)
	// Limit says the setting bounds what a trial may spend (its time or
	// memory), not what it computes: a trial that finishes within it gives
	// the same numbers under any limit, so pages never keep lines or
	// designs apart by it.
	Limit bool
	// OmitDefault leaves the setting out of a record's settings while it
	// has its default: a setting added after records were committed, so
	// that those records stay as they are, byte for byte.
	OmitDefault bool
	Labels      map[string]string // display names of enum values

	index []int // field path in Settings (or RunSettings)
}

// Allowed is the list of allowed values: the tag's enum, or for method the
// registered methods' names as they are now (a method registered by a test
// is allowed at once).
func (s Setting) Allowed() []string {
	if s.Key == KeyMethod {
		return MethodNames()
	}
	return s.Enum
}

// Namespace is the part of the key before its first dot ("" for top-level keys).
func (s Setting) Namespace() string {
	ns, _, ok := strings.Cut(s.Key, ".")
	if !ok {
		return ""
	}
	return ns
}

var (
	tableOnce sync.Once
	trialTab  []Setting // per-trial keys, in declaration order
	runTab    []Setting // run keys
	byKey     map[string]Setting
)

func loadTables() {
	tableOnce.Do(func() {
		trialTab = tagSettings(reflect.TypeOf(Settings{}), "", nil)
		runTab = tagSettings(reflect.TypeOf(RunSettings{}), "", nil)
		byKey = map[string]Setting{}
		for _, s := range append(append([]Setting(nil), runTab...), trialTab...) {
			if _, dup := byKey[s.Key]; dup {
				panic("schema: setting " + s.Key + " declared twice")
			}
			byKey[s.Key] = s
		}
	})
}

// TrialSettings lists every per-trial key in declaration order. Any of them
// may be given as a YAML list, which makes it a grid axis (except
// StringList kinds, which are lists already).
func TrialSettings() []Setting { loadTables(); return append([]Setting(nil), trialTab...) }

// RunKeys lists the top-level keys that describe the run rather than a trial.
func RunKeys() []Setting { loadTables(); return append([]Setting(nil), runTab...) }

// LookupSetting finds a per-trial or run setting by key.
func LookupSetting(key string) (Setting, bool) {
	loadTables()
	s, ok := byKey[key]
	return s, ok
}

// isRunSetting reports whether s is one of the run keys.
func isRunSetting(s Setting) bool {
	for _, r := range RunKeys() {
		if r.Key == s.Key {
			return true
		}
	}
	return false
}

// tagSettings walks a settings struct: a struct field is a namespace, any
// other field a setting. A malformed tag is a programming error found by
// every test, so it panics.
func tagSettings(t reflect.Type, prefix string, index []int) []Setting {
	var out []Setting
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		key := f.Tag.Get("key")
		if key == "" {
			panic(fmt.Sprintf("schema: settings field %s.%s has no key tag", t.Name(), f.Name))
		}
		if prefix != "" {
			key = prefix + "." + key
		}
		idx := append(append([]int(nil), index...), i)
		if f.Type.Kind() == reflect.Struct {
			out = append(out, tagSettings(f.Type, key, idx)...)
			continue
		}
		s := Setting{Key: key, Doc: f.Tag.Get("doc"), Short: f.Tag.Get("short"), Order: -1, index: idx,
			Required: f.Tag.Get("required") == "true", Size: f.Tag.Get("size") != "",
			SizeAxis: f.Tag.Get("size") == "axis", Series: f.Tag.Get("series") == "true", SeriesOption: f.Tag.Get("series") == "option", Intro: f.Tag.Get("intro"),
			NoID: f.Tag.Get("noid") == "true", Limit: f.Tag.Get("limit") == "true", OmitDefault: f.Tag.Get("omitdefault") == "true"}
		switch {
		case f.Type.Kind() == reflect.String: // string, or a named string type (Source)
			s.Kind = String
		case f.Type == reflect.TypeOf(0):
			s.Kind = Int
		case f.Type == reflect.TypeOf(0.0):
			s.Kind = Float
		case f.Type == reflect.TypeOf(false):
			s.Kind = Bool
		case f.Type == reflect.TypeOf([]string(nil)):
			s.Kind = StringList
		default:
			panic(fmt.Sprintf("schema: setting %s has unsupported type %s", key, f.Type))
		}
		if e := f.Tag.Get("enum"); e != "" {
			s.Enum = strings.Split(e, ",")
		}
		s.Min, s.Max = tagFloat(key, f.Tag, "min"), tagFloat(key, f.Tag, "max")
		if o := f.Tag.Get("order"); o != "" {
			n, err := strconv.Atoi(o)
			if err != nil {
				panic(fmt.Sprintf("schema: setting %s: order %q", key, o))
			}
			s.Order = n
		}
		if sw := f.Tag.Get("sweep"); sw != "" {
			parts := strings.Split(sw, "|")
			s.SweepAxis, s.SweepID, s.SweepLog = parts[0], parts[1], !(len(parts) > 2 && parts[2] == "linear")
		}
		if l := f.Tag.Get("labels"); l != "" {
			s.Labels = map[string]string{}
			for _, kv := range strings.Split(l, ",") {
				k, v, _ := strings.Cut(kv, "=")
				s.Labels[k] = v
			}
		}
		if !s.Required {
			d, ok := f.Tag.Lookup("default")
			if !ok {
				panic(fmt.Sprintf("schema: setting %s has no default tag", key))
			}
			v, err := parseDefault(s.Kind, d)
			if err != nil {
				panic(fmt.Sprintf("schema: setting %s: default %q: %v", key, d, err))
			}
			s.Default = v
		}
		out = append(out, s)
	}
	return out
}

func tagFloat(key string, tag reflect.StructTag, name string) *float64 {
	v, ok := tag.Lookup(name)
	if !ok {
		return nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		panic(fmt.Sprintf("schema: setting %s: %s %q", key, name, v))
	}
	return &f
}

func parseDefault(k Kind, d string) (any, error) {
	switch k {
	case String:
		return d, nil
	case Int:
		return strconv.Atoi(d)
	case Float:
		return strconv.ParseFloat(d, 64)
	case Bool:
		return strconv.ParseBool(d)
	case StringList:
		if d == "" {
			return []string{}, nil
		}
		return strings.Split(d, ","), nil
	}
	return nil, fmt.Errorf("kind %v", k)
}

// fill sets the typed fields of dst (a pointer to Settings or RunSettings)
// from a map of decoded values. The decoder has checked every value's type,
// so a mismatch is a programming error.
func fill(dst any, tab []Setting, values map[string]any) {
	root := reflect.ValueOf(dst).Elem()
	for _, s := range tab {
		v, ok := values[s.Key]
		if !ok {
			if s.Default == nil {
				continue
			}
			v = s.Default
		}
		f := root.FieldByIndex(s.index)
		switch x := v.(type) {
		case []string:
			f.Set(reflect.ValueOf(append([]string{}, x...)))
		default:
			f.Set(reflect.ValueOf(v).Convert(f.Type()))
		}
	}
}

// typedSettings returns the typed settings of a trial's values.
func typedSettings(values map[string]any) Settings {
	loadTables()
	var s Settings
	fill(&s, trialTab, values)
	return s
}

// RecordSettings decodes a record's settings (as read back from a results
// file: numbers as float64, lists as []any) into typed settings; a key the
// record lacks takes its default, and a value of the wrong type (a record
// of another version) is ignored in favour of the default.
func RecordSettings(values map[string]any) Settings {
	loadTables()
	typed := make(map[string]any, len(values))
	for _, s := range trialTab {
		v, ok := values[s.Key]
		if !ok {
			continue
		}
		if x, ok := coerce(s.Kind, v); ok {
			typed[s.Key] = x
		}
	}
	return typedSettings(typed)
}

// coerce converts a JSON-decoded value to the Go type of a kind.
func coerce(k Kind, v any) (any, bool) {
	switch k {
	case String:
		x, ok := v.(string)
		return x, ok
	case Int:
		switch x := v.(type) {
		case int:
			return x, true
		case float64:
			if x == float64(int(x)) {
				return int(x), true
			}
		}
	case Float:
		switch x := v.(type) {
		case int:
			return float64(x), true
		case float64:
			return x, true
		}
	case Bool:
		x, ok := v.(bool)
		return x, ok
	case StringList:
		switch x := v.(type) {
		case []string:
			return x, true
		case []any:
			out := make([]string, 0, len(x))
			for _, e := range x {
				str, ok := e.(string)
				if !ok {
					return nil, false
				}
				out = append(out, str)
			}
			return out, true
		}
	}
	return nil, false
}

// Keys every record has, read by reports and checks.
const (
	KeyMethod = records.KeyMethod
	KeyLabel  = records.KeyLabel
	KeySource = "data.source"
	// KeyReplicate numbers a trial's replicates (absent on replicate 0):
	// reports average over it rather than drawing it as a series.
	KeyReplicate = records.KeyReplicate
)

// Format prints a value of the setting for a derived label ("W=24",
// "d=1000", "cut") by its short tag; a method becomes its label
// (methodLabel) and a set its display name.
func (s Setting) Format(value string, methodLabel func(name string) string) string {
	switch s.Short {
	case "":
		return s.Key + "=" + value
	case "{method}":
		return methodLabel(value)
	case "{set}":
		return SetLabel(value)
	}
	return strings.ReplaceAll(s.Short, "{}", value)
}

// ShortLabel prints one setting for a derived label (Setting.Format), with
// the registered methods' labels; unknown keys print as key=value.
func ShortLabel(key string, value string) string {
	s, ok := LookupSetting(key)
	if !ok {
		return key + "=" + value
	}
	return s.Format(value, MethodLabel)
}

// MethodLabel is a registered method's display label, or the name itself
// (a method this build does not have, in an old record).
func MethodLabel(name string) string {
	if m, ok := LookupMethod(name); ok && m.Label != "" {
		return m.Label
	}
	return name
}

// ValueLabel is the display name of an enum value ("sppmi" → "SPPMI"), or
// the value itself.
func ValueLabel(key, value string) string {
	s, _ := LookupSetting(key)
	if l, ok := s.Labels[value]; ok {
		return l
	}
	return value
}

// LabelOrder sorts setting keys for derived labels: by their order tag,
// then the others alphabetically.
func LabelOrder(keys []string) {
	rank := func(k string) int {
		if s, ok := LookupSetting(k); ok {
			return s.Order
		}
		return -1
	}
	sort.SliceStable(keys, func(i, j int) bool {
		oi, oj := rank(keys[i]), rank(keys[j])
		switch {
		case oi >= 0 && oj >= 0:
			return oi < oj
		case (oi >= 0) != (oj >= 0):
			return oi >= 0
		}
		return keys[i] < keys[j]
	})
}

// SweepSettings are the numeric settings a sweep chart may have on its x
// axis, in label order.
func SweepSettings() []Setting {
	var out []Setting
	for _, s := range TrialSettings() {
		if s.SweepAxis != "" {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Order < out[j].Order })
	return out
}
