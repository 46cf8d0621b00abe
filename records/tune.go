package records

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// Tuning keys of a record's settings (package schema declares them): a
// trial with tune.axes is a candidate of a tuning group.
const (
	KeyTuneAxes = "tune.axes"
	KeyTuneOn   = "tune.on"
	KeyTuneRule = "tune.rule"
	keyTunedOn  = "tuned_on"
	keySim      = "eval.similarity"
)

// RuleMean scores a candidate by its mean ρ over the dev parts.
const RuleMean = "mean"

// Candidate is one design of a tuning group: the trials (its replicates)
// that share the tuned axes' values.
type Candidate struct {
	IDs    []string       // its trials, replicate 0 first
	Values map[string]any // the tuned axes' values (nil: the record left it out at its default)
	// Dev is its ρ on the dev part of each set of the group's On (zero
	// rule, at the group's similarity), the mean over its replicates;
	// a set it has no score for is absent.
	Dev map[string]float64
	// Score is the rule's score (NaN when a dev score is missing or a
	// replicate did not finish: such a candidate cannot be chosen).
	Score float64
	Why   string // why Score is NaN
}

// Choice is a tuning group and the design its rule chose, computed from
// the records alone (Choose), so the run that prints it and every page
// that shows it agree.
type Choice struct {
	Label      string     // the group's label (its trials')
	Method     string     // its method
	Shared     string     // the settings its trials share and the other groups' differ in, "key=value …" ("" when one group)
	Axes       []string   // the tuned axes
	On         []string   // the sets whose dev parts choose
	Rule       string     // the rule (RuleMean)
	Similarity Similarity // the similarity the scores are read at (the method's own)
	Candidates []Candidate
	Chosen     int // index into Candidates; -1 when no candidate can be chosen
}

// ChosenIDs are the trials of the chosen design (its replicates).
func (c Choice) ChosenIDs() []string {
	if c.Chosen < 0 {
		return nil
	}
	return c.Candidates[c.Chosen].IDs
}

// Why says why no candidate could be chosen (the first candidate's
// reason); "" when one was.
func (c Choice) Why() string {
	if c.Chosen >= 0 {
		return ""
	}
	for _, cand := range c.Candidates {
		if cand.Why != "" {
			return cand.Why
		}
	}
	return "no candidate"
}

// Choose groups the records of tuned trials (settings tune.axes) into
// tuning groups, equal in every setting but the tuned axes, the replicate
// and tuned_on, and picks each group's design by its rule: the highest mean
// of the dev-part ρ over the sets of tune.on (zero rule, at own(rec), the
// method's own similarity), replicates averaged first; the first candidate
// in record order wins a tie. Groups and candidates are in record order.
func Choose(recs []Record, own func(Record) Similarity) []Choice {
	var out []Choice
	groupAt := map[string]int{}
	candAt := map[string]int{} // group key + candidate key -> index
	for _, rec := range recs {
		axes := stringList(rec.Settings[KeyTuneAxes])
		if len(axes) == 0 {
			continue
		}
		rest := map[string]any{}
		vals := map[string]any{}
		tuned := map[string]bool{}
		for _, a := range axes {
			tuned[a] = true
			// nil when the record left the setting out at its default
			// (schema.WithDefaults fills it for a reader).
			vals[a] = rec.Settings[a]
		}
		for k, v := range rec.Settings {
			switch {
			case tuned[k]:
				vals[k] = v
			case k == KeyReplicate || k == keyTunedOn:
			default:
				rest[k] = v
			}
		}
		gk := jsonKey(rest)
		gi, ok := groupAt[gk]
		if !ok {
			// Set keys: package schema resolves tune.on (else eval.sets)
			// to them.
			keys := stringList(rec.Settings[KeyTuneOn])
			rule, _ := rec.Settings[KeyTuneRule].(string)
			if rule == "" {
				rule = RuleMean
			}
			label, _ := rec.Settings[KeyLabel].(string)
			method, _ := rec.Settings[KeyMethod].(string)
			gi = len(out)
			groupAt[gk] = gi
			out = append(out, Choice{Label: label, Method: method, Axes: axes, On: keys, Rule: rule, Similarity: own(rec), Chosen: -1})
		}
		ck := gk + "\x00" + jsonKey(vals)
		ci, ok := candAt[ck]
		if !ok {
			ci = len(out[gi].Candidates)
			candAt[ck] = ci
			out[gi].Candidates = append(out[gi].Candidates, Candidate{Values: vals})
		}
		c := &out[gi].Candidates[ci]
		c.IDs = append(c.IDs, rec.ID)
		if rec.Status != "ok" && c.Why == "" {
			c.Why = fmt.Sprintf("trial %s did not finish (%s)", rec.ID, rec.Status)
		}
	}
	byID := map[string]Record{}
	for _, rec := range recs {
		byID[rec.ID] = rec
	}
	for gi := range out {
		g := &out[gi]
		best := math.Inf(-1)
		for ci := range g.Candidates {
			c := &g.Candidates[ci]
			c.Dev = map[string]float64{}
			c.Score = math.NaN()
			if c.Why != "" {
				continue
			}
			sum := 0.0
			for _, set := range g.On {
				total, n := 0.0, 0
				for _, id := range c.IDs {
					rec := byID[id]
					ownSim, _ := rec.Settings[keySim].(string)
					key := Score(RuleZero, SetPart(set, PartDev)).At(g.Similarity, Similarity(ownSim)).Key()
					if v, ok := rec.Metrics[key]; ok && !math.IsNaN(v) {
						total += v
						n++
					}
				}
				if n < len(c.IDs) {
					c.Why = fmt.Sprintf("no %s score on %s's dev part", g.Similarity, set)
					break
				}
				c.Dev[set] = total / float64(n)
				sum += c.Dev[set]
			}
			if c.Why != "" || len(g.On) == 0 {
				if c.Why == "" {
					c.Why = "no set to choose on"
				}
				continue
			}
			c.Score = sum / float64(len(g.On))
			if c.Score > best {
				best, g.Chosen = c.Score, ci
			}
		}
	}
	sharedSettings(out, recs)
	return out
}

// sharedSettings names what tells groups of one label apart (another
// window, another kernel), from their first trials' settings.
func sharedSettings(cs []Choice, recs []Record) {
	byID := map[string]Record{}
	for _, rec := range recs {
		byID[rec.ID] = rec
	}
	byLabel := map[string][]int{}
	for i, c := range cs {
		byLabel[c.Label+"\x00"+c.Method] = append(byLabel[c.Label+"\x00"+c.Method], i)
	}
	for _, idx := range byLabel {
		if len(idx) < 2 {
			continue
		}
		first := func(i int) map[string]any { return byID[cs[i].Candidates[0].IDs[0]].Settings }
		differs := map[string]bool{}
		for _, i := range idx[1:] {
			for k, v := range first(i) {
				if jsonKey(v) != jsonKey(first(idx[0])[k]) {
					differs[k] = true
				}
			}
		}
		for _, i := range idx {
			var parts []string
			for _, k := range slices.Sorted(maps.Keys(differs)) {
				if slices.Contains(cs[i].Axes, k) || k == KeyReplicate || k == keyTunedOn {
					continue
				}
				parts = append(parts, fmt.Sprintf("%s=%s", k, jsonKey(first(i)[k])))
			}
			cs[i].Shared = strings.Join(parts, " ")
		}
	}
}

// jsonKey is a value's JSON after a round trip: equal settings, equal keys
// (maps marshal with sorted keys).
func jsonKey(v any) string {
	b, _ := json.Marshal(Normalize(v))
	return string(b)
}

// stringList reads a list-of-strings setting as decoded from a spec
// ([]string) or from a results file ([]any).
func stringList(v any) []string {
	switch x := v.(type) {
	case []string:
		return x
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
