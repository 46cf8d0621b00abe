package reports

import (
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
	assert.Regexp(t, `^Accuracy at .*google \(90\.0% of the questions covered\): 3CosAdd GloVe 0\.32, SGNS 0\.31, CBOW 0\.3; 3CosMul GloVe 0\.34, SGNS 0\.33, CBOW 0\.32; no bootstrap replicates, so no difference is tested\.$`,
		sec.Blocks[0].(Headline)[0])

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
	for _, k := range []string{"analogy", "pearson", "coverage.analogy"} {
		assert.NotContains(t, trials, k)
	}
}
