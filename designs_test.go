package main

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/records"
	"kcalab/schema"
)

// copiedDesigns names, for each spec that runs designs chosen by
// at-its-best-d rather than tuning its own, the variant labels it copies
// and the tuning group (label) each copies from. except lists the tuned
// axes a variant sets otherwise on purpose.
var copiedDesigns = map[string][]struct {
	label, from string
	except      []string
}{
	"corpus-size": {
		{label: "tail-cut", from: "tail-cut"},
		{label: "subword tail-cut", from: "subword tail-cut"},
		{label: "LCA", from: "LCA"},
		{label: "PPMI-SVD", from: "PPMI-SVD"},
		{label: "SGNS", from: "SGNS"},
		{label: "fastText", from: "fastText"},
		{label: "CBOW", from: "CBOW"},
	},
	"supervised": {
		{label: "tail-cut", from: "tail-cut"},
		{label: "subword tail-cut", from: "subword tail-cut"},
		{label: "LCA", from: "LCA"},
		{label: "PPMI-SVD", from: "PPMI-SVD"},
		{label: "SCA tail-cut", from: "tail-cut"},
		{label: "SCA subword tail-cut", from: "subword tail-cut"},
		{label: "SCA LCA", from: "LCA"},
		{label: "tail-cut + retrofitting", from: "tail-cut"},
		{label: "PPMI-SVD + retrofitting", from: "PPMI-SVD"},
		{label: "SGNS", from: "SGNS"},
		{label: "SGNS + retrofitting", from: "SGNS"},
		{label: "fastText", from: "fastText"},
		{label: "fastText + retrofitting", from: "fastText"},
		// The paper's SCA form reweights the rows only (no context
		// vectors to add), so its base is the tail-cut design without w + c.
		{label: "tail-cut w", from: "tail-cut", except: []string{"vectors.add_contexts"}},
		{label: "SCA-paper tail-cut", from: "tail-cut", except: []string{"vectors.add_contexts"}},
	},
}

// A design said to be at-its-best-d's choice (corpus-size: "not
// re-tuned"; supervised: SCA and retrofitting on the best designs) is that
// choice, axis by axis, as the committed records choose it: a choice that
// moves (a wider range, new trials) fails here until the copies follow it.
func TestDesignsCopiedFromChoices(t *testing.T) {
	_, recs := loadCommitted(t, "at-its-best-d")
	chosen := map[string][]records.Choice{}
	for _, c := range records.Choose(recs, schema.OwnSimilarity) {
		if c.Chosen >= 0 {
			chosen[c.Label] = append(chosen[c.Label], c)
		}
	}
	for name, copies := range copiedDesigns {
		spec, err := schema.LoadSpec(filepath.Join("experiments", name+".yaml"))
		require.NoError(t, err, name)
		byLabel := map[string][]schema.Trial{}
		for _, tr := range spec.Trials() {
			label, ok := tr.RecordSettings()[schema.KeyLabel].(string)
			if !ok || label == "" {
				label = schema.MethodLabel(tr.Method) // a variant without a label shows its method's
			}
			byLabel[label] = append(byLabel[label], tr)
		}
		for _, cp := range copies {
			trials := byLabel[cp.label]
			if !assert.NotEmpty(t, trials, "experiments/%s.yaml has no variant %q", name, cp.label) {
				continue
			}
			cs := chosen[cp.from]
			if !assert.NotEmpty(t, cs, "at-its-best-d chooses no %q design", cp.from) {
				continue
			}
			for _, tr := range trials {
				// A label with several tuning groups (a wider search beside
				// an older one) copies one of their choices.
				var diffs []string
				for _, c := range cs {
					d := designDiff(c, tr, cp.except)
					if len(d) == 0 {
						diffs = nil
						break
					}
					diffs = append(diffs, d...)
				}
				assert.Empty(t, diffs, "experiments/%s.yaml %s: not at-its-best-d's %s design", name, tr.Title, cp.from)
			}
		}
	}
}

// designDiff lists the tuned axes (but except and the halving resource's
// absence) on which trial tr's settings differ from c's chosen design.
func designDiff(c records.Choice, tr schema.Trial, except []string) []string {
	want := c.Candidates[c.Chosen].Values
	got := tr.RecordSettings()
	var diffs []string
	for _, axis := range c.Axes {
		if slices.Contains(except, axis) {
			continue
		}
		w, g := records.Normalize(want[axis]), records.Normalize(got[axis])
		if !reflect.DeepEqual(w, g) {
			diffs = append(diffs, fmt.Sprintf("%s = %s, chosen %s", axis, shown(g), shown(w)))
		}
	}
	return diffs
}

// shown prints a setting's value, nil as the default it stands for.
func shown(v any) string {
	if v == nil {
		return "its default"
	}
	return fmt.Sprint(v)
}
