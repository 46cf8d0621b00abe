package harness

import (
	"strconv"
	"strings"
	"unicode"
)

// TermSafe escapes control characters (ESC, CR, BEL, …) in a name that
// came from a file or a spec, so printing it cannot move the cursor, clear
// the screen or retitle the terminal. Plain text passes unchanged.
func TermSafe(s string) string {
	if !strings.ContainsFunc(s, isUnsafeRune) {
		return s
	}
	q := strconv.QuoteToGraphic(s)
	return q[1 : len(q)-1]
}

func isUnsafeRune(r rune) bool {
	return r == unicode.ReplacementChar || unicode.IsControl(r) || (!unicode.IsGraphic(r) && r != ' ')
}

// commandLine shows a command for the terminal: each argument quoted when
// it has spaces, quotes or control characters.
func commandLine(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsFunc(a, func(r rune) bool { return unicode.IsSpace(r) || r == '"' || r == '\'' || isUnsafeRune(r) }) {
			a = strconv.QuoteToGraphic(a)
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// TermSafeText is TermSafe for multi-line text (error messages): newlines
// and tabs stay.
func TermSafeText(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		parts := strings.Split(l, "\t")
		for j, p := range parts {
			parts[j] = TermSafe(p)
		}
		lines[i] = strings.Join(parts, "\t")
	}
	return strings.Join(lines, "\n")
}
