package corpus

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func tokens(t testing.TB, r io.Reader, lower bool) ([]string, error) {
	t.Helper()
	tz := newTokenizer(r, lower)
	var out []string
	for tz.next() {
		out = append(out, string(tz.tok))
	}
	return out, tz.err()
}

func TestTokenizer(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		lower    bool
		want     []string
	}{
		{"empty", "", false, nil},
		{"blank", " \t\n\r\v\f ", false, nil},
		{"text8 style", " anarchism originated as a term", false, []string{"anarchism", "originated", "as", "a", "term"}},
		{"lines", "one two\nthree\r\nfour\n", false, []string{"one", "two", "three", "four"}},
		{"no trailing space", "a b", false, []string{"a", "b"}},
		{"unicode spaces", "x\u00a0y\u2003z\u3000w\u0085v", false, []string{"x", "y", "z", "w", "v"}},
		{"unicode words", "Größe ÉTÉ naïve", false, []string{"Größe", "ÉTÉ", "naïve"}},
		{"lowercase", "The CAT sat ÉTÉ", true, []string{"the", "cat", "sat", "été"}},
		{"invalid utf8 is a word byte", "a\xffb c", false, []string{"a\xffb", "c"}},
		{"punctuation stays", "this, is.", false, []string{"this,", "is."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tokens(t, strings.NewReader(tc.in), tc.lower)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestTokenizerTooLong(t *testing.T) {
	in := "ok " + strings.Repeat("x", MaxTokenBytes+1) + " after"
	got, err := tokens(t, strings.NewReader(in), false)
	require.ErrorContains(t, err, "token 2 is longer than 1048576 bytes without whitespace")
	assert.Equal(t, []string{"ok"}, got)
}

// The tokenizer splits exactly like strings.Fields (and lowercases like
// strings.ToLower), however the input arrives in pieces.
func FuzzTokenizer(f *testing.F) {
	for _, s := range []string{"", " a b ", "this is this is this", "x\u00a0y", "A\u2003B\xe2\x80", "é\u3000\xff", "a\r\nb\tc\vd\fe"} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, lower bool) {
		var want []string
		for _, w := range strings.Fields(string(data)) {
			if lower {
				w = strings.ToLower(w)
			}
			want = append(want, w)
		}
		for name, r := range map[string]io.Reader{
			"whole":    bytes.NewReader(data),
			"one byte": iotest.OneByteReader(bytes.NewReader(data)),
			"halves":   iotest.HalfReader(bytes.NewReader(data)),
		} {
			got, err := tokens(t, r, lower)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s: %d tokens %q, want %d %q", name, len(got), got, len(want), want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s: token %d = %q, want %q", name, i, got[i], want[i])
				}
			}
		}
	})
}
