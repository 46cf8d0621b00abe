package page

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// XY is a point of a line series. Err, when positive, draws an error bar
// from Y − Err to Y + Err (e.g. ± one standard deviation over replicates,
// or the half-width of a 95% interval); DashedErr draws that bar dashed,
// so that two kinds of bar on one chart look different (the section that
// decided them says which is which).
type XY struct {
	X, Y, Err float64
	DashedErr bool
}

// LineSeries is one named line.
type LineSeries struct {
	Name   string
	Points []XY // drawn in the order given
	// Color fixes the line's colour (e.g. settingColor's, so that one
	// backend has one colour on every page); "" takes the first palette
	// colour no other line of the chart has.
	Color string
	// Muted draws the line dashed with hollow symbols, in its colour: shown,
	// not competing (e.g. a series scored on the set it was tuned on).
	Muted bool
	// Key says which lines are one: lines of one key take one colour on
	// every chart of a page (the renderer assigns it); "" means Name.
	Key string
	// Dots draws the points alone, unjoined: each is an observation of its
	// own (every candidate of a search), not a curve.
	Dots bool
}

// colorKey is the key the page's colours are assigned by.
func (s LineSeries) colorKey() string {
	if s.Key != "" {
		return s.Key
	}
	return s.Name
}

// LineChart draws lines on value axes, either of which may be logarithmic
// (e.g. time against training size, one series per backend). Points with a
// non-finite coordinate, or a non-positive one on a log axis, cannot be drawn:
// they are left out and counted in a note under the chart.
type LineChart struct {
	ID           string // element id: [A-Za-z][A-Za-z0-9_-]*, unique in the page
	Title        string
	XName, YName string // axis titles
	LogX, LogY   bool
	Series       []LineSeries
	// Marks are dashed vertical lines at given x, e.g. the sizes at which a
	// backend did not finish, so that a missing point is never just absent.
	Marks []VLines
	// Zero, when not "", draws a faint line at y = 0 under this legend
	// name (a difference chart's "no difference") and makes the y axis
	// hold 0, so a reader sees which side of it each point lies on. A log
	// y axis has no 0: it draws none.
	Zero   string
	Width  int // pixels; 0 means 720
	Height int // pixels; 0 means 420
	Note   string

	expY bool // the y axis is drawn on log10 exponents (see exponentAxis)
}

// VLines is one legend entry of dashed vertical lines.
type VLines struct {
	Name string
	X    []float64
	// Like names the series whose colour the lines take; "" means grey.
	Like  string
	color string // the colour of a Like series that has no point to draw
}

// Labeled is a labelled point of a scatter map.
type Labeled struct {
	Label string
	X, Y  float64
}

// ScatterSeries is one named set of labelled points.
type ScatterSeries struct {
	Name   string
	Points []Labeled
	// Symbol is an ECharts symbol ("circle", "triangle", "rect", "diamond",
	// …); "" picks one by the series' position.
	Symbol string
}

// ScatterMap draws labelled points with dashed lines through the origin,
// like a CA map. The axes span the origin and the points with a margin (more
// on the right, where labels go), on round tick steps. Points with
// non-finite coordinates are left out and counted in a note.
type ScatterMap struct {
	ID           string
	Title        string
	XName, YName string
	Series       []ScatterSeries
	// EqualScale makes one unit the same length on both axes, as a CA map
	// needs for distances to be read off it: the plot area takes the aspect
	// of the data ranges (within 0.4–1.2 of Width, the shorter range being
	// widened to fit) and Height is ignored.
	EqualScale bool
	// MaxLabels is the most points a series may have and still show its
	// labels (tooltips always show them); 0 means 60.
	MaxLabels int
	// HideOverlap hides a label that would overlap one drawn before it
	// (points come in the order given, e.g. most frequent word first)
	// rather than shifting it: a map of hundreds of words stays legible.
	HideOverlap bool
	Width       int // pixels; 0 means 720
	Height      int // pixels; 0 means 480
	Note        string
}

// BarSeries is one named set of bars, one value per category.
type BarSeries struct {
	Name   string
	Values []float64
	// Labels, when not nil, are drawn on top of the bars (one per value).
	Labels []string
}

// Bar draws bars over categories (e.g. a scree plot).
type Bar struct {
	ID           string
	Title        string
	XName, YName string
	Categories   []string
	Series       []BarSeries
	Width        int // pixels; 0 means 480
	Height       int // pixels; 0 means 360
	Note         string
}

// Palette and symbols give series their looks by position, so that pages
// do not depend on ECharts' theme defaults. Twelve hues that stay apart
// on screen and in print: a chart of up to twelve lines gives each its own.
// No grey: grey is for what is not a series (reference lines, marks).
var (
	Palette = []string{"#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085",
		"#7cb342", "#b7950b", "#d6549f", "#17a2c8", "#8c564b", "#1a237e"}
	symbols = []string{"circle", "triangle", "rect", "diamond", "roundRect", "pin"}
)

// seriesColors gives each line its colour: its own when set (on a page,
// the renderer sets every line's: pageColors), else the first palette
// colour no line has yet (cycling once all are taken).
func seriesColors(series []LineSeries) []string {
	out := make([]string, len(series))
	used := map[string]bool{}
	for i, s := range series {
		if s.Color != "" {
			out[i] = s.Color
			used[s.Color] = true
		}
	}
	next := 0
	for i := range series {
		if out[i] != "" {
			continue
		}
		for k := 0; k < len(Palette); k++ {
			if c := Palette[(next+k)%len(Palette)]; !used[c] {
				next = (next + k + 1) % len(Palette)
				out[i] = c
				used[c] = true
				break
			}
		}
		if out[i] == "" { // every colour taken: the symbol tells them apart
			out[i] = Palette[i%len(Palette)]
		}
	}
	return out
}

// legendRows estimates how many rows a plain legend of these names takes
// in a chart w pixels wide (ECharts wraps it), from 12 px text at about
// 6.5 px a character, a 25 px icon and 10 px gaps; the plot starts below
// them, so no name is hidden and none covers a line.
func legendRows(names []string, w int) int {
	avail := float64(w - 20)
	rows, x := 1, 0.0
	for _, n := range names {
		item := 25 + 5 + 6.5*float64(len([]rune(n))) + 10
		if x > 0 && x+item > avail {
			rows++
			x = 0
		}
		x += item
	}
	return rows
}

// maxSymbols is the most points a line shows with a symbol each.
const maxSymbols = 60

// legendRowHeight is the height of one legend row in pixels.
const legendRowHeight = 22

// Plot margins in pixels, fixed so that an equal-scale map can size its plot
// area exactly.
const (
	marginLeft   = 72
	marginRight  = 36
	marginTop    = 48
	marginBottom = 56
)

// chart is what the renderer needs of a chart block.
type chart interface {
	Block
	id() string
	title() string
	// option returns the ECharts option, the element size and notes for
	// the caption.
	option() (opt map[string]any, width, height int, notes []string, err error)
}

func (c LineChart) id() string     { return c.ID }
func (c ScatterMap) id() string    { return c.ID }
func (c Bar) id() string           { return c.ID }
func (c LineChart) title() string  { return c.Title }
func (c ScatterMap) title() string { return c.Title }
func (c Bar) title() string        { return c.Title }

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func checkSize(what, id string, w, h int) error {
	if w < 0 || h < 0 {
		return fmt.Errorf("%s %q: width and height must be ≥ 0 pixels (0 = default), got %d×%d", what, id, w, h)
	}
	return nil
}

func px(n int) string { return strconv.Itoa(n) + "px" }

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func axisType(log bool) string {
	if log {
		return "log"
	}
	return "value"
}

func baseOpts(id string, w, h int) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		// The id is fixed here too (go-echarts otherwise draws a random
		// one), though the page uses its own from the block.
		charts.WithInitializationOpts(opts.Initialization{ChartID: id, Width: px(w), Height: px(h)}),
		// No animation: the page is a static record and screenshots of it
		// should not depend on timing.
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "4"}),
		charts.WithGridOpts(opts.Grid{Left: strconv.Itoa(marginLeft), Right: strconv.Itoa(marginRight),
			Top: strconv.Itoa(marginTop), Bottom: strconv.Itoa(marginBottom)}),
	}
}

func (c LineChart) option() (map[string]any, int, int, []string, error) {
	if err := checkSize("line chart", c.ID, c.Width, c.Height); err != nil {
		return nil, 0, 0, nil, err
	}
	w, h := orDefault(c.Width, 720), orDefault(c.Height, 420)
	c, empty := c.drawable()
	c.expY = c.LogY && minY(c.Series) < 1e-9
	var names []string
	for _, s := range c.Series {
		names = append(names, s.Name)
	}
	for _, m := range c.Marks {
		names = append(names, m.Name)
	}
	if c.Zero != "" && !c.LogY {
		names = append(names, c.Zero)
	}
	// The legend wraps: each row beyond the first moves the plot down and
	// makes the chart taller by as much.
	extra := (legendRows(names, w) - 1) * legendRowHeight
	h += extra
	lc := charts.NewLine()
	lc.SetGlobalOptions(append(baseOpts(c.ID, w, h),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithXAxisOpts(opts.XAxis{Type: axisType(c.LogX), Name: c.XName, NameLocation: "middle", NameGap: 32,
			Scale: opts.Bool(true), SplitLine: &opts.SplitLine{Show: opts.Bool(true)}}),
		charts.WithYAxisOpts(opts.YAxis{Type: axisType(c.LogY), Name: c.YName, NameLocation: "middle", NameGap: 56,
			Scale: opts.Bool(true)}),
	)...)
	colors := seriesColors(c.Series)
	bars, dropped := c.addSeries(lc, colors)
	opt, err := optionOf(lc, lc.Validate)
	if err != nil {
		return nil, 0, 0, nil, fmt.Errorf("line chart %q: %w", c.ID, err)
	}
	opt["grid"].([]any)[0].(map[string]any)["top"] = strconv.Itoa(marginTop + extra)
	logAxisRange(axisAt(opt, "xAxis"), c.Series, true)
	if c.expY {
		exponentAxis(axisAt(opt, "yAxis"), c.Series)
	} else {
		logAxisRange(axisAt(opt, "yAxis"), c.Series, false)
		barAxisRange(axisAt(opt, "yAxis"), c.Series)
	}
	for i, b := range bars {
		if len(b) == 0 {
			continue
		}
		// Error bars are line segments of the series' own markLine, so they
		// take its colour and hide with it; no ECharts custom series (and no
		// script) is needed.
		seriesAt(opt, i)["markLine"] = map[string]any{
			"symbol": []any{"none", "none"}, "silent": true,
			"label":     map[string]any{"show": false},
			"lineStyle": map[string]any{"color": colors[i], "type": "solid", "width": 1.5},
			"data":      b,
		}
	}
	n, err := c.addMarks(opt, colors)
	if err != nil {
		return nil, 0, 0, nil, err
	}
	dropped += n
	if c.Zero != "" && !c.LogY {
		c.addZero(opt)
	}
	notes := empty
	if dropped > 0 {
		why := "a non-finite coordinate"
		if c.LogX || c.LogY {
			why += " or a non-positive value on a log axis"
		}
		notes = append(notes, fmt.Sprintf("%d point(s) not drawn: %s.", dropped, why))
	}
	return opt, w, h, notes, nil
}

// addSeries adds the chart's lines to lc and returns, per line, the error
// bars to draw (pairs of markLine ends) and how many points cannot be
// drawn.
func (c LineChart) addSeries(lc *charts.Line, colors []string) (bars [][]any, dropped int) {
	bars = make([][]any, len(c.Series))
	for i, s := range c.Series {
		data := make([]opts.LineData, 0, len(s.Points))
		for _, p := range s.Points {
			if !finite(p.X) || !finite(p.Y) || (c.LogX && p.X <= 0) || (c.LogY && p.Y <= 0) {
				dropped++
				continue
			}
			data = append(data, opts.LineData{Value: []float64{p.X, c.y(p.Y)}})
			if p.Err > 0 && finite(p.Err) {
				lo := p.Y - p.Err
				if c.LogY && lo <= 0 {
					lo = p.Y / 10 // a bar below zero cannot be drawn on a log axis: it runs off the decade
				}
				from := map[string]any{"coord": []float64{p.X, c.y(lo)}}
				if p.DashedErr {
					// A pair's first end styles its segment.
					from["lineStyle"] = map[string]any{"type": "dashed"}
				}
				bars[i] = append(bars[i], []any{from, map[string]any{"coord": []float64{p.X, c.y(p.Y + p.Err)}}})
			}
		}
		color, style, symbol := colors[i], "", symbols[i%len(symbols)]
		if s.Muted {
			// Its own colour, so that a method is one colour on every
			// chart; dashed and hollow, so that it does not compete.
			style, symbol = "dashed", "empty"+strings.ToUpper(symbol[:1])+symbol[1:]
		}
		line := opts.LineStyle{Color: color, Width: 2, Type: style}
		if s.Dots {
			line.Width, line.Opacity = 0, opts.Float(0)
		}
		lc.AddSeries(s.Name, data,
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}),
			charts.WithLineStyleOpts(line),
			charts.WithSeriesOpts(func(ss *charts.SingleSeries) {
				ss.Symbol = symbol
				ss.SymbolSize = 7
				// A line of many points (a spectrum) is a curve: symbols
				// would merge into a thick smear. Dots are observations:
				// every one is drawn.
				ss.ShowSymbol = opts.Bool(s.Dots || len(data) <= maxSymbols)
			}),
		)
	}
	return bars, dropped
}

// addMarks adds the chart's dashed vertical lines to opt, each legend entry
// a series of its own, and returns how many cannot be drawn.
func (c LineChart) addMarks(opt map[string]any, colors []string) (dropped int, err error) {
	colorOf := map[string]string{}
	for i := len(c.Series) - 1; i >= 0; i-- { // the first series of a name wins
		colorOf[c.Series[i].Name] = colors[i]
	}
	for _, m := range c.Marks {
		color := markGrey
		if m.color != "" {
			color = m.color
		}
		if m.Like != "" {
			cl, ok := colorOf[m.Like]
			if !ok {
				return 0, fmt.Errorf("line chart %q: marks %q are like series %q, which the chart does not have", c.ID, m.Name, m.Like)
			}
			color = cl
		}
		var data []any
		for _, x := range m.X {
			if !finite(x) || (c.LogX && x <= 0) {
				dropped++
				continue
			}
			data = append(data, map[string]any{"xAxis": Tidy(x), "name": m.Name})
		}
		if len(data) == 0 {
			continue
		}
		// Faint and under the data lines, so that a mark never hides a
		// measured point.
		addLinesSeries(opt, m.Name, color, "dashed", 1.2, 0.45, data)
	}
	return dropped, nil
}

// markGrey is the colour of a chart's reference lines that stand for no
// data line.
const markGrey = "#888888"

// addLinesSeries appends to opt a series with no points that carries the
// given markLine lines (each an ECharts markLine datum), under the data
// lines (z 1) and silent: it gets a legend entry, and toggling it hides
// them. Labels stay off so that no text from the data is read as an
// ECharts template. A chart whose every point is a mark (no trial
// finished) has no series yet: this is its first.
func addLinesSeries(opt map[string]any, name, color, style string, width, opacity float64, data []any) {
	series, _ := opt["series"].([]any)
	opt["series"] = append(series, map[string]any{
		"type": "line", "name": name, "data": []any{}, "z": 1,
		"itemStyle": map[string]any{"color": color},
		"lineStyle": map[string]any{"color": color, "type": style},
		"markLine": map[string]any{
			"symbol":    []any{"none", "none"},
			"label":     map[string]any{"show": false},
			"silent":    true,
			"z":         1,
			"lineStyle": map[string]any{"color": color, "type": style, "width": width, "opacity": opacity},
			"data":      data,
		},
	})
}

// addZero adds the line at y = 0, a series of its own (a legend entry
// that hides it), drawn under the data, and widens a bounded y axis to 0;
// an axis ECharts scales itself is told to hold 0.
func (c LineChart) addZero(opt map[string]any) {
	axis := axisAt(opt, "yAxis")
	lo, hasLo := axis["min"].(float64)
	hi, hasHi := axis["max"].(float64)
	switch {
	case hasLo || hasHi:
		if hasLo && lo > 0 {
			axis["min"] = 0.0
		}
		if hasHi && hi < 0 {
			axis["max"] = 0.0
		}
	default:
		axis["scale"] = false
	}
	addLinesSeries(opt, c.Zero, markGrey, "solid", 1, 0.6, []any{map[string]any{"yAxis": 0}})
}

// drawable is the chart without the lines that have no point it can draw
// and without the marks of such lines that fall at no drawable x; notes
// name what was left out, so that no legend entry stands for nothing.
func (c LineChart) drawable() (LineChart, []string) {
	ok := func(x, y float64) bool {
		return finite(x) && finite(y) && !(c.LogX && x <= 0) && !(c.LogY && y <= 0)
	}
	colorOf := map[string]string{}
	colors := seriesColors(c.Series)
	for i := len(c.Series) - 1; i >= 0; i-- { // the first series of a name wins
		colorOf[c.Series[i].Name] = colors[i]
	}
	var series []LineSeries
	var empty []string
	for i, s := range c.Series {
		n := 0
		for _, p := range s.Points {
			if ok(p.X, p.Y) {
				n++
			}
		}
		if n == 0 {
			empty = append(empty, s.Name)
			continue
		}
		s.Color = colors[i]
		series = append(series, s)
	}
	kept := map[string]bool{}
	for _, s := range series {
		kept[s.Name] = true
	}
	var marks []VLines
	for _, m := range c.Marks {
		drawn := false
		for _, x := range m.X {
			drawn = drawn || (finite(x) && !(c.LogX && x <= 0))
		}
		if !drawn {
			continue
		}
		if m.Like != "" && !kept[m.Like] {
			// Its line has no point: the marks keep the colour the line
			// would have had.
			m.color, m.Like = colorOf[m.Like], ""
		}
		marks = append(marks, m)
	}
	out := c
	out.Series, out.Marks = series, marks
	var notes []string
	if len(empty) > 0 {
		notes = append(notes, fmt.Sprintf("Not drawn, no point to show: %s.", strings.Join(empty, ", ")))
	}
	return out, notes
}

// y is a point's y as drawn: its log10 on an exponent axis.
func (c LineChart) y(v float64) float64 {
	if c.expY {
		return Tidy(math.Log10(v))
	}
	return v
}

// minY is the smallest positive y of the lines (+Inf for none).
func minY(series []LineSeries) float64 {
	lo := math.Inf(1)
	for _, s := range series {
		for _, p := range s.Points {
			if finite(p.Y) && p.Y > 0 {
				lo = math.Min(lo, p.Y)
			}
		}
	}
	return lo
}

// exponentAxis turns a log y axis into a linear one over the points'
// log10, from the decade below the lowest to the decade above the
// highest, a tick every decade up to 10 of them (every second up to 20,
// …). ECharts rounds a log axis's ticks to 10 decimals, so below 1e-9 it
// would label none; the page labels these ticks 10^v ("1e-15") and shows
// the points' values likewise (kcalabExp).
func exponentAxis(axis map[string]any, series []LineSeries) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, p := range s.Points {
			if finite(p.Y) && p.Y > 0 {
				lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y+math.Max(p.Err, 0))
			}
		}
	}
	a, b := math.Floor(math.Log10(lo)+1e-9), math.Ceil(math.Log10(hi)-1e-9)
	axis["type"] = "value"
	axis["min"], axis["max"] = a, b
	axis["interval"] = math.Max(1, math.Ceil((b-a)/10))
	axis["kcalabExp"] = true
	delete(axis, "scale")
}

// barAxisRange widens a linear y axis to hold every error bar: ECharts
// scales the axis to the points alone and drops a bar (a markLine) with an
// end outside it, so a wide interval would vanish without a word. The
// bounds are rounded outward to a step of about a fifth of the span; an
// axis no bar reaches past is left to ECharts.
func barAxisRange(axis map[string]any, series []LineSeries) {
	if axis["type"] != "value" {
		return
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	blo, bhi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, p := range s.Points {
			if !finite(p.X) || !finite(p.Y) {
				continue
			}
			lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y)
			if p.Err > 0 && finite(p.Err) {
				blo, bhi = math.Min(blo, p.Y-p.Err), math.Max(bhi, p.Y+p.Err)
			}
		}
	}
	if math.IsInf(blo, 0) || (blo >= lo && bhi <= hi) {
		return
	}
	lo, hi = math.Min(lo, blo), math.Max(hi, bhi)
	step := niceStep((hi - lo) / 5)
	axis["min"], axis["max"] = Tidy(math.Floor(lo/step)*step), Tidy(math.Ceil(hi/step)*step)
}

// logAxisRange bounds a log axis by the decades around the drawn points
// (ECharts would otherwise start a decade early) and falls back to a
// linear axis when they span less than a decade, where a log axis would
// show one tick or none.
func logAxisRange(axis map[string]any, series []LineSeries, isX bool) {
	if axis["type"] != "log" {
		return
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, p := range s.Points {
			v := p.Y
			if isX {
				v = p.X
			}
			if finite(v) && v > 0 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			if !isX && p.Err > 0 && finite(p.Err) && p.Y+p.Err > hi {
				hi = p.Y + p.Err
			}
		}
	}
	if math.IsInf(lo, 0) {
		return
	}
	if hi/lo < 10 {
		axis["type"] = "value"
		return
	}
	axis["min"], axis["max"] = niceBelow(lo), niceAbove(hi)
	// ECharts ticks a log axis at powers of its base, every one while
	// there are at most 10 of them, else every 10th: a base of 10^k
	// keeps a tick every k decades up to 10k decades.
	if decades := math.Log10(hi / lo); decades > 10 {
		axis["logBase"] = math.Pow(10, math.Ceil(decades/10))
	}
}

// niceBelow is the largest 1, 2 or 5 times a power of ten at most v (v >
// 0): a log axis starts there, near its first point.
func niceBelow(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)+1e-9))
	for _, f := range []float64{5, 2, 1} {
		if f*p <= v*(1+1e-9) {
			return Tidy(f * p)
		}
	}
	return Tidy(p)
}

// niceAbove is the smallest 1, 2 or 5 times a power of ten at least v.
func niceAbove(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)+1e-9))
	for _, f := range []float64{1, 2, 5, 10} {
		if f*p >= v*(1-1e-9) {
			return Tidy(f * p)
		}
	}
	return Tidy(10 * p)
}

func labelLayout(hide bool) charts.SeriesOpts {
	if hide {
		return charts.WithLabelLayoutOpts(opts.LabelLayout{HideOverlap: opts.Bool(true)})
	}
	return charts.WithLabelLayoutOpts(opts.LabelLayout{MoveOverlap: "shiftY"})
}

func (c ScatterMap) option() (map[string]any, int, int, []string, error) {
	if err := checkSize("scatter map", c.ID, c.Width, c.Height); err != nil {
		return nil, 0, 0, nil, err
	}
	if c.MaxLabels < 0 {
		return nil, 0, 0, nil, fmt.Errorf("scatter map %q: MaxLabels must be ≥ 0 (0 = 60), got %d", c.ID, c.MaxLabels)
	}
	w, h := orDefault(c.Width, 720), orDefault(c.Height, 480)
	xr, yr, h, dropped, err := c.ranges(w, h)
	if err != nil {
		return nil, 0, 0, nil, err
	}
	sc := charts.NewScatter()
	xa := opts.XAxis{Type: "value", Name: c.XName, NameLocation: "middle", NameGap: 32,
		SplitLine: &opts.SplitLine{Show: opts.Bool(true)}, AxisLine: &opts.AxisLine{OnZero: opts.Bool(false)}}
	ya := opts.YAxis{Type: "value", Name: c.YName, NameLocation: "middle", NameGap: 52,
		SplitLine: &opts.SplitLine{Show: opts.Bool(true)}, AxisLine: &opts.AxisLine{OnZero: opts.Bool(false)}}
	xa.Min, xa.Max = xr.min, xr.max
	ya.Min, ya.Max = yr.min, yr.max
	sc.SetGlobalOptions(append(baseOpts(c.ID, w, h),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithXAxisOpts(xa), charts.WithYAxisOpts(ya),
	)...)
	notes := c.addSeries(sc)
	opt, err := optionOf(sc, sc.Validate)
	if err != nil {
		return nil, 0, 0, nil, fmt.Errorf("scatter map %q: %w", c.ID, err)
	}
	// Options go-echarts v2.6.7 has no fields for.
	dims := []any{
		map[string]any{"name": "x", "displayName": c.XName},
		map[string]any{"name": "y", "displayName": c.YName},
		map[string]any{"name": "label", "type": "ordinal"},
	}
	for i := range c.Series {
		s := seriesAt(opt, i)
		s["dimensions"] = dims
		s["encode"] = map[string]any{"x": 0, "y": 1, "label": 2, "itemName": 2, "tooltip": []any{0, 1}}
		if ml, ok := s["markLine"].(map[string]any); ok {
			ml["silent"] = true
			ml["data"] = []any{map[string]any{"xAxis": 0}, map[string]any{"yAxis": 0}}
		}
	}
	axisAt(opt, "xAxis")["interval"] = xr.step
	axisAt(opt, "yAxis")["interval"] = yr.step
	if dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d point(s) not drawn: a non-finite coordinate.", dropped))
	}
	return opt, w, h, notes, nil
}

// ranges are the map's axes, spanning the drawable points and the origin,
// and its height (an equal-scale map's follows from its width); dropped
// counts the points that cannot be drawn.
func (c ScatterMap) ranges(w, h int) (xr, yr axisRange, height, dropped int, err error) {
	xlo, xhi, ylo, yhi := 0.0, 0.0, 0.0, 0.0
	for _, s := range c.Series {
		for _, p := range s.Points {
			if !finite(p.X) || !finite(p.Y) {
				dropped++
				continue
			}
			xlo, xhi = math.Min(xlo, p.X), math.Max(xhi, p.X)
			ylo, yhi = math.Min(ylo, p.Y), math.Max(yhi, p.Y)
		}
	}
	xr, yr = freeScale(xlo, xhi, ylo, yhi)
	if !c.EqualScale {
		return xr, yr, h, dropped, nil
	}
	plotW := w - marginLeft - marginRight
	if plotW < 100 {
		return xr, yr, 0, 0, fmt.Errorf("scatter map %q: width %d leaves no room for the plot (need ≥ %d)", c.ID, w, 100+marginLeft+marginRight)
	}
	xr, yr, plotH := equalScale(xlo, xhi, ylo, yhi, plotW)
	return xr, yr, plotH + marginTop + marginBottom, dropped, nil
}

// addSeries adds the map's point sets to sc, labels hidden on a set with
// more points than MaxLabels (a note says so), and returns those notes.
func (c ScatterMap) addSeries(sc *charts.Scatter) []string {
	maxLabels := orDefault(c.MaxLabels, 60)
	var notes []string
	for i, s := range c.Series {
		data := make([]opts.ScatterData, 0, len(s.Points))
		for _, p := range s.Points {
			if finite(p.X) && finite(p.Y) {
				// The label rides in the value as a third dimension: ECharts
				// draws it raw (series.encode.label), whereas a "{b}"
				// formatter template would interpret braces inside it.
				data = append(data, opts.ScatterData{Value: []any{p.X, p.Y, p.Label}})
			}
		}
		sym := s.Symbol
		if sym == "" {
			sym = symbols[i%len(symbols)]
		}
		color := Palette[i%len(Palette)]
		showLabels := len(data) <= maxLabels
		if !showLabels {
			notes = append(notes, fmt.Sprintf("Labels of %q hidden: %d points > %d (hover for them).", s.Name, len(data), maxLabels))
		}
		so := []charts.SeriesOpts{
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}),
			charts.WithLabelOpts(opts.Label{Show: opts.Bool(showLabels), Position: "right", Color: color, FontSize: 12}),
			labelLayout(c.HideOverlap),
			charts.WithSeriesOpts(func(ss *charts.SingleSeries) {
				ss.Symbol = sym
				ss.SymbolSize = 9
			}),
		}
		if i == 0 {
			// Dashed lines through the origin; the axes stay at the frame
			// so their tick labels do not cross the points.
			so = append(so,
				charts.WithMarkLineStyleOpts(opts.MarkLineStyle{Symbol: []string{"none", "none"},
					Label: &opts.Label{Show: opts.Bool(false)}, LineStyle: &opts.LineStyle{Color: markGrey, Type: "dashed", Width: 1}}),
			)
		}
		sc.AddSeries(s.Name, data, so...)
	}
	return notes
}

func (c Bar) option() (map[string]any, int, int, []string, error) {
	if err := checkSize("bar chart", c.ID, c.Width, c.Height); err != nil {
		return nil, 0, 0, nil, err
	}
	w, h := orDefault(c.Width, 480), orDefault(c.Height, 360)
	bc := charts.NewBar()
	bc.SetGlobalOptions(append(baseOpts(c.ID, w, h),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: c.XName, NameLocation: "middle", NameGap: 32}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: c.YName, NameLocation: "middle", NameGap: 56}),
	)...)
	bc.SetXAxis(c.Categories)
	dropped := 0
	for i, s := range c.Series {
		if len(s.Values) != len(c.Categories) {
			return nil, 0, 0, nil, fmt.Errorf("bar chart %q: series %q has %d values for %d categories", c.ID, s.Name, len(s.Values), len(c.Categories))
		}
		if s.Labels != nil && len(s.Labels) != len(s.Values) {
			return nil, 0, 0, nil, fmt.Errorf("bar chart %q: series %q has %d labels for %d values", c.ID, s.Name, len(s.Labels), len(s.Values))
		}
		data := make([]opts.BarData, 0, len(s.Values))
		for k, v := range s.Values {
			if !finite(v) {
				dropped++
				continue
			}
			// [category index, value, label]: see the scatter map for why
			// labels ride as a dimension.
			val := []any{k, v}
			if s.Labels != nil {
				val = append(val, s.Labels[k])
			}
			data = append(data, opts.BarData{Value: val})
		}
		bc.AddSeries(s.Name, data,
			charts.WithItemStyleOpts(opts.ItemStyle{Color: Palette[i%len(Palette)]}),
			charts.WithLabelOpts(opts.Label{Show: opts.Bool(s.Labels != nil), Position: "top"}),
		)
	}
	opt, err := optionOf(bc, bc.Validate)
	if err != nil {
		return nil, 0, 0, nil, fmt.Errorf("bar chart %q: %w", c.ID, err)
	}
	for i, s := range c.Series {
		enc := map[string]any{"x": 0, "y": 1, "tooltip": []any{1}}
		if s.Labels != nil {
			enc["label"] = 2
			enc["tooltip"] = []any{1, 2}
		}
		seriesAt(opt, i)["encode"] = enc
	}
	var notes []string
	if dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d bar(s) not drawn: a non-finite value.", dropped))
	}
	return opt, w, h, notes, nil
}

// optionOf turns a go-echarts chart into a plain option map: validate, take
// its JSON, and decode it again with numbers kept verbatim, so that options
// go-echarts lacks can be added and the page writes the JSON itself. Nulls
// in objects (fields go-echarts writes without omitempty) are dropped.
func optionOf(c interface{ JSON() map[string]any }, validate func()) (map[string]any, error) {
	validate()
	b, err := json.Marshal(c.JSON())
	if err != nil {
		return nil, fmt.Errorf("encoding option: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("decoding option: %w", err)
	}
	pruneNulls(m)
	return m, nil
}

func pruneNulls(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
				continue
			}
			pruneNulls(e)
		}
	case []any:
		for _, e := range t {
			pruneNulls(e)
		}
	}
}

// seriesAt returns series i of an option made by optionOf; the charts above
// always add one series per input series, so a miss is a bug here.
func seriesAt(opt map[string]any, i int) map[string]any {
	return opt["series"].([]any)[i].(map[string]any)
}

// axisAt returns the first x or y axis of an option made by optionOf.
func axisAt(opt map[string]any, key string) map[string]any {
	return opt[key].([]any)[0].(map[string]any)
}

// axisRange is an axis extent on multiples of step.
type axisRange struct{ min, max, step float64 }

// padRange pads [lo,hi] for labels and marks: 6% of span on each side and
// another 10% of span on the high x side, where labels are drawn.
func padRange(lo, hi, span float64, labelSide bool) (float64, float64) {
	lo, hi = lo-0.06*span, hi+0.06*span
	if labelSide {
		hi += 0.1 * span
	}
	return lo, hi
}

// snapRange widens [lo,hi] to multiples of step.
func snapRange(lo, hi, step float64) (float64, float64) {
	return math.Floor(lo/step-1e-9) * step, math.Ceil(hi/step+1e-9) * step
}

// freeScale picks padded ranges on nice steps for each axis separately.
func freeScale(xlo, xhi, ylo, yhi float64) (x, y axisRange) {
	one := func(lo, hi float64, labelSide bool) axisRange {
		span := hi - lo
		if span == 0 {
			span = math.Max(math.Abs(hi), 1)
		}
		lo, hi = padRange(lo, hi, span, labelSide)
		step := niceStep((hi - lo) / 6)
		lo, hi = snapRange(lo, hi, step)
		return axisRange{Tidy(lo), Tidy(hi), step}
	}
	return one(xlo, xhi, true), one(ylo, yhi, false)
}

// equalScale picks ranges on a common nice step for data within
// [xlo,xhi]×[ylo,yhi] and the plot height that gives one unit the same
// length on both axes for a plot plotW pixels wide. The height stays within
// 0.4–1.2 of the width by widening the shorter range a step at a time, at
// the end where the data leave the smaller margin.
func equalScale(xlo, xhi, ylo, yhi float64, plotW int) (x, y axisRange, plotH int) {
	span := math.Max(xhi-xlo, yhi-ylo)
	if span == 0 {
		span = 1
	}
	px0, px1 := padRange(xlo, xhi, span, true)
	py0, py1 := padRange(ylo, yhi, span, false)
	step := niceStep(math.Max(px1-px0, py1-py0) / 8)
	x0, x1 := snapRange(px0, px1, step)
	y0, y1 := snapRange(py0, py1, step)
	const minRatio, maxRatio = 0.4, 1.2
	for {
		r := (y1 - y0) / (x1 - x0)
		switch {
		case r < minRatio-1e-12:
			if y1-yhi <= ylo-y0 {
				y1 += step
			} else {
				y0 -= step
			}
			continue
		case r > maxRatio+1e-12:
			if x1-xhi <= xlo-x0 {
				x1 += step
			} else {
				x0 -= step
			}
			continue
		}
		break
	}
	plotH = int(math.Round(float64(plotW) * (y1 - y0) / (x1 - x0)))
	return axisRange{Tidy(x0), Tidy(x1), step}, axisRange{Tidy(y0), Tidy(y1), step}, plotH
}

// niceStep rounds v up to 1, 2, 2.5 or 5 times a power of ten.
func niceStep(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, f := range []float64{1, 2, 2.5, 5, 10} {
		if v <= f*p*(1+1e-9) {
			return Tidy(f * p)
		}
	}
	return Tidy(10 * p)
}

// Tidy removes binary noise such as 0.30000000000000004 so the JSON shows
// the number a person would write.
func Tidy(v float64) float64 {
	t, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if t == 0 {
		return 0 // no "-0"
	}
	return t
}
