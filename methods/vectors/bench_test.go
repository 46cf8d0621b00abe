package vectors

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randomVectors(b *testing.B, v, d int) *Set {
	rng := rand.New(rand.NewPCG(1, 1))
	words := make([]string, v)
	for i := range words {
		words[i] = fmt.Sprintf("w%d", i)
	}
	data := make([]float64, v*d)
	for i := range data {
		data[i] = rng.NormFloat64()
	}
	s, err := New(words, mat.NewDense(v, d, data))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkWriteRead10kx300 writes and reads back 10,000 × 300 vectors
// (text8's vocabulary is 71,290 words: scale by 7).
func BenchmarkWriteRead10kx300(b *testing.B) {
	s := randomVectors(b, 10000, 300)
	for _, bits := range []int{32, 64} {
		var buf bytes.Buffer
		b.Run(fmt.Sprintf("write%d", bits), func(b *testing.B) {
			for b.Loop() {
				buf.Reset()
				if err := WriteText(&buf, s, bits); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len())/1e6, "MB")
		})
		b.Run(fmt.Sprintf("read%d", bits), func(b *testing.B) {
			for b.Loop() {
				if _, err := ReadText(bytes.NewReader(buf.Bytes()), "bench"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScaleCoordinates70kx300 scales a text8-sized U in place.
func BenchmarkScaleCoordinates70kx300(b *testing.B) {
	s := randomVectors(b, 70000, 300)
	sv := make([]float64, 300)
	r := make([]float64, 70000)
	for i := range sv {
		sv[i] = 1 / float64(i+1)
	}
	for i := range r {
		r[i] = 1 / float64(70000)
	}
	for b.Loop() {
		if err := ScaleCoordinates(s.M, sv, r, Principal); err != nil {
			b.Fatal(err)
		}
	}
}
