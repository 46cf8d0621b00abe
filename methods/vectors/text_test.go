package vectors

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

func smallSet(t *testing.T) *Set {
	tenth, fifth := 0.1, 0.2 // variables: constant arithmetic would be exact
	s, err := New([]string{"king", "queen", "cat"}, mat.NewDense(3, 4, []float64{
		0.5, -1.25, 3, 1e-300,
		tenth, fifth, tenth + fifth, math.Copysign(0, -1),
		1e21, 123456.789, -7, 2.5e-8,
	}))
	require.NoError(t, err)
	return s
}

func TestWriteTextGolden(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WriteText(&buf, smallSet(t), 64))
	golden := filepath.Join("testdata", "small.w2v")
	if *update {
		require.NoError(t, os.WriteFile(golden, buf.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), buf.String())

	got, err := ReadTextFile(golden)
	require.NoError(t, err)
	assert.Equal(t, smallSet(t).Words, got.Words)
	assert.True(t, mat.Equal(smallSet(t).M, got.M))
}

// TestRoundTrip64 checks that 64-bit text keeps every bit of random values
// spread over many magnitudes.
func TestRoundTrip64(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d = 50, 17
	data := make([]float64, n*d)
	for i := range data {
		data[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(80)-40))
	}
	words := make([]string, n)
	for i := range words {
		words[i] = "w" + string(rune('a'+i%26)) + strings.Repeat("é", i/26)
	}
	s, err := New(words, mat.NewDense(n, d, data))
	require.NoError(t, err)

	path := filepath.Join(t.TempDir(), "v.txt")
	require.NoError(t, WriteTextFile(path, s, 64))
	got, err := ReadTextFile(path)
	require.NoError(t, err)
	assert.Equal(t, words, got.Words)
	for i, v := range got.M.RawMatrix().Data {
		require.Equal(t, math.Float64bits(data[i]), math.Float64bits(v), "value %d", i)
	}

	// 32 bits: a float32 reader (gensim) gets back the float32 rounding, exactly.
	for i := range data {
		data[i] *= 1e-10 // within float32 range (the smallest round to 0)
		s.M.RawMatrix().Data[i] = data[i]
	}
	require.NoError(t, WriteTextFile(path, s, 32))
	got, err = ReadTextFile(path)
	require.NoError(t, err)
	for i, v := range got.M.RawMatrix().Data {
		require.Equal(t, math.Float32bits(float32(data[i])), math.Float32bits(float32(v)), "value %d", i)
	}
}

func TestWriteTextErrors(t *testing.T) {
	var buf bytes.Buffer
	s := smallSet(t)
	assert.ErrorContains(t, WriteText(&buf, s, 16), "bit size 16: want 32 or 64")
	assert.ErrorContains(t, WriteText(&buf, nil, 64), "empty set")

	s.M.Set(1, 2, math.NaN())
	assert.ErrorContains(t, WriteText(&buf, s, 64), `word "queen", value 3: NaN is not finite`)
	s.M.Set(1, 2, 1e300)
	require.NoError(t, WriteText(&buf, s, 64))
	assert.ErrorContains(t, WriteText(&buf, s, 32), `word "queen", value 3: 1e+300 is not finite as a float32`)

	bad := &Set{Words: []string{"a b"}, M: mat.NewDense(1, 1, nil)}
	assert.ErrorContains(t, WriteText(&buf, bad, 64), "contains whitespace")

	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	assert.ErrorContains(t, WriteTextFile(filepath.Join(file, "dir.txt"), smallSet(t), 64), "dir.txt")
}

// A vectors file name that is a symbolic link is refused: the file it
// points to keeps its bytes.
func TestWriteTextFileRefusesLink(t *testing.T) {
	target := filepath.Join(t.TempDir(), "precious.txt")
	require.NoError(t, os.WriteFile(target, []byte("keep"), 0o644))
	link := filepath.Join(t.TempDir(), "v.txt")
	require.NoError(t, os.Symlink(target, link))
	err := WriteTextFile(link, smallSet(t), 64)
	assert.ErrorContains(t, err, "is a symbolic link")
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "keep", string(got))
}

func TestReadTextWord2vecC(t *testing.T) {
	// The original tool writes a trailing space after every value.
	s, err := ReadTextFile("testdata/word2vec_c.txt")
	require.NoError(t, err)
	assert.Equal(t, []string{"</s>", "the"}, s.Words)
	assert.Equal(t, []float64{-0.1, 0.2, 0.3}, s.Row(1))
}

func TestReadTextErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "t.txt: empty file"},
		{"header one field", "3\n", `t.txt:1: header has 1 fields`},
		{"header text", "a b\n", `t.txt:1: header "a b": want two positive integers`},
		{"header zero", "0 3\n", "want two positive integers"},
		{"header negative", "2 -3\n", "want two positive integers"},
		{"short row", "2 2\na 1 2\nb 1\n", `t.txt:3: word "b" has 1 values, want 2`},
		{"long row", "1 2\na 1 2 3\n", `t.txt:2: word "a" has 3 values, want 2`},
		{"not a number", "1 2\na 1 x\n", `t.txt:2: word "a", value 2: "x" is not a number`},
		{"nan", "1 2\na nan 1\n", `t.txt:2: word "a", value 1: "nan" is not finite`},
		{"overflow", "1 1\na 1e999\n", `"1e999" is not finite`},
		{"duplicate", "2 1\na 1\na 2\n", `t.txt:3: word "a" repeats line 2`},
		{"truncated", "3 1\na 1\nb 2\n", "t.txt: header announces 3 words, file has 2"},
		{"extra", "1 1\na 1\nb 2\n", "t.txt:3: more lines than the 1 words"},
		{"blank inside", "2 1\na 1\n\nb 2\n", "t.txt:3: blank line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadText(strings.NewReader(tc.in), "t.txt")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := ReadTextFile("testdata/no-such-file.txt")
	assert.ErrorContains(t, err, "no-such-file.txt")

	s, err := ReadText(strings.NewReader("\xef\xbb\xbf1 2\r\na\t1 2\r\n\n\n"), "t.txt")
	require.NoError(t, err, "BOM, CR, tabs and trailing blank lines are accepted")
	assert.Equal(t, []float64{1, 2}, s.Row(0))
}

// FuzzReadText: the reader never panics, and what it accepts is a valid set
// that writes and reads back unchanged.
func FuzzReadText(f *testing.F) {
	for _, s := range []string{"1 1\na 1\n", "2 3\n</s> 1 2 3 \nb 4 5 6\n", "", "1 2\na nan 1", "9999999999 99999999999\na 1\n", "2 1\na 1\na 2\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ReadText(strings.NewReader(in), "f.txt")
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "f.txt"), err.Error())
			return
		}
		_, err = New(s.Words, s.M)
		require.NoError(t, err)
		var buf bytes.Buffer
		require.NoError(t, WriteText(&buf, s, 64))
		back, err := ReadText(&buf, "back")
		require.NoError(t, err)
		require.Equal(t, s.Words, back.Words)
		require.True(t, mat.Equal(s.M, back.M))
	})
}

func ExampleWriteText() {
	s, err := New([]string{"cat", "dog"}, mat.NewDense(2, 3, []float64{0.1, -2, 1e-7, 1.0 / 3, 0, 5}))
	if err != nil {
		fmt.Println(err)
		return
	}
	var buf bytes.Buffer
	for _, bits := range []int{64, 32} {
		buf.Reset()
		if err := WriteText(&buf, s, bits); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Print(buf.String())
	}
	back, err := ReadText(&buf, "dogs.txt")
	fmt.Println(back.Words, back.Dim(), err)
	// Output:
	// 2 3
	// cat 0.1 -2 1e-07
	// dog 0.3333333333333333 0 5
	// 2 3
	// cat 0.1 -2 1e-07
	// dog 0.33333334 0 5
	// [cat dog] 3 <nil>
}

// Word vectors are read from a regular file only: a FIFO or a device at
// {out} is refused at once.
func TestReadTextFileRegularOnly(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "v.txt")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	for path, want := range map[string]string{
		fifo:         "v.txt: not a regular file (a FIFO): want word vectors in word2vec text format",
		"/dev/zero":  "/dev/zero: not a regular file (a character device)",
		os.TempDir(): "not a regular file (a directory)",
	} {
		done := make(chan error, 1)
		go func() { _, err := ReadTextFile(path); done <- err }()
		select {
		case err := <-done:
			assert.ErrorContains(t, err, want)
		case <-time.After(10 * time.Second):
			t.Fatalf("ReadTextFile(%s) did not return", path)
		}
	}
}
