package reports

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/records"
)

// supScores are a design's ρ on one set: its dev part, test part and the
// test part's touched and untouched pairs.
type supScores struct{ dev, test, touched, untouched float64 }

// supervisedRecs are a supervised spec's records on MEN and Rare: the
// tail-cut CA and SCA of it tuned on the dev pairs (two weights, chosen by
// dev), fastText and fastText retrofitted to the dev pairs (two
// thresholds), each fastText design over two seeds (the retrofitted ones
// with their plain twin's). MEN's untouched test part holds 5 pairs: too
// few to test.
func supervisedRecs() []records.Record { return supervisedRecsWith(nil) }

// supervisedRecsWith are supervisedRecs with each record's metrics changed
// by mod (when not nil) before their bootstraps are drawn.
func supervisedRecsWith(mod func(id string, m map[string]float64)) []records.Record {
	common := map[string]any{"eval.parts": true, "eval.touched": true, "eval.sets": []any{"men", "rare"}, "svd.rank": float64(300)}
	seeds := map[string]uint64{"ca": 1, "sca3": 2, "sca6": 3, "ft": 11, "ft1": 12, "rt0": 11, "rt0r": 12, "rt5": 11, "rt5r": 12}
	rec := func(id string, set map[string]any, scores map[string]supScores) records.Record {
		s := maps.Clone(common)
		maps.Copy(s, set)
		m := map[string]float64{}
		for name, sc := range scores {
			put := func(part string, v, pairs float64) {
				key := name
				if part != "" {
					key = records.SetPart(name, part)
				}
				m[records.Score(records.RuleZero, key).Key()] = v
				m[records.Pairs(key).Key()] = pairs
				m[records.Coverage(key).Key()] = 1
			}
			untouched := 800.0
			if name == "men" {
				untouched = 5
			}
			put("", (sc.dev+sc.test)/2, 3000)
			put(records.PartDev, sc.dev, 900)
			put(records.PartTest, sc.test, 1400+untouched)
			put(records.PartTestTouched, sc.touched, 1400)
			put(records.PartTestUntouched, sc.untouched, untouched)
		}
		if mod != nil {
			mod(id, m)
		}
		return records.Record{ID: id, Seed: seeds[id], Status: "ok", Settings: s, Metrics: m}
	}
	ca := map[string]any{"label": "tail-cut", "method": "kca", "kca.kernel": "tailcut", "kca.shift": float64(1), "data.table": "cut", "data.window": float64(24)}
	sca := func(w float64) map[string]any {
		return map[string]any{"label": "SCA tail-cut", "method": "sca", "sca.set": "dev", "sca.mode": "crossfit", "sca.form": "blend", "sca.weight": w,
			"data.table": "cut", "data.window": float64(24), "tune.axes": []any{"sca.weight"}, "tune.on": []any{"men", "rare"}, "tune.rule": "mean",
			"tuned_on": []any{"men@dev", "rare@dev"}}
	}
	ft := func(label string, replicate int, retro map[string]any) map[string]any {
		s := map[string]any{"label": label, "method": "fasttext", "train.window": float64(10)}
		if replicate > 0 {
			s["replicate"] = float64(replicate)
		}
		maps.Copy(s, retro)
		return s
	}
	retro := func(th float64) map[string]any {
		return map[string]any{"retrofit.lexicon": "dev", "retrofit.threshold": th, "tune.axes": []any{"retrofit.threshold"}, "tune.on": []any{"men", "rare"},
			"tune.rule": "mean", "tuned_on": []any{"men@dev", "rare@dev"}}
	}
	recs := harnessLike([]records.Record{
		rec("ca", ca, map[string]supScores{"men": {0.60, 0.60, 0.61, 0.50}, "rare": {0.30, 0.30, 0.32, 0.28}}),
		rec("sca3", sca(0.3), map[string]supScores{"men": {0.64, 0.70, 0.70, 0.50}, "rare": {0.33, 0.38, 0.42, 0.35}}),
		rec("sca6", sca(0.6), map[string]supScores{"men": {0.66, 0.72, 0.73, 0.50}, "rare": {0.35, 0.40, 0.45, 0.36}}),
		rec("ft", ft("fastText", 0, nil), map[string]supScores{"men": {0.62, 0.62, 0.62, 0.55}, "rare": {0.40, 0.40, 0.42, 0.38}}),
		rec("ft1", ft("fastText", 1, nil), map[string]supScores{"men": {0.61, 0.61, 0.61, 0.54}, "rare": {0.41, 0.41, 0.43, 0.39}}),
		rec("rt0", ft("fastText + retrofitting", 0, retro(0)), map[string]supScores{"men": {0.64, 0.65, 0.66, 0.55}, "rare": {0.40, 0.41, 0.44, 0.38}}),
		rec("rt0r", ft("fastText + retrofitting", 1, retro(0)), map[string]supScores{"men": {0.63, 0.64, 0.65, 0.54}, "rare": {0.41, 0.42, 0.45, 0.39}}),
		rec("rt5", ft("fastText + retrofitting", 0, retro(0.5)), map[string]supScores{"men": {0.62, 0.62, 0.64, 0.55}, "rare": {0.39, 0.40, 0.43, 0.38}}),
		rec("rt5r", ft("fastText + retrofitting", 1, retro(0.5)), map[string]supScores{"men": {0.62, 0.62, 0.63, 0.54}, "rare": {0.40, 0.41, 0.44, 0.39}}),
	}, 0.005)
	// Retrofitting moves only the words of dev pairs: a retrofitted trial
	// scores its untouched test pairs with its twin's very vectors, so on
	// the same resamples it has the same replicates.
	twin := map[string]string{"rt0": "ft", "rt0r": "ft1", "rt5": "ft", "rt5r": "ft1"}
	byID := map[string]records.Record{}
	for _, r := range recs {
		byID[r.ID] = r
	}
	for _, r := range recs {
		if base, ok := twin[r.ID]; ok {
			for k := range r.Bootstrap.Scores {
				if strings.HasSuffix(records.ParseMetric(k).Set, "@"+records.PartTestUntouched) {
					r.Bootstrap.Scores[k] = byID[base].Bootstrap.Scores[k]
				}
			}
		}
	}
	return recs
}

func supervisedReport(recs []records.Record) Report {
	return Report{Title: "What known pairs buy", Records: recs, Methods: testMethods, ECharts: CDNScript()}
}

func TestSupervisedSection(t *testing.T) {
	r := supervisedReport(supervisedRecs())
	p := newBuilder(r)
	cs := p.choices(r.Records)
	require.Len(t, cs, 2)
	assert.Equal(t, []string{"sca6"}, cs[0].ChosenIDs(), "SCA's weight chosen on dev")
	assert.Equal(t, []string{"rt0", "rt0r"}, cs[1].ChosenIDs(), "retrofitting's threshold chosen on dev, seeds averaged")

	designs := p.supDesigns(r.Records, cs)
	require.Len(t, designs, 4)
	kinds := map[string]string{}
	for _, d := range designs {
		kinds[d.name] = d.kind
	}
	assert.Equal(t, map[string]string{"SCA tail-cut": supSCA, "fastText + retrofitting": supRetrofit, "tail-cut": supPlain, "fastText": supPlain}, kinds)

	s := p.supervisedSection(r.Records, cs)
	require.NotNil(t, s)
	assert.Equal(t, supervisedSectionID, s.ID)
	head, ok := s.Blocks[0].(Headline)
	require.True(t, ok)
	require.Len(t, head, 5, "two gains, (b), the gains against each other, the goal")
	// SCA over its CA: test parts +0.12 (MEN) and +0.10 (Rare), pooled +0.11.
	assert.Contains(t, head[0], "(a) SCA tail-cut (sca.weight=0.6; dev 0.505) over tail-cut: pooled over the 2 test parts Δρ +0.110 [")
	assert.Contains(t, head[0], "significantly above; per set (Holm): above on MEN, Rare.")
	// Touched +0.125 pooled; untouched: MEN's 5 pairs are left out, Rare +0.08.
	assert.Contains(t, head[0], "On the test pairs a dev pair's words touch: +0.125 [")
	assert.Contains(t, head[0], "on those they do not: +0.080 [")
	// Retrofitting over fastText, seeds counted (two each): MEN +0.03,
	// Rare +0.01, pooled +0.02; its untouched pairs are as before.
	assert.Contains(t, head[1], "(a) fastText + retrofitting (retrofit.threshold=0; dev 0.520; 2 seeds) over fastText: pooled over the 2 test parts Δρ +0.020 [")
	// Paired by seed: the pairs retrofitting never moves differ by 0 for
	// every seed and resample, so their interval has no width.
	assert.Contains(t, head[1], "on those they do not: ±0.000 [±0.000, ±0.000]")
	assert.Contains(t, head[1], "It retrofits its base's very vectors (the same 2 seeds), so the difference is paired by seed.", "its twin: seeds 11 and 12 both")
	assert.NotContains(t, head[0], "very vectors")
	// (b) SCA (dev .505; test .72, .40) against retrofitted fastText (dev
	// .520; test .645, .415): +0.03 pooled.
	assert.Contains(t, head[2], "(b) the best supervised CA design by dev ρ, SCA tail-cut (sca.weight=0.6; dev 0.505), against the best supervised neural baseline by dev ρ, fastText + retrofitting (retrofit.threshold=0; dev 0.520; 2 seeds): pooled over the 2 test parts Δρ +0.030 [")
	assert.Contains(t, head[3], "SCA's gain over its CA (+0.110, pooled) against retrofitting's over fastText (+0.020): difference +0.090 [")
	assert.Contains(t, head[3], "SCA's is significantly larger")
	assert.Contains(t, head[4], "Is SCA's gain over its CA at least retrofitting's over its base? yes: significantly larger")
	assert.Contains(t, head[4], "Is supervised CA significantly above the supervised baseline pooled and on at least two test parts, below on none? no")

	tables := map[string]Table{}
	for _, b := range s.Blocks {
		if tab, ok := b.(Table); ok {
			tables[tab.ID] = tab
		}
	}
	gain := tables["supervised-gain"]
	require.Len(t, gain.Rows, 2)
	assert.Equal(t, "SCA tail-cut − tail-cut", gain.Rows[0][0])
	assert.True(t, strings.HasPrefix(gain.Rows[0][1], "+0.120 ["), gain.Rows[0][1])
	touched := tables["supervised-touched"]
	require.Len(t, touched.Rows, 4)
	assert.Equal(t, "SCA tail-cut − tail-cut: untouched", touched.Rows[1][0])
	assert.Equal(t, "—", touched.Rows[1][1], "MEN's 5 untouched pairs are not tested")
	sizes := tables["supervised-touched-sizes"]
	assert.Equal(t, [][]string{{"MEN", "1405", "1400", "5"}, {"Rare", "2200", "1400", "800"}}, sizes.Rows)
	require.Contains(t, tables, "supervised-best")

	// The page leads with it.
	page := string(render(t, r))
	assert.Less(t, strings.Index(page, `id="supervised"`), strings.Index(page, `id="tuning"`))
}

// Where the supervised baseline leaves test pairs uncovered, (b) is also
// compared on the pairs both cover: SCA on its vocabulary's pairs,
// retrofitted fastText on those it covers, so a win by coverage shows.
func TestSupervisedOnCommonPairs(t *testing.T) {
	men, rare := records.SetPart("men", records.PartTest), records.SetPart("rare", records.PartTest)
	recs := supervisedRecsWith(func(id string, m map[string]float64) {
		m[records.Score(records.RuleSkip, rare).Key()] = m[records.Score(records.RuleZero, rare).Key()]
		switch id {
		case "sca3", "sca6":
			m[records.Score(records.RuleSkip, men).Key()] = m[records.Score(records.RuleZero, men).Key()]
			m[records.Score(records.RuleVocab, men).Key()] = 0.60
			m[records.VocabPairs(men).Key()] = 703
		case "rt0", "rt0r", "rt5", "rt5r":
			m[records.Coverage(men).Key()] = 0.5 // 703 of 1405 pairs
			m[records.Score(records.RuleSkip, men).Key()] = 0.68
		}
	})
	r := supervisedReport(recs)
	p := newBuilder(r)
	cs := p.choices(r.Records)
	s := p.supervisedSection(r.Records, cs)
	require.NotNil(t, s)
	head := s.Blocks[0].(Headline)
	require.Len(t, head, 6, "two gains, (b) and (b) on common pairs, the gains against each other, the goal")
	// On MEN's 703 common pairs SCA (.60) is below retrofitted fastText
	// (.68, two seeds); on Rare both cover every pair (−0.015, as under the zero rule).
	assert.Contains(t, head[3], "The same on the pairs both cover (skip rule; a design with vectors for unseen words on its vocabulary's pairs): pooled Δρ −0.048 [")
	assert.Contains(t, head[3], "per set (Holm): below on MEN; ties on Rare.")
	var tab Table
	for _, b := range s.Blocks {
		if t, ok := b.(Table); ok && t.ID == "supervised-best-common" {
			tab = t
		}
	}
	require.Len(t, tab.Rows, 1)
	assert.Contains(t, tab.Rows[0][1], "below (703 pairs)")
	assert.Contains(t, tab.Rows[0][2], "tie (2200 pairs)")
	assert.Contains(t, p.verdicts[supervisedSectionID].String(), "on pairs both cover: below 1 · ties 1 (Holm), pooled: ")
}

// A supervised design with no plain design of the same settings is named,
// not compared; a page without supervised trials has no such section.
func TestSupervisedSectionOrphansAndAbsence(t *testing.T) {
	var recs []records.Record
	for _, rec := range supervisedRecs() {
		if rec.Settings["label"] != "tail-cut" {
			recs = append(recs, rec)
		}
	}
	p := newBuilder(supervisedReport(recs))
	s := p.supervisedSection(recs, p.choices(recs))
	require.NotNil(t, s)
	var text []string
	for _, b := range s.Blocks {
		if par, ok := b.(Paragraph); ok {
			text = append(text, string(par))
		}
	}
	assert.Contains(t, strings.Join(text, "\n"), "No plain design of the same settings is on this page for SCA tail-cut")

	var plain []records.Record
	for _, rec := range supervisedRecs() {
		if supervisionOf(rec.Settings) == supPlain {
			plain = append(plain, rec)
		}
	}
	assert.Nil(t, newBuilder(supervisedReport(plain)).supervisedSection(plain, nil))
}

// SCA's CA is the CA of the same table under any of its names; what keeps
// or names a trial does not matter, what makes its vectors does.
func TestBaseKey(t *testing.T) {
	sca := map[string]any{"method": "sca", "sca.set": "dev", "sca.mode": "crossfit", "label": "SCA", "data.table": "cut", "kca.cds": 0.75, "svd.shared_rank": float64(0)}
	for _, tc := range []struct {
		name  string
		other map[string]any
		same  bool
	}{
		{"kca tailcut", map[string]any{"method": "kca", "kca.kernel": "tailcut", "kca.shift": float64(1), "data.table": "cut", "kca.cds": 0.75, "label": "tail-cut", "svd.shared_rank": float64(8000)}, true},
		{"lca", map[string]any{"method": "lca", "data.table": "cut", "kca.cds": 0.75}, true},
		{"another cds", map[string]any{"method": "lca", "data.table": "cut", "kca.cds": 1.0}, false},
		{"sppmi", map[string]any{"method": "kca", "kca.kernel": "sppmi", "data.table": "cut", "kca.cds": 0.75}, false},
		{"retrofitted", map[string]any{"method": "lca", "data.table": "cut", "kca.cds": 0.75, "retrofit.lexicon": "dev"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.same, baseKey(sca) == baseKey(tc.other))
		})
	}
	assert.Equal(t, supSCA, supervisionOf(sca))
	assert.Equal(t, supOther, supervisionOf(map[string]any{"method": "sca", "sca.mode": "folds"}))
	assert.Equal(t, supRetrofit, supervisionOf(map[string]any{"method": "sgns", "retrofit.lexicon": "dev"}))
	assert.Equal(t, supPlain, supervisionOf(map[string]any{"method": "sgns", "retrofit.lexicon": "none"}))
}

// The section renders the same page every time (maps are walked in
// order) and as testdata/supervised.html; -update rewrites it.
func TestSupervisedGolden(t *testing.T) {
	r := supervisedReport(supervisedRecs())
	r.ECharts = stubScript(t)
	got := render(t, r)
	for range 5 {
		require.Equal(t, got, render(t, r), "deterministic")
	}
	path := filepath.Join("testdata", "supervised.html")
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "no golden file: run go test ./reports -run TestSupervisedGolden -update")
	if !bytes.Equal(want, got) {
		assert.Equal(t, string(want), string(got), fmt.Sprintf("%s differs; if intended, go test ./reports -run TestSupervisedGolden -update", path))
	}
}
