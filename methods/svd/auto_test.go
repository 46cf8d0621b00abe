package svd_test

import (
	"runtime"
	"testing"

	"kcalab/methods/svd"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cost model is within a factor of two of every time measured on the
// reference machine (the 2-core AMD EPYC VM), each alone, Tol 1e-8: that is
// all Auto needs of it, as the backends it weighs differ by far more
// wherever they do not tie.
func TestEstimateSecondsMatchesMeasured(t *testing.T) {
	text8 := func(k int) svd.Shape { return svd.Shape{Rows: 22542, Cols: 22542, NNZ: 9781414, Rank: k} }
	quarter := func(k int) svd.Shape { return svd.Shape{Rows: 9207, Cols: 9207, NNZ: 2771282, Rank: k} }
	for _, tt := range []struct {
		backend  string
		shape    svd.Shape
		measured float64 // seconds
		where    string
	}{
		{"krylov", text8(300), 5.6, "bench-2026-11-25.txt"},
		{"krylov", text8(1000), 18.3, "bench-2026-11-25.txt"},
		{"krylov", text8(3000), 74.5, "bench-2026-11-26-large-slepc.txt"},
		{"krylov", text8(8000), 419.7, "bench-2026-11-26-large-d8000.txt"},
		{"krylov", svd.Shape{Rows: 78485, Cols: 78485, NNZ: 18_100_000, Rank: 8000}, 2365, "results/paper-d8000"},
		{"krylov", quarter(300), 2.2, "results/svd-k-scaling-small"},
		{"krylov", quarter(1000), 6.9, "results/svd-k-scaling-small"},
		{"krylov", quarter(3000), 27.9, "results/svd-k-scaling-small"},
		{"krylov", quarter(6000), 73.7, "results/svd-k-scaling-small"},
		{"lapack", quarter(6000), 226.7, "results/svd-k-scaling-small"},
		{"lapack", svd.Shape{Rows: 5626, Cols: 5626, Rank: 100}, 87.0, "results/svd-scaling"},
		{"lapack", svd.Shape{Rows: 1893, Cols: 1893, Rank: 100}, 3.1, "results/svd-scaling"},
		{"dense", svd.Shape{Rows: 1893, Cols: 1893, Rank: 100}, 73.4, "results/svd-scaling"},
	} {
		got := svd.EstimateSeconds(tt.backend, tt.shape)
		assert.InDelta(t, 1, got/tt.measured, 0.5, "%s %d×%d k = %d: model %.3g s, measured %.3g s (%s)",
			tt.backend, tt.shape.Rows, tt.shape.Cols, tt.shape.Rank, got, tt.measured, tt.where)
	}
}

// Auto keeps the incumbent (dense for a CSV table, krylov for words) unless
// the model expects another exact backend to be twice as fast and a second
// faster: krylov for a large table, lapack (where built) when the rank
// leaves krylov no room for a basis on a table of thousands; a dense
// backend whose plan is over the memory budget is excluded whatever its
// estimate.
func TestAuto(t *testing.T) {
	built := svd.NativeImplementation() != ""
	orBuilt := func(pure, withLAPACK string) string {
		if built {
			return withLAPACK
		}
		return pure
	}
	for _, tt := range []struct {
		name      string
		shape     svd.Shape
		incumbent string
		budget    int64
		want      string
	}{
		{"Fisher's 5×4, all dimensions", svd.Shape{Rows: 5, Cols: 4, NNZ: 20, Rank: 3}, "dense", 0, "dense"},
		{"a full 1,500² table at k = 300", svd.Shape{Rows: 1500, Cols: 1500, NNZ: 2_250_000, Rank: 300}, "dense", 0, "krylov"},
		{"the same within 10 MiB", svd.Shape{Rows: 1500, Cols: 1500, NNZ: 2_250_000, Rank: 300}, "dense", 10 << 20, "krylov"},
		{"200 words at k = 150", svd.Shape{Rows: 200, Cols: 200, NNZ: 20000, Rank: 150}, "krylov", 0, "krylov"},
		{"200 words at k = 20", svd.Shape{Rows: 200, Cols: 200, NNZ: 20000, Rank: 20}, "krylov", 0, "krylov"},
		{"2,000 words at k = 1,900", svd.Shape{Rows: 2000, Cols: 2000, NNZ: 1e6, Rank: 1900}, "krylov", 0, orBuilt("krylov", "lapack")},
		{"2,000 words at k = 1,900 within 10 MiB", svd.Shape{Rows: 2000, Cols: 2000, NNZ: 1e6, Rank: 1900}, "krylov", 10 << 20, "krylov"},
		{"2,000 words at k = 300", svd.Shape{Rows: 2000, Cols: 2000, NNZ: 1e6, Rank: 300}, "krylov", 0, "krylov"},
		{"text8_prefix at k = 300", svd.Shape{Rows: 22542, Cols: 22542, NNZ: 9781414, Rank: 300}, "krylov", 0, "krylov"},
		{"text8_prefix at k = 8000", svd.Shape{Rows: 22542, Cols: 22542, NNZ: 9781414, Rank: 8000}, "krylov", 20000 << 20, "krylov"},
		{"a quarter of it at k = 6000", svd.Shape{Rows: 9207, Cols: 9207, NNZ: 2771282, Rank: 6000}, "krylov", 0, "krylov"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opt := svd.DefaultOptions(tt.shape.Rank)
			opt.Check, opt.MaxBytes = true, tt.budget
			c := svd.Auto(tt.shape, opt, tt.incumbent)
			assert.Equal(t, tt.want, c.Backend, "%s", c)
			require.Len(t, c.Estimates, 3, "krylov, lapack and dense are weighed")
			for _, e := range c.Estimates {
				assert.Greater(t, e.Seconds, 0.0, e.Backend)
				if e.Backend == c.Backend {
					assert.Empty(t, e.Excluded)
				}
				if e.Backend == "lapack" && !built {
					assert.Equal(t, "not built (-tags lapack)", e.Excluded)
				}
				if e.Backend == "dense" && tt.budget == 10<<20 {
					assert.Contains(t, e.Excluded, "over the budget's 10.0 MiB")
				}
			}
			assert.Contains(t, c.String(), tt.want+" (cost model: krylov ")

			// The choice reads the shape, the incumbent and the budget only.
			old := runtime.GOMAXPROCS(1)
			again := svd.Auto(tt.shape, opt, tt.incumbent)
			runtime.GOMAXPROCS(old)
			assert.Equal(t, c, again)
		})
	}
}
