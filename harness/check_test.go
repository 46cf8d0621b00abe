package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func scoreRec(id, label string, men float64) Record {
	return Record{ID: id, Status: "ok", Settings: map[string]any{"label": label, "method": "ca"},
		Metrics: map[string]float64{"spearman.zero.men": men, "coverage.men": 1, "wall_s": 3}}
}

func TestCheckScores(t *testing.T) {
	got := []Record{scoreRec("a", "tail-cut", 0.45), scoreRec("b", "flat", 0.40)}
	for _, tc := range []struct {
		name string
		ref  []Record
		want []string
	}{
		{"equal", []Record{scoreRec("a", "tail-cut", 0.45), scoreRec("b", "flat", 0.40)}, nil},
		{"reference lowered: passes", []Record{scoreRec("a", "tail-cut", 0.30)}, nil},
		{"within tolerance", []Record{scoreRec("a", "tail-cut", 0.455)}, nil},
		{"reference raised: fails", []Record{scoreRec("a", "tail-cut", 0.47)},
			[]string{"tail-cut (trial a): men (zero rule) fell to 0.4500 from the reference 0.4700 (by 0.0200, tolerance 0.01)"}},
		{"missing trial", []Record{scoreRec("c", "skip", 0.4)},
			[]string{"skip (trial c): in the reference results but not in this run (did the spec change?)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, CheckScores(tc.ref, got, 0.01))
		})
	}
	failed := scoreRec("a", "tail-cut", 0)
	failed.Status, failed.Error = "error", "boom"
	assert.Equal(t, []string{"tail-cut (trial a): status error: boom"},
		CheckScores([]Record{scoreRec("a", "tail-cut", 0.45)}, []Record{failed}, 0.01))
}

func TestCompareRuns(t *testing.T) {
	a := []Record{scoreRec("a", "tail-cut", 0.45)}
	b := []Record{scoreRec("a", "tail-cut", 0.45)}
	b[0].Metrics["wall_s"] = 4 // measurements may differ
	assert.Empty(t, CompareRuns(a, b))
	c := []Record{scoreRec("a", "tail-cut", 0.45000000001)}
	fails := CompareRuns(a, c)
	assert.Len(t, fails, 1)
	assert.Contains(t, fails[0], "men (zero rule) is 0.45 in the first run and 0.45000000001 in the rerun")
	assert.Len(t, CompareRuns(a, nil), 2)
}
