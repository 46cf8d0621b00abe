package records

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
)

// Bootstrap is a word trial's ρ of each set over resamples of the set's
// pairs, and its accuracy on each analogy set over resamples of the set's
// questions. The resamples depend only on the set's key and size, never on
// the trial, so every trial scored on a set shares them: replicate b of two
// trials is scored on the same multiset of pairs (or questions), and their
// difference over b is a paired bootstrap of the difference of their
// scores.
type Bootstrap struct {
	// B is the number of resamples.
	B int `json:"b"`
	// Scores maps a score metric's key (spearman.[SIM.]RULE.SET, or an
	// analogy set's whole accuracy analogy.SET and analogy_mul.SET) to its
	// B replicates, encoded by EncodeReplicates relative to the metric's
	// value. Both kinds are values in [-1, 1], as Check requires.
	Scores map[string]string `json:"scores"`
}

// Replicates decodes the replicates of a score metric whose value is
// center; false when the record has none for it, or none it can use: an
// encoding EncodeReplicates would not write (see Check). A score without
// usable replicates is not tested.
func (b *Bootstrap) Replicates(key string, center float64) ([]float64, bool) {
	if b == nil {
		return nil, false
	}
	if _, ok := b.Scores[key]; !ok {
		return nil, false
	}
	xs, err := b.decode(key, center)
	if err != nil {
		return nil, false
	}
	return xs, true
}

// Check says why the replicates stored for key, around the score center,
// are not what EncodeReplicates writes for B values of ρ: nil when they
// are (or when there are none). Encoded replicates have B bytes after a
// finite step ≥ 0; with step 0 every deviation is 0 (or NaN); with a
// positive step the largest deviation is ±127 steps, at most 2 (the score
// and its replicates are values of ρ, in [−1, 1]).
func (b *Bootstrap) Check(key string, center float64) error {
	if b == nil {
		return nil
	}
	if _, ok := b.Scores[key]; !ok {
		return nil
	}
	_, err := b.decode(key, center)
	return err
}

func (b *Bootstrap) decode(key string, center float64) ([]float64, error) {
	buf, err := base64.StdEncoding.DecodeString(b.Scores[key])
	if err != nil {
		return nil, fmt.Errorf("bootstrap replicates: not base64: %w", err)
	}
	if len(buf) != 4+b.B || b.B < 0 {
		return nil, fmt.Errorf("bootstrap replicates: %d bytes, want 4 and one per resample (b = %d)", len(buf), b.B)
	}
	if math.IsNaN(center) || math.Abs(center) > 1 {
		return nil, fmt.Errorf("bootstrap replicates: the score is %v, want a ρ in [-1, 1]", center)
	}
	step := float64(math.Float32frombits(binary.LittleEndian.Uint32(buf)))
	if math.IsNaN(step) || math.IsInf(step, 0) || step < 0 {
		return nil, fmt.Errorf("bootstrap replicates: step %v, want a finite step ≥ 0", step)
	}
	most := 0
	for _, c := range buf[4:] {
		if c != 0x80 {
			most = max(most, abs(int(int8(c))))
		}
	}
	switch {
	case step == 0 && most != 0:
		return nil, fmt.Errorf("bootstrap replicates: step 0 with deviations of up to %d steps, want none", most)
	case step > 0 && most != 127:
		return nil, fmt.Errorf("bootstrap replicates: step %v with a largest deviation of %d steps, want 127", step, most)
	}
	// Two values of ρ differ by at most 2 (the float32 step may pass it by
	// a relative 2^-24).
	if 127*step > 2*(1+1e-6) {
		return nil, fmt.Errorf("bootstrap replicates: step %.4g, deviations of up to %.4g from the score: two values of ρ differ by at most 2", step, 127*step)
	}
	return DecodeReplicates(b.Scores[key], center)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// bootstrapProblems are the bootstrap replicates of a record (at line n of
// its file) that Check refuses, as ReadInfo.Problems.
func bootstrapProblems(n int, r Record) []string {
	if r.Bootstrap == nil {
		return nil
	}
	keys := make([]string, 0, len(r.Bootstrap.Scores))
	for k := range r.Bootstrap.Scores {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		center, ok := r.Metrics[k]
		var err error
		if !ok {
			err = errors.New("bootstrap replicates of a score the record does not have")
		} else {
			err = r.Bootstrap.Check(k, center)
		}
		if err != nil {
			out = append(out, fmt.Sprintf("%d: trial %s: %s: %v: the score is shown as not tested", n, r.ID, k, err))
		}
	}
	return out
}

// EncodeReplicates stores replicates as their deviations from center
// quantised to one byte each, with the step as a float32 before them,
// base64: about 1.4 bytes a replicate, at a resolution of 1/127 of the
// largest deviation (for ρ, 1e-3 or finer), which is far below the spread
// the replicates measure. A NaN replicate (ρ undefined on that resample)
// is stored as -128.
func EncodeReplicates(xs []float64, center float64) string {
	most := 0.0
	for _, x := range xs {
		if !math.IsNaN(x) {
			most = math.Max(most, math.Abs(x-center))
		}
	}
	step := float32(most / 127)
	buf := make([]byte, 4+len(xs))
	binary.LittleEndian.PutUint32(buf, math.Float32bits(step))
	for i, x := range xs {
		switch {
		case math.IsNaN(x):
			buf[4+i] = 0x80
		case step == 0:
			buf[4+i] = 0
		default:
			q := math.Round((x - center) / float64(step))
			buf[4+i] = byte(int8(math.Max(-127, math.Min(127, q))))
		}
	}
	return base64.StdEncoding.EncodeToString(buf)
}

// DecodeReplicates reverses EncodeReplicates.
func DecodeReplicates(enc string, center float64) ([]float64, error) {
	buf, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return nil, fmt.Errorf("bootstrap replicates: %w", err)
	}
	if len(buf) < 4 {
		return nil, fmt.Errorf("bootstrap replicates: %d bytes, want at least 4", len(buf))
	}
	step := float64(math.Float32frombits(binary.LittleEndian.Uint32(buf)))
	out := make([]float64, len(buf)-4)
	for i, c := range buf[4:] {
		if c == 0x80 {
			out[i] = math.NaN()
			continue
		}
		out[i] = center + float64(int8(c))*step
	}
	return out, nil
}

// Interval is the normal bootstrap interval of a value at level 95%: the
// value ± 1.96 standard deviations of its replicates (NaN ones left out),
// and that standard deviation. With fewer than two finite replicates the
// interval is NaN.
func Interval(value float64, replicates []float64) (lo, hi, sd float64) {
	sd = StdDev(replicates)
	return value - 1.96*sd, value + 1.96*sd, sd
}

// StdDev is the sample standard deviation of the finite values of xs (NaN
// with fewer than two).
func StdDev(xs []float64) float64 {
	n, mean := 0, 0.0
	for _, x := range xs {
		if !math.IsNaN(x) {
			n++
			mean += x
		}
	}
	if n < 2 {
		return math.NaN()
	}
	mean /= float64(n)
	ss := 0.0
	for _, x := range xs {
		if !math.IsNaN(x) {
			ss += (x - mean) * (x - mean)
		}
	}
	return math.Sqrt(ss / float64(n-1))
}

// Difference compares two values measured on the same resamples (a paired
// bootstrap): the interval of a − b is their difference ± 1.96 standard
// deviations of the replicates' differences (resamples where either is NaN
// left out). Sign is +1 when the interval lies above 0 (a is higher), -1
// below, 0 when it holds 0 (a tie) or cannot be told.
func Difference(a, b float64, ra, rb []float64) (lo, hi float64, sign int) {
	if len(ra) != len(rb) || len(ra) == 0 {
		return math.NaN(), math.NaN(), 0
	}
	d := make([]float64, len(ra))
	for i := range ra {
		d[i] = ra[i] - rb[i]
	}
	lo, hi, _ = Interval(a-b, d)
	switch {
	case lo > 0:
		sign = 1
	case hi < 0:
		sign = -1
	}
	return lo, hi, sign
}
