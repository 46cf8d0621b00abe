package reports

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"strings"
	"unicode"

	"kcalab/internal/atomicfile"
	"kcalab/reports/page"
)

// Summary is what the index says of one report: its question, its
// headline and where its numbers came from.
type Summary struct {
	Question string // the report's question (Report.Question), else its description's first sentence
	// Verdict is the answer in one line: the verdict of the section
	// Headline is from (see Verdict); the rest is one click away.
	Verdict Verdict
	// Headline is the page's computed answer, whole, caveats included: the
	// first Headline block of the section the page opens with, else of the
	// first section that has one; nil when the page computes none.
	Headline []string
	Lead     string // the title of the section Headline is from, else of the one the page opens with
	Trials   string // "74 trial(s): 70 ok, 4 over_budget"
	// Provenance and Warnings are the page header's lines on where and
	// when the trials ran (see provenanceLines).
	Provenance, Warnings []string
}

// Summarize builds the report's sections, as Write does, and returns what
// an index shows of it.
func Summarize(r Report) (Summary, error) {
	p := newBuilder(r)
	sections, err := p.sections(r)
	if err != nil {
		return Summary{}, fmt.Errorf("reports: %w", err)
	}
	return p.summary(r, sections), nil
}

// summary is what an index shows of the page built from these sections.
func (p *builder) summary(r Report, sections []Section) Summary {
	s := Summary{Question: QuestionOf(r.Question, r.Description)}
	for _, m := range p.meta(r) {
		if strings.Contains(m, "trial(s)") {
			s.Trials = m
		}
	}
	s.Provenance, s.Warnings = provenanceLines(r.Records)
	s.Lead, s.Headline, s.Verdict = p.answer(sections)
	if u := r.Unfinished; u != nil && u.Trials > 0 {
		s.Warnings = append([]string{u.warning()}, s.Warnings...)
		s.Verdict.Provisional = fmt.Sprintf("%d trial(s) not run", u.Trials)
	}
	return s
}

// answer is what a page answers: the title of the section it is from,
// the headline (whole) and the verdict of the first section that computes
// one (of the section the page opens with when it does). A page that
// opens with its tuning choices answers with the verdict on the chosen
// designs, the choices after it.
func (p *builder) answer(sections []Section) (lead string, head Headline, v Verdict) {
	if len(sections) > 0 {
		lead = sections[0].Title
	}
	for i, sec := range sections {
		h := headlineOf(sec)
		if len(h) == 0 {
			continue
		}
		lead, head, v = sec.Title, h, p.verdictOf(sec)
		// Which design each group chose does not answer a question about
		// the methods: the verdict on the chosen designs comes first, the
		// choices after it.
		if sec.ID == tuningSectionID {
			// The verdict of each method at its best answers it, when the
			// page has one (atbest.go): its headline leads the section.
			if _, ok := p.verdicts[tuningSectionID]; ok {
				lead = p.tuningLead
				break
			}
			for _, next := range sections[i+1:] {
				if nh := headlineOf(next); len(nh) > 0 {
					lead = next.Title + ", each design chosen on the dev parts"
					head = append(append(Headline{}, nh...), h...)
					v = p.verdictOf(next)
					break
				}
			}
		}
		break
	}
	return lead, head, v
}

// QuestionOf is what a spec asks, in one line: its question, else its
// description's first sentence.
func QuestionOf(question, description string) string {
	if q := strings.TrimSpace(question); q != "" {
		return q
	}
	return firstSentence(description)
}

// headlineOf is the section's first Headline block (its subsections' when
// it has none of its own), or nil.
func headlineOf(s Section) Headline {
	if h := headlineIn(s.Blocks); len(h) > 0 {
		return h
	}
	for _, sub := range s.Subsections {
		if h := headlineOf(sub); len(h) > 0 {
			return h
		}
	}
	return nil
}

// headlineIn is the first Headline among blocks, looking into rows and
// collapsed groups.
func headlineIn(blocks []Block) Headline {
	for _, b := range blocks {
		var h Headline
		switch b := b.(type) {
		case Headline:
			h = b
		case Row:
			h = headlineIn(b)
		case Details:
			h = headlineIn(b.Blocks)
		}
		if len(h) > 0 {
			return h
		}
	}
	return nil
}

// firstSentence is text up to its first full stop (or ? or !) outside
// parentheses that a space and a capital letter, a digit or the end
// follow; the whole text (trimmed) when it has none.
func firstSentence(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	depth := 0
	rs := []rune(text)
	for i, r := range rs {
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			depth = max(depth-1, 0)
		case '.', '?', '!':
			if depth > 0 {
				continue
			}
			if i+1 == len(rs) {
				return text
			}
			if i+2 < len(rs) && rs[i+1] == ' ' && (unicode.IsUpper(rs[i+2]) || unicode.IsDigit(rs[i+2])) {
				return string(rs[:i+1])
			}
		}
	}
	return text
}

// IndexEntry is one spec in the index.
type IndexEntry struct {
	Name string
	// Summary of its report; zero when the spec has no results yet.
	Summary Summary
	Ran     bool
	// Links relative to the index page ('/'-separated): the report, the
	// spec file and the results file; "" when there is none.
	Report, Spec, Results string
	// Related names the other specs its description names.
	Related []string
	// Problem, when set, says why the spec or its results cannot be shown
	// (a spec that does not load, a results file that does not read or is
	// not the spec's); the entry is marked with it and links no report.
	Problem string
}

// Index is the page that lists every spec, one row each: its question
// and verdict (the answer in one line), the whole answer (headline) and
// where and when it ran one click away, and links to its report, spec and
// results.
type Index struct {
	Title   string
	Entries []IndexEntry
	// Command is how a reader makes a spec's results ("go run .
	// experiments/NAME.yaml"), shown for specs that have none; NAME is
	// replaced by the spec's name.
	Command string
}

// WriteIndexFile writes the index to path, replacing it only once the whole
// page has been written.
func WriteIndexFile(path string, ix Index) error {
	var buf bytes.Buffer
	if err := WriteIndex(&buf, ix); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, buf.Bytes()); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}

// WriteIndex renders the index: one self-contained page; its one script
// only sorts the table by a click on a header (tableScript).
func WriteIndex(w io.Writer, ix Index) error {
	if strings.TrimSpace(ix.Title) == "" {
		return fmt.Errorf("reports: Index.Title is empty")
	}
	type entry struct {
		IndexEntry
		ReportHref, SpecHref, ResultsHref string
		Anchor                            string
		RelatedLinks                      []map[string]string
		Run                               string
		Verdict                           string // Summary.Verdict in one line
	}
	anchors := map[string]bool{}
	for _, e := range ix.Entries {
		anchors[e.Name] = true
	}
	var es []entry
	for _, e := range ix.Entries {
		x := entry{IndexEntry: e, Anchor: "spec-" + anchorOf(e.Name)}
		x.ReportHref, x.SpecHref, x.ResultsHref = Link{Path: e.Report}.Href(), Link{Path: e.Spec}.Href(), Link{Path: e.Results}.Href()
		if e.Problem != "" {
			// A report on disk is not of these results: not linked.
			x.ReportHref = ""
		}
		for _, r := range e.Related {
			if anchors[r] {
				x.RelatedLinks = append(x.RelatedLinks, map[string]string{"Name": r, "Href": "#spec-" + anchorOf(r)})
			}
		}
		x.Run = strings.ReplaceAll(ix.Command, "NAME", e.Name)
		x.Verdict = e.Summary.Verdict.String()
		es = append(es, x)
	}
	var out bytes.Buffer
	if err := tplIndex.Execute(&out, map[string]any{"Title": ix.Title, "Entries": es, "Tables": template.JS(page.TableScript)}); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	_, err := w.Write(out.Bytes())
	if err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}

// anchorOf makes a spec name an id: letters, digits, '-' and '_' kept,
// anything else '-'.
func anchorOf(name string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_') {
			return r
		}
		return '-'
	}, name)
}

var tplIndex = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222; margin: 0 auto; max-width: 1500px; padding: 0 24px 48px; line-height: 1.4; overflow-wrap: anywhere; }
h1 { margin: 24px 0 4px; }
.meta { color: #555; margin: 0 0 12px; }
.scroll { overflow-x: auto; max-width: 100%; }
table.index { border-collapse: collapse; margin: 12px 0; font-size: 14px; width: 100%; }
table.index th, table.index td { border: 1px solid #ccc; padding: 6px 8px; vertical-align: top; text-align: left; }
table.index thead th { background: #eee; }
table.index thead th.sortable { cursor: pointer; }
table.index thead th[aria-sort="ascending"]::after { content: " ▲"; font-size: 10px; }
table.index thead th[aria-sort="descending"]::after { content: " ▼"; font-size: 10px; }
table.index td { overflow-wrap: normal; }
table.index td.name, table.index td.files { white-space: nowrap; }
table.index td.name { font-weight: 600; }
table.index td.trials { width: 13em; }
.question { font-weight: 600; }
.verdict { margin: 2px 0; }
.lead { color: #555; font-size: 13px; }
details > summary { cursor: pointer; color: #1f5fbf; font-size: 13px; }
details .answer { margin: 4px 0; }
.warn { color: #8a4b00; background: #fff4e0; border-left: 4px solid #e0a030; padding: 2px 6px; margin: 4px 0; }
details.warn > summary { color: #8a4b00; }
.missing { color: #777; font-style: italic; }
.bad { white-space: pre-line; color: #8b0000; background: #fdecea; border-left: 4px solid #c62828; padding: 2px 6px; margin: 4px 0; }
ul.files { margin: 0; padding-left: 18px; }
code { font-size: 13px; }
</style>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
<p class="meta">{{len .Entries}} experiment spec(s): each row is its question and the answer its results give, in one line; the whole answer, with every caveat, is one click away (and in the report, one self-contained page that works offline).</p>
</header>
<div class="scroll"><table class="index">
<thead><tr><th>Experiment</th><th>Question and answer (computed from its results)</th><th>Trials</th><th>Files</th></tr></thead>
<tbody>
{{range .Entries}}<tr id="{{.Anchor}}">
<td class="name">{{if .ReportHref}}<a href="{{.ReportHref}}">{{.Name}}</a>{{else}}{{.Name}}{{end}}</td>
<td class="qa">{{with .Summary.Question}}<div class="question">{{.}}</div>{{end}}{{if .Problem}}<div class="bad">✗ Not shown: {{.Problem}}</div>{{else if .Ran}}{{with .Verdict}}<div class="verdict">{{.}}</div>{{else}}<div class="missing">the page computes no single answer</div>{{end}}{{if or .Summary.Headline .RelatedLinks}}<details class="whole"><summary>The whole answer{{with .Summary.Lead}} ({{.}}){{end}}</summary>{{range .Summary.Headline}}<p class="answer">{{.}}</p>{{end}}{{with .RelatedLinks}}<p class="lead">Compares with: {{range $i, $r := .}}{{if $i}}, {{end}}<a href="{{$r.Href}}">{{$r.Name}}</a>{{end}}</p>{{end}}</details>{{end}}{{else}}<div class="missing">Not run yet: <code>{{.Run}}</code></div>{{end}}</td>
<td class="trials">{{if .Ran}}{{.Summary.Trials}}{{if or .Summary.Provenance .Summary.Warnings}}<details{{if .Summary.Warnings}} class="warn"{{end}}><summary>{{if .Summary.Warnings}}⚠ {{end}}when and where</summary>{{range .Summary.Provenance}}<p>{{.}}</p>{{end}}{{range .Summary.Warnings}}<div class="warn">⚠ {{.}}</div>{{end}}</details>{{end}}{{else}}—{{end}}</td>
<td class="files"><ul class="files">{{if .ReportHref}}<li><a href="{{.ReportHref}}">report</a></li>{{end}}{{if .SpecHref}}<li><a href="{{.SpecHref}}">spec</a></li>{{end}}{{if .ResultsHref}}<li><a href="{{.ResultsHref}}">results.jsonl</a></li>{{end}}</ul></td>
</tr>
{{end}}</tbody>
</table></div>
<script>
{{.Tables}}</script>
</body>
</html>
`))
