// Package page is the bottom layer of a report: it prints, and decides
// nothing. It holds the Blocks a section is made of (Section, Paragraph,
// Headline, List, Links, Row, Details, Table, ScoreTable, LineChart,
// ScatterMap, Bar), the HTML renderer (Write), the ECharts options of the
// charts, the CSV download of every table, and the number formatting every
// page shares (Sig, Percent, FormatScore, CSVNumber).
//
// The rule it keeps: a page knows no records and ranks nothing. A
// ScoreTable's cells arrive with their Mark (best, second, untested or
// none), the half-width of their interval, their notes (coverage, the
// other similarity, †) and the quantities of their CSV already decided by
// the layer above (kcalab/reports: RankTable, benchstat's rule over
// bootstrap replicates); the renderer only shows them. The package depends
// on no package of the module but kcalab/internal/..., which
// TestNoRecordsBelow checks with go list -deps, so it cannot reach
// kcalab/records or the ranking.
//
// Charts are described with go-echarts options and drawn by ECharts in the
// browser; the option JSON is written here, not by go-echarts' templates,
// so that every string from the data is escaped for a <script> element and
// chart ids are fixed. One line key has one colour on every chart of a
// page. Every chart has a toolbox (PNG, SVG, data view) and every table a
// CSV download in a data: URL, one plain number per cell. The same Page
// always renders to the same bytes.
//
// How the page loads ECharts is a Script: inlined (InlineScript) or by URL
// with an integrity hash (SrcScript); finding, fetching and pinning the
// library is kcalab/reports' job (FindECharts).
package page
