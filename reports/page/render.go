package page

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// pageData is everything the page template needs.
type pageData struct {
	Title    string
	Question string // what the page answers, in one line; "" for none
	Answer   string // its answer in one line (the verdict); "" for none
	Meta     []string
	Warn     []string            // what a reader must know before trusting a comparison on the page
	Results  map[string]string   // link to the results file: Path, Href; nil for none
	Spec     map[string]string   // link to the spec file: Name, Href; nil for none
	Index    string              // href of the index of every report; "" for none
	Related  []map[string]string // links to the reports of the specs compared with: Text, Href
	TOC      []tocEntry
	Body     template.HTML
	About    string
	Inline   template.JS       // the ECharts library, or ""
	Src      string            // its URL when not inlined
	SRI      template.HTMLAttr // integrity="…" of Src (checked against sriPattern), or ""
	Charts   template.JS       // the chart data and the code that draws it
	Tables   template.JS       // sorting and choosing columns (TableScript)
}

type tocEntry struct {
	ID, Title string
	Sub       []tocEntry
}

var idPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// renderer turns sections into HTML, checking ids and collecting the charts
// for the script at the end of the page.
type renderer struct {
	buf    bytes.Buffer
	ids    map[string]string // id → what uses it
	charts []string          // one JSON object per chart, in page order
	tables int               // tables without an id so far, to name their CSV files
	// colors are the page's line colours by series key (LineSeries.Key):
	// one series, one colour, on every chart of the page.
	colors map[string]string
	// fixed are the colours lines of the page have set for themselves
	// (settingColor's): a line without one never takes them.
	fixed map[string]bool
}

// reserve notes the colours the page's lines set for themselves, before
// any is drawn.
func (r *renderer) reserve(sections []Section) {
	var walk func(blocks []Block)
	walk = func(blocks []Block) {
		for _, b := range blocks {
			switch b := b.(type) {
			case Row:
				walk(b)
			case Details:
				walk(b.Blocks)
			case LineChart:
				for _, s := range b.Series {
					if s.Color != "" {
						r.fixed[s.Color] = true
					}
				}
			}
		}
	}
	for _, s := range sections {
		walk(s.Blocks)
		r.reserve(s.Subsections)
	}
}

func newRenderer() *renderer {
	return &renderer{ids: map[string]string{}, colors: map[string]string{}, fixed: map[string]bool{}}
}

// pageColors gives every line of c without a colour of its own the one its
// key has on this page, a key new to the page the first palette colour no
// key of the page has yet (cycling once all are taken, the symbol then
// telling lines apart). A line whose colour is set keeps it.
func (r *renderer) pageColors(c LineChart) LineChart {
	used := maps.Clone(r.fixed)
	for _, col := range r.colors {
		used[col] = true
	}
	series := slices.Clone(c.Series)
	for i, s := range series {
		key := s.colorKey()
		switch {
		case s.Color != "":
			if _, ok := r.colors[key]; !ok {
				r.colors[key] = s.Color
			}
			used[s.Color] = true
		case r.colors[key] != "":
			series[i].Color = r.colors[key]
		default:
			col := Palette[len(r.colors)%len(Palette)]
			for _, p := range Palette {
				if !used[p] {
					col = p
					break
				}
			}
			r.colors[key], used[col] = col, true
			series[i].Color = col
		}
	}
	c.Series = series
	return c
}

func (r *renderer) claim(id, what string) error {
	if !idPattern.MatchString(id) {
		return fmt.Errorf("%s: id %q must match %s", what, id, idPattern)
	}
	if prev, ok := r.ids[id]; ok {
		return fmt.Errorf("%s: id %q is already used by %s", what, id, prev)
	}
	r.ids[id] = what
	return nil
}

func (r *renderer) exec(t *template.Template, data any) error {
	return t.Execute(&r.buf, data)
}

// sections renders ss at heading level 2+depth and returns their TOC
// entries. prefix gives derived ids ("s2-1").
func (r *renderer) sections(ss []Section, depth int, prefix string) ([]tocEntry, error) {
	var toc []tocEntry
	for i, s := range ss {
		id := s.ID
		if id == "" {
			id = prefix + strconv.Itoa(i+1)
		}
		if err := r.claim(id, fmt.Sprintf("section %q", s.Title)); err != nil {
			return nil, err
		}
		level := min(2+depth, 6)
		if err := r.exec(tplSectionOpen, map[string]any{"ID": id, "Title": s.Title, "H": level}); err != nil {
			return nil, err
		}
		for _, b := range s.Blocks {
			if err := r.block(b); err != nil {
				return nil, fmt.Errorf("section %q: %w", s.Title, err)
			}
		}
		sub, err := r.sections(s.Subsections, depth+1, id+"-")
		if err != nil {
			return nil, err
		}
		r.buf.WriteString("</section>\n")
		toc = append(toc, tocEntry{ID: id, Title: s.Title, Sub: sub})
	}
	return toc, nil
}

func (r *renderer) block(b Block) error {
	switch b := b.(type) {
	case Paragraph:
		return r.exec(tplParagraph, string(b))
	case Headline:
		return r.exec(tplHeadline, []string(b))
	case List:
		return r.exec(tplList, []string(b))
	case Links:
		items := make([]map[string]string, len(b))
		for i, l := range b {
			items[i] = map[string]string{"Text": l.Text, "Path": l.Path, "Href": l.Href()}
		}
		return r.exec(tplLinks, items)
	case Row:
		r.buf.WriteString("<div class=\"row\">\n")
		for _, e := range b {
			if err := r.block(e); err != nil {
				return err
			}
		}
		r.buf.WriteString("</div>\n")
		return nil
	case Details:
		if err := r.exec(tplDetailsOpen, b); err != nil {
			return err
		}
		for _, e := range b.Blocks {
			if err := r.block(e); err != nil {
				return err
			}
		}
		r.buf.WriteString("</details>\n")
		return nil
	case Table:
		return r.table(b)
	case ScoreTable:
		return r.scoreTable(b)
	case LineChart:
		return r.chart(r.pageColors(b))
	case chart:
		return r.chart(b)
	case nil:
		return fmt.Errorf("nil block")
	}
	return fmt.Errorf("unknown block type %T", b)
}

func (r *renderer) table(t Table) error {
	if t.ID != "" {
		if err := r.claim(t.ID, fmt.Sprintf("table %q", t.Caption)); err != nil {
			return err
		}
	}
	for i, row := range t.Rows {
		if len(row) != len(t.Header) {
			return fmt.Errorf("table %q: row %d has %d cells for %d columns", t.Caption, i+1, len(row), len(t.Header))
		}
	}
	num := make([]bool, len(t.Header))
	copy(num, t.Numeric)
	if err := r.exec(tplTable, map[string]any{"T": t, "Num": num}); err != nil {
		return err
	}
	if t.CSV != nil {
		return r.csvLink(t.ID, t.CSV)
	}
	rows := [][]string{t.Header}
	for _, row := range t.Rows {
		out := make([]string, len(row))
		for j, c := range row {
			out[j] = csvCell(c)
		}
		rows = append(rows, out)
	}
	return r.csvLink(t.ID, rows)
}

type scoreCell struct {
	Text  string
	CI    string // the 95% interval's half-width, when tested
	Class string
	Note  string
}

// scoreGroup is a run of rows of one ranking group, as the template draws
// it: its name above its rows.
type scoreGroup struct {
	Name  string
	Rows  []ScoreRow
	Cells [][]scoreCell
}

func (r *renderer) scoreTable(t ScoreTable) error {
	if t.ID != "" {
		if err := r.claim(t.ID, fmt.Sprintf("score table %q", t.Caption)); err != nil {
			return err
		}
	}
	if err := t.check(); err != nil {
		return err
	}
	digits, _ := t.digits()
	cells := scoreCells(t.Rows, digits)
	var groups []scoreGroup
	used := map[Mark]bool{}
	for _, g := range RowGroups(t.Rows) {
		sg := scoreGroup{Name: t.Rows[g[0]].Group}
		for _, i := range g {
			for j, m := range t.Rows[i].Marks {
				cells[i][j].Class = markClass[m]
				used[m] = true
			}
			sg.Rows, sg.Cells = append(sg.Rows, t.Rows[i]), append(sg.Cells, cells[i])
		}
		groups = append(groups, sg)
	}
	ref := scoreCells(t.Reference, digits)
	better := "higher"
	if t.LowerIsBetter {
		better = "lower"
	}
	intervals := false
	for _, row := range cells {
		for _, c := range row {
			intervals = intervals || c.CI != ""
		}
	}
	named := len(groups) > 1 || (len(groups) == 1 && groups[0].Name != "")
	// A click on a score column puts the best scores first.
	first := "descending"
	if t.LowerIsBetter {
		first = "ascending"
	}
	if err := r.exec(tplScoreTable, map[string]any{"T": t, "Groups": groups, "Named": named, "Ref": ref, "Better": better,
		"Untested": used[Untested], "Intervals": intervals, "First": first}); err != nil {
		return err
	}
	return r.csvLink(t.ID, scoreCSV(t))
}

// markClass is the class of a cell with a mark.
var markClass = map[Mark]string{Best: "best", Second: "second", Untested: "untested"}

// RowGroups splits the rows into runs of one Group (a valid table keeps a
// group's rows contiguous), as row indices.
func RowGroups(rows []ScoreRow) [][]int {
	var out [][]int
	for i, row := range rows {
		if i == 0 || row.Group != rows[i-1].Group {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], i)
	}
	return out
}

// scoreCells are the rows' scores as shown, with their intervals and
// notes.
func scoreCells(rows []ScoreRow, digits int) [][]scoreCell {
	cells := make([][]scoreCell, len(rows))
	for i, row := range rows {
		cells[i] = make([]scoreCell, len(row.Scores))
		for j, v := range row.Scores {
			cells[i][j].Text = FormatScore(v, digits)
			if row.HalfWidths != nil && finite(row.HalfWidths[j]) {
				cells[i][j].CI = "±" + strconv.FormatFloat(row.HalfWidths[j], 'f', digits, 64)
			}
			if row.Notes != nil {
				cells[i][j].Note = row.Notes[j]
			}
		}
	}
	return cells
}

// scoreCSV is the table for a program to read: per column the score
// and then one column per quantity its cells carry ("Sim", "Sim lo",
// "Sim hi", "Sim sd", "Sim paper", "Sim delta", "Sim coverage", …, in the
// order they first appear), "unranked" 1 for a score shown but never
// marked, plain numbers at full precision, empty for none; a first Group
// column when the table ranks its rows in groups. Reference rows follow
// with their group's title in the name; footers, text for a reader, are
// left out (their numbers are the cells' quantities).
func scoreCSV(t ScoreTable) [][]string {
	var names []string
	seen := map[string]bool{}
	for _, group := range [][]ScoreRow{t.Rows, t.Reference} {
		for _, r := range group {
			for _, qs := range r.Quantities {
				for _, q := range qs {
					if !seen[q.Name] {
						seen[q.Name] = true
						names = append(names, q.Name)
					}
				}
			}
		}
	}
	unranked, grouped := false, false
	for _, r := range t.Rows {
		unranked = unranked || slices.Contains(r.Unranked, true)
		grouped = grouped || r.Group != ""
	}
	head := []string{t.RowHeader}
	if grouped {
		head = append([]string{"Group"}, head...)
	}
	for _, c := range t.Columns {
		head = append(head, c)
		for _, n := range names {
			head = append(head, c+" "+n)
		}
		if unranked {
			head = append(head, c+" unranked")
		}
	}
	line := func(name string, r ScoreRow) []string {
		out := []string{name}
		if grouped {
			out = []string{r.Group, name}
		}
		for j, v := range r.Scores {
			out = append(out, CSVNumber(v))
			var qs []Quantity
			if j < len(r.Quantities) {
				qs = r.Quantities[j]
			}
			for _, n := range names {
				cell := ""
				for _, q := range qs {
					if q.Name == n {
						cell = CSVNumber(q.Value)
					}
				}
				out = append(out, cell)
			}
			if unranked {
				flag := ""
				if r.Unranked != nil && r.Unranked[j] {
					flag = "1"
				}
				out = append(out, flag)
			}
		}
		return out
	}
	rows := [][]string{head}
	for _, r := range t.Rows {
		rows = append(rows, line(r.Name, r))
	}
	for _, r := range t.Reference {
		ref := r
		ref.Group = ""
		rows = append(rows, line(r.Name+" ("+t.ReferenceTitle+")", ref))
	}
	return rows
}

// CSVNumber prints a number for a CSV: the shortest digits that read back
// as the same float64, ASCII minus, "" for none.
func CSVNumber(v float64) string {
	if !finite(v) {
		return ""
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64) // a count: 9781414, not 9.781414e+06
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// csvCell makes a displayed table cell machine-readable: a number printed
// for people ("2,139,749", "−0.226", "+6.0%") becomes a plain one
// ("2139749", "-0.226", "0.06"), a dash for none becomes empty, and any
// other text is kept.
func csvCell(s string) string {
	t := strings.TrimSpace(strings.ReplaceAll(s, "−", "-"))
	if t == "—" || t == "-" {
		return ""
	}
	pct := strings.HasSuffix(t, "%")
	n := strings.TrimPrefix(strings.TrimSuffix(t, "%"), "+")
	n = strings.ReplaceAll(n, ",", "")
	if !numberPattern.MatchString(n) {
		return t
	}
	v, err := strconv.ParseFloat(n, 64)
	if err != nil {
		return t
	}
	if pct {
		return strconv.FormatFloat(v/100, 'g', -1, 64)
	}
	return n
}

var numberPattern = regexp.MustCompile(`^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$`)

// csvLink writes a download link holding the table as CSV in a data: URL:
// it works offline and without script, and the same table gives the same
// bytes.
func (r *renderer) csvLink(id string, rows [][]string) error {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(rows); err != nil {
		return err
	}
	name := id
	if name == "" {
		r.tables++
		name = "table-" + strconv.Itoa(r.tables)
	}
	// Every byte but the unreserved ones is percent-encoded, so nothing in
	// the data can end the attribute or change the URL's scheme; hence the
	// template.URL, which html/template would otherwise refuse for data:.
	href := template.URL("data:text/csv;charset=utf-8," + strings.ReplaceAll(url.PathEscape(b.String()), "+", "%2B"))
	return r.exec(tplCSV, map[string]any{"Href": href, "Name": name + ".csv"})
}

func (r *renderer) chart(c chart) error {
	what := fmt.Sprintf("chart %q", c.title())
	if err := r.claim(c.id(), what); err != nil {
		return err
	}
	opt, w, h, notes, err := c.option()
	if err != nil {
		return err
	}
	// Every chart can be saved (PNG here; SVG is added by the page script,
	// which needs a function) and read as numbers.
	opt["toolbox"] = map[string]any{
		// Bottom right: the legend fills the top, the axis title the
		// bottom's middle.
		"right": 4, "bottom": 2, "itemSize": 13,
		"feature": map[string]any{
			"saveAsImage": map[string]any{"title": "Save as PNG", "name": c.id(), "pixelRatio": 2},
			"dataView":    map[string]any{"title": "Data", "readOnly": true, "lang": []string{"Data", "Close", "Refresh"}},
		},
	}
	// encoding/json escapes <, > and & (and U+2028/9) inside strings, so no
	// text from the data can end the <script> element or open a comment.
	b, err := json.Marshal(map[string]any{"id": c.id(), "option": opt})
	if err != nil {
		return fmt.Errorf("%s: encoding option: %w", what, err)
	}
	r.charts = append(r.charts, string(b))
	return r.exec(tplChart, map[string]any{"ID": c.id(), "Title": c.title(), "W": w, "H": h, "Notes": notes, "Note": noteOf(c)})
}

func noteOf(c chart) string {
	switch c := c.(type) {
	case LineChart:
		return c.Note
	case ScatterMap:
		return c.Note
	case Bar:
		return c.Note
	}
	return ""
}

// chartScript is the code that draws the charts; %s is the list of
// {id, option} objects. A page whose ECharts did not load says so in each
// chart's box rather than throwing.
const chartScript = `"use strict";
(function () {
  var specs = [
%s
  ];
  var state = {total: specs.length, drawn: 0, missing: typeof echarts === "undefined"};
  var svgIcon = "path://M4,2H16L20,6V22H4Z M8,12H16 M8,16H16";
  // Tick labels of a log axis: plain from 0.001 to 999,999 ("0.01",
  // "10,000"), else as 1e-10 or 2.5e+6; ECharts would print
  // 0.0000000001. A function cannot travel in the option's JSON, so the
  // page adds it to every log axis before drawing.
  function logLabel(v) {
    var a = Math.abs(v);
    if (v === 0 || (a >= 1e-3 && a < 1e6)) {
      return v.toLocaleString("en-US", {maximumSignificantDigits: 6});
    }
    var e = Math.floor(Math.log10(a) + 1e-9);
    var m = Math.round(v / Math.pow(10, e) * 1000) / 1000;
    return m + "e" + (e < 0 ? "" : "+") + e;
  }
  // An axis drawn on log10 exponents (kcalabExp) is labelled 10^v, and
  // its chart's tooltip shows the point's values rather than exponents.
  function expLabel(v) { return logLabel(Math.pow(10, v)); }
  function prepare(o) {
    var exp = [false, false];
    ["xAxis", "yAxis"].forEach(function (k, d) {
      [].concat(o[k] || []).forEach(function (a) {
        if (a.type === "log" || a.kcalabExp) {
          a.axisLabel = a.axisLabel || {};
          a.axisLabel.formatter = a.kcalabExp ? expLabel : logLabel;
          exp[d] = exp[d] || !!a.kcalabExp;
        }
      });
    });
    if ((exp[0] || exp[1]) && o.tooltip) {
      o.tooltip.formatter = function (p) {
        var v = p.value || [];
        var x = exp[0] ? Math.pow(10, v[0]) : v[0], y = exp[1] ? Math.pow(10, v[1]) : v[1];
        return echarts.format.encodeHTML(p.seriesName) + "<br>" +
          echarts.format.encodeHTML(logLabel(x) + ", " + Number(y).toPrecision(3));
      };
    }
    return o;
  }
  // Draws the chart again with ECharts' SVG renderer, off screen, and
  // downloads that: the page itself draws on a canvas.
  function saveSVG(s, el) {
    var box = document.createElement("div");
    box.style.cssText = "position:absolute;left:-10000px;top:0;width:" + el.clientWidth + "px;height:" + el.clientHeight + "px";
    document.body.appendChild(box);
    var c = echarts.init(box, null, {renderer: "svg"});
    var o = JSON.parse(JSON.stringify(s.option));
    delete o.toolbox;
    c.setOption(prepare(o));
    var a = document.createElement("a");
    a.href = c.getDataURL({type: "svg"});
    a.download = s.id + ".svg";
    document.body.appendChild(a);
    a.click();
    a.remove();
    c.dispose();
    box.remove();
  }
  window.kcalabCharts = state;
  specs.forEach(function (s) {
    var el = document.getElementById(s.id);
    if (state.missing) {
      el.className += " chart-missing";
      el.textContent = "Chart not drawn: the ECharts library did not load.";
      return;
    }
    if (s.option.toolbox) {
      s.option.toolbox.feature.mySVG = {show: true, title: "Save as SVG", icon: svgIcon, onclick: function () { saveSVG(s, el); }};
    }
    var chart = echarts.init(el, null, {renderer: "canvas"});
    chart.on("finished", function () {
      if (el.getAttribute("data-drawn") !== "1") {
        el.setAttribute("data-drawn", "1");
        state.drawn++;
      }
    });
    chart.setOption(prepare(s.option));
  });
})();
`

// TableScript lets a reader sort any data table by clicking a column's
// header (again to reverse; numbers by value, "—" last, a score table's
// groups each sorted in place, its reference and footer rows left; a
// header's data-first="descending", a score column's where higher is
// better, sorts the best first on the first click) and,
// on a table of many columns, choose the columns shown. It only reorders
// and hides what the page shows: no number is computed here.
const TableScript = `"use strict";
(function () {
  var manyColumns = 10;
  function cellKey(cell) {
    var t = cell ? cell.textContent.trim() : "";
    var n = t.replace(/,/g, "").replace(/\u2212/g, "-").replace(/^[±+]/, "");
    // A ratio in words sorts by the ratio: "1.46× faster" is 0.68.
    var f = n.match(/^(\d+\.?\d*)× (faster|slower)/);
    if (f) {
      return {num: f[2] === "faster" ? 1 / parseFloat(f[1]) : parseFloat(f[1]), text: t};
    }
    if (t === "as fast") {
      return {num: 1, text: t};
    }
    var m = n.match(/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?/i);
    if (m) {
      return {num: parseFloat(m[0]), text: t};
    }
    return {num: null, text: t, none: t === "" || t === "—"};
  }
  function compare(a, b) {
    if (a.none !== b.none) { return a.none ? 1 : -1; }
    if ((a.num === null) !== (b.num === null)) { return a.num === null ? 1 : -1; }
    if (a.num !== null && a.num !== b.num) { return a.num - b.num; }
    return a.text.localeCompare(b.text, "en", {numeric: true});
  }
  function sortBy(table, col, th) {
    // The first click sorts as the header asks (a score column: best
    // first), ascending otherwise; the next click reverses.
    var now = th.getAttribute("aria-sort");
    var dir = now ? (now === "ascending" ? -1 : 1) : (th.getAttribute("data-first") === "descending" ? -1 : 1);
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
    Array.prototype.forEach.call(table.tBodies, function (tb) {
      if (tb.classList.contains("footer") || tb.classList.contains("reference")) { return; }
      var fixed = [], rows = [];
      Array.prototype.forEach.call(tb.rows, function (r, i) {
        (r.classList.contains("group") ? fixed : rows).push({r: r, i: i});
      });
      rows.sort(function (a, b) {
        var a0 = cellKey(a.r.cells[col]), b0 = cellKey(b.r.cells[col]);
        var c = (a0.none || b0.none) ? compare(a0, b0) : dir * compare(a0, b0);
        return c !== 0 ? c : a.i - b.i;
      });
      fixed.concat(rows).forEach(function (x) { tb.appendChild(x.r); });
    });
  }
  function showColumn(table, col, on) {
    Array.prototype.forEach.call(table.rows, function (r) {
      if (r.cells.length === table.tHead.rows[0].cells.length && r.cells[col]) {
        r.cells[col].style.display = on ? "" : "none";
      }
    });
  }
  function chooser(table) {
    var heads = table.tHead.rows[0].cells;
    var box = document.createElement("details");
    box.className = "columns";
    var sum = document.createElement("summary");
    sum.textContent = "Columns shown (" + heads.length + "): choose";
    box.appendChild(sum);
    Array.prototype.forEach.call(heads, function (h, j) {
      var label = document.createElement("label");
      var cb = document.createElement("input");
      cb.type = "checkbox";
      cb.checked = true;
      cb.setAttribute("data-column", j);
      cb.addEventListener("change", function () { showColumn(table, j, cb.checked); });
      label.appendChild(cb);
      label.appendChild(document.createTextNode(" " + h.textContent));
      box.appendChild(label);
    });
    var wrap = table.parentNode.classList.contains("scroll") ? table.parentNode : table;
    wrap.parentNode.insertBefore(box, wrap);
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.data, table.index"), function (table) {
    if (!table.tHead || table.tHead.rows.length !== 1) { return; }
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, j) {
      th.classList.add("sortable");
      th.title = "Sort by this column (click again to reverse)";
      th.addEventListener("click", function () { sortBy(table, j, th); });
    });
    if (heads.length >= manyColumns) { chooser(table); }
  });
})();
`

func (r *renderer) script() (template.JS, error) {
	js := fmt.Sprintf(chartScript, strings.Join(r.charts, ",\n"))
	// Belt and braces: the JSON encoder already escapes '<'.
	if i := unsafeInScript(js); i >= 0 {
		return "", fmt.Errorf("chart script would end the <script> element at byte %d", i)
	}
	return template.JS(js), nil
}

var funcs = template.FuncMap{
	"inc": func(i int) int { return i + 1 },
}

func mustTpl(name, text string) *template.Template {
	return template.Must(template.New(name).Funcs(funcs).Parse(text))
}

var (
	// html/template does not allow a computed element name, hence the ifs.
	tplSectionOpen = mustTpl("section", `<section id="{{.ID}}">
{{if eq .H 2}}<h2>{{.Title}}</h2>{{else if eq .H 3}}<h3>{{.Title}}</h3>{{else if eq .H 4}}<h4>{{.Title}}</h4>{{else if eq .H 5}}<h5>{{.Title}}</h5>{{else}}<h6>{{.Title}}</h6>{{end}}
`)
	tplParagraph = mustTpl("p", `<p>{{.}}</p>
`)
	tplHeadline = mustTpl("headline", `{{range .}}<p class="headline">{{.}}</p>
{{end}}`)
	tplLinks = mustTpl("links", `<ul class="files">
{{range .}}<li>{{.Text}}: {{if .Href}}<a href="{{.Href}}">{{.Path}}</a>{{else}}{{.Path}}{{end}}</li>
{{end}}</ul>
`)
	tplList = mustTpl("list", `<ul>
{{range .}}<li>{{.}}</li>
{{end}}</ul>
`)
	// Tables scroll inside a box of their own: a wide table never widens
	// the page, whose body must not scroll sideways.
	tplTable = mustTpl("table", `<div class="scroll"><table class="data"{{with .T.ID}} id="{{.}}"{{end}}>
{{with .T.Caption}}<caption>{{.}}</caption>
{{end}}<thead><tr>{{range $j, $h := .T.Header}}<th{{if index $.Num $j}} class="num"{{end}}>{{$h}}</th>{{end}}</tr></thead>
<tbody>
{{range .T.Rows}}<tr>{{range $j, $c := .}}<td{{if index $.Num $j}} class="num"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
`)
	tplScoreTable = mustTpl("scores", `<div class="scroll"><table class="data scores"{{with .T.ID}} id="{{.}}"{{end}}>
{{with .T.Caption}}<caption>{{.}}</caption>
{{end}}<thead><tr><th>{{.T.RowHeader}}</th>{{range .T.Columns}}<th class="num" data-first="{{$.First}}">{{.}}</th>{{end}}</tr></thead>
{{range $g := .Groups}}<tbody>
{{if $.Named}}<tr class="group"><th colspan="{{inc (len $.T.Columns)}}">{{$g.Name}}</th></tr>
{{end}}{{range $i, $row := $g.Rows}}<tr><th>{{$row.Name}}</th>{{range index $g.Cells $i}}<td class="num{{with .Class}} {{.}}{{end}}">{{.Text}}{{with .CI}} <small class="ci">{{.}}</small>{{end}}{{with .Note}} <small>{{.}}</small>{{end}}</td>{{end}}</tr>
{{end}}</tbody>
{{end}}{{if .T.Footer}}<tbody class="footer">
{{range .T.Footer}}<tr><th>{{.Name}}</th>{{range .Cells}}<td class="num">{{.}}</td>{{end}}</tr>
{{end}}</tbody>
{{end}}{{if .T.Reference}}<tbody class="reference">
<tr><th colspan="{{inc (len .T.Columns)}}">{{.T.ReferenceTitle}}</th></tr>
{{range $i, $row := .T.Reference}}<tr><th>{{$row.Name}}</th>{{range index $.Ref $i}}<td class="num">{{.Text}}{{with .Note}} <small>{{.}}</small>{{end}}</td>{{end}}</tr>
{{end}}</tbody>
{{end}}</table></div>
<p class="legend">Per column{{if .Named}} and group{{end}}: <span class="best">best</span>, <span class="second">second best</span> ({{.Better}} is better): a score is best when it is not significantly below the top one (the 95% interval of their paired bootstrap difference holds 0, or they print the same), so ties share the mark; second best is the same among the rest{{if .Untested}}; <span class="untested">grey, italic</span>: among the two highest as shown, but not tested (no bootstrap replicates), so no win is claimed{{end}}{{if .Intervals}}; ± is the score's 95% bootstrap interval{{end}}{{if .T.Reference}}; reference rows are not ranked{{end}}.{{with .T.Legend}} {{.}}{{end}}</p>
`)
	tplDetailsOpen = mustTpl("details", `<details class="more"{{if .Open}} open{{end}}><summary>{{.Summary}}</summary>
`)
	tplCSV = mustTpl("csv", `<p class="csv"><a download="{{.Name}}" href="{{.Href}}">Download CSV</a></p>
`)
	tplChart = mustTpl("chart", `<figure class="chart-box scroll">
{{with .Title}}<figcaption>{{.}}</figcaption>
{{end}}<div class="chart" id="{{.ID}}" style="width:{{.W}}px;height:{{.H}}px"></div>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{with .Note}}<p class="note">{{.}}</p>
{{end}}</figure>
`)
	tplPage = mustTpl("page", `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222; margin: 0 auto; max-width: 1500px; padding: 0 24px 48px; line-height: 1.4; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; max-width: 100%; }
table.data td, table.data th { overflow-wrap: normal; }
h1 { margin: 24px 0 4px; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: 4px; margin-top: 36px; }
p.question { font-size: 17px; font-weight: 600; margin: 4px 0; }
p.answer { background: #f4f8ff; border-left: 4px solid #1f5fbf; padding: 6px 10px; margin: 4px 0 12px; }
.meta { color: #555; margin: 0 0 12px; }
.warn { color: #8a4b00; background: #fff4e0; border-left: 4px solid #e0a030; padding: 4px 8px; }
nav.toc { background: #f6f6f6; padding: 8px 16px; display: inline-block; }
nav.toc ul { margin: 4px 0; padding-left: 20px; }
table.data { border-collapse: collapse; margin: 12px 0; font-size: 14px; }
table.data caption { text-align: left; font-weight: 600; padding: 4px 0; }
table.data th, table.data td { border: 1px solid #ccc; padding: 3px 8px; vertical-align: top; }
table.data thead th { background: #eee; }
table.data tbody th { text-align: left; font-weight: normal; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.best { color: #e00000; font-weight: 700; }
.second { color: #c000c0; font-weight: 700; }
.untested { background: #eeeeee; font-style: italic; }
tr.group th { background: #f3f3f3; font-weight: 600; }
p.headline { background: #f4f8ff; border-left: 4px solid #1f5fbf; padding: 6px 10px; }
tbody.reference th[colspan] { background: #f3f3f3; font-style: italic; }
tbody.reference td, tbody.reference th { color: #555; }
tbody.footer td, tbody.footer th { color: #555; font-size: 13px; background: #fafafa; }
table.scores small { color: #777; font-weight: normal; font-size: 11px; }
.legend, .note { font-size: 13px; color: #555; margin: 4px 0; }
.row { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
figure.chart-box { margin: 12px 0; }
figure.chart-box figcaption { font-weight: 600; margin-bottom: 4px; }
.chart { border: 1px solid #e4e4e4; }
.chart-missing { display: flex; align-items: center; justify-content: center; color: #b00020; background: #fff6f6; }
details.more { margin: 12px 0; }
details.more > summary { cursor: pointer; color: #1f5fbf; }
p.csv { font-size: 12px; margin: 0 0 12px; }
footer { margin-top: 36px; color: #777; font-size: 13px; }
table.data thead th.sortable { cursor: pointer; }
table.data thead th[aria-sort="ascending"]::after { content: " ▲"; font-size: 10px; }
table.data thead th[aria-sort="descending"]::after { content: " ▼"; font-size: 10px; }
details.columns { font-size: 13px; margin: 8px 0 0; }
details.columns > summary { cursor: pointer; color: #1f5fbf; }
details.columns label { display: inline-block; margin: 2px 12px 2px 0; white-space: nowrap; }
</style>
{{if .Inline}}<script>{{.Inline}}</script>
{{else}}<script src="{{.Src}}"{{with .SRI}} {{.}}{{end}} crossorigin="anonymous"></script>
{{end}}</head>
<body>
<header>
{{with .Index}}<p class="meta"><a href="{{.}}">← All experiments</a></p>
{{end}}<h1>{{.Title}}</h1>
{{with .Question}}<p class="question">{{.}}</p>
{{end}}{{with .Answer}}<p class="answer"><strong>Answer:</strong> {{.}}</p>
{{end}}{{range .Meta}}<p class="meta">{{.}}</p>
{{end}}{{range .Warn}}<p class="meta warn">⚠ {{.}}</p>
{{end}}{{with .Results}}<p class="meta">Results: <a href="{{.Href}}">{{.Path}}</a>{{with $.Spec}} · Spec: <a href="{{.Href}}">{{.Name}}</a>{{end}}</p>
{{end}}{{with .Related}}<p class="meta">Compares with: {{range $i, $r := .}}{{if $i}}, {{end}}<a href="{{$r.Href}}">{{$r.Text}}</a>{{end}}</p>
{{end}}</header>
{{.Body}}
<footer>Charts: {{.About}}.</footer>
<script>
{{.Tables}}{{.Charts}}</script>
</body>
</html>
`)
	tplTOC = mustTpl("toc", `<nav class="toc"><strong>Contents</strong>
<ul>
{{range .}}<li><a href="#{{.ID}}">{{.Title}}</a>{{if .Sub}}
<ul>
{{range .Sub}}<li><a href="#{{.ID}}">{{.Title}}</a></li>
{{end}}</ul>
{{end}}</li>
{{end}}</ul>
</nav>
`)
)
