package page

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLineChartOption(t *testing.T) {
	c := LineChart{ID: "l", XName: "n", YName: "s", LogX: true, LogY: true, Series: []LineSeries{
		{Name: "a", Points: []XY{{X: 1, Y: 1}, {X: 10, Y: 0}, {X: 100, Y: -1}, {X: math.NaN(), Y: 1}, {X: 1000, Y: 5}}},
	}}
	opt, w, h, notes, err := c.option()
	require.NoError(t, err)
	assert.Equal(t, 720, w)
	assert.Equal(t, 420, h)
	assert.Equal(t, []string{"3 point(s) not drawn: a non-finite coordinate or a non-positive value on a log axis."}, notes)
	assert.Equal(t, "log", axisAt(opt, "xAxis")["type"])
	assert.Equal(t, 1.0, axisAt(opt, "xAxis")["min"], "at the first point, not a decade before")
	assert.Equal(t, 1000.0, axisAt(opt, "xAxis")["max"])
	assert.Equal(t, "value", axisAt(opt, "yAxis")["type"], "1 to 5 is less than a decade: a log axis would show one tick")
	b, err := json.Marshal(seriesAt(opt, 0)["data"])
	require.NoError(t, err)
	assert.JSONEq(t, `[{"value":[1,1]},{"value":[1000,5]}]`, string(b))
	assert.Equal(t, false, opt["animation"], "no animation: static pages, stable screenshots")

	c.LogY = false
	_, _, _, notes, err = c.option()
	require.NoError(t, err)
	assert.Equal(t, []string{"1 point(s) not drawn: a non-finite coordinate or a non-positive value on a log axis."}, notes)

	c.Width = -1
	_, _, _, _, err = c.option()
	assert.ErrorContains(t, err, "must be ≥ 0 pixels")
}

func TestLineChartErrorBars(t *testing.T) {
	c := LineChart{ID: "e", LogY: true, Series: []LineSeries{
		{Name: "plain", Points: []XY{{X: 1, Y: 2}}},
		{Name: "replicated", Points: []XY{{X: 1, Y: 2, Err: 0.5}, {X: 2, Y: 1, Err: 3, DashedErr: true}, {X: 3, Y: 4}}},
	}}
	opt, _, _, _, err := c.option()
	require.NoError(t, err)
	assert.Nil(t, seriesAt(opt, 0)["markLine"], "no spread, no bars")
	b, err := json.Marshal(seriesAt(opt, 1)["markLine"])
	require.NoError(t, err)
	assert.JSONEq(t, `{"symbol":["none","none"],"silent":true,"label":{"show":false},
		"lineStyle":{"color":"#c0392b","type":"solid","width":1.5},
		"data":[[{"coord":[1,1.5]},{"coord":[1,2.5]}],[{"coord":[2,0.1],"lineStyle":{"type":"dashed"}},{"coord":[2,4]}]]}`, string(b),
		"one vertical segment per point with a spread, in the series' colour, dashed when asked; below zero on a log axis it stops a decade down")

	// ECharts drops a bar with an end outside the axis, and scales a linear
	// axis to the points alone: the axis is widened to the bars.
	wide := LineChart{ID: "w", Series: []LineSeries{{Name: "a", Points: []XY{{X: 1, Y: -0.05, Err: 0.14}, {X: 2, Y: 0.13, Err: 0.01}}}}}
	opt, _, _, _, err = wide.option()
	require.NoError(t, err)
	y := axisAt(opt, "yAxis")
	assert.Equal(t, -0.2, y["min"], "below −0.05 − 0.14, on a step of 0.1 (a fifth of the span, rounded up)")
	assert.Equal(t, 0.2, y["max"], "above 0.13 + 0.01 and −0.05 + 0.14")
	narrow := LineChart{ID: "n", Series: []LineSeries{{Name: "a", Points: []XY{{X: 1, Y: 0.1}, {X: 2, Y: 0.2, Err: 0.01}, {X: 3, Y: 0.3}}}}}
	opt, _, _, _, err = narrow.option()
	require.NoError(t, err)
	assert.NotContains(t, axisAt(opt, "yAxis"), "min", "bars inside the points' range: the axis is ECharts'")
}

// TestLineChartLooks: every line has a colour of its own, a fixed colour
// is kept, a line with nothing to draw and its marks at unknown sizes are
// left out (a note names it), and a long legend wraps above a plot moved
// down to make room.
func TestLineChartLooks(t *testing.T) {
	var series []LineSeries
	for i := range 10 {
		series = append(series, LineSeries{Name: "a fairly long series name " + strconv.Itoa(i), Points: []XY{{X: 1, Y: 1}, {X: 2, Y: 2}}})
	}
	series[3].Color = Palette[0]
	series = append(series, LineSeries{Name: "empty", Points: []XY{{X: math.NaN(), Y: 1}}})
	c := LineChart{ID: "c", Series: series, Marks: []VLines{
		{Name: "empty: over budget", X: []float64{math.NaN()}, Like: "empty"},
		{Name: "0: over budget", X: []float64{3}, Like: series[0].Name},
	}}
	opt, _, h, notes, err := c.option()
	require.NoError(t, err)
	colors := map[string]bool{}
	for i := range 10 {
		colors[seriesAt(opt, i)["itemStyle"].(map[string]any)["color"].(string)] = true
	}
	assert.Len(t, colors, 10, "ten lines, ten colours")
	assert.Equal(t, Palette[0], seriesAt(opt, 3)["itemStyle"].(map[string]any)["color"])
	assert.Len(t, opt["series"], 11, "ten lines and one set of marks")
	assert.Equal(t, "0: over budget", seriesAt(opt, 10)["name"])
	assert.Equal(t, []string{"Not drawn, no point to show: empty."}, notes[:1])
	assert.NotContains(t, opt["legend"], "type", "a plain legend, which wraps")
	rows := legendRows(append(names(series[:10]), "0: over budget"), 720)
	assert.Greater(t, rows, 1)
	assert.Equal(t, 420+(rows-1)*legendRowHeight, h)
	assert.Equal(t, strconv.Itoa(marginTop+(rows-1)*legendRowHeight), opt["grid"].([]any)[0].(map[string]any)["top"])
}

func names(ss []LineSeries) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Name)
	}
	return out
}

func TestBarOption(t *testing.T) {
	c := Bar{ID: "b", Categories: []string{"1", "2"}, Series: []BarSeries{{Name: "s", Values: []float64{0.2, math.Inf(1)}, Labels: []string{"86%", "14%"}}}}
	opt, _, _, notes, err := c.option()
	require.NoError(t, err)
	assert.Equal(t, []string{"1 bar(s) not drawn: a non-finite value."}, notes)
	b, err := json.Marshal(seriesAt(opt, 0))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"data":[{"value":[0,0.2,"86%"]}]`)
	assert.Contains(t, string(b), `"encode":{"label":2,"tooltip":[1,2],"x":0,"y":1}`)

	c.Series[0].Labels = []string{"x"}
	_, _, _, _, err = c.option()
	assert.ErrorContains(t, err, `series "s" has 1 labels for 2 values`)
}

// TestEqualScale: one unit is as long on x as on y, ticks are shared, and
// the ranges hold the data (the origin is the caller's to include).
func TestEqualScale(t *testing.T) {
	cases := []struct {
		name                   string
		xlo, xhi, ylo, yhi     float64
		plotW                  int
		wantMinRatio, wantMaxR float64
	}{
		{"fisher", -0.544, 1.094, -0.286, 0.245, 612, 0.4, 1.2},
		{"flat", -10, 10, -0.01, 0.01, 600, 0.4, 1.2},
		{"tall", -0.01, 0.01, -5, 5, 600, 0.4, 1.2},
		{"one point", 0, 0, 0, 0, 500, 0.4, 1.2},
		{"far from origin", 100, 101, 50, 51, 500, 0.4, 1.2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, y, plotH := equalScale(c.xlo, c.xhi, c.ylo, c.yhi, c.plotW)
			assert.Equal(t, x.step, y.step)
			assert.LessOrEqual(t, x.min, c.xlo)
			assert.GreaterOrEqual(t, x.max, c.xhi)
			assert.LessOrEqual(t, y.min, c.ylo)
			assert.GreaterOrEqual(t, y.max, c.yhi)
			unitX := float64(c.plotW) / (x.max - x.min)
			unitY := float64(plotH) / (y.max - y.min)
			assert.InDelta(t, 1, unitY/unitX, 0.01, "pixels per unit differ: x %g, y %g", unitX, unitY)
			r := float64(plotH) / float64(c.plotW)
			assert.GreaterOrEqual(t, r, c.wantMinRatio-0.01)
			assert.LessOrEqual(t, r, c.wantMaxR+0.01)
			// Ranges are whole steps.
			for _, v := range []float64{x.min, x.max, y.min, y.max} {
				k := v / x.step
				assert.InDelta(t, math.Round(k), k, 1e-6, "%g is not a multiple of %g", v, x.step)
			}
		})
	}
}

func TestNiceStep(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{
		{0.18, 0.2}, {0.21, 0.25}, {0.3, 0.5}, {0.7, 1}, {1, 1}, {3, 5}, {12, 20}, {0.0004, 0.0005},
	} {
		assert.Equal(t, c.want, niceStep(c.in), "niceStep(%g)", c.in)
	}
}

func TestScatterMapOption(t *testing.T) {
	pts := make([]Labeled, 70)
	for i := range pts {
		pts[i] = Labeled{Label: "w", X: float64(i), Y: 1}
	}
	pts[3].Y = math.NaN()
	c := ScatterMap{ID: "m", Series: []ScatterSeries{{Name: "many", Points: pts}, {Name: "few", Points: pts[:2]}}}
	opt, _, _, notes, err := c.option()
	require.NoError(t, err)
	assert.Equal(t, []string{`Labels of "many" hidden: 69 points > 60 (hover for them).`, "1 point(s) not drawn: a non-finite coordinate."}, notes)
	assert.Equal(t, map[string]any{"show": false, "position": "right", "color": Palette[0], "fontSize": json.Number("12")}, seriesAt(opt, 0)["label"])
	assert.Equal(t, true, seriesAt(opt, 1)["label"].(map[string]any)["show"])
	assert.Equal(t, "circle", seriesAt(opt, 0)["symbol"])
	assert.Equal(t, "triangle", seriesAt(opt, 1)["symbol"])
	assert.Contains(t, seriesAt(opt, 0), "markLine", "origin lines on the first series")
	assert.NotContains(t, seriesAt(opt, 1), "markLine")

	c.MaxLabels = -1
	_, _, _, _, err = c.option()
	assert.ErrorContains(t, err, "MaxLabels must be ≥ 0")
	c.MaxLabels, c.EqualScale, c.Width = 0, true, 150
	_, _, _, _, err = c.option()
	assert.ErrorContains(t, err, "leaves no room for the plot")
}

func TestTidy(t *testing.T) {
	assert.Equal(t, 0.3, Tidy(0.1+0.2))
	assert.Equal(t, "0", FormatValue(Tidy(math.Copysign(0, -1))))
}

func TestNiceBounds(t *testing.T) {
	for _, c := range []struct{ v, below, above float64 }{
		{996, 500, 1000},
		{1000, 1000, 1000},
		{22542, 20000, 50000},
		{1.8e-15, 1e-15, 2e-15},
	} {
		assert.Equal(t, c.below, niceBelow(c.v), "below %g", c.v)
		assert.Equal(t, c.above, niceAbove(c.v), "above %g", c.v)
	}
}

// One line, one colour on every chart of a page: a line muted on one chart
// (†) keeps its colour, a line absent from the first chart does not take
// the colour of one there, and no line is grey.
func TestPageColors(t *testing.T) {
	r := newRenderer()
	first := r.pageColors(LineChart{Series: []LineSeries{{Name: "SCA+MEN"}, {Name: "SCA+M.Turk"}}})
	second := r.pageColors(LineChart{Series: []LineSeries{{Name: "LCA"}, {Name: "SCA+M.Turk †", Key: "SCA+M.Turk", Muted: true}, {Name: "SCA+MEN"}}})
	assert.Equal(t, first.Series[1].Color, second.Series[1].Color, "SCA+M.Turk, muted or not")
	assert.Equal(t, first.Series[0].Color, second.Series[2].Color, "SCA+MEN")
	assert.NotEqual(t, first.Series[0].Color, first.Series[1].Color)
	assert.NotContains(t, []string{first.Series[0].Color, first.Series[1].Color}, second.Series[0].Color, "LCA takes a colour of its own")
	for _, c := range Palette {
		r, g, b := hexRGB(t, c)
		assert.False(t, max(r, g, b)-min(r, g, b) < 40, "Palette colour %s is a grey: grey is for what is not a series", c)
	}
	fixed := r.pageColors(LineChart{Series: []LineSeries{{Name: "dense", Color: "#c0392b"}}})
	assert.Equal(t, "#c0392b", fixed.Series[0].Color, "a colour set by the section stays")

	later := newRenderer()
	later.reserve([]Section{{Subsections: []Section{{Blocks: []Block{Row{LineChart{Series: []LineSeries{{Name: "dense", Color: Palette[0]}}}}}}}}})
	assert.NotEqual(t, Palette[0], later.pageColors(LineChart{Series: []LineSeries{{Name: "LCA"}}}).Series[0].Color,
		"a line drawn before the one whose colour is set does not take it")
}

func hexRGB(t *testing.T, c string) (r, g, b int) {
	t.Helper()
	_, err := fmt.Sscanf(c, "#%02x%02x%02x", &r, &g, &b)
	require.NoError(t, err)
	return r, g, b
}

// A chart whose every trial is a mark (none finished: every size over
// budget) has no series of points; its marks are drawn, and nothing
// panics (it did, from a run whose every candidate was over budget).
func TestLineChartOnlyMarks(t *testing.T) {
	c := LineChart{ID: "c", Series: []LineSeries{{Name: "krylov", Points: []XY{{X: math.NaN(), Y: 1}}}}, Marks: []VLines{
		{Name: "krylov: over budget", X: []float64{100, 300}, Like: "krylov"},
	}}
	opt, _, _, _, err := c.option()
	require.NoError(t, err)
	require.Len(t, opt["series"], 1)
	assert.Equal(t, "krylov: over budget", seriesAt(opt, 0)["name"])
}

// A setting is printed as a spec writes it: a whole number in full, never
// in exponent notation (synthetic.tokens = 17005207).
func TestFormatValue(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{1.7005207e+07, "17005207"},
		{2e6, "2000000"},
		{0.015625, "0.015625"},
		{1e-8, "1e-08"},
		{-3.0, "-3"},
		{1e20, "1e+20"},
		{[]any{"king", 1.0}, "[king, 1]"},
		{nil, "null"},
	} {
		assert.Equal(t, c.want, FormatValue(c.v), "%#v", c.v)
	}
}

// TestLineChartZero: a difference chart's line at y = 0 is a series of its
// own (a legend entry), under the data, and the y axis holds 0 whether
// ECharts scales it or the error bars bound it; a log axis draws none.
func TestLineChartZero(t *testing.T) {
	above := []XY{{X: 1, Y: 0.1}, {X: 2, Y: 0.2}, {X: 3, Y: 0.3}}
	c := LineChart{ID: "z", Zero: "no difference", Series: []LineSeries{{Name: "Δ", Points: above}}}
	opt, _, _, _, err := c.option()
	require.NoError(t, err)
	require.Len(t, opt["series"], 2)
	zero := seriesAt(opt, 1)
	assert.Equal(t, "no difference", zero["name"])
	assert.Empty(t, zero["data"], "no points: only the line")
	b, err := json.Marshal(zero["markLine"].(map[string]any)["data"])
	require.NoError(t, err)
	assert.JSONEq(t, `[{"yAxis":0}]`, string(b))
	assert.Equal(t, false, axisAt(opt, "yAxis")["scale"], "an axis ECharts scales to the points would start above 0")

	barred := LineChart{ID: "b", Zero: "no difference", Series: []LineSeries{{Name: "Δ", Points: []XY{{X: 1, Y: 0.5, Err: 0.05}, {X: 2, Y: 0.6, Err: 0.2}}}}}
	opt, _, _, _, err = barred.option()
	require.NoError(t, err)
	y := axisAt(opt, "yAxis")
	assert.Equal(t, 0.0, y["min"], "bars bound the axis above 0: widened down to it")
	assert.Equal(t, 0.8, y["max"])

	below := LineChart{ID: "n", Zero: "no difference", Series: []LineSeries{{Name: "Δ", Points: []XY{{X: 1, Y: -0.5, Err: 0.05}, {X: 2, Y: -0.6, Err: 0.2}}}}}
	opt, _, _, _, err = below.option()
	require.NoError(t, err)
	assert.Equal(t, 0.0, axisAt(opt, "yAxis")["max"], "widened up to 0")

	logY := LineChart{ID: "l", Zero: "no difference", LogY: true, Series: []LineSeries{{Name: "Δ", Points: above}}}
	opt, _, _, _, err = logY.option()
	require.NoError(t, err)
	assert.Len(t, opt["series"], 1, "a log axis has no 0")

	c.Zero = ""
	opt, _, _, _, err = c.option()
	require.NoError(t, err)
	assert.Len(t, opt["series"], 1, "none unless asked")
	assert.NotEqual(t, false, axisAt(opt, "yAxis")["scale"])
}
