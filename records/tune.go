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
	// KeyTuneHalving names the resource axis of a successive halving
	// (PlanHalving) and KeyTuneEta its reduction factor.
	KeyTuneHalving = "tune.halving"
	KeyTuneEta     = "tune.eta"
	keyTunedOn     = "tuned_on"
	keySim         = "eval.similarity"
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
	// Halving is the resource axis when the group was searched by
	// successive halving (PlanHalving): its candidates are the designs
	// that ran, each scored on replicate 0.
	Halving string
	// Eta is the halving's η (DefaultEta when tune.eta is not set); 1
	// means every configuration ran at every rung: a check of the halving.
	Eta int
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
// method's own similarity), replicates averaged first (in a group searched
// by successive halving, tune.halving, replicate 0 alone: the seed every
// candidate ran); the first candidate in record order wins a tie. Groups
// and candidates are in record order.
func Choose(recs []Record, own func(Record) Similarity) []Choice {
	groups := groupTuned(recs, own)
	out := make([]Choice, len(groups))
	for gi := range groups {
		out[gi] = groups[gi].choice(recs)
	}
	sharedSettings(out, recs)
	return out
}

// tuneGroup is a tuning group as the records lay it out: its choice's
// description and, per candidate, the indices into the records of its
// trials (replicate 0 first when the grid is in order).
type tuneGroup struct {
	Choice
	members [][]int // per candidate
}

// groupTuned groups the tuned records as Choose describes.
func groupTuned(recs []Record, own func(Record) Similarity) []tuneGroup {
	var out []tuneGroup
	groupAt := map[string]int{}
	candAt := map[string]int{} // group key + candidate key -> index
	for ri, rec := range recs {
		axes := StringList(rec.Settings[KeyTuneAxes])
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
			keys := StringList(rec.Settings[KeyTuneOn])
			rule, _ := rec.Settings[KeyTuneRule].(string)
			if rule == "" {
				rule = RuleMean
			}
			label, _ := rec.Settings[KeyLabel].(string)
			method, _ := rec.Settings[KeyMethod].(string)
			halving, _ := rec.Settings[KeyTuneHalving].(string)
			eta := DefaultEta
			if e, ok := number(rec.Settings[KeyTuneEta]); ok && e >= 1 {
				eta = int(e)
			}
			gi = len(out)
			groupAt[gk] = gi
			out = append(out, tuneGroup{
				Choice: Choice{Label: label, Method: method, Axes: axes, On: keys, Rule: rule, Similarity: own(rec), Chosen: -1, Halving: halving, Eta: eta},
			})
		}
		ck := gk + "\x00" + jsonKey(vals)
		ci, ok := candAt[ck]
		if !ok {
			ci = len(out[gi].Candidates)
			candAt[ck] = ci
			out[gi].Candidates = append(out[gi].Candidates, Candidate{Values: vals})
			out[gi].members = append(out[gi].members, nil)
		}
		out[gi].members[ci] = append(out[gi].members[ci], ri)
	}
	return out
}

// choice scores every candidate of g from recs (its members' records) and
// picks the best; a member without a result (Status "", a trial still to
// run) is left out, so a candidate with none has no score.
func (g tuneGroup) choice(recs []Record) Choice {
	c := g.Choice
	c.Candidates = make([]Candidate, len(g.Candidates))
	best := math.Inf(-1)
	for ci, cand := range g.Candidates {
		cand.IDs, cand.Why = nil, ""
		var scoring []Record
		for _, ri := range g.members[ci] {
			rec := recs[ri]
			if rec.Status == "" || rec.Status == StatusNotPromoted {
				continue
			}
			cand.IDs = append(cand.IDs, rec.ID)
			if g.Halving != "" && replicateOf(rec) != 0 {
				continue
			}
			scoring = append(scoring, rec)
			if rec.Status != StatusOK && cand.Why == "" {
				cand.Why = fmt.Sprintf("trial %s did not finish (%s)", rec.ID, rec.Status)
			}
		}
		if len(scoring) == 0 && cand.Why == "" {
			cand.Why = "not run"
		}
		cand.Dev, cand.Score = map[string]float64{}, math.NaN()
		if cand.Why == "" {
			cand.Score, cand.Why = devScore(scoring, c.On, c.Similarity, cand.Dev)
		}
		if cand.Why == "" && cand.Score > best {
			best, c.Chosen = cand.Score, ci
		}
		c.Candidates[ci] = cand
	}
	return c
}

// devScore is the rule's score of a candidate from the records it is
// scored on: the mean over the sets of on of their mean dev ρ (zero rule,
// at sim), each set's mean stored in dev; why says why there is none.
func devScore(scoring []Record, on []string, sim Similarity, dev map[string]float64) (score float64, why string) {
	if len(on) == 0 {
		return math.NaN(), "no set to choose on"
	}
	sum := 0.0
	for _, set := range on {
		total, n := 0.0, 0
		for _, rec := range scoring {
			ownSim, _ := rec.Settings[keySim].(string)
			key := Score(RuleZero, SetPart(set, PartDev)).At(sim, Similarity(ownSim)).Key()
			if v, ok := rec.Metrics[key]; ok && !math.IsNaN(v) {
				total += v
				n++
			}
		}
		if n < len(scoring) {
			return math.NaN(), fmt.Sprintf("no %s score on %s's dev part", sim, set)
		}
		dev[set] = total / float64(n)
		sum += dev[set]
	}
	return sum / float64(len(on)), ""
}

// replicateOf is a record's replicate number (0 when the setting is absent).
func replicateOf(rec Record) int {
	r, _ := number(rec.Settings[KeyReplicate])
	return int(r)
}

// number reads a numeric setting as decoded from a spec or a results file.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
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

// StringList reads a list-of-strings setting as decoded from a spec
// ([]string) or from a results file ([]any).
func StringList(v any) []string {
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
