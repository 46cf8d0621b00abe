// Package corr holds the arithmetic the project's correlations share:
// average ranks and the centred sums of squares and products. The
// evaluation's Spearman ρ (methods/eval), the halving's rung agreement
// (records) and the reports' power-law fits each build on it, so the
// three compute alike, in one summation order.
package corr
