package reports

import (
	"strconv"
	"strings"

	"kcalab/records"
	"kcalab/schema"
)

// Derived labels: how a page names trials, groups of trials and chart
// lines from their settings. Labels are computed over all the trials shown
// together, since what a label must say depends on what varies among them.

// settingsSplit returns the setting keys whose value is the same in every
// record (with that value) and the keys that vary or are missing somewhere.
func settingsSplit(recs []records.Record) (common [][2]string, varying []string) {
	all := map[string]bool{}
	for _, rec := range recs {
		for k := range rec.Settings {
			all[k] = true
		}
	}
	for _, k := range sortedKeys(all) {
		first, same := "", true
		for i, rec := range recs {
			v, ok := rec.Settings[k]
			s := formatValue(v)
			if !ok {
				same = false
				break
			}
			if i == 0 {
				first = s
			} else if s != first {
				same = false
				break
			}
		}
		if same {
			common = append(common, [2]string{k, first})
		} else {
			varying = append(varying, k)
		}
	}
	return common, varying
}

// sortLabelKeys fixes the order of settings in derived labels (the
// settings' order tags); others follow alphabetically.
func sortLabelKeys(keys []string) { schema.LabelOrder(keys) }

// labelKeys are never part of a derived label: they are the label.
var labelKeys = map[string]bool{"name": true, schema.KeyLabel: true}

// shortSetting prints one setting for a label ("W=24", "d=1000", "cut").
func (p *builder) shortSetting(k string, v any) string {
	s, ok := schema.LookupSetting(k)
	if !ok {
		return k + "=" + formatValue(v)
	}
	return s.Format(formatValue(v), p.methodLabel)
}

// labelOf joins the short forms of keys present in rec ("ca · cut · W=5").
// A backend's option (schema: SeriesOption) at its default is left out: it
// varies because another backend changed it, and most backends have no use
// for it (krylov solves no projected problem), so only the changed value
// tells a reader something ("dssvd · svd.projected=lapack" against "krylov").
func (p *builder) labelOf(rec records.Record, keys []string) string {
	var parts []string
	for _, k := range keys {
		v, ok := rec.Settings[k]
		if !ok {
			continue
		}
		if s, known := schema.LookupSetting(k); known && s.SeriesOption && formatValue(v) == formatValue(s.Default) {
			continue
		}
		parts = append(parts, p.shortSetting(k, v))
	}
	return strings.Join(parts, " · ")
}

// givenName is the trial's own label: its "name" setting, else "label".
func givenName(rec records.Record) string {
	for _, k := range []string{"name", schema.KeyLabel} {
		if s, ok := rec.Settings[k].(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// trialLabels names each record for a table row: its given name, else its
// method; either way followed by the settings that vary among the records
// of its group (see groupKeys). Labels that would still repeat get the
// trial's number (#n, as in the trials table) appended; nums are those
// numbers.
func (p *builder) trialLabels(recs []records.Record, nums []int) []string {
	keys := groupKeys(recs)
	vary := groupVarying(recs, keys, nil)
	labels := make([]string, len(recs))
	count := map[string]int{}
	for i, rec := range recs {
		l := p.groupLabel(rec, keys[i], vary[keys[i]], true)
		if l == "" {
			l = rec.ID
		}
		labels[i] = l
		count[l]++
	}
	for i, l := range labels {
		if count[l] > 1 {
			labels[i] = l + " (#" + strconv.Itoa(nums[i]) + ")"
		}
	}
	return labels
}

// groupKeys puts each record in a group: the records sharing a given name
// (a spec variant's label), else the records of its method. A name that
// only one record carries does not make a group of its own.
func groupKeys(recs []records.Record) []string {
	names := map[string]int{}
	for _, rec := range recs {
		if g := givenName(rec); g != "" {
			names[g]++
		}
	}
	keys := make([]string, len(recs))
	for i, rec := range recs {
		if g := givenName(rec); g != "" && names[g] > 1 {
			keys[i] = "name:" + g
		} else {
			keys[i] = "method:" + formatValue(rec.Settings[schema.KeyMethod])
		}
	}
	return keys
}

// groupDisplay names a group for text: its given name or its method.
func (p *builder) groupDisplay(key string) string {
	if m, ok := strings.CutPrefix(key, "method:"); ok {
		return p.methodLabel(m)
	}
	return strings.TrimPrefix(key, "name:")
}

// groupVarying returns, per group, the settings (but the label keys,
// "method", tuned_on and skip) that vary among the records of the group,
// in label order. tuned_on never tells two trials apart (it is not part
// of a trial's id) and tables mark what it says by themselves (†).
func groupVarying(recs []records.Record, keys []string, skip map[string]bool) map[string][]string {
	byGroup := map[string][]records.Record{}
	for i, rec := range recs {
		byGroup[keys[i]] = append(byGroup[keys[i]], rec)
	}
	vary := map[string][]string{}
	for g, group := range byGroup {
		_, varying := settingsSplit(group)
		var ks []string
		for _, k := range varying {
			if !labelKeys[k] && k != schema.KeyMethod && k != keyTunedOn && !skip[k] {
				ks = append(ks, k)
			}
		}
		sortLabelKeys(ks)
		vary[g] = ks
	}
	return vary
}

// groupLabel is the record's given name, or its method when it has none,
// then the short forms of the varying keys. A row whose given name no
// other record carries is named by it alone: the settings its method's
// other records vary in do not tell it apart from anything. For a
// series (forRow false) a name that is not the record's group is left out,
// so that records of one method form one line.
func (p *builder) groupLabel(rec records.Record, key string, varying []string, forRow bool) string {
	if g := givenName(rec); forRow && g != "" && !strings.HasPrefix(key, "name:") {
		return g
	}
	var parts []string
	if g := givenName(rec); g != "" && (forRow || strings.HasPrefix(key, "name:")) {
		parts = append(parts, g)
	} else if _, ok := rec.Settings[schema.KeyMethod]; ok {
		parts = append(parts, p.shortSetting(schema.KeyMethod, rec.Settings[schema.KeyMethod]))
	}
	if l := p.labelOf(rec, varying); l != "" {
		parts = append(parts, l)
	}
	return strings.Join(parts, " · ")
}

// soloLabel names one trial on its own: its given name, else its method.
func (p *builder) soloLabel(t trial) string {
	return p.trialLabels([]records.Record{t.Record}, []int{t.Num})[0]
}

// lineNames is how a chart against one setting names its lines.
type lineNames struct {
	names   []string // per trial: its line
	single  bool     // every trial is of one group, which the chart's text names
	group   string   // that group's name
	varying []string // the settings the lines differ in, in label order
	tuned   []string // the settings tuning groups chose, which a line may change from point to point
}

// lineNamesOf names each trial's line in a chart against the setting x:
// its group (given name, else method) and the settings that vary within
// the group, but x, the replicate (the axis, and what a point averages)
// and the settings a tuning group chose (tune.axes: a tuned method's line
// joins the design chosen at each x, whatever it is; tuned says so).
// With one group the chart's text names it and the lines say only what
// varies; a line with nothing to say is "".
func (p *builder) lineNamesOf(recs []records.Record, x string) lineNames {
	keys := groupKeys(recs)
	skip := map[string]bool{x: true, schema.KeyReplicate: true}
	var tuned []string
	for _, rec := range recs {
		for _, a := range formatList(rec.Settings[records.KeyTuneAxes]) {
			if a != x && !skip[a] {
				skip[a] = true
				tuned = append(tuned, a)
			}
		}
	}
	vary := groupVarying(recs, keys, skip)
	groups := map[string]bool{}
	for _, k := range keys {
		groups[k] = true
	}
	ln := lineNames{names: make([]string, len(recs)), single: len(groups) == 1}
	for i, rec := range recs {
		ln.names[i] = p.groupLabel(rec, keys[i], vary[keys[i]], false)
		if ln.single && len(vary[keys[i]]) > 0 {
			ln.names[i] = p.labelOf(rec, vary[keys[i]])
		}
	}
	if ln.single {
		ln.group = p.groupDisplay(keys[0])
	}
	seen := map[string]bool{}
	for _, g := range sortedKeys(vary) {
		for _, k := range vary[g] {
			if !seen[k] {
				seen[k] = true
				ln.varying = append(ln.varying, k)
			}
		}
	}
	sortLabelKeys(ln.varying)
	sortLabelKeys(tuned)
	ln.tuned = tuned
	return ln
}

// formatList is a list setting's values as text (nil for none).
func formatList(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, e := range l {
		out = append(out, formatValue(e))
	}
	return out
}
