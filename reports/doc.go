// Package reports writes one self-contained HTML page per run: a summary
// table of the trials, and for correspondence-analysis trials the CA map,
// the scree chart and the table of singular values and inertias.
//
// Pages are built from Sections holding Blocks (Paragraph, List, Table,
// ScoreTable, LineChart, ScatterMap, Bar, Row). Charts are described with
// go-echarts options and drawn by ECharts in the browser; the option JSON is
// written by this package, not by go-echarts' templates, so that every string
// from the data is escaped for a <script> element and chart ids are fixed.
// The same Report always renders to the same bytes.
//
// ECharts itself is inlined from reports/node_modules (npm ci in reports/,
// pinned by package-lock.json) so pages work offline; FindECharts falls back
// to a CDN <script src> with a warning when the library is not installed.
package reports
