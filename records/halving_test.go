package records_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// halvingGrid is a grid of a halving group in grid order: configurations
// a = 1…nCfg, resource e = levels, replicates 0…reps−1 (replicate
// fastest), none run yet.
func halvingGrid(nCfg int, levels []float64, reps, eta int) []records.Record {
	var out []records.Record
	for a := 1; a <= nCfg; a++ {
		for _, e := range levels {
			for r := range reps {
				s := map[string]any{"label": "fastText", "method": "fasttext", "a": float64(a), "e": e, "eval.similarity": "cosine",
					"tune.axes": []any{"a", "e"}, "tune.on": []any{"men"}, "tune.halving": "e",
					"tuned_on": []any{"men@dev"}}
				if eta != 0 {
					s["tune.eta"] = float64(eta)
				}
				if r > 0 {
					s["replicate"] = float64(r)
				}
				out = append(out, records.Record{ID: fmt.Sprintf("a%d-e%g-r%d", a, e, r), Settings: s})
			}
		}
	}
	return out
}

// runPlan plays the plan to its end: every trial it runs gets a result
// from score (NaN: the trial fails), round after round; it returns the
// rounds' trial ids and the final plans.
func runPlan(t *testing.T, recs []records.Record, score func(a, e float64, rep int) float64) ([][]string, []records.Plan) {
	t.Helper()
	own := func(records.Record) records.Similarity { return records.SimCosine }
	var rounds [][]string
	for range 20 {
		plans := records.PlanHalving(recs, own)
		var now []string
		for i, p := range plans {
			if p.Step != records.StepRun {
				continue
			}
			now = append(now, recs[i].ID)
			a, e := recs[i].Settings["a"].(float64), recs[i].Settings["e"].(float64)
			rep := 0
			if r, ok := recs[i].Settings["replicate"].(float64); ok {
				rep = int(r)
			}
			v := score(a, e, rep)
			if math.IsNaN(v) {
				recs[i].Status = records.StatusError
				continue
			}
			recs[i].Status = records.StatusOK
			recs[i].Metrics = map[string]float64{"spearman.zero.men@dev": v}
		}
		if len(now) == 0 {
			return rounds, plans
		}
		rounds = append(rounds, now)
	}
	t.Fatal("the plan did not end within 20 rounds")
	return nil, nil
}

func TestPlanHalving(t *testing.T) {
	levels := []float64{3, 9, 27}
	// Configuration a scores a/10 at e = 3; at 9, a = 5 beats a = 6; the
	// best design of all is a = 5 at e = 9 (it falls at 27).
	score := func(a, e float64, rep int) float64 {
		s := a / 10
		switch {
		case e == 9 && a == 5:
			s = 0.9
		case e == 9:
			s = a/10 + 0.1
		case e == 27:
			s = 0.8
		}
		return s + float64(rep)/1000
	}
	tests := []struct {
		name   string
		nCfg   int
		eta    int
		score  func(a, e float64, rep int) float64
		rounds [][]string
		chosen string // the chosen design's replicate-0 id
	}{
		{
			name: "six configurations, η = 3: 6 at e=3, 2 at 9, 1 at 27, then the chosen design's seeds",
			nCfg: 6, eta: 0, score: score,
			rounds: [][]string{
				{"a1-e3-r0", "a2-e3-r0", "a3-e3-r0", "a4-e3-r0", "a5-e3-r0", "a6-e3-r0"},
				{"a5-e9-r0", "a6-e9-r0"},
				{"a5-e27-r0"},
				{"a5-e9-r1", "a5-e9-r2"}, // the best design ran at 9, not at the largest value
			},
			chosen: "a5-e9-r0",
		},
		{
			name: "η = 2 keeps half; a failed trial ranks last and never goes on",
			nCfg: 4, eta: 2,
			score: func(a, e float64, rep int) float64 {
				if a == 4 && e == 3 {
					return math.NaN()
				}
				return a/10 + e/100 + float64(rep)/1000
			},
			rounds: [][]string{
				{"a1-e3-r0", "a2-e3-r0", "a3-e3-r0", "a4-e3-r0"},
				{"a2-e9-r0", "a3-e9-r0"},
				{"a3-e27-r0"},
				{"a3-e27-r1", "a3-e27-r2"},
			},
			chosen: "a3-e27-r0",
		},
		{
			name: "η = 1 keeps every configuration: the whole grid runs, then the chosen design's seeds",
			nCfg: 3, eta: 1,
			score: func(a, e float64, rep int) float64 { return a/10 + e/100 + float64(rep)/1000 },
			rounds: [][]string{
				{"a1-e3-r0", "a2-e3-r0", "a3-e3-r0"},
				{"a1-e9-r0", "a2-e9-r0", "a3-e9-r0"},
				{"a1-e27-r0", "a2-e27-r0", "a3-e27-r0"},
				{"a3-e27-r1", "a3-e27-r2"},
			},
			chosen: "a3-e27-r0",
		},
		{
			name: "ties go to the first in grid order",
			nCfg: 3, eta: 3,
			score: func(a, e float64, rep int) float64 { return 0.5 },
			rounds: [][]string{
				{"a1-e3-r0", "a2-e3-r0", "a3-e3-r0"},
				{"a1-e9-r0"},
				{"a1-e27-r0"},
				{"a1-e3-r1", "a1-e3-r2"},
			},
			chosen: "a1-e3-r0",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs := halvingGrid(tt.nCfg, levels, 3, tt.eta)
			rounds, plans := runPlan(t, recs, tt.score)
			assert.Equal(t, tt.rounds, rounds)
			// Every other trial is not promoted, and says why.
			ran := map[string]bool{}
			for _, r := range rounds {
				for _, id := range r {
					ran[id] = true
				}
			}
			for i, p := range plans {
				if ran[recs[i].ID] {
					assert.Equal(t, records.StepDone, p.Step, recs[i].ID)
					continue
				}
				assert.Equal(t, records.StepNotPromoted, p.Step, recs[i].ID)
				assert.Contains(t, p.Why, "successive halving", recs[i].ID)
			}
			// The choice over what ran is the plan's.
			var done []records.Record
			for _, rec := range recs {
				if rec.Status != "" {
					done = append(done, rec)
				}
			}
			cs := records.Choose(done, func(records.Record) records.Similarity { return records.SimCosine })
			require.Len(t, cs, 1)
			require.GreaterOrEqual(t, cs[0].Chosen, 0)
			assert.Equal(t, "e", cs[0].Halving)
			ids := cs[0].ChosenIDs()
			assert.Equal(t, tt.chosen, ids[0])
			assert.Len(t, ids, 3, "the chosen design holds its three seeds")
			// Scored on replicate 0 alone: the seeds do not move the choice.
			assert.InDelta(t, tt.score(cs[0].Candidates[cs[0].Chosen].Values["a"].(float64), cs[0].Candidates[cs[0].Chosen].Values["e"].(float64), 0),
				cs[0].Candidates[cs[0].Chosen].Score, 1e-12)
		})
	}
}

func TestPlanHalvingWaitsForItsRung(t *testing.T) {
	recs := halvingGrid(3, []float64{3, 9}, 2, 0)
	own := func(records.Record) records.Similarity { return records.SimCosine }
	// Two of rung 0 done, one still to run: nothing larger runs yet.
	for i := range recs {
		if recs[i].ID == "a1-e3-r0" || recs[i].ID == "a2-e3-r0" {
			recs[i].Status, recs[i].Metrics = records.StatusOK, map[string]float64{"spearman.zero.men@dev": 0.5}
		}
	}
	plans := records.PlanHalving(recs, own)
	var run, wait []string
	for i, p := range plans {
		switch p.Step {
		case records.StepRun:
			run = append(run, recs[i].ID)
		case records.StepWait:
			wait = append(wait, recs[i].ID)
		}
	}
	assert.Equal(t, []string{"a3-e3-r0"}, run)
	slices.Sort(wait)
	assert.Equal(t, []string{"a1-e3-r1", "a1-e9-r0", "a1-e9-r1", "a2-e3-r1", "a2-e9-r0", "a2-e9-r1", "a3-e3-r1", "a3-e9-r0", "a3-e9-r1"}, wait)
}

func TestPlanHalvingLeavesOtherTrials(t *testing.T) {
	recs := []records.Record{
		{ID: "plain", Settings: map[string]any{"label": "x"}},
		{ID: "done", Status: records.StatusOK, Settings: map[string]any{"label": "x"}},
		tuneRec("t", "tail-cut", 5, 0, "dot", nil),
	}
	recs[2].Status = ""
	plans := records.PlanHalving(recs, func(records.Record) records.Similarity { return records.SimDot })
	assert.Equal(t, []records.Step{records.StepRun, records.StepDone, records.StepRun}, []records.Step{plans[0].Step, plans[1].Step, plans[2].Step})
}

// RungAgreement compares each rung with every later one over the
// configurations scored at both, and finds the later rung's best in the
// earlier rung's order.
func TestRungAgreement(t *testing.T) {
	own := func(records.Record) records.Similarity { return records.SimCosine }
	choice := func(t *testing.T, nCfg, eta int, score func(a, e float64, rep int) float64) records.Choice {
		recs := halvingGrid(nCfg, []float64{3, 9, 27}, 1, eta)
		runPlan(t, recs, score)
		var done []records.Record
		for _, rec := range recs {
			if rec.Status != "" {
				done = append(done, rec)
			}
		}
		cs := records.Choose(done, own)
		require.Len(t, cs, 1)
		return cs[0]
	}
	nan := math.NaN()
	tests := []struct {
		name  string
		nCfg  int
		eta   int
		score func(a, e float64, rep int) float64
		want  []records.RungPair
	}{
		{
			// At 3 the order is a1 < a2 < a3 < a4, at 9 reversed, at 27
			// a2 first (.9) and the rest as at 3: ρ(3, 27) = 1 − 6·6/(4·15).
			name: "η = 1: every rung over the whole grid",
			nCfg: 4, eta: 1,
			score: func(a, e float64, rep int) float64 {
				switch {
				case e == 9:
					return 1 - a/10
				case e == 27 && a == 2:
					return 0.9
				}
				return a / 10
			},
			want: []records.RungPair{
				{From: 3, To: 9, Both: 4, Spearman: -1, BestRank: 4, Ranked: 4},
				{From: 3, To: 27, Both: 4, Spearman: 0.4, BestRank: 3, Ranked: 4},
				{From: 9, To: 27, Both: 4, Spearman: -0.4, BestRank: 2, Ranked: 4},
			},
		},
		{
			name: "η = 3: the promoted few, too few for a correlation",
			nCfg: 6, eta: 3,
			score: func(a, e float64, rep int) float64 { return a/10 + e/100 },
			want: []records.RungPair{
				{From: 3, To: 9, Both: 2, Spearman: nan, BestRank: 1, Ranked: 6},
				{From: 3, To: 27, Both: 1, Spearman: nan, BestRank: 1, Ranked: 6},
				{From: 9, To: 27, Both: 1, Spearman: nan, BestRank: 1, Ranked: 2},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := records.RungAgreement(choice(t, tt.nCfg, tt.eta, tt.score))
			require.Len(t, got, len(tt.want))
			for i, w := range tt.want {
				g := got[i]
				assert.Equal(t, [5]float64{w.From, w.To, float64(w.Both), float64(w.BestRank), float64(w.Ranked)},
					[5]float64{g.From, g.To, float64(g.Both), float64(g.BestRank), float64(g.Ranked)}, "pair %d", i)
				if math.IsNaN(w.Spearman) {
					assert.True(t, math.IsNaN(g.Spearman), "pair %d: ρ %v, want none", i, g.Spearman)
				} else {
					assert.InDelta(t, w.Spearman, g.Spearman, 1e-12, "pair %d", i)
				}
			}
		})
	}
	t.Run("no halving, no rungs", func(t *testing.T) {
		assert.Empty(t, records.RungAgreement(records.Choice{Candidates: []records.Candidate{{Values: map[string]any{"e": 3.0}, Score: 0.5}}}))
	})
}
