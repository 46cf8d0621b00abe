package datasets

import (
	"path/filepath"
	"strings"
)

// IsPath tells a file path from a built-in name in a setting that takes
// either (data.corpus: text8; eval.sets: men, M.Turk): a value known
// reports true for is a built-in name, never a path; any other value with a
// slash or a file extension is a path; the rest are names (unknown ones,
// which the caller reports). known may be nil (no built-in names).
func IsPath(value string, known func(string) bool) bool {
	if known != nil && known(value) {
		return false
	}
	return strings.ContainsAny(value, `/\`) || filepath.Ext(value) != ""
}

// Key is the name a value of such a setting goes by in metric keys and
// reports: a built-in name as it is, a file by its base name with its
// extension ("my-men.txt"), which no built-in name has, so a user's
// men.txt is never shown as the paper's MEN.
func Key(value string, known func(string) bool) string {
	if IsPath(value, known) {
		return filepath.Base(value)
	}
	return value
}
