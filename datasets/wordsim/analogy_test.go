package wordsim

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAnalogies(t *testing.T) {
	in := "Athens Greece Baghdad Iraq\n: capital-common-countries\nathens greece\tbaghdad iraq\r\n\n:  family \nboy girl brother sister\n"
	qs, err := ParseAnalogies(strings.NewReader(in), "q.txt", Lowercase())
	require.NoError(t, err)
	assert.Equal(t, []Question{
		{"", "athens", "greece", "baghdad", "iraq"},
		{"capital-common-countries", "athens", "greece", "baghdad", "iraq"},
		{"family", "boy", "girl", "brother", "sister"},
	}, qs)

	qs, err = LoadAnalogyFile("testdata/analogies.txt")
	require.NoError(t, err)
	assert.Len(t, qs, 4)
	_, err = LoadAnalogyFile("testdata/none.txt")
	assert.ErrorContains(t, err, "none.txt")
}

func TestParseAnalogiesErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "q.txt: no questions"},
		{"sections only", ": a\n: b\n", "q.txt: no questions"},
		{"three words", ": s\na b c\n", "q.txt:2: 3 words, want 4"},
		{"five words", "a b c d e\n", "q.txt:1: 5 words, want 4"},
		{"empty section", "a b c d\n:\n", `q.txt:2: empty section name after ":"`},
		{"long line", strings.Repeat("a", maxLine+1), "q.txt:1: line longer than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseAnalogies(strings.NewReader(tc.in), "q.txt")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func FuzzParseAnalogies(f *testing.F) {
	for _, s := range []string{": s\na b c d\n", "a b c\n", ":\n", "\xef\xbb\xbf: x\r\nA B C D"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		qs, err := ParseAnalogies(strings.NewReader(in), "f.txt", Lowercase())
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "f.txt"), err.Error())
			return
		}
		require.NotEmpty(t, qs)
		for _, q := range qs {
			for _, w := range []string{q.A, q.AStar, q.B, q.BStar} {
				require.NotEmpty(t, w)
				require.False(t, strings.ContainsAny(w, " \t\r\n"))
			}
		}
	})
}
