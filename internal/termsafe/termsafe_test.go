package termsafe

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestString(t *testing.T) {
	tests := []struct{ in, name, text string }{
		{"plain name", "plain name", "plain name"},
		{"évian ü", "évian ü", "évian ü"},
		{"a\x1b[2Jb", `a\x1b[2Jb`, `a\x1b[2Jb`},
		{"bell\a\rcr", `bell\a\rcr`, `bell\a\rcr`},
		{"two\nlines\tok", `two\nlines\tok`, "two\nlines\tok"},
		{"bad\xffutf8", `bad\xffutf8`, `bad\xffutf8`},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.name, String(tt.in), "%q", tt.in)
		assert.Equal(t, tt.text, Text(tt.in), "%q", tt.in)
	}
}

func TestCommandLine(t *testing.T) {
	assert.Equal(t, `fasttext skipgram "-input file" "" "a\x1bb"`, CommandLine([]string{"fasttext", "skipgram", "-input file", "", "a\x1bb"}))
}
