package records

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseMetric(t *testing.T) {
	for _, tc := range []struct {
		key     string
		want    Metric
		higher  bool
		checked bool
		unit    string
		label   string
	}{
		{key: "spearman.zero.men", want: Score(RuleZero, "men"), higher: true, checked: true, label: "men (zero rule)"},
		{key: "spearman.skip.my.set", want: Score(RuleSkip, "my.set"), higher: true, checked: true},
		{key: "spearman.cosine.zero.men", want: Metric{Kind: ScoreMetric, Sim: SimCosine, Rule: RuleZero, Set: "men"}, higher: true, checked: true, label: "men (cosine, zero rule)"},
		{key: "spearman.dot.skip.dot", want: Metric{Kind: ScoreMetric, Sim: SimDot, Rule: RuleSkip, Set: "dot"}, higher: true, checked: true},
		{key: "spearman.bogus.men", want: Metric{Name: "spearman.bogus.men"}},
		{key: "spearman.zero.", want: Metric{Name: "spearman.zero."}},
		{key: "pearson.skip.men", want: Pearson(RuleSkip, "men"), higher: true, checked: true, label: "men (Pearson r, skip rule)"},
		{key: "vocab_skip.rare", want: VocabScore("rare")},
		{key: "plain_skip.pairs.txt", want: PlainScore("pairs.txt")},
		{key: "coverage.men", want: Coverage("men"), higher: true},
		{key: "pairs.men", want: Pairs("men")},
		{key: "spearman.cosine.vocab.men", want: Metric{Kind: ScoreMetric, Sim: SimCosine, Rule: RuleVocab, Set: "men"}, higher: true, checked: true, label: "men (cosine, vocab rule)"},
		{key: "pairs_vocab.men", want: VocabPairs("men")},
		{key: "pairs_vocab.", want: Metric{Name: "pairs_vocab."}},
		{key: "analogy.google", want: Analogy("google", false, ""), higher: true, checked: true, label: "google analogies (3CosAdd)"},
		{key: "analogy_mul.google/family", want: Analogy("google", true, "family"), higher: true, label: "google/family analogies (3CosMul)"},
		{key: "analogy.my.q.txt/gram1-adjective-to-adverb", want: Analogy("my.q.txt", false, "gram1-adjective-to-adverb"), higher: true},
		{key: "coverage.analogy.google", want: AnalogyCoverage("google", ""), higher: true},
		{key: "coverage.analogy.google/family", want: AnalogyCoverage("google", "family"), higher: true},
		{key: "questions.analogy.google", want: AnalogyCounts("google", CountQuestions, false), label: "google analogies: questions"},
		{key: "covered.analogy.my.q.txt", want: Metric{Kind: AnalogyCountMetric, Set: "my.q.txt", Count: CountCovered}},
		{key: "correct.analogy.google", want: AnalogyCounts("google", CountCorrect, false), label: "google analogies: right by 3CosAdd"},
		{key: "correct_mul.analogy.google", want: AnalogyCounts("google", CountCorrect, true), label: "google analogies: right by 3CosMul"},
		{key: "covered_mul.analogy.google", want: Metric{Name: "covered_mul.analogy.google"}},
		{key: "correct.analogy.", want: Metric{Name: "correct.analogy."}},
		{key: "wall_s", want: Named(MetricWall), unit: "s"},
		{key: "max_rss_mb.max", want: Named(MetricRSS).Range(StatMax), unit: "MiB"},
		{key: "cpu_s.min", want: Metric{Kind: MeasurementMetric, Name: MetricCPU, Stat: StatMin}, unit: "s"},
		{key: "inertia_share.2", want: InertiaShare(2), checked: true},
		{key: "inertia_share.02", want: Metric{Name: "inertia_share.02"}},
		{key: "inertia_share.kept", want: Metric{Kind: CAMetric}, checked: true},
		{key: "total_inertia", want: Metric{Kind: CAMetric, Name: MetricTotalInertia}, checked: true},
		{key: "nnz", want: Metric{Kind: SizeMetric, Name: MetricNNZ}},
		{key: "svd_products", want: Metric{Kind: SolverMetric, Name: MetricSVDProducts}},
		{key: "svd_plan_mb", want: Metric{Kind: MeasurementMetric, Name: MetricSVDPlan}, unit: "MiB"},
		{key: "something", want: Metric{Name: "something"}},
	} {
		t.Run(tc.key, func(t *testing.T) {
			m := ParseMetric(tc.key)
			assert.Equal(t, tc.want, m)
			assert.Equal(t, tc.key, m.Key(), "the key reads back")
			assert.Equal(t, tc.higher, m.HigherIsBetter())
			assert.Equal(t, tc.checked, m.Checked())
			assert.Equal(t, tc.unit, m.Unit())
			if tc.label != "" {
				assert.Equal(t, tc.label, m.Label())
			}
		})
	}
	assert.Equal(t, Named(MetricRSS), ParseMetric("max_rss_mb.max").Base())
}

func TestCheckSetKey(t *testing.T) {
	for _, tc := range []struct {
		key, err string
	}{
		{"men", ""},
		{"my-pairs.txt", ""},
		{"", "needs a name"},
		{"a/b", "slash"},
		{"analogy.txt", `may not start with "analogy."`},
	} {
		err := CheckSetKey(tc.key)
		if tc.err == "" {
			assert.NoError(t, err, tc.key)
		} else {
			assert.ErrorContains(t, err, tc.err, tc.key)
		}
	}
}

// Any key reads back as itself: ParseMetric and Key are inverse on every
// string, so a record's metrics survive a parse and respell.
func FuzzParseMetric(f *testing.F) {
	for _, k := range []string{"spearman.zero.men", "spearman.cosine.skip.x.txt", "coverage.analogy.google/a", "analogy_mul.g/s", "correct_mul.analogy.g", "questions.analogy.x/",
		"wall_s.min", "inertia_share.3", "inertia_share.kept", "pairs.", "coverage.", "vocab_skip.men", "pairs_vocab.men", "spearman.vocab.men", "x.max"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		m := ParseMetric(key)
		if m.Key() != key {
			t.Fatalf("ParseMetric(%q).Key() = %q", key, m.Key())
		}
		if m.Kind != OtherMetric && ParseMetric(m.Key()) != m {
			t.Fatalf("%q does not parse back to %+v", key, m)
		}
	})
}
