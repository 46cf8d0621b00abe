package reports

import (
	"kcalab/reports/compare"
	"kcalab/reports/page"
)

// The comparison layer's types (kcalab/reports/compare) under the names
// the sections use: a section selects trials (projection), lays them out
// (rows, tables of cells, chart lines) and compares them (estimate,
// verdict) there, and hands the page layer what they decided.
type (
	trial      = compare.Trial
	filter     = compare.Filter
	projection = compare.Projection
	row        = compare.Row
	cell       = compare.Cell
	column     = compare.Column
	table      = compare.Table
	line       = compare.Line
	estimate   = compare.Estimate
	verdict    = compare.Verdict
)

// Rank marks the best and second-best of scores as shown (compare.Rank).
func Rank(scores []float64, digits int, lowerIsBetter bool) []Mark {
	return compare.Rank(scores, digits, lowerIsBetter)
}

// RankSignificant marks a column of scores by benchstat's rule
// (compare.RankSignificant).
func RankSignificant(scores []float64, replicates [][]float64, digits int, lowerIsBetter bool) []Mark {
	return compare.RankSignificant(scores, replicates, digits, lowerIsBetter)
}

// RankTable decides the marks and intervals of a score table's rows before
// the page prints them (compare.RankTable).
func RankTable(t page.ScoreTable, reps [][][]float64) page.ScoreTable {
	return compare.RankTable(t, reps)
}
