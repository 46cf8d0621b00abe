package harness

import (
	"fmt"
	"io"
	"strings"
)

// WriteSettingsReference writes the spec reference as a Markdown table, from
// the same table the decoder uses, so the documentation cannot drift.
func WriteSettingsReference(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n")
	for _, group := range [][]Setting{runKeys, Settings} {
		for _, s := range group {
			def := "(required)"
			if s.Default != nil {
				def = fmt.Sprintf("`%v`", s.Default)
				if s.Default == "" {
					def = `""`
				}
			}
			allowed := ""
			switch {
			case len(s.Enum) > 0:
				allowed = strings.Join(s.Enum, ", ")
			case s.Min != nil && s.Max != nil:
				allowed = fmt.Sprintf("%v … %v", *s.Min, *s.Max)
			case s.Min != nil:
				allowed = fmt.Sprintf("≥ %v", *s.Min)
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", s.Key, s.Kind, def, allowed, strings.ReplaceAll(s.Doc, "|", `\|`))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
