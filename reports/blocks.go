package reports

import "kcalab/reports/page"

// The page layer's blocks (kcalab/reports/page), under the names sections
// and callers of this package use. Sections build them; the page layer
// prints them and decides nothing.
type (
	Section       = page.Section
	Block         = page.Block
	Paragraph     = page.Paragraph
	List          = page.List
	Row           = page.Row
	Table         = page.Table
	Details       = page.Details
	Headline      = page.Headline
	Links         = page.Links
	Link          = page.Link
	XY            = page.XY
	LineSeries    = page.LineSeries
	LineChart     = page.LineChart
	VLines        = page.VLines
	Labeled       = page.Labeled
	ScatterSeries = page.ScatterSeries
	ScatterMap    = page.ScatterMap
	BarSeries     = page.BarSeries
	Bar           = page.Bar
	ScoreRow      = page.ScoreRow
	Quantity      = page.Quantity
	TextRow       = page.TextRow
	ScoreTable    = page.ScoreTable
	Mark          = page.Mark
)

// The marks a ScoreTable's cells carry (page.Mark).
const (
	NoMark   = page.NoMark
	Best     = page.Best
	Second   = page.Second
	Untested = page.Untested
)
