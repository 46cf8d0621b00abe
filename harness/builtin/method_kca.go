package builtin

import (
	"context"
	"fmt"

	"kcalab/harness"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/datasets/sparse"
	"kcalab/methods/ca"
	"kcalab/methods/kca"
)

// kcaMethod is kernel CA of a word table with the kernel kca.kernel: the
// rows of the paper's kernel table.
type kcaMethod struct{}

func init() { harness.RegisterMethod(kcaMethod{}) }

func (kcaMethod) Info() schema.MethodInfo {
	return schema.MethodInfo{Name: "kca", Label: "KCA", Rank: 20, Inputs: schema.CorpusInput, Axes: true, Similarity: records.SimDot,
		Doc:         "kernel CA with kca.kernel",
		CorpusReads: append([]string{"kca"}, without(caWordReads, cdsKey)...)}
}

func (kcaMethod) Run(ctx context.Context, tr *harness.TrialRun) error {
	kernel, transform, err := kcaKernel(tr.Trial)
	if err != nil {
		return err
	}
	wd, err := tr.Words(ctx)
	if err != nil {
		return err
	}
	n, err := tr.WordTable(ctx, wd)
	if err != nil {
		return err
	}
	vs, err := tr.CAVectors(ctx, wd, n, kernel, transform)
	if err != nil {
		return err
	}
	return tr.Score(vs)
}

// kcaKernel resolves kca.kernel to a CA kernel and an optional transform of
// the table (the ⊖ of the paper's kernel table).
func kcaKernel(t schema.Trial) (ca.Kernel, func(*sparse.CSR) (*sparse.CSR, error), error) {
	switch k := t.KCA.Kernel; k {
	case "tailcut":
		if tab := t.Data.Table; tab != "cut" {
			return "", nil, fmt.Errorf("kca.kernel tailcut is CA of the tail-cut table: set data.table: cut (it is %q)", tab)
		}
		return ca.KernelCA, nil, nil
	case "lca":
		return ca.KernelCA, nil, nil
	case "gini":
		return ca.KernelGini, nil, nil
	case "sppmi":
		shift, cds := t.KCA.Shift, t.KCA.CDS
		return ca.KernelPlain, func(n *sparse.CSR) (*sparse.CSR, error) { return kca.SPPMIWith(n, shift, cds) }, nil
	case "glove-log":
		if cds := t.KCA.CDS; cds != 1 {
			return "", nil, fmt.Errorf("kca.cds = %v smooths a context distribution, and kca.kernel glove-log has none (log counts minus fitted biases): use it with ca, lca, gini, tailcut or sppmi, or set kca.cds: 1", cds)
		}
		return ca.KernelPlain, func(n *sparse.CSR) (*sparse.CSR, error) { return kca.GloVeLog(n, 0) }, nil
	}
	return "", nil, fmt.Errorf("kca.kernel %q: not implemented", t.KCA.Kernel)
}
