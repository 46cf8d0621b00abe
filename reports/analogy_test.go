package reports

import (
	"math/rand/v2"
	"strings"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// analogyRecords are three word trials with analogy and Pearson metrics.
func analogyRecords() []records.Record {
	recs := methodRecords()[:3] // CBOW, SGNS, GloVe
	for i := range recs {
		m := map[string]float64{}
		for k, v := range recs[i].Metrics {
			m[k] = v
		}
		f := float64(i)
		m[records.Analogy("google", false, "").Key()] = 0.30 + 0.01*f
		m[records.Analogy("google", true, "").Key()] = 0.32 + 0.01*f
		m[records.AnalogyCoverage("google", "").Key()] = 0.9
		for j, sec := range []string{"family", "capital-world"} {
			m[records.Analogy("google", false, sec).Key()] = 0.5 + 0.1*f - 0.2*float64(j)
			m[records.Analogy("google", true, sec).Key()] = 0.55 + 0.1*f - 0.2*float64(j)
			m[records.AnalogyCoverage("google", sec).Key()] = 0.8 + 0.05*f
		}
		m[records.Pearson(records.RuleZero, "men").Key()] = 0.4 + 0.01*f
		m[records.Pearson(records.RuleSkip, "men").Key()] = 0.5 + 0.01*f
		recs[i].Metrics = m
	}
	return recs
}

func TestAnalogySection(t *testing.T) {
	page := string(render(t, wordReport("analogies", analogyRecords(), CDNScript())))
	rows, order, _ := tableRows(t, page, "analogy-total")
	require.Equal(t, []string{"CBOW", "SGNS", "GloVe"}, order)
	assert.Equal(t, [][2]string{{"0.300", ""}, {"0.320", ""}}, rows["CBOW"])
	// Accuracies have no bootstrap replicates: the two highest are shown
	// as such, never as a win.
	assert.Equal(t, [][2]string{{"0.310", "untested"}, {"0.330", "untested"}}, rows["SGNS"])
	assert.Equal(t, [][2]string{{"0.320", "untested"}, {"0.340", "untested"}}, rows["GloVe"])
	analogies := page[strings.Index(page, `id="analogy-total"`):]
	analogies = analogies[:strings.Index(analogies, "</section>")]
	assert.NotContains(t, analogies, `class="num best"`, "no accuracy is tested")
	assert.Contains(t, page, "90.0%", "one coverage for all trials: in the footer")
	sec := tb().analogySection(analogyRecords())
	require.IsType(t, Headline{}, sec.Blocks[0], "the section opens with its answer")
	assert.Equal(t, "At d = 300, google, accuracy over the covered questions: "+
		"by 3CosAdd GloVe is highest (0.320; then SGNS 0.310, CBOW 0.300), but no row has bootstrap replicates (older records), so no difference is tested; "+
		"by 3CosMul GloVe is highest (0.340; then SGNS 0.330, CBOW 0.320), but no row has bootstrap replicates (older records), so no difference is tested; "+
		"every row covers 90.0% of the questions.", sec.Blocks[0].(Headline)[0])
	assert.Contains(t, page, "These records hold no bootstrap replicates of the accuracies")

	rows, _, _ = tableRows(t, page, "analogy-google-3CosMul")
	// Sections alphabetically: capital-world, family; coverage differs per
	// trial, so each cell notes it.
	assert.Equal(t, [2]string{"0.550", ""}, rows["CBOW"][1])
	assert.Contains(t, page, "varies: see cells")

	rows, _, _ = tableRows(t, page, "pearson-skip")
	assert.Equal(t, "0.520", rows["GloVe"][2][0], "men: the third column (sim, rel, men, …)")

	// The trials table carries none of these keys.
	trials := page[strings.Index(page, `id="trials-table"`):]
	trials = trials[:strings.Index(trials, "</table>")]
	for _, k := range []string{"analogy", "pearson", "coverage.analogy", "questions.analogy", "correct.analogy"} {
		assert.NotContains(t, trials, k)
	}
}

// analogyTestedRecords are analogyRecords with what a trial now records:
// the counts and bootstrap replicates of the whole set's accuracies, all
// on one draw of shared resamples (a common deviation per resample, a
// small one of each row's own), and a fourth row from an older record,
// highest by 3CosAdd, without either.
func analogyTestedRecords() []records.Record {
	recs := append(analogyRecords(), methodRecords()[3]) // CBOW, SGNS, GloVe; fastText
	const b = 200
	rng := rand.New(rand.NewPCG(3, 1))
	common := make([]float64, b)
	for i := range common {
		common[i] = 0.015 * rng.NormFloat64()
	}
	type acc struct{ add, mul float64 }
	accs := []acc{{0.300, 0.320}, {0.395, 0.330}, {0.400, 0.360}, {0.410, 0.350}}
	for i := range recs {
		m := map[string]float64{}
		for k, v := range recs[i].Metrics {
			m[k] = v
		}
		m[records.Analogy("google", false, "").Key()] = accs[i].add
		m[records.Analogy("google", true, "").Key()] = accs[i].mul
		m[records.AnalogyCoverage("google", "").Key()] = 0.5
		recs[i].Metrics = m
		if i == 3 {
			continue // older: no counts, no replicates
		}
		m[records.AnalogyCounts("google", records.CountQuestions, false).Key()] = 2000
		m[records.AnalogyCounts("google", records.CountCovered, false).Key()] = 1000
		m[records.AnalogyCounts("google", records.CountCorrect, false).Key()] = 1000 * accs[i].add
		m[records.AnalogyCounts("google", records.CountCorrect, true).Key()] = 1000 * accs[i].mul
		bs := &records.Bootstrap{B: b, Scores: map[string]string{}}
		if recs[i].Bootstrap != nil {
			for k, v := range recs[i].Bootstrap.Scores {
				bs.Scores[k] = v
			}
		}
		for _, mul := range []bool{false, true} {
			v := map[bool]float64{false: accs[i].add, true: accs[i].mul}[mul]
			reps := make([]float64, b)
			for j := range reps {
				reps[j] = v + common[j] + 0.004*rng.NormFloat64()
			}
			bs.Scores[records.Analogy("google", mul, "").Key()] = records.EncodeReplicates(reps, v)
		}
		recs[i].Bootstrap = bs
	}
	return recs
}

// With replicates the whole set's accuracies carry their interval and
// counts and are ranked by the paired bootstrap: GloVe and SGNS tie at the
// top (best both), CBOW is second; the older fastText record, though
// highest, is only "not tested". The headline says which is best by each
// rule, whether significantly, and the coverage.
func TestAnalogyTested(t *testing.T) {
	recs := analogyTestedRecords()
	page := string(render(t, wordReport("analogies", recs, CDNScript())))
	rows, order, _ := tableRows(t, page, "analogy-total")
	require.Equal(t, []string{"CBOW", "SGNS", "GloVe", "fastText"}, order)
	assert.Equal(t, [][2]string{{"0.300", "second"}, {"0.320", "second"}}, rows["CBOW"])
	assert.Equal(t, [][2]string{{"0.395", "best"}, {"0.330", "second"}}, rows["SGNS"])
	assert.Equal(t, [][2]string{{"0.400", "best"}, {"0.360", "best"}}, rows["GloVe"])
	assert.Equal(t, [][2]string{{"0.410", "untested"}, {"0.350", "untested"}}, rows["fastText"], "an older record: shown, never a win")
	total := page[strings.Index(page, `id="analogy-total"`):]
	total = total[:strings.Index(total, "</table>")]
	assert.Contains(t, total, "400 / 1,000 (of 2,000)", "GloVe's 3CosAdd: right / covered (of the questions)")
	assert.Contains(t, total, "360 / 1,000 (of 2,000)", "GloVe's 3CosMul")
	assert.Contains(t, total, `<td class="num best">0.400 <small class="ci">±0.030</small> <small>400 / 1,000 (of 2,000)</small></td>`, "each tested cell shows its 95% interval")
	assert.Contains(t, total, `<td class="num untested">0.410</td>`, "an older record: no interval, no counts")
	assert.Contains(t, total, `<th>questions covered</th><td class="num">1,000 of 2,000 (50.0%)</td>`)
	assert.Contains(t, page, "r / c (of n): r questions answered right of the c covered")
	assert.Contains(t, page, "over 200 resamples of the set")

	sec := tb().analogySection(recs)
	require.IsType(t, Headline{}, sec.Blocks[0], "the section opens with its answer")
	assert.Equal(t, "At d = 300, google, accuracy over the covered questions: "+
		"by 3CosAdd GloVe is highest (0.400 ± 0.030), significantly above CBOW (0.300 ± 0.031), "+
		"but not significantly above SGNS (0.395 ± 0.031): a tie, the paired 95% interval of the difference holds 0; not tested (no bootstrap replicates: older records): fastText (0.410); "+
		"by 3CosMul GloVe is significantly best (0.360 ± 0.030), above SGNS (0.330 ± 0.031) and CBOW (0.320 ± 0.031); "+
		"not tested (no bootstrap replicates: older records): fastText (0.350); every row covers 1,000 of 2,000 questions (50.0%).",
		sec.Blocks[0].(Headline)[0])

	// Coverage that differs is named row by row.
	recs[1].Metrics[records.AnalogyCoverage("google", "").Key()] = 0.9
	h := tb().analogySection(recs).Blocks[0].(Headline)[0]
	assert.True(t, strings.HasSuffix(h, "coverage differs (CBOW 50.0%, SGNS 90.0%, GloVe 50.0%, fastText 50.0%): "+
		"each row is scored on the questions it covers, so a difference may come from the questions, not the vectors."), h)
}
