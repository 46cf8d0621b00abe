package builtin

import (
	"context"
	"fmt"

	"kcalab/harness"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/methods/ca"
)

// caFamily is correspondence analysis with a fixed kernel, of a table or
// of a corpus's word table: ca and lca (the paper's name, K = D⁻¹) and gini.
type caFamily struct {
	info   schema.MethodInfo
	kernel ca.Kernel
}

// caWordReads are the settings a CA of a word table reads (kca reads all
// of kca, this key among them).
var caWordReads = append(append([]string(nil), schema.WordTableKeys...), cdsKey, "svd", "vectors", "subword", "eval", retrofitKey)

// cdsKey is context distribution smoothing, read by every CA of a word table.
const cdsKey = "kca.cds"

// without returns keys less one.
func without(keys []string, drop string) []string {
	var out []string
	for _, k := range keys {
		if k != drop {
			out = append(out, k)
		}
	}
	return out
}

func init() {
	for _, m := range []caFamily{
		{kernel: ca.KernelCA, info: schema.MethodInfo{Name: "ca", Label: "CA", Rank: 10, Axes: true,
			Doc: "correspondence analysis (the paper's LCA, K = D⁻¹)"}},
		{kernel: ca.KernelLCA, info: schema.MethodInfo{Name: "lca", Label: "LCA", Rank: 11, Axes: true,
			Doc: "the paper's name for ca"}},
	} {
		harness.RegisterMethod(m)
	}
}

func (m caFamily) Info() schema.MethodInfo {
	info := m.info
	info.Similarity = records.SimDot
	info.Inputs = schema.TableInput | schema.CorpusInput
	info.TableReads = []string{"svd"}
	info.CorpusReads = caWordReads
	return info
}

func (m caFamily) Run(ctx context.Context, tr *harness.TrialRun) error {
	if tr.Table != nil {
		if tr.Trial.Vectors.AddContexts {
			return fmt.Errorf("vectors.add_contexts adds a word's context vector to its word vector, so rows and columns must be one vocabulary: a word table (data.source corpus, synthetic or tables), not data.source %s, whose rows and columns are different things", tr.Trial.Data.Source)
		}
		return tr.AnalyzeTable(ctx, m.kernel)
	}
	wd, err := tr.Words(ctx)
	if err != nil {
		return err
	}
	n, err := tr.WordTable(ctx, wd)
	if err != nil {
		return err
	}
	kernel := m.kernel
	if kernel == ca.KernelLCA {
		kernel = ca.KernelCA // one analysis, two names
	}
	vs, err := tr.CAVectors(ctx, wd, n, kernel, nil)
	if err != nil {
		return err
	}
	return tr.Score(vs)
}
