package harness

import (
	"context"

	"kcalab/methods/ca"
)

// caFamily is correspondence analysis with a fixed kernel, of a table or
// of a corpus's word table: ca and lca (the paper's name, K = D⁻¹) and gini.
type caFamily struct {
	info   MethodInfo
	kernel ca.Kernel
}

// caWordReads are the settings a CA of a word table reads.
var caWordReads = append(append([]string(nil), wordTableKeys...), "svd", "vectors", "subword", "eval")

func init() {
	for _, m := range []caFamily{
		{kernel: ca.KernelCA, info: MethodInfo{Name: "ca", Label: "CA", Rank: 10,
			Doc: "correspondence analysis (the paper's LCA, K = D⁻¹)"}},
		{kernel: ca.KernelLCA, info: MethodInfo{Name: "lca", Label: "LCA", Rank: 11,
			Doc: "the paper's name for ca"}},
	} {
		RegisterMethod(m)
	}
}

func (m caFamily) Info() MethodInfo {
	info := m.info
	info.Inputs = TableInput | CorpusInput
	info.TableReads = []string{"svd"}
	info.CorpusReads = caWordReads
	return info
}

func (m caFamily) Run(ctx context.Context, tr *TrialRun) error {
	if tr.Table != nil {
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
