package reports

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sizeRecs are two designs at three corpus fractions: tail-cut (one trial
// each) far below fastText (three seeds) on the smallest corpus, level
// with it on the full one; and a weaker baseline (SGNS), which the
// baselines' best by dev (fastText) stands in front of. tail-cut has a
// vector for every pair, the baselines for 80 of 100 (its vocabulary's),
// and on those 80 the two score alike at every size.
func sizeRecs() []records.Record {
	var recs []records.Record
	rec := func(id, label, method string, frac float64, rep int, test, dev float64) records.Record {
		s := map[string]any{"label": label, "method": method, "data.fraction": frac, "svd.rank": float64(300), "eval.parts": true}
		if rep > 0 {
			s["replicate"] = float64(rep)
		}
		m := map[string]float64{"tokens": 2139749 * frac}
		for _, set := range []string{"men", "rare"} {
			m["spearman.zero."+set+"@test"] = test
			m["spearman.zero."+set+"@dev"] = dev
			m["spearman.zero."+set] = (test + dev) / 2
			test := set + "@test"
			m[records.Pairs(test).Key()] = 100
			if method == "kca" {
				m[records.Coverage(test).Key()] = 1
				m[records.VocabPairs(test).Key()] = 80
				m[records.Score(records.RuleVocab, test).Key()] = 0.55
			} else {
				m[records.Coverage(test).Key()] = 0.8
				m[records.Score(records.RuleSkip, test).Key()] = 0.55
			}
		}
		return records.Record{ID: id, Status: "ok", Settings: s, Metrics: m}
	}
	for _, f := range []float64{0.25, 0.5, 1} {
		recs = append(recs, rec(fmt.Sprintf("t%g", f), "tail-cut", "kca", f, 0, 0.30+0.20*f, 0.5))
		for r := range 3 {
			recs = append(recs, rec(fmt.Sprintf("f%g-%d", f, r), "fastText", "fasttext", f, r, 0.50+0.002*float64(r), 0.45))
		}
		recs = append(recs, rec(fmt.Sprintf("s%g", f), "SGNS", "sgns", f, 0, 0.2, 0.30))
	}
	return harnessLike(recs, 0.005)
}

func TestCorpusSizeSubsection(t *testing.T) {
	recs := sizeRecs()
	p := newBuilder(Report{Title: "size", Records: recs, Methods: testMethods})
	s, v := p.corpusSizeSubsection(recs)
	require.NotNil(t, s)
	assert.Equal(t, "tail-cut − fastText: below at 0.53, 1.07 M tokens, tie at 2.14 M tokens; on the pairs both cover: tie at 0.53, 1.07, 2.14 M tokens — pooled Δρ over the test parts at each corpus size, zero rule unless said, each at its own similarity",
		v.String(), "the page's answer: the pooled verdict at each size")
	head, ok := s.Blocks[0].(Headline)
	require.True(t, ok)
	assert.True(t, strings.HasPrefix(head[0], "The best CA design by dev ρ, tail-cut, against the best neural baseline by dev ρ, fastText, pooled over the test parts: below at 0.53 M tokens (Δρ −0.152), below at 1.07 M tokens (Δρ −0.102), tie at 2.14 M tokens (Δρ −0.002)"), head[0])
	assert.Contains(t, head[0], "the CA design gains on the baseline as the corpus grows")
	require.Len(t, head, 2)
	assert.Equal(t, "On the pairs both cover (skip rule; a win under the zero rule that vanishes here is coverage): tie at 0.53, 1.07, 2.14 M tokens.", head[1],
		"tail-cut's lead at every size is its coverage")
	tab := s.Blocks[2].(Table)
	require.Len(t, tab.Rows, 3)
	assert.Equal(t, []string{"0.25", "534,937", "0.350", "0.502"}, tab.Rows[0][:4], "fastText is the mean of its seeds")
	assert.Equal(t, "below", tab.Rows[0][5])
	assert.Equal(t, "tie", tab.Rows[2][5])
	assert.Equal(t, []string{"tie", "above 0 · below 0 · ties 2"}, tab.Rows[0][8:], "on the pairs both cover")
	assert.True(t, strings.HasPrefix(tab.Rows[0][7], "−0.000 [") || strings.HasPrefix(tab.Rows[0][7], "+0.000 [") || strings.HasPrefix(tab.Rows[0][7], "±0.000 ["), tab.Rows[0][7])
	charts := s.Blocks[3].(Row)
	rho := charts[0].(LineChart)
	require.Len(t, rho.Series, 3, "every design's pooled test ρ")
	assert.True(t, rho.LogX)
	delta := charts[1].(LineChart)
	require.Len(t, delta.Series, 2, "Δρ on the whole parts and on the pairs both cover")
	assert.Equal(t, "Δρ = 0", delta.Zero, "the no-difference line")
	require.Len(t, delta.Series[0].Points, 3)
	assert.Greater(t, delta.Series[0].Points[0].Err, 0.0, "each Δρ with its interval")

	// One fraction only: no such section.
	var one []records.Record
	for _, r := range recs {
		if r.Settings["data.fraction"] == 1.0 {
			one = append(one, r)
		}
	}
	s, v = p.corpusSizeSubsection(one)
	assert.Nil(t, s)
	assert.True(t, v.Empty())

	// The sweeps section, which holds it, answers with it.
	p = newBuilder(Report{Title: "size", Records: recs, Methods: testMethods})
	require.NotNil(t, p.sweepSection(recs))
	assert.Equal(t, "tail-cut − fastText: below at 0.53, 1.07 M tokens, tie at 2.14 M tokens", p.verdicts["sweeps"].Claims[0].String())

	// Where both cover every pair, the pairs both cover are the whole parts:
	// no such columns, line or claim.
	var full []records.Record
	for _, r := range recs {
		r.Metrics = maps.Clone(r.Metrics)
		for _, set := range []string{"men@test", "rare@test"} {
			r.Metrics[records.Coverage(set).Key()] = 1
			delete(r.Metrics, records.VocabPairs(set).Key())
		}
		full = append(full, r)
	}
	s, v = newBuilder(Report{Title: "size", Records: full, Methods: testMethods}).corpusSizeSubsection(full)
	require.NotNil(t, s)
	assert.Len(t, v.Claims, 1)
	assert.Len(t, s.Blocks[0].(Headline), 1)
	assert.Len(t, s.Blocks[2].(Table).Header, 7)
	assert.Len(t, s.Blocks[2].(Table).Rows[0], 7)
}
