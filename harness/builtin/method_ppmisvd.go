package builtin

import (
	"context"

	"kcalab/harness"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/datasets/corpus"
	"kcalab/datasets/sparse"
	"kcalab/methods/ca"
	"kcalab/methods/kca"
)

// PPMI-SVD's recipe: Levy, Goldberg & Dagan's (2015) count baseline as
// hyperwords runs it, its hyperparameters fixed (a spec varies them with
// method kca, kca.kernel sppmi and the kca.cds and vectors.* knobs).
const (
	ppmiCDS    = 0.75 // counts2pmi.py --cds 0.75
	ppmiEig    = 0.5  // Σ^0.5: SVDEmbedding's eig
	ppmiWindow = 2    // corpus2pairs.py's --win default
)

// ppmiSVD is the PPMI-SVD baseline: the symmetric window table's positive
// PMI with smoothed contexts, its SVD, and w + c.
type ppmiSVD struct{}

func init() { harness.RegisterMethod(ppmiSVD{}) }

func (ppmiSVD) Info() schema.MethodInfo {
	return schema.MethodInfo{Name: "ppmi-svd", Label: "PPMI-SVD", Rank: 44, Inputs: schema.CorpusInput,
		Doc: "the count baseline of Levy, Goldberg & Dagan (2015) as hyperwords runs it: the pairs of each word with the words within train.window on either side (N^flat counted both ways; <unk> neither word nor context, as hyperwords skips out-of-vocabulary tokens in place), " +
			"PPMI with context distribution smoothing 0.75, SVD of rank svd.rank, W + C with Σ^0.5 (U Σ^½ + V Σ^½), compared by cosine; data.subsample subsamples first",
		CorpusReads: []string{"train.window", "data.subsample", "svd", "vectors.save", "eval", retrofitKey},
		ZeroMeans:   map[string]string{"train.window": "2"}, Similarity: records.SimCosine}
}

func (ppmiSVD) Run(ctx context.Context, tr *harness.TrialRun) error {
	wd, err := tr.Words(ctx)
	if err != nil {
		return err
	}
	n, err := tr.CountTable(ctx, wd, ppmiTableSpec(tr.Trial))
	if err != nil {
		return err
	}
	unk := int(wd.Vocab.Unk)
	vs, err := tr.CAVectorsWith(ctx, wd, n, ca.KernelPlain, func(n *sparse.CSR) (*sparse.CSR, error) { return ppmiMatrix(n, unk) },
		harness.VectorOptions{Alpha: ppmiEig, Beta: 0, AddContexts: true})
	if err != nil {
		return err
	}
	return tr.Score(vs)
}

// ppmiTableSpec is the table hyperwords' corpus2pairs.py counts without
// --dyn: each word with every word within the window on either side.
func ppmiTableSpec(t schema.Trial) corpus.Spec {
	return corpus.Spec{Kind: corpus.Flat, Window: orInt(t.Train.Window, ppmiWindow), Symmetric: true}
}

// ppmiMatrix is PPMI-SVD's matrix: the <unk> row and column (unk, or -1
// for none) taken out, then max(0, log(N_ij / (R_i · C_j^0.75/Σ C^0.75))).
func ppmiMatrix(n *sparse.CSR, unk int) (*sparse.CSR, error) {
	if unk >= 0 {
		n = n.Map(func(i, j int, v float64) float64 {
			if i == unk || j == unk {
				return 0
			}
			return v
		})
	}
	return kca.SPPMIWith(n, 1, ppmiCDS)
}
