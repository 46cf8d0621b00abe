package wordsim

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/datatest"
)

func TestParse(t *testing.T) {
	in := "\xef\xbb\xbfTiger\tcat\t7.35\r\n\n  plane  car 5.77\nа б -1e-2\n"
	s, err := Parse(strings.NewReader(in), "t.txt")
	require.NoError(t, err)
	assert.Equal(t, "t.txt", s.Name)
	assert.Equal(t, []Pair{{"Tiger", "cat", 7.35}, {"plane", "car", 5.77}, {"а", "б", -0.01}}, s.Pairs)

	s, err = Parse(strings.NewReader(in), "t.txt", Lowercase())
	require.NoError(t, err)
	assert.Equal(t, "tiger", s.Pairs[0].W1)
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "t.txt: no pairs"},
		{"blank only", "\n \n\t\n", "t.txt: no pairs"},
		{"two fields", "a b 1\na 2\n", "t.txt:2: 2 fields, want 3"},
		{"four fields", "a b c 1\n", "t.txt:1: 4 fields, want 3"},
		{"header line", "word1 word2 score\na b 1\n", `t.txt:1: score "score" is not a number`},
		{"comma decimal", "a b 1,5\n", `t.txt:1: score "1,5" is not a number`},
		{"nan", "a b 1\n\nc d NaN\n", `t.txt:3: score "NaN" is not finite`},
		{"inf", "a b -Inf\n", `t.txt:1: score "-Inf" is not finite`},
		{"overflow", "a b 1e400\n", `t.txt:1: score "1e400" is not finite`},
		{"long line", "a b " + strings.Repeat("1", maxLine+1) + "\n", "t.txt:1: line longer than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.in), "t.txt")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestLoadFile(t *testing.T) {
	s, err := LoadFile("testdata/user.txt", Lowercase())
	require.NoError(t, err)
	assert.Equal(t, "testdata/user.txt", s.Name)
	require.Len(t, s.Pairs, 4)
	assert.Equal(t, Pair{"king", "queen", 8.5}, s.Pairs[0])
	assert.Equal(t, []string{"king", "queen", "cat", "dog", "car"}, s.Words())

	_, err = LoadFile("testdata/no-such-file.txt")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no-such-file.txt")
}

func TestLookup(t *testing.T) {
	for _, name := range []string{"men", "MEN", "Men"} {
		in, err := Lookup(name)
		require.NoError(t, err)
		assert.Equal(t, "men.txt", in.File)
	}
	in, err := Lookup("M.Turk")
	require.NoError(t, err)
	assert.Equal(t, "mturk", in.Short)

	_, err = Lookup("ws353")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown word-similarity set "ws353": want one of sim, rel, men, mturk, rare, s999`)

	assert.Equal(t, []string{"Sim", "Rel", "MEN", "M.Turk", "Rare", "S999"}, displays(Sets()))
	total := 0
	for _, in := range Sets() {
		total += in.Pairs
	}
	assert.Equal(t, 6775, total)
}

func displays(in []Info) []string {
	out := make([]string, len(in))
	for i, x := range in {
		out[i] = x.Display
	}
	return out
}

func TestLoadChecksCount(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "wordsim"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "wordsim", "mturk287.txt"), []byte("a\tb\t1\n"), 0o644))
	_, err := Load(dir, "mturk")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "has 1 pairs, want 287: wrong or truncated file")

	_, err = Load(dir, "men")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "word-similarity set MEN")
	assert.Contains(t, err.Error(), "men.txt")

	_, err = Load(dir, "nope")
	require.Error(t, err)
}

// TestRealSets reads the six shared sets: pair counts match the registry
// and every score lies on its set's scale.
func TestRealSets(t *testing.T) {
	dir := datatest.Dir(t)
	for _, in := range Sets() {
		t.Run(in.Short, func(t *testing.T) {
			s, err := Load(dir, in.Short)
			require.NoError(t, err)
			assert.Equal(t, in.Display, s.Name)
			assert.Len(t, s.Pairs, in.Pairs)
			for i, p := range s.Pairs {
				require.Truef(t, p.Score >= in.MinScore && p.Score <= in.MaxScore, "pair %d %v outside [%g, %g]", i+1, p, in.MinScore, in.MaxScore)
				require.Equal(t, strings.ToLower(p.W1), p.W1)
				require.Equal(t, strings.ToLower(p.W2), p.W2)
			}
		})
	}
}

func ExampleParse() {
	s, err := Parse(strings.NewReader("tiger\tcat\t7.35\nplane car 5.77\n"), "mine.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range s.Pairs {
		fmt.Println(p.W1, p.W2, p.Score)
	}
	_, err = Parse(strings.NewReader("tiger cat 7.35\nplane car high\n"), "mine.txt")
	fmt.Println(err)
	// Output:
	// tiger cat 7.35
	// plane car 5.77
	// mine.txt:2: score "high" is not a number
}

func ExampleLookup() {
	in, _ := Lookup("mturk")
	fmt.Println(in.Display, in.File, in.Pairs)
	// Output: M.Turk mturk287.txt 287
}

// FuzzParse checks that the parser never panics and that what it accepts
// is well formed.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a\tb\t1\n", "a b 1\r\nc d 2", "", "a b NaN", "\xef\xbb\xbfx y 0x1p3", "a b\n", "a b 1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(strings.NewReader(in), "f.txt", Lowercase())
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "f.txt"), err.Error())
			return
		}
		require.NotEmpty(t, s.Pairs)
		for _, p := range s.Pairs {
			require.NotEmpty(t, p.W1)
			require.NotEmpty(t, p.W2)
			require.False(t, strings.ContainsAny(p.W1+p.W2, " \t\n\r"))
		}
	})
}

func TestMergeRepeats(t *testing.T) {
	s := &Set{Name: "t", Pairs: []Pair{{"a", "b", 1}, {"c", "d", 5}, {"b", "a", 3}, {"a", "b", 5}, {"e", "f", 2}}}
	got, n := s.MergeRepeats()
	assert.Equal(t, 2, n)
	assert.Equal(t, []Pair{{"a", "b", 3}, {"c", "d", 5}, {"e", "f", 2}}, got.Pairs)
	assert.Len(t, s.Pairs, 5, "the input is not changed")
	same, n := got.MergeRepeats()
	assert.Zero(t, n)
	assert.Equal(t, got.Pairs, same.Pairs)
}
