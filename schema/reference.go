package schema

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
	for _, group := range [][]Setting{RunKeys(), TrialSettings()} {
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
			case len(s.Allowed()) > 0:
				allowed = strings.Join(s.Allowed(), ", ")
			case s.Min != nil && s.Max != nil:
				allowed = fmt.Sprintf("%v … %v", *s.Min, *s.Max)
			case s.Min != nil:
				allowed = fmt.Sprintf("≥ %v", *s.Min)
			}
			doc := s.Doc
			if s.Key == "method" {
				doc = methodDoc()
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", s.Key, s.Kind, def, allowed, strings.ReplaceAll(doc, "|", `\|`))
		}
	}
	b.WriteString("\n## Methods\n\nEach method registers itself in one file of harness/builtin; a record keeps the settings it reads.\n\n")
	b.WriteString("| method | label | input | reads (table) | reads (corpus) |\n|---|---|---|---|---|\n")
	for _, m := range Methods() {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", m.Name, m.Label, m.Inputs,
			strings.Join(m.TableReads, ", "), strings.Join(m.CorpusReads, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
