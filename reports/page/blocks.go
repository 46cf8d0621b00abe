package page

// Section is a titled part of a page. Sections nest one level per
// Subsections slice; the top level gets <h2>, the next <h3>, and so on.
type Section struct {
	// ID is the HTML anchor. Empty means one is derived from the position
	// ("s2", "s2-1", …). An explicit ID must match [A-Za-z][A-Za-z0-9_-]*
	// and be unique in the page, like every other id.
	ID          string
	Title       string
	Blocks      []Block
	Subsections []Section
}

// Block is one item of a section. It is implemented by Paragraph, List,
// Table, ScoreTable, LineChart, ScatterMap, Bar and Row; the set is closed
// so that the renderer knows how to escape each one.
type Block interface{ block() }

// Paragraph is a paragraph of plain text (escaped, never HTML).
type Paragraph string

// List is a bulleted list of plain-text items.
type List []string

// Row lays its blocks out side by side, wrapping when the page is narrow.
type Row []Block

// Table is a plain HTML table of text cells.
type Table struct {
	ID      string // optional; unique in the page when set
	Caption string
	Header  []string
	Rows    [][]string
	// Numeric marks the columns to right-align (by index); may be shorter
	// than Header.
	Numeric []bool
	// CSV, when not nil, is the table's download (header row first) for a
	// program to read, one plain number per cell; otherwise the download
	// is the cells made plain (csvCell).
	CSV [][]string
}

// Details is a collapsed group of blocks (an HTML <details> element): long
// tables stay one click away instead of pushing the page's point down.
type Details struct {
	Summary string // the always-visible line, e.g. "All 26 trials"
	Open    bool
	Blocks  []Block
}

// Headline is what a comparison's numbers say, one sentence each, at the
// top of its section. Its sentences are computed from the records (by the sections), never written by hand, so they say
// what the run measured whichever way it fell.
type Headline []string

func (Headline) block()   {}
func (Details) block()    {}
func (Paragraph) block()  {}
func (List) block()       {}
func (Row) block()        {}
func (Table) block()      {}
func (ScoreTable) block() {}
func (LineChart) block()  {}
func (ScatterMap) block() {}
func (Bar) block()        {}
