package svd_test

import (
	"context"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"kcalab/methods/ca"
	"kcalab/methods/svd"
)

// A budget one byte below a backend's plan is refused before anything is
// allocated, with the sizes named; the plan itself runs.
func TestPlanRefusesOverBudget(t *testing.T) {
	op := svd.DenseOperator{A: withSpectrum(6, 300, 200, geometric(200, 0.9))}
	for _, name := range svd.Built() {
		t.Run(name, func(t *testing.T) {
			opt := svd.DefaultOptions(10)
			opt.Check = true
			p, err := svd.Plan(name, 300, 200, opt)
			require.NoError(t, err)
			require.NotEmpty(t, p.Buffers)
			b, err := svd.Get(name)
			require.NoError(t, err)

			opt.MaxBytes = p.Peak - 1
			_, err = b.Decompose(context.Background(), op, opt)
			require.ErrorIs(t, err, svd.ErrOverBudget)
			assert.Contains(t, err.Error(), name+" SVD of a 300×200 operator at rank 10 plans")
			assert.Contains(t, err.Error(), p.Buffers[0].Name)
			assert.Contains(t, err.Error(), "more than the budget of")

			opt.MaxBytes = p.Peak
			res, err := b.Decompose(context.Background(), op, opt)
			require.NoError(t, err)
			assert.Len(t, res.S, 10)
		})
	}
	_, err := svd.Plan("qr", 10, 10, svd.DefaultOptions(2))
	assert.ErrorContains(t, err, "unknown SVD backend")
	_, err = svd.Plan("dssvd", 10, 10, svd.DefaultOptions(20))
	assert.ErrorContains(t, err, "rank 20 exceeds")
}

// The largest planned buffers are the exact sizes the algorithms need.
func TestPlanSizes(t *testing.T) {
	opt := svd.DefaultOptions(100)
	p, err := svd.Plan("dense", 5000, 4000, opt)
	require.NoError(t, err)
	assert.Equal(t, svd.Buffer{Name: "A", Rows: 5000, Cols: 4000, Bytes: 5000 * 4000 * 8}, p.Buffers[0])
	assert.Greater(t, p.Peak, int64(3*4000*4000*8), "A, U and Vᵀ are alive together")

	p, err = svd.Plan("dssvd", 71_000, 71_000, svd.DefaultOptions(8000))
	require.NoError(t, err)
	assert.Equal(t, svd.Buffer{Name: "Ω/Bᵀ/V", Rows: 71_000, Cols: 8010, Bytes: 71_000 * 8010 * 8}, p.Buffers[0])
	r, err := svd.Plan("randomized", 71_000, 71_000, svd.DefaultOptions(8000))
	require.NoError(t, err)
	assert.Equal(t, p.Peak+71_000*71_000*8, r.Peak, "randomized = dssvd + the dense matrix")
	t.Log(p)

	k, err := svd.Plan("krylov", 71_000, 71_000, svd.DefaultOptions(8000))
	require.NoError(t, err)
	t.Log(k)

	// Exact d = 1000 on the vocabulary of a 100 M-token corpus fits a
	// 16 GB machine: the basis, 32 wide blocks, a 992×992 projected
	// problem and U.
	const v = 235_625
	k, err = svd.Plan("krylov", v, v, svd.DefaultOptions(1000))
	require.NoError(t, err)
	t.Log(k)
	assert.Equal(t, svd.Buffer{Name: "basis (locked, active, next block)", Rows: v, Cols: 1000 + 960 + 64, Bytes: v * 2024 * 8}, k.Buffers[0])
	assert.Less(t, k.Peak, int64(8)<<30, "half of 16 GB, the rest for the table and its transpose")
}

// On a CA word operator, the live heap a backend adds while decomposing
// stays near its plan. The collector runs at GOGC = 2 so the sampled heap
// (every 200 µs) is closer to what is live, and the operator is warmed by
// one product first (it caches its transpose, which is the operator's
// memory, not the backend's).
func TestPlanBoundsHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("decomposes a 1200-word table with every backend")
	}
	const v, k = 1200, 40
	n := plantedTable(5, v, 40, 400_000)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	for _, name := range svd.Built() {
		t.Run(name, func(t *testing.T) {
			op, err := ca.NewCAOperator(n)
			require.NoError(t, err)
			x, y := mat.NewDense(v, 1, nil), mat.NewDense(v, 1, nil)
			op.MulTo(y, x)
			op.MulTTo(x, y)
			defer debug.SetGCPercent(debug.SetGCPercent(2))
			opt := svd.DefaultOptions(k)
			opt.Check = true
			p, err := svd.Plan(name, v, v, opt)
			require.NoError(t, err)
			b, err := svd.Get(name)
			require.NoError(t, err)
			// Collect between runs only: the plan bounds what is live
			// at once, not garbage the collector has yet to reach.
			runtime.GC()
			base := heap()
			peak := base
			stop := make(chan struct{})
			var wg sync.WaitGroup
			wg.Go(func() {
				tick := time.NewTicker(200 * time.Microsecond)
				defer tick.Stop()
				for {
					select {
					case <-stop:
						return
					case <-tick.C:
						peak = max(peak, heap())
					}
				}
			})
			_, err = b.Decompose(context.Background(), op, opt)
			close(stop)
			wg.Wait()
			require.NoError(t, err)
			runtime.GC()
			live := heap()
			growth := int64(peak - base)
			retained := int64(live) - int64(base)
			t.Logf("%s: plan %.1f MiB, peak heap growth %.1f MiB (%.0f%% of the plan, little garbage at GOGC = 2), retained %.1f MiB",
				name, float64(p.Peak)/(1<<20), float64(growth)/(1<<20), 100*float64(growth)/float64(p.Peak), float64(retained)/(1<<20))
			assert.LessOrEqual(t, retained, p.Peak, "what the result keeps is part of the plan")
			// The sampled heap holds garbage the collector has not reached
			// yet (per-iteration scratch, a pool refilled after a
			// collection): twice the plan and 4 MiB of slack catch a
			// missing block of the table's size, not rounding.
			assert.LessOrEqual(t, growth, 2*p.Peak+4<<20, "the plan bounds the heap")
		})
	}
}
