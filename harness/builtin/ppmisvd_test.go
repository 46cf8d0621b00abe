package builtin

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/corpus"
	"kcalab/harness"
	"kcalab/methods/vectors"
	"kcalab/records"
	"kcalab/schema"
)

// ppmiReference is testdata/ppmisvd/reference.json, written by
// reference.py (numpy and scipy) from the formula of PPMI-SVD.
type ppmiReference struct {
	MinCount       int         `json:"min_count"`
	Window         int         `json:"window"`
	Rank           int         `json:"rank"`
	Words          []string    `json:"words"`
	Counts         [][]float64 `json:"counts"`
	PPMI           [][]float64 `json:"ppmi"`
	SingularValues []float64   `json:"singular_values"`
	Cosine         [][]float64 `json:"cosine"`
}

func loadPPMIReference(t *testing.T) (ref ppmiReference, dir string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "ppmisvd"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(dir, "reference.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &ref))
	return ref, dir
}

// The table ppmi-svd counts and its PPMI matrix are scipy's, entry by
// entry, looked up by word (the <unk> row and column, which pool the
// words seen once, are empty: hyperwords skips them in place).
func TestPPMIMatrixMatchesScipy(t *testing.T) {
	ref, dir := loadPPMIReference(t)
	ctx := context.Background()
	c, err := corpus.Open(ctx, "", filepath.Join(dir, "corpus.txt"), corpus.Options{})
	require.NoError(t, err)
	v, ids, err := corpus.Build(ctx, c, corpus.VocabOptions{MinCount: int64(ref.MinCount), OOV: corpus.OOVUnk})
	require.NoError(t, err)
	require.GreaterOrEqual(t, v.Unk, int32(0), "the corpus has words seen once")
	tabs, err := corpus.NewTables(v, ids, corpus.TableOptions{})
	require.NoError(t, err)
	var trial schema.Trial // train.window 0: the recipe's window
	require.Equal(t, ref.Window, ppmiTableSpec(trial).Window)
	n, err := tabs.Table(ctx, ppmiTableSpec(trial))
	require.NoError(t, err)
	m, err := ppmiMatrix(n, int(v.Unk))
	require.NoError(t, err)

	index := map[string]int{}
	for i, w := range v.Words {
		index[w] = i
	}
	require.Len(t, v.Words, len(ref.Words)+1, "the reference's words and <unk>")
	for a, wa := range ref.Words {
		i, ok := index[wa]
		require.True(t, ok, wa)
		for b, wb := range ref.Words {
			j := index[wb]
			assert.Equal(t, ref.Counts[a][b], n.At(i, j), "count (%s, %s)", wa, wb)
			assert.InDelta(t, ref.PPMI[a][b], m.At(i, j), 1e-12, "PPMI (%s, %s)", wa, wb)
		}
	}
	u := int(v.Unk)
	rows, _ := m.Dims()
	for i := 0; i < rows; i++ {
		assert.Zero(t, m.At(u, i))
		assert.Zero(t, m.At(i, u))
	}
}

// The ppmi-svd method end to end, on the same corpus: its singular values
// and the cosines of its W + C vectors (as -vectors exports them) are
// scipy's; it declares cosine as its similarity.
func TestPPMISVDMatchesScipy(t *testing.T) {
	ref, dir := loadPPMIReference(t)
	out := t.TempDir()
	spec := `name: ppmi
data: {source: corpus, corpus: ` + filepath.Join(dir, "corpus.txt") + `, min_count: 2}
method: ppmi-svd
svd: {rank: 3, backend: krylov, tol: 1e-12}
eval: {sets: [` + filepath.Join(dir, "pairs.txt") + `]}
`
	path := filepath.Join(t.TempDir(), "spec.yaml")
	require.NoError(t, os.WriteFile(path, []byte(spec), 0o644))
	s, err := schema.LoadSpec(path)
	require.NoError(t, err)
	s.Output = filepath.Join(out, "results")
	vdir := filepath.Join(out, "vectors")
	res, err := (&harness.Runner{VectorsDir: vdir}).Run(context.Background(), s)
	require.NoError(t, err)
	require.Len(t, res.Records, 1)
	rec := res.Records[0]
	require.Equal(t, "ok", rec.Status, rec.Error)
	require.NotNil(t, rec.SVD)
	assert.InDeltaSlice(t, ref.SingularValues[:ref.Rank], rec.SVD.S, 1e-10)
	info, _ := schema.LookupMethod("ppmi-svd")
	assert.Equal(t, records.SimCosine, info.Similarity)

	files, err := filepath.Glob(filepath.Join(vdir, "*.txt"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	vs, err := vectors.ReadTextFile(files[0])
	require.NoError(t, err)
	require.Equal(t, ref.Rank, vs.Dim())
	cos := func(a, b []float64) float64 {
		var ab, aa, bb float64
		for k := range a {
			ab += a[k] * b[k]
			aa += a[k] * a[k]
			bb += b[k] * b[k]
		}
		return ab / math.Sqrt(aa*bb)
	}
	for a, wa := range ref.Words {
		va, ok := vs.Vector(wa)
		require.True(t, ok, wa)
		for b, wb := range ref.Words {
			vb, _ := vs.Vector(wb)
			assert.InDelta(t, ref.Cosine[a][b], cos(va, vb), 1e-6, "cos(%s, %s)", wa, wb) // the export is float32
		}
	}
}
