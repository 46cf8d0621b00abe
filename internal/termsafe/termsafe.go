package termsafe

import (
	"strconv"
	"strings"
	"unicode"
)

// String escapes control characters (ESC, CR, BEL, …) in a name that
// came from a file or a spec, so printing it cannot move the cursor, clear
// the screen or retitle the terminal. Plain text passes unchanged.
func String(s string) string {
	if !strings.ContainsFunc(s, isUnsafeRune) {
		return s
	}
	q := strconv.QuoteToGraphic(s)
	return q[1 : len(q)-1]
}

func isUnsafeRune(r rune) bool {
	return r == unicode.ReplacementChar || unicode.IsControl(r) || (!unicode.IsGraphic(r) && r != ' ')
}

// CommandLine shows a command for the terminal: each argument quoted when
// it has spaces, quotes or control characters.
func CommandLine(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsFunc(a, func(r rune) bool { return unicode.IsSpace(r) || r == '"' || r == '\'' || isUnsafeRune(r) }) {
			a = strconv.QuoteToGraphic(a)
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// Text is String for multi-line text (error messages): newlines
// and tabs stay.
func Text(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		parts := strings.Split(l, "\t")
		for j, p := range parts {
			parts[j] = String(p)
		}
		lines[i] = strings.Join(parts, "\t")
	}
	return strings.Join(lines, "\n")
}
