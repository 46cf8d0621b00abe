package reports

import "math"

// PaperSets are the short names of the word-similarity sets of the paper's
// table, in its column order (as kcalab/datasets/wordsim registers them).
var paperSets = []string{"sim", "rel", "men", "mturk", "rare", "s999"}

// paperRows is the paper's table of Spearman ρ on the full text8 corpus
// (shared/paper/NOTES.md), in the column order of paperSets. The authors
// scored out-of-vocabulary pairs 0 (the "zero" rule).
var paperRows = []ScoreRow{
	{Name: "CBOW", Scores: []float64{0.388, 0.438, 0.383, 0.579, 0.050, 0.075}},
	{Name: "SGNS", Scores: []float64{0.674, 0.654, 0.561, 0.608, 0.027, 0.215}},
	{Name: "GloVe", Scores: []float64{0.431, 0.466, 0.421, 0.508, 0.118, 0.096}},
	{Name: "fastText", Scores: []float64{0.655, 0.609, 0.636, 0.623, 0.059, 0.223}},
	{Name: "tail-cut", Scores: []float64{0.762, 0.667, 0.682, 0.649, 0.121, 0.212}},
	{Name: "LCA N^flat", Scores: []float64{0.749, 0.680, 0.671, 0.668, 0.127, 0.218}},
	{Name: "LCA N^skip", Scores: []float64{0.741, 0.657, 0.672, 0.640, 0.135, 0.211}},
	{Name: "SCA+MEN", Scores: []float64{0.743, 0.665, 0.770, 0.636, 0.136, 0.210}},
	{Name: "SCA+M.Turk", Scores: []float64{0.741, 0.658, 0.672, 0.798, 0.136, 0.211}},
}

// PaperScores returns the paper's published Spearman ρ (full text8, zero
// rule) for the given set short names, one row per method of its table; a
// set the paper did not use gets NaN. The result is a fresh copy.
func PaperScores(sets []string) []ScoreRow {
	col := map[string]int{}
	for j, s := range paperSets {
		col[s] = j
	}
	out := make([]ScoreRow, len(paperRows))
	for i, r := range paperRows {
		out[i] = ScoreRow{Name: r.Name, Scores: make([]float64, len(sets))}
		for j, s := range sets {
			if k, ok := col[s]; ok {
				out[i].Scores[j] = r.Scores[k]
			} else {
				out[i].Scores[j] = math.NaN()
			}
		}
	}
	return out
}

// PaperSVDClaim is the paper's claim about DSSVD's time and memory (section
// "Delayed Sparse Randomized SVD"), quoted verbatim but for LaTeX's "\%".
const PaperSVDClaim = "DSSVD was 100 times faster than SVD with numPy and 10 times faster than randomized SVD. " +
	"The memory required for DSSVD was 10% of that required for SVD of numPy and 20% of that required for randomized SVD."

// paperRatio is the paper's claim for one comparison, as the ratios
// DSSVD/other of time and of memory.
type paperRatio struct {
	other        string // backend compared with
	time, memory float64
	text, short  string // in a table; in a verdict
}

var paperRatios = []paperRatio{
	{"dense", 1.0 / 100, 0.10, "100× faster; 10% of the memory", "100× faster, 10% memory"},
	{"randomized", 1.0 / 10, 0.20, "10× faster; 20% of the memory", "10× faster, 20% memory"},
}

// paperFisherSV are the singular values the paper (and Greenacre) publish
// for Fisher's eye × hair table (shared/paper/NOTES.md).
var paperFisherSV = []float64{0.4464, 0.1735, 0.0293}
