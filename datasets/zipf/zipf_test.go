package zipf

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// small is a cheap variant of the calibrated model for unit tests.
func small() Params {
	p := Calibrated()
	p.Vocab = 50_000
	return p
}

func write(t *testing.T, p Params, n int64) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, Write(context.Background(), &b, p, n))
	return b.Bytes()
}

func TestDeterminism(t *testing.T) {
	base := small()
	other := base
	other.Seed = 2
	a := write(t, base, 50_000)
	tests := []struct {
		name  string
		p     Params
		procs int
		same  bool
	}{
		{"same seed", base, 0, true},
		{"same seed, GOMAXPROCS 1", base, 1, true},
		{"other seed", other, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.procs > 0 {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(tc.procs))
			}
			b := write(t, tc.p, 50_000)
			if tc.same {
				assert.True(t, bytes.Equal(a, b), "same parameters and seed gave different bytes")
			} else {
				assert.False(t, bytes.Equal(a, b), "different seeds gave the same bytes")
			}
		})
	}
}

func TestWriteFormat(t *testing.T) {
	b := write(t, small(), 1000)
	words := bytes.Fields(b)
	assert.Len(t, words, 1000)
	assert.Equal(t, len(b), len(bytes.Join(words, []byte(" "))), "tokens must be separated by single spaces, no line end")
	for _, w := range words {
		_, ok := Rank(string(w))
		require.True(t, ok, "bad word %q", w)
	}
	path := filepath.Join(t.TempDir(), "c.txt")
	require.NoError(t, WriteFile(context.Background(), path, small(), 1000))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, b, got)
}

func TestWordRank(t *testing.T) {
	for _, r := range []int{0, 7, 10, 12345, math.MaxInt32} {
		got, ok := Rank(Word(r))
		assert.True(t, ok)
		assert.Equal(t, r, got)
	}
	for _, w := range []string{"", "w", "x1", "w01", "w-1", "w1a", "w99999999999"} {
		_, ok := Rank(w)
		assert.False(t, ok, w)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Params)
	}{
		{"vocab", func(p *Params) { p.Vocab = 1 }},
		{"exponent", func(p *Params) { p.Exponent = 0 }},
		{"offset", func(p *Params) { p.Offset = -1 }},
		{"knee without tail", func(p *Params) { p.TailExponent = math.NaN() }},
		{"head", func(p *Params) { p.Head = p.Vocab }},
		{"topics", func(p *Params) { p.Topics = 0 }},
		{"leak", func(p *Params) { p.Leak = 1.5 }},
		{"spread", func(p *Params) { p.Spread = -1 }},
		{"segment", func(p *Params) { p.Segment = 0.5 }},
		{"repeat", func(p *Params) { p.Repeat = 1 }},
		{"memory", func(p *Params) { p.Memory = 0 }},
	}
	require.NoError(t, Calibrated().Validate())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := small()
			tc.edit(&p)
			assert.Error(t, p.Validate())
			_, err := New(p)
			assert.Error(t, err)
		})
	}
}

// TestFrequencies checks that topics, leaks and repeats leave the word
// frequencies those of the law, and that the rank-frequency slope is the
// exponent of each regime. Topic segments and repeats make counts
// overdispersed (that is their purpose), so the exact check of the
// frequent words uses Segment = 1, where tokens are independent.
func TestFrequencies(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*Params)
		exact bool // independent tokens: counts within 5 standard errors
	}{
		{"calibrated", func(*Params) {}, false},
		{"independent tokens", func(p *Params) { p.Segment, p.Repeat = 1, 0 }, true},
		{"independent, spread topics", func(p *Params) { p.Segment, p.Repeat, p.Spread, p.Leak = 1, 0, 0.5, 0 }, true},
		{"one regime, no head", func(p *Params) { p.Knee, p.Head = 0, 0 }, false},
		{"spread topics", func(p *Params) { p.Spread, p.Leak = 0.5, 0 }, false},
		{"steep", func(p *Params) { p.Exponent, p.Offset, p.Knee = 1.4, 0, 0 }, false},
	}
	const n = 2_000_000
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := small()
			tc.edit(&p)
			cnt := make([]float64, p.Vocab)
			require.NoError(t, Generate(context.Background(), p, n, func(r int) error {
				cnt[r]++
				return nil
			}))
			var z float64
			for r := range p.Vocab {
				z += p.Weight(r)
			}
			if tc.exact {
				for r := range 50 {
					want := n * p.Weight(r) / z
					assert.InDelta(t, want, cnt[r], 5*math.Sqrt(want), "rank %d", r)
				}
			}
			// Slopes: least squares of log count on log(r+b) over rank
			// bands with enough counts, within 0.05 of the exponent.
			bands := [][2]int{{10, 1000}}
			if p.Knee > 0 {
				bands = [][2]int{{10, p.Knee / 2}, {2 * p.Knee, 12_000}}
			}
			for i, band := range bands {
				want := p.Exponent
				if i == 1 {
					want = p.TailExponent
				}
				got := -slope(cnt, p.Offset, band[0], band[1])
				assert.InDelta(t, want, got, 0.05, "ranks %d..%d", band[0], band[1])
			}
		})
	}
}

// slope fits log c = const − s·log(r+1+b) by least squares, where c is
// the mean count of the ranks in each of 20 log-spaced bins of lo..hi−1:
// averaging over a bin tames the overdispersion of single words' counts.
func slope(cnt []float64, b float64, lo, hi int) float64 {
	var sx, sy, sxx, sxy, m float64
	const bins = 20
	step := math.Log(float64(hi)/float64(lo)) / bins
	for i := range bins {
		a := lo + int(math.Round(float64(lo)*(math.Exp(step*float64(i))-1)))
		e := lo + int(math.Round(float64(lo)*(math.Exp(step*float64(i+1))-1)))
		if e <= a {
			continue
		}
		var c, x float64
		for r := a; r < e; r++ {
			c += cnt[r]
			x += math.Log(float64(r+1) + b)
		}
		if c == 0 {
			continue
		}
		x, y := x/float64(e-a), math.Log(c/float64(e-a))
		sx, sy, sxx, sxy, m = sx+x, sy+y, sxx+x*x, sxy+x*y, m+1
	}
	return (m*sxy - sx*sy) / (m*sxx - sx*sx)
}

func TestGenerateStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Generate(ctx, small(), 10_000_000, func(int) error { return nil })
	assert.ErrorIs(t, err, context.Canceled)
	assert.Error(t, Generate(context.Background(), small(), -1, func(int) error { return nil }))
}
