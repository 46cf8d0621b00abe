// Package reports writes one self-contained HTML page per run, built from
// the run's records (kcalab/records) alone:
//
//   - Word similarity (records with "spearman.zero.<set>" / "spearman.skip.<set>"
//     metrics): a headline computed from them, then a trials × sets table of
//     Spearman ρ per OOV rule, ranked by one rule for every page (fair.go,
//     significance.go): within groups of one dimension d, each method at
//     its own similarity, a win only where the paired bootstrap says so,
//     in-sample cells never; coverage per set, and the paper's published
//     numbers as an unranked reference group in the zero-rule table.
//   - Sweeps: ρ (zero rule) against data.window, svd.rank or data.fraction
//     when one takes ≥ 3 values, one small chart per set, one line per
//     combination of the other varying settings.
//   - Time and memory against size (records with "wall_s" / "max_rss_mb"):
//     the paper's Figures 2 and 3, one line per svd.backend, trials that did
//     not finish listed and marked, and DSSVD's ratios next to the paper's
//     claim.
//   - Trials: a compact table of every trial (settings that vary, status,
//     measurements, stage timings, and where it ran: date, commit, machine,
//     alone or beside other trials; see provenance.go) with constant
//     columns said once, and relative links to the files the trials wrote
//     (their word vectors); Report.ResultsFile, SpecFile, IndexFile and
//     Related link the results file, the spec, the index and the reports
//     compared with in the header, which also says where the numbers came
//     from and warns when the trials mix commits or machines.
//   - Measurements (measured.go): a few measured trials at one size side by
//     side, each against the first; singular value spectra, a sketch's
//     against the most exact one.
//   - Correspondence analysis: the CA map, scree chart and singular values
//     of trials with a CA result.
//   - The paper's table (Report.PaperRows; see pickPaperTrials), Go against
//     reference implementations (labels "X (Go)" / "X (…)" of method
//     external), the -check comparison (Report.Check) and the word map and
//     nearest neighbours (records' words_map and neighbours).
//
// A page is made in three layers:
//
//   - Format: the records (kcalab/records: metric keys, replicates) and
//     the settings' display metadata (kcalab/schema); methods reach the
//     page as values (Report.Methods), so no section names a method.
//   - Projection (projection.go, labels.go): a section selects the trials
//     it is about with filters (status, metric kinds, measured or not),
//     each keeping its number on the page, and groups them: into ordered
//     groups by any key, into table rows with replicates (trials that
//     differ only in the replicate setting) folded into mean ± SD and
//     labelled by what varies among them, into tables of rows × metric
//     columns whose cells carry value, SD, n and notes, or into chart
//     lines whose values at one x fold into a point. Groups come in the
//     order their keys first appear, never in map order.
//   - Presentation: a section body turns cells and points into Blocks,
//     and the renderer (render.go, charts.go) writes them as HTML and
//     ECharts options.
//
// Sections are ordered by what the run is for (Report.Lead, or
// orderSections' rule); long tables are collapsed, but the first
// section's. Every chart has a toolbox (PNG, SVG, data view) and every
// table a CSV download in a data: URL, one plain number per cell
// (scoreCSV, csvCell, Table.CSV).
//
// Summarize and WriteIndex (index.go) make the index of many reports: each
// spec's question, headline, provenance and links.
//
// Pages are built from Sections holding Blocks (Paragraph, List, Table,
// ScoreTable, LineChart, ScatterMap, Bar, Row); callers may add their own.
// Charts are described with go-echarts options and drawn by ECharts in the
// browser; the option JSON is written by this package, not by go-echarts'
// templates, so that every string from the data is escaped for a <script>
// element and chart ids are fixed. The same Report always renders to the
// same bytes.
//
// ECharts itself is inlined so pages work offline: the build pinned by
// package-lock.json (embedded in the program), taken from reports/node_modules
// when npm ci installed it, else from a verified copy in the cache directory,
// else fetched once from the npm registry, checked against the lock file's
// integrity hash and cached. With none of them (no network, no cache)
// FindEChartsContext warns once and the page loads the pinned build from a
// CDN with an integrity attribute.
package reports
