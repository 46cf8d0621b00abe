// Package corpusstats measures the statistics a synthetic corpus is
// calibrated on (datasets/zipf): types and vocabulary against tokens
// (Heaps' law), the non-zeros of N^flat and N^cut, and the singular value
// decay of the tail-cut CA. It lives among the methods because it runs a
// CA; the generator itself stays in datasets.
package corpusstats
