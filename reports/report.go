package reports

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"kcalab/records"
	"kcalab/reports/compare"
	"kcalab/schema"

	"kcalab/internal/atomicfile"
	"kcalab/reports/page"
)

// Defaults for the zero values of Report's limits.
const (
	DefaultMaxCATrials  = 12
	DefaultMaxMapPoints = 200
)

// Report is one run's page.
type Report struct {
	Title       string // required
	Spec        string // spec name
	Description string // free text under the title
	// Question is what the page answers, in one line (a spec's
	// question:); "" means the description's first sentence.
	Question string
	Notes    []string
	// Unfinished, when not nil, says that the spec's grid has trials with
	// no record yet: the page warns, and its verdict says it is
	// provisional.
	Unfinished *Unfinished
	// Records are the trials, shown in the order given (the harness writes
	// them in grid order). The sections for word similarity, sweeps and
	// time/memory are built from them when they hold the metrics for it
	// (see the package doc).
	Records []records.Record
	// CATrials, when not empty, lists the ids of the trials that get a CA
	// section; otherwise the first MaxCATrials trials with a CA result do.
	CATrials    []string
	MaxCATrials int // 0 means DefaultMaxCATrials
	// MaxMapPoints caps the rows and the columns drawn on a CA map; the
	// points farthest from the origin on axes 1–2 are kept. 0 means
	// DefaultMaxMapPoints.
	MaxMapPoints int
	// Sections follow the built-in ones (word similarity, sweeps, time and
	// memory, trials, correspondence analysis).
	Sections []Section
	// ECharts says how the page loads the chart library; see FindECharts.
	ECharts Script
	// ResultsFile, when set, is the results file the page shows, relative
	// to the page (records.FileName beside it); the header links it.
	ResultsFile string
	// IndexFile and SpecFile, when set, are the index of every spec's
	// report and this spec's file, relative to the page; the header links
	// them.
	IndexFile, SpecFile string
	// Related are the reports of the specs this one compares with (its
	// description names them), relative to the page; the header links
	// them.
	Related []Link
	// Lead names the section the page opens with (a spec's report.lead:
	// paper, pairs, check, scores, sweeps, scaling, words, ca, trials);
	// "" or "auto" decides from the records (see orderSections).
	Lead string
	// PaperRows maps the paper's rows to trials (a spec's
	// report.paper_rows: "ROW=label or id"); see pickPaperTrials.
	PaperRows []string
	// Check, when not nil, adds the -check comparison of Records with a
	// reference.
	Check *Check
	// Similarity says at which similarity score tables rank word trials
	// (a spec's report.similarity): SimilarityDeclared ("" too) ranks each
	// method at the one it declares (schema.MethodInfo.Similarity) and
	// shows the other beside it; SimilarityDot or SimilarityCosine ranks
	// every method at that one.
	Similarity string
	// Methods describe the methods the records name: their labels, the set
	// an in-sample trial was tuned on, whether their word vectors are CA
	// axes, what their zero settings mean. The command passes
	// schema.Methods(); a method missing here is shown by its name.
	Methods []schema.MethodInfo
	// FilePresent, when set, says whether a file a record names (relative
	// to the page) is beside the page and still holds what its trial wrote;
	// any other is named without a link. nil links every file.
	FilePresent func(path string) bool
}

// WriteFile writes the page to path, replacing it only once the whole page
// has been written.
func WriteFile(path string, r Report) error {
	_, err := WriteFileSummary(path, r)
	return err
}

// WriteFileSummary writes the page to path as WriteFile does and returns
// what an index shows of it (Summarize), from the one build of the page:
// what a run prints of its answer.
func WriteFileSummary(path string, r Report) (Summary, error) {
	var buf bytes.Buffer
	s, err := write(&buf, r)
	if err != nil {
		return Summary{}, err
	}
	if err := atomicfile.WriteFile(path, buf.Bytes()); err != nil {
		return Summary{}, fmt.Errorf("reports: %w", err)
	}
	return s, nil
}

// Write renders the page to w. Nothing is written when the report is
// invalid.
func Write(w io.Writer, r Report) error {
	_, err := write(w, r)
	return err
}

// write renders the page to w and returns its summary (Summarize).
func write(w io.Writer, r Report) (Summary, error) {
	if err := validate(r); err != nil {
		return Summary{}, err
	}
	p := newBuilder(r)
	sections, err := p.sections(r)
	if err != nil {
		return Summary{}, fmt.Errorf("reports: %w", err)
	}
	var intro []Block
	if r.Description != "" {
		intro = append(intro, Paragraph(r.Description))
	}
	if len(r.Notes) > 0 {
		intro = append(intro, List(r.Notes))
	}
	sum := p.summary(r, sections)
	pg := page.Page{Title: r.Title, Question: r.Question, Answer: sum.Verdict.String(), Meta: p.meta(r), Warn: sum.Warnings, Intro: intro, Sections: sections, Script: r.ECharts,
		ResultsFile: r.ResultsFile, IndexFile: r.IndexFile, SpecFile: r.SpecFile, Related: r.Related}
	if err := page.Write(w, pg); err != nil {
		return Summary{}, fmt.Errorf("reports: %w", err)
	}
	return sum, nil
}

// validate refuses an invalid report, saying which field is wrong.
func validate(r Report) error {
	if strings.TrimSpace(r.Title) == "" {
		return errors.New("reports: Report.Title is empty")
	}
	if !r.ECharts.Valid() {
		return errors.New("reports: Report.ECharts is not set: use FindECharts, InlineScript or CDNScript")
	}
	if h := r.ECharts.SRI(); h != "" && !page.ValidSRI(h) {
		return fmt.Errorf("reports: Report.ECharts: %q is not an integrity hash (sha256-, sha384- or sha512- and base64)", h)
	}
	if r.MaxCATrials < 0 || r.MaxMapPoints < 0 {
		return fmt.Errorf("reports: MaxCATrials and MaxMapPoints must be ≥ 0 (0 = default), got %d and %d", r.MaxCATrials, r.MaxMapPoints)
	}
	switch r.Similarity {
	case "", SimilarityDeclared, SimilarityDot, SimilarityCosine:
	default:
		return fmt.Errorf("reports: Report.Similarity %q: want %s, %s or %s", r.Similarity, SimilarityDeclared, SimilarityDot, SimilarityCosine)
	}
	if r.Lead != "" && r.Lead != "auto" && indexOf(sectionOrder, r.Lead) < 0 {
		return fmt.Errorf("reports: Report.Lead %q: want auto or one of %s", r.Lead, strings.Join(sectionOrder, ", "))
	}
	return nil
}

// sections are the page's built-in sections in the order of what the run
// is for (orderSections), then the report's own.
func (p *builder) sections(r Report) ([]Section, error) {
	ca, err := p.caSections(r)
	if err != nil {
		return nil, err
	}
	trials := p.trialsSection(r.Records)
	// Of each tuning group only the chosen design is compared (tuning.go).
	cs := p.choices(r.Records)
	compared := withoutLosers(r.Records, cs)
	scored := p.project(compared, compare.HasMetric(records.ScoreMetric))
	p.setVerdict("check", checkVerdict(r.Check, r.Records))
	sections := orderSections(r.Lead, map[string]*Section{
		"supervised":  p.supervisedSection(r.Records, cs),
		"tuning":      p.tuningSection(r.Records, cs),
		"paper":       p.paperSection(compared, r.PaperRows),
		"pairs":       p.pairsSection(compared),
		"check":       checkSection(r.Check, r.Records),
		"scores":      p.scoreSection(compared),
		"analogies":   p.analogySection(compared),
		"sweeps":      p.sweepSection(compared),
		"scaling":     p.scalingSection(r.Records),
		"measured":    p.measuredSection(r.Records),
		"spectra":     p.spectraSection(r.Records),
		"calibration": p.calibrationSection(r.Records),
		"words":       p.wordViewsSection(r.Records),
		"ca":          ca,
		"trials":      &trials,
	}, scored, leads{tuning: len(cs) > 0}.with(p, r, scored))
	return append(sections, r.Sections...), nil
}

// with decides which of the paper's table, the reference pairs and the
// analogies answer the page's question (see leads).
func (l leads) with(p *builder, r Report, scored projection) leads {
	matched, _ := pickPaperTrials(scored.Where(compare.Not(isMeasuredTrial)), r.PaperRows)
	l.paper = len(r.PaperRows) > 0 || 3*len(matched) >= len(paperRows)
	paired := scored.Where(func(rec records.Record) bool { return pairBase(rec) != "" && pairBase(rec) != givenName(rec) })
	l.pairs = scored.Len() > 0 && 2*paired.Len() >= scored.Len()
	l.analogies = scored.Len() > 0 && scored.Where(compare.HasMetric(records.AnalogyCoverageMetric)).Len() == scored.Len()
	return l
}

// statusOrder fixes where the usual statuses appear in counts; others follow
// alphabetically.
var statusOrder = map[string]int{"ok": 0, "over_budget": 1, "skipped": 2, "error": 3}

// meta is the page header's lines: the spec, and how many trials ended in
// each status.
func (p *builder) meta(r Report) []string {
	statuses := compare.ByKey(p.project(r.Records).GroupBy(func(_ int, t trial) string { return t.Status }))
	sort.SliceStable(statuses, func(i, j int) bool {
		oi, iok := statusOrder[statuses[i].Key]
		oj, jok := statusOrder[statuses[j].Key]
		switch {
		case iok && jok:
			return oi < oj
		case iok != jok:
			return iok
		}
		return false
	})
	var parts []string
	for _, g := range statuses {
		name := g.Key
		if name == "" {
			name = "(no status)"
		}
		parts = append(parts, fmt.Sprintf("%d %s", len(g.Trials), name))
	}
	line := fmt.Sprintf("%d trial(s)", len(r.Records))
	if len(parts) > 0 {
		line += ": " + strings.Join(parts, ", ")
	}
	var m []string
	if r.Spec != "" {
		m = append(m, "Spec: "+r.Spec)
	}
	m = append(m, line)
	prov, _ := provenanceLines(r.Records)
	return append(m, prov...)
}

func joinSettings(kv [][2]string) string {
	parts := make([]string, len(kv))
	for i, p := range kv {
		parts[i] = p[0] + " = " + p[1]
	}
	return strings.Join(parts, "; ")
}

// timingKeys sorts stage names with "total" last.
func timingKeys(recs []records.Record) []string {
	all := map[string]bool{}
	for _, rec := range recs {
		for k := range rec.Timings {
			all[k] = true
		}
	}
	keys := sortedKeys(all)
	sort.SliceStable(keys, func(i, j int) bool { return keys[i] != "total" && keys[j] == "total" })
	return keys
}

// metricText prints a metric in plain notation: from 1,000 on a whole
// number with thousands separators (a count, megabytes, seconds: the
// digits past the point say nothing there), below that 4 significant
// digits.
func metricText(v float64) string {
	if finite(v) && math.Abs(v) >= 1000 && math.Abs(v) < 1e15 {
		return thousands(v)
	}
	return sig(v, 4)
}

// trialsSection is the table of every trial, one row each: the settings
// that vary, status, the metrics that are not scores, stage times and
// where and when it ran (see provenances); a column that says the same in
// every row is said once above the table instead. Then the files the
// trials wrote.
func (p *builder) trialsSection(recs []records.Record) Section {
	s := Section{ID: "trials", Title: "Trials"}
	if len(recs) == 0 {
		s.Blocks = append(s.Blocks, Paragraph("No trials."))
		return s
	}
	common, varying := settingsSplit(recs)
	if len(common) > 0 {
		kv := make([][2]string, len(common))
		for i, c := range common {
			kv[i] = [2]string{c[0], p.settingShown(recs[0], c[0], recs[0].Settings[c[0]])}
		}
		s.Blocks = append(s.Blocks, Paragraph("Settings of every trial: "+joinSettings(kv)+"."))
	}
	mkeys, scores := trialMetricKeys(recs)
	if scores {
		s.Blocks = append(s.Blocks, Paragraph("Word-similarity scores and coverage are in the score tables; a range [min–max] follows a median over repeats."))
	}
	full := p.trialsTable(p.project(recs), varying, mkeys, timingKeys(recs))
	t, constant := dropConstant(full, 2)
	t.CSV = trialsCSV(recs, varying, mkeys, timingKeys(recs))
	var same [][2]string
	for _, c := range constant {
		// Provenance nobody recorded is said once, in the page header.
		if c[1] != "unknown" && c[1] != "—" {
			same = append(same, c)
		}
	}
	if len(same) > 0 {
		s.Blocks = append(s.Blocks, Paragraph("The same in every row: "+joinSettings(same)+"."))
	}
	s.Blocks = append(s.Blocks, collapse(len(t.Rows), fmt.Sprintf("All %d trials: settings, status, metrics, stage times and where they ran", len(t.Rows)), t)...)
	s.Blocks = append(s.Blocks, filesBlock(recs, p.present)...)
	return s
}

// trialsCSV is the trials table for a program: every trial's varying
// settings as recorded, status, error and warnings, each metric (with its
// range over repeats as columns of their own) and stage time at full
// precision, and its run information, constant columns included.
func trialsCSV(recs []records.Record, varying, mkeys, tkeys []string) [][]string {
	var metricCols []string
	for _, k := range mkeys {
		metricCols = append(metricCols, k)
		for _, suf := range []string{".min", ".max"} {
			for _, rec := range recs {
				if _, ok := rec.Metrics[k+suf]; ok {
					metricCols = append(metricCols, k+suf)
					break
				}
			}
		}
	}
	head := append([]string{"#", "id"}, varying...)
	head = append(head, "status", "error", "warnings")
	head = append(head, metricCols...)
	for _, k := range tkeys {
		head = append(head, "time_"+k+"_s")
	}
	head = append(head, "run_start", "run_end", "run_id", "commit", "dirty", "host", "cpu", "gomaxprocs", "go_version", "ran_alone")
	rows := [][]string{head}
	prov := provenances(recs)
	for i, rec := range recs {
		row := []string{strconv.Itoa(i + 1), rec.ID}
		for _, k := range varying {
			if v, ok := rec.Settings[k]; ok {
				row = append(row, formatValue(v))
			} else {
				row = append(row, "")
			}
		}
		row = append(row, rec.Status, shownMessage(rec.Error), warningsShown(rec))
		for _, k := range metricCols {
			if v, ok := rec.Metrics[k]; ok {
				row = append(row, csvNumber(v))
			} else {
				row = append(row, "")
			}
		}
		for _, k := range tkeys {
			if v, ok := rec.Timings[k]; ok {
				row = append(row, csvNumber(v))
			} else {
				row = append(row, "")
			}
		}
		run, env := records.RunInfo{}, records.Env{}
		if rec.Run != nil {
			run = *rec.Run
		}
		if rec.Env != nil {
			env = *rec.Env
		}
		dirty, procs := "", ""
		if rec.Run != nil && run.Commit != "" {
			dirty = strconv.FormatBool(run.Dirty)
		}
		if env.GOMAXPROCS > 0 {
			procs = strconv.Itoa(env.GOMAXPROCS)
		}
		alone := prov[i].alone
		if alone == "unknown" {
			alone = ""
		}
		row = append(row, run.Start, run.End, run.ID, run.Commit, dirty, run.Host, env.CPU, procs, env.GoVersion, alone)
		rows = append(rows, row)
	}
	return rows
}

// settingShown prints a setting as its spec means it: a 0 that stands for
// the method's own default (train.dim = 0 is SGNS's 300) is "default
// (300)", a list is written as in YAML (an empty one "[]"), an empty text
// "none".
func (p *builder) settingShown(rec records.Record, key string, v any) string {
	if v == "" {
		return "none"
	}
	if set, ok := schema.LookupSetting(key); ok && set.Kind == schema.StringList && v == nil {
		return "[]" // an empty list, as the spec wrote it (a record keeps it as null)
	}
	if n, ok := compare.Number(v); ok && n == 0 {
		if d, ok := p.method(rec).ZeroMeans[key]; ok {
			return "default (" + d + ")"
		}
	}
	return formatValue(v)
}

// dropConstant removes the columns from keep on whose cells are equal in
// every row of a table of two or more rows, and returns them as (header,
// cell) pairs: a column that never changes is one sentence, not a stripe
// of repeats that widens the table.
func dropConstant(t Table, keep int) (Table, [][2]string) {
	if len(t.Rows) < 2 {
		return t, nil
	}
	var same [][2]string
	var cols []int
	for j := range t.Header {
		constant := j >= keep
		for _, r := range t.Rows[1:] {
			if !constant || r[j] != t.Rows[0][j] {
				constant = false
				break
			}
		}
		if constant {
			same = append(same, [2]string{t.Header[j], t.Rows[0][j]})
			continue
		}
		cols = append(cols, j)
	}
	if len(same) == 0 {
		return t, nil
	}
	out := Table{ID: t.ID, Caption: t.Caption}
	for _, j := range cols {
		out.Header = append(out.Header, t.Header[j])
		out.Numeric = append(out.Numeric, j < len(t.Numeric) && t.Numeric[j])
	}
	for _, r := range t.Rows {
		row := make([]string, len(cols))
		for k, j := range cols {
			row[k] = r[j]
		}
		out.Rows = append(out.Rows, row)
	}
	return out, same
}

// trialMetricKeys are the metric columns of the trials table, and whether
// any trial has scores. Scores live in the score tables; "x.min" and
// "x.max" (the range over repeats) share the column of x. This keeps the
// table narrow when a trial has dozens of metrics.
func trialMetricKeys(recs []records.Record) (keys []string, scores bool) {
	metrics := map[string]bool{}
	for _, rec := range recs {
		for k := range rec.Metrics {
			if isScoreMetric(k) {
				scores = true
				continue
			}
			metrics[k] = true
		}
	}
	for k := range metrics {
		for _, suf := range []string{".min", ".max"} {
			if base, ok := strings.CutSuffix(k, suf); ok && metrics[base] {
				delete(metrics, k)
			}
		}
	}
	return sortedKeys(metrics), scores
}

// trialsTable is one row per trial: its number, id, the varying settings,
// status (with error and warnings), the metrics mkeys, the stage times
// tkeys, and where and when it ran.
func (p *builder) trialsTable(pr projection, varying, mkeys, tkeys []string) Table {
	t := Table{ID: "trials-table", Header: []string{"#", "ID"}}
	t.Header = append(t.Header, varying...)
	t.Header = append(t.Header, "Status")
	t.Header = append(t.Header, mkeys...)
	for _, k := range tkeys {
		t.Header = append(t.Header, "time: "+k+" (s)")
	}
	t.Numeric = make([]bool, len(t.Header))
	t.Numeric[0] = true
	for j := len(t.Header) - len(mkeys) - len(tkeys); j < len(t.Header); j++ {
		t.Numeric[j] = true
	}
	t.Header = append(t.Header, "Ran (UTC)", "Code", "Machine", "Ran alone?")
	t.Numeric = append(t.Numeric, false, false, false, false)
	prov := provenances(pr.Records())
	for i, tr := range pr.Trials {
		row := []string{strconv.Itoa(tr.Num), tr.ID}
		for _, k := range varying {
			if v, ok := tr.Settings[k]; ok {
				row = append(row, p.settingShown(tr.Record, k, v))
			} else {
				row = append(row, "—")
			}
		}
		status := tr.Status
		if tr.Error != "" {
			status += ": " + shownMessage(tr.Error)
		}
		if w := warningsShown(tr.Record); w != "" {
			status += " with warnings: " + w
		}
		row = append(row, status)
		for _, k := range mkeys {
			row = append(row, metricCell(tr.Metrics, k))
		}
		for _, k := range tkeys {
			if v, ok := tr.Timings[k]; ok {
				row = append(row, metricText(v))
			} else {
				row = append(row, "—")
			}
		}
		pv := prov[i]
		row = append(row, orDash(pv.date), pv.code, pv.machine, pv.alone)
		t.Rows = append(t.Rows, row)
	}
	return t
}

// metricCell prints a metric for the trials table with its range over
// repeats when it has one ("1.52 [1.474–1.581]"), "—" when absent.
func metricCell(m map[string]float64, k string) string {
	v, ok := m[k]
	if !ok {
		return "—"
	}
	cell := metricText(v)
	lo, lok := m[k+".min"]
	hi, hok := m[k+".max"]
	if lok && hok {
		// An en dash, not a comma: the bounds may hold thousands separators.
		cell += " [" + metricText(lo) + "–" + metricText(hi) + "]"
	}
	return cell
}

// MaxWarningsShown bounds the warnings a page shows of one trial, and
// maxMessageBytes the bytes of one error or warning: a page's size (and
// the memory that renders it) follows what it shows, not what a record
// holds. The rest are counted, and results.jsonl has them whole.
const (
	MaxWarningsShown = 10
	maxMessageBytes  = 2000
)

// warningsShown joins the first MaxWarningsShown warnings of rec, each cut
// to maxMessageBytes, and says how many more there are and their total.
func warningsShown(rec records.Record) string {
	total := max(len(rec.Warnings), rec.WarningsTotal)
	n := min(len(rec.Warnings), MaxWarningsShown)
	parts := make([]string, 0, n+1)
	for _, w := range rec.Warnings[:n] {
		parts = append(parts, shownMessage(w))
	}
	if total > n {
		parts = append(parts, fmt.Sprintf("… and %s more (%s warnings in all; results.jsonl has every one)", thousands(float64(total-n)), thousands(float64(total))))
	}
	return strings.Join(parts, "; ")
}

// shownMessage is s cut to maxMessageBytes (on a character boundary), the
// cut said.
func shownMessage(s string) string {
	if len(s) <= maxMessageBytes {
		return s
	}
	n := maxMessageBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + fmt.Sprintf("… (%s bytes in all; results.jsonl has it whole)", thousands(float64(len(s))))
}

// Unfinished describes the trials of a spec's grid that a finished run
// would hold and the page's records lack (harness.Unrun): a run stopped
// before its end, a rung of a successive halving that its next waits on,
// or a grid grown since. A choice among a tuning group's candidates, and a
// verdict on it, may change when they run.
type Unfinished struct {
	Trials int      // grid trials without a record (those waiting on a halving rung too)
	Groups []string // the variants they belong to, in grid order
}

// warning is the page's and the index's line on what has not run.
func (u Unfinished) warning() string {
	of := ""
	if len(u.Groups) > 0 {
		of = " (" + strings.Join(u.Groups, ", ") + ")"
	}
	return fmt.Sprintf("Unfinished: %d trial(s) of this spec's grid%s have no record yet, or wait on a rung of a successive halving: "+
		"a run stopped before its end, or the grid grew. Choices and verdicts here may change when they run: run the spec again "+
		"(finished trials are reused).", u.Trials, of)
}
