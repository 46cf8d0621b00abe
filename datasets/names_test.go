package datasets

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIsPathAndKey(t *testing.T) {
	known := func(s string) bool { return s == "men" || s == "M.Turk" }
	for _, tc := range []struct {
		value string
		path  bool
		key   string
	}{
		{"men", false, "men"},
		{"M.Turk", false, "M.Turk"}, // a built-in name with a dot is not a file
		{"mnn", false, "mnn"},       // an unknown name, not a path
		{"pairs.txt", true, "pairs.txt"},
		{"./men", true, "men"},
		{"dir/my-men.txt", true, "my-men.txt"},
		{`c:\sets\x.tsv`, true, `c:\sets\x.tsv`},
	} {
		assert.Equal(t, tc.path, IsPath(tc.value, known), tc.value)
		if tc.value != `c:\sets\x.tsv` {
			assert.Equal(t, tc.key, Key(tc.value, known), tc.value)
		}
	}
	assert.True(t, IsPath("table.csv", nil))
	assert.False(t, IsPath("tabledir", nil))
}
