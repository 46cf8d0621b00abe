package reports

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
)

// farOut is how many times the median distance from the origin a word may
// lie and still be drawn: principal coordinates put a word with one
// peculiar context (a long article on one topic) far out, and one such
// point would squash the other 199 into a blot.
const farOut = 8

// framePoints returns the map's points within farOut median distances of
// the origin, and the words left out.
func framePoints(wm *records.WordMap) ([]Labeled, []string) {
	d := make([]float64, len(wm.Words))
	for j := range wm.Words {
		d[j] = math.Hypot(wm.X[j], wm.Y[j])
	}
	sorted := append([]float64(nil), d...)
	sort.Float64s(sorted)
	limit := farOut * sorted[len(sorted)/2]
	var pts []Labeled
	var far []string
	for j, w := range wm.Words {
		if limit > 0 && d[j] > limit {
			far = append(far, w)
			continue
		}
		pts = append(pts, Labeled{Label: w, X: wm.X[j], Y: wm.Y[j]})
	}
	return pts, far
}

// wordViewsSection draws the word map of the first trial that has one and
// lists the probe words' neighbours of one trial per group (the one with
// the largest dimension), the first open, the others collapsed.
func (p *builder) wordViewsSection(recs []records.Record) *Section {
	all := p.project(recs)
	s := &Section{ID: "words", Title: "Word map and nearest neighbours"}
	s.Blocks = append(s.Blocks, p.wordMapBlocks(all)...)
	s.Blocks = append(s.Blocks, p.neighbourBlocks(all)...)
	if len(s.Blocks) == 0 {
		return nil
	}
	return s
}

// wordMapBlocks draw the word map of the page's representative trial
// (mapTrial). A map whose words fall on a few points says so instead of
// drawing a dot.
func (p *builder) wordMapBlocks(all projection) []Block {
	withMap := all.Where(func(rec records.Record) bool {
		wm := rec.WordsMap
		return wm != nil && len(wm.Words) > 0 && len(wm.X) == len(wm.Words) && len(wm.Y) == len(wm.Words)
	})
	if withMap.Len() == 0 {
		return nil
	}
	t, degenerate := mapTrial(withMap)
	// Labelled as a row among the trials with a map, so that the label
	// says what sets it apart (its table and window in a sweep).
	wm, label := t.WordsMap, p.soloLabel(t)
	for _, r := range withMap.Rows(false) {
		if r.Num == t.Num {
			label = r.Label
		}
	}
	pts, far := framePoints(wm)
	if degenerate {
		return []Block{Paragraph(fmt.Sprintf("⚠ No word map: in every trial that recorded one, the %d most frequent words fall on a few points of axes 1 and 2 "+
			"(in %s, trial #%d, on %d distinct places at 1/100 of the map's extent): the first two axes separate almost none of them, so a drawing would be a dot.",
			len(wm.Words), label, t.Num, distinctPlaces(pts)))}
	}
	text := fmt.Sprintf("The %d most frequent words on axes 1 and 2 of %s (trial #%d: %s). Words that share contexts lie together; a label that would overlap a more frequent word's is hidden (hover for it).",
		len(wm.Words), label, t.Num, mapWhy)
	if len(far) > 0 {
		shown := far
		if len(shown) > 5 {
			shown = shown[:5]
		}
		text += fmt.Sprintf(" %d word(s) lie more than %d times the median distance from the origin and are left off so that the rest can be read (%s%s).",
			len(far), farOut, strings.Join(shown, ", "), map[bool]string{true: ", …", false: ""}[len(far) > len(shown)])
	}
	return []Block{Paragraph(text),
		ScatterMap{ID: "word-map", Title: "Word map: " + label, XName: "Axis 1", YName: "Axis 2", EqualScale: true, MaxLabels: len(pts), HideOverlap: true,
			Width: 900, Series: []ScatterSeries{{Name: "words", Points: pts}}}}
}

// mapWhy says how mapTrial chose the trial.
const mapWhy = "of the finished trials, the one on the most data with the most exact decomposition, the largest dimension and window"

// mapTrial picks the trial whose word map stands for the page: a finished
// one whose map is not degenerate (distinctPlaces), on the largest corpus
// (data.fraction; a prefix of 1/64 says little of the whole), the most
// exact decomposition (the smallest recorded residual; a trial without one
// is not compared), of the page's first method or label (groupKeys), then
// the largest svd.rank and data.window (a map of W = 1 shows adjacency,
// not meaning), the first on ties. degenerate is
// set when every candidate's map is; the trial is then the one the rule
// picks among them all.
func mapTrial(pr projection) (t trial, degenerate bool) {
	finished := pr.Where(compare.HasStatus("ok"))
	if finished.Len() == 0 {
		finished = pr
	}
	var good []trial
	for _, c := range finished.Trials {
		pts, _ := framePoints(c.WordsMap)
		if !isDegenerate(pts) {
			good = append(good, c)
		}
	}
	cands := good
	if len(cands) == 0 {
		cands, degenerate = finished.Trials, true
	}
	better := representativeOrder(pr)
	best := cands[0]
	for _, c := range cands[1:] {
		if better(c, best) {
			best = c
		}
	}
	return best, degenerate
}

// representativeOrder is mapTrial's preference among the trials of pr:
// better(a, b) when a stands for the page before b.
func representativeOrder(pr projection) func(a, b trial) bool {
	num := func(c trial, key string, missing float64) float64 {
		if v, ok := compare.Number(c.Settings[key]); ok {
			return v
		}
		return missing
	}
	keys := groupKeys(pr.Records())
	group := map[string]string{}
	for i, c := range pr.Trials {
		group[c.ID] = keys[i]
	}
	firstGroup := ""
	if pr.Len() > 0 {
		firstGroup = group[pr.Trials[0].ID]
	}
	return func(a, b trial) bool { // a before b
		if x, y := fractionOf(a.Record), fractionOf(b.Record); x != y {
			return x > y
		}
		// Residuals within a factor of 10 of each other are equally
		// exact; a trial that recorded none is not compared on it.
		if a.SVD != nil && b.SVD != nil {
			x, y := math.Max(a.SVD.RelResidual, 1e-12), math.Max(b.SVD.RelResidual, 1e-12)
			if x < y/10 || y < x/10 {
				return x < y
			}
		}
		if x, y := group[a.ID] == firstGroup, group[b.ID] == firstGroup; x != y {
			return x
		}
		if x, y := num(a, "svd.rank", 0), num(b, "svd.rank", 0); x != y {
			return x > y
		}
		return num(a, "data.window", 0) > num(b, "data.window", 0)
	}
}

// distinctPlaces counts the points' distinct places on a grid of 1/100 of
// their extent.
func distinctPlaces(pts []Labeled) int {
	ext := 0.0
	for _, p := range pts {
		ext = math.Max(ext, math.Max(math.Abs(p.X), math.Abs(p.Y)))
	}
	if ext == 0 {
		return min(len(pts), 1)
	}
	seen := map[[2]int64]bool{}
	for _, p := range pts {
		seen[[2]int64{int64(math.Round(100 * p.X / ext)), int64(math.Round(100 * p.Y / ext))}] = true
	}
	return len(seen)
}

// isDegenerate reports whether a map's points fall on fewer distinct
// places than a quarter of them: axes 1–2 then separate almost none of
// the words.
func isDegenerate(pts []Labeled) bool {
	return len(pts) >= 8 && 4*distinctPlaces(pts) < len(pts)
}
