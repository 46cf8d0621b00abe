// Package compare is the comparison layer of a report: it turns records
// (kcalab/records) into what a page compares, and decides the comparison,
// so that the page layer (kcalab/reports/page) only prints.
//
//   - Projection: a section selects the trials it is about (Project with
//     Filters: HasMetric, HasStatus, NumericSetting, Not), each keeping its
//     number on the page, and lays them out: GroupBy into ordered groups,
//     Rows into table rows with replicates (trials that differ only in the
//     replicate setting) folded into their mean with the SD and n, Table
//     into rows × metric columns of Cells that carry value, SD, n,
//     coverage, notes and whether they are ranked, Lines into chart series
//     whose values at one x fold into a point (MeanPoints). Groups come in
//     the order their keys first appear, never in map order.
//   - Significance: a score's Estimate is its value and its bootstrap
//     replicates over resamples of the set's pairs every trial shares
//     (Row.Estimate averages them over folded seeds); Compare gives the
//     paired Verdict of two (Above, Below, Tie, NotTested) by benchstat's
//     rule; RankSignificant and Rank mark a column; RankTable decides every
//     mark and interval of a page.ScoreTable before it is printed.
//   - Coverage: CheckCoverage says whether two rows' coverage of a set
//     differs by more than CoverageGap (5 percentage points) and what
//     their verdict is under the other out-of-vocabulary rule, so that a
//     headline can say when coverage, not the vectors, decides a verdict;
//     CommonPairs gives two rows' scores on the pairs both cover (a row
//     with vectors for unseen words at its vocabulary's pairs), so the
//     skip rule's verdict between them is paired.
//
// It depends on kcalab/records and on the page layer's types (the marks
// and score tables it fills in), never on kcalab/reports: the sections
// above ask it questions, the page below prints the answers.
package compare
