// Package reports writes one self-contained HTML page per run, built from
// the run's records (kcalab/records) alone:
//
//   - Word similarity (records with "spearman.zero.<set>" / "spearman.skip.<set>"
//     metrics): a headline computed from them, then a trials × sets table of
//     Spearman ρ per OOV rule, ranked by one rule for every page (fair.go,
//     compare/significance.go): within groups of one dimension d, each method at
//     its own similarity, a win only where the paired bootstrap says so,
//     in-sample cells never; coverage per set, and the paper's published
//     numbers as an unranked reference group in the zero-rule table.
//   - Sweeps (sweep.go): ρ (zero rule) against data.window, svd.rank or data.fraction
//     when one takes ≥ 3 values, one small chart per set, one line per
//     combination of the other varying settings; a point of one trial with
//     its 95% bootstrap interval, a mean over seeds with ± their SD. The
//     headline says per set and line whether ρ changes by more than the
//     paired bootstrap allows (level within noise, rises, falls).
//   - Time and memory against size (records with "wall_s" / "max_rss_mb"):
//     the paper's Figures 2 and 3, one line per svd.backend, trials that did
//     not finish listed and marked, every two backends compared at every
//     size where both finished (scalingpairs.go; the paper's claims first),
//     ratios only for records measured alike (timing.go), growth told by
//     local slopes (growth.go).
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
// A page is made in three layers, each a package, dependencies pointing
// down only:
//
//   - Sections (this package, one file per section: words.go, sweep.go, analogy.go,
//     papertable.go, pairs.go, check.go, wordmap.go, neighbours.go,
//     scaling.go, measured.go, ca.go, tuning.go, …; order.go decides which
//     leads): each asks the comparison layer about the records it is about
//     and hands Blocks to the page layer. Sections learn labels and metric
//     meaning from metadata (kcalab/schema, labels.go, fair.go); methods
//     reach the page as values (Report.Methods), so no section names a
//     method. Headlines are computed here from the comparison's verdicts;
//     a verdict between rows whose coverage of its set differs by more
//     than compare.CoverageGap names both coverages and what the other
//     rule says, and under the skip rule rows are compared on the pairs
//     both cover when their records allow (headline.go, cellVerdict,
//     verdictCoverage).
//   - Comparison (kcalab/reports/compare): records → projections, groups,
//     rows with replicates folded into mean ± SD, tables whose cells carry
//     value, SD, n, coverage and notes, chart lines; estimates with their
//     bootstrap replicates, paired verdicts, and the ranking
//     (RankSignificant, RankTable) that decides every mark and interval a
//     score table shows.
//   - Page (kcalab/reports/page): the Blocks, the HTML renderer, the
//     ECharts options, the CSV downloads and the number formatting. It
//     knows no records and ranks nothing: a ScoreTable's cells arrive with
//     their marks decided. It depends on no package of the module but
//     kcalab/internal/... (TestNoRecordsBelow checks go list -deps).
//
// This package keeps the page layer's names as type aliases (Section,
// Block, Table, ScoreTable, LineChart, Script, Link, …) so that callers
// build pages from reports alone.
//
// Sections are ordered by what the run is for (Report.Lead, or
// orderSections' rule); long tables are collapsed, but the first
// section's. Every chart has a toolbox (PNG, SVG, data view) and every
// table a CSV download in a data: URL, one plain number per cell
// (the page layer's score table CSV, csvCell, Table.CSV).
//
// Every page answers its question in one line: a Verdict (verdict.go), a few
// claims computed from the same comparisons as the section's headline
// ("ordering: holds 1 · ties 4 · reversed 1 — test parts, zero rule"),
// shown in the page's header, on the index and by a run in the terminal.
// Summarize and WriteIndex (index.go) make the index of many reports: each
// spec's question and verdict in one row, its headline (the whole answer),
// provenance and links one click away.
//
// Pages are built from Sections holding Blocks (Paragraph, List, Table,
// ScoreTable, LineChart, ScatterMap, Bar, Row); callers may add their own
// (Report.Sections), a ScoreTable ranked with RankTable first. The same
// Report always renders to the same bytes.
//
// ECharts itself is inlined so pages work offline: the build pinned by
// package-lock.json (embedded in the program), taken from reports/node_modules
// when npm ci installed it, else from a verified copy in the cache directory,
// else fetched once from the npm registry, checked against the lock file's
// integrity hash and cached. With none of them (no network, no cache)
// FindEChartsContext warns once and the page loads the pinned build from a
// CDN with an integrity attribute.
package reports
