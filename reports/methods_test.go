package reports

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"kcalab/records"
	"kcalab/schema"
)

// testMethods describe the methods the fixtures name, as the command passes
// the registered ones in Report.Methods.
var testMethods = []schema.MethodInfo{
	{Name: "ca", Label: "CA", Inputs: schema.TableInput | schema.CorpusInput, Axes: true, Similarity: records.SimDot},
	{Name: "lca", Label: "LCA", Inputs: schema.TableInput | schema.CorpusInput, Axes: true, Similarity: records.SimDot},
	{Name: "gini", Label: "Gini", Inputs: schema.TableInput | schema.CorpusInput, Similarity: records.SimDot},
	{Name: "kca", Label: "KCA", Inputs: schema.CorpusInput, Axes: true, Similarity: records.SimDot},
	{Name: "sca", Label: "SCA", Inputs: schema.CorpusInput, Axes: true, Similarity: records.SimDot, InSampleSet: func(s schema.Settings) string {
		if s.SCA.Mode != "in-sample" {
			return ""
		}
		return s.SCA.Set
	}},
	{Name: "sgns", Label: "SGNS", Inputs: schema.CorpusInput, ZeroMeans: map[string]string{"train.window": "5", "train.epochs": "5"}, Similarity: records.SimCosine, Baseline: true},
	{Name: "cbow", Label: "CBOW", Inputs: schema.CorpusInput, ZeroMeans: map[string]string{"train.window": "5", "train.epochs": "5"}, Similarity: records.SimCosine, Baseline: true},
	{Name: "glove", Label: "GloVe", Inputs: schema.CorpusInput, ZeroMeans: map[string]string{"train.window": "15", "train.epochs": "25"}, Similarity: records.SimCosine, Baseline: true},
	{Name: "fasttext", Label: "fastText", Inputs: schema.CorpusInput, ZeroMeans: map[string]string{"train.window": "5", "train.epochs": "5"}, Similarity: records.SimCosine, Baseline: true},
	{Name: "external", Label: "external", Inputs: schema.CorpusInput, Reference: true, Similarity: records.SimCosine},
	{Name: "corpusstats", Label: "corpus statistics", Inputs: schema.CorpusInput},
}

// tb is a section builder that knows testMethods.
func tb() *builder { return newBuilder(Report{Methods: testMethods}) }

// A page learns methods from Report.Methods, not from a registry: a
// method it is not told of shows by its name.
func TestBuilderMethods(t *testing.T) {
	b := newBuilder(Report{Methods: []schema.MethodInfo{{Name: "rowprofile", Label: "Row profile", Inputs: schema.CorpusInput,
		InSampleSet: func(s schema.Settings) string { return s.SCA.Set }}}})
	assert.Equal(t, "Row profile", b.methodLabel("rowprofile"))
	assert.Equal(t, "sgns", b.methodLabel("sgns"), "unknown to this page")
	rec := records.Record{Settings: map[string]any{"method": "rowprofile", "sca.set": "mturk"}}
	assert.Equal(t, "mturk", b.inSampleSet(rec))
	rec.Settings["method"] = "sgns"
	assert.Equal(t, "", b.inSampleSet(rec))
}
