package synth

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"

	"kcalab/datasets"
	"kcalab/datasets/sparse"
)

// PCG streams: the seed picks the data, the stream keeps the corpus and
// the table from sharing random draws.
const (
	corpusStream = 0x73796e74682d63 // "synth-c"
	tableStream  = 0x73796e74682d74 // "synth-t"
)

// Sentence lengths of the corpus, inclusive.
const (
	MinSentence = 8
	MaxSentence = 15
)

// Options configure Corpus.
type Options struct {
	Clusters        int     // planted clusters, ≥ 1
	WordsPerCluster int     // distinct words per cluster, ≥ 1
	Tokens          int     // corpus length, ≥ 1
	Noise           float64 // probability a token is a random word of any cluster, in [0, 1]
	Seed            uint64
}

func (o Options) validate() error {
	switch {
	case o.Clusters < 1:
		return fmt.Errorf("synth: Clusters = %d: want ≥ 1", o.Clusters)
	case o.WordsPerCluster < 1:
		return fmt.Errorf("synth: WordsPerCluster = %d: want ≥ 1", o.WordsPerCluster)
	case o.Clusters > math.MaxInt32/o.WordsPerCluster:
		return fmt.Errorf("synth: Clusters × WordsPerCluster = %d × %d words: too many", o.Clusters, o.WordsPerCluster)
	case o.Tokens < 1:
		return fmt.Errorf("synth: Tokens = %d: want ≥ 1", o.Tokens)
	case !(o.Noise >= 0 && o.Noise <= 1):
		return fmt.Errorf("synth: Noise = %v: want a probability in [0, 1]", o.Noise)
	}
	return nil
}

// Words returns the vocabulary of o, cluster by cluster: words[c][w] is
// word w of cluster c.
func Words(o Options) ([][]string, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	return names("c", "w", o.Clusters, o.WordsPerCluster), nil
}

// names returns p<g>q<i> for g < groups, i < per, zero-padded.
func names(p, q string, groups, per int) [][]string {
	gw, iw := width(groups-1), max(width(per-1), 2)
	out := make([][]string, groups)
	for g := range out {
		out[g] = make([]string, per)
		for i := range out[g] {
			out[g][i] = fmt.Sprintf("%s%0*d%s%0*d", p, gw, g, q, iw, i)
		}
	}
	return out
}

func width(n int) int { return len(strconv.Itoa(n)) }

// Corpus returns o.Tokens tokens of a text with planted word clusters (see
// the package documentation) and the cluster of every word.
func Corpus(o Options) (tokens []string, clusterOf map[string]int, err error) {
	if err := o.validate(); err != nil {
		return nil, nil, err
	}
	tokens = make([]string, 0, o.Tokens)
	clusterOf = generate(o, func(w string) error {
		tokens = append(tokens, w)
		return nil
	})
	return tokens, clusterOf, nil
}

// Write writes the text of Corpus(o) to w, tokens separated by single
// spaces (strings.Join(tokens, " ")), without holding the tokens: for
// corpora too large to keep as strings. It returns the cluster of every
// word.
func Write(w io.Writer, o Options) (clusterOf map[string]int, err error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	bw := bufio.NewWriter(w)
	first := true
	var werr error
	clusterOf = generate(o, func(tok string) error {
		if !first {
			bw.WriteByte(' ')
		}
		first = false
		_, werr = bw.WriteString(tok)
		return werr
	})
	if werr == nil {
		werr = bw.Flush()
	}
	if werr != nil {
		return nil, fmt.Errorf("synth: writing the corpus: %w", werr)
	}
	return clusterOf, nil
}

// generate emits the tokens of a validated o to emit, stopping at its
// first error, and returns the cluster of every word.
func generate(o Options, emit func(string) error) map[string]int {
	words := names("c", "w", o.Clusters, o.WordsPerCluster)
	clusterOf := make(map[string]int, o.Clusters*o.WordsPerCluster)
	for c, ws := range words {
		for _, w := range ws {
			clusterOf[w] = c
		}
	}
	rng := rand.New(rand.NewPCG(o.Seed, corpusStream))
	for done := 0; done < o.Tokens; {
		c := rng.IntN(o.Clusters)
		n := MinSentence + rng.IntN(MaxSentence-MinSentence+1)
		for range min(n, o.Tokens-done) {
			cc := c
			if rng.Float64() < o.Noise {
				cc = rng.IntN(o.Clusters)
			}
			if emit(words[cc][rng.IntN(o.WordsPerCluster)]) != nil {
				return clusterOf
			}
			done++
		}
	}
	return clusterOf
}

// TableOptions configure Table.
type TableOptions struct {
	Groups       int     // planted groups, ≥ 1
	RowsPerGroup int     // rows of each group, ≥ 1
	ColsPerGroup int     // columns of each group, ≥ 1
	Total        int     // observations (the table total), ≥ 1
	Noise        float64 // probability an observation ignores the groups, in [0, 1]
	Seed         uint64
}

func (o TableOptions) validate() error {
	switch {
	case o.Groups < 1:
		return fmt.Errorf("synth: table Groups = %d: want ≥ 1", o.Groups)
	case o.RowsPerGroup < 1 || o.ColsPerGroup < 1:
		return fmt.Errorf("synth: table RowsPerGroup = %d, ColsPerGroup = %d: want ≥ 1", o.RowsPerGroup, o.ColsPerGroup)
	case o.Groups > math.MaxInt32/max(o.RowsPerGroup, o.ColsPerGroup):
		return fmt.Errorf("synth: table of %d groups × %d rows × %d columns: too large", o.Groups, o.RowsPerGroup, o.ColsPerGroup)
	case o.Total < 1:
		return fmt.Errorf("synth: table Total = %d: want ≥ 1", o.Total)
	case !(o.Noise >= 0 && o.Noise <= 1):
		return fmt.Errorf("synth: table Noise = %v: want a probability in [0, 1]", o.Noise)
	}
	return nil
}

// Table returns a labelled contingency table with planted row and column
// groups (see the package documentation). Row g·RowsPerGroup + i is row i
// of group g; columns likewise.
func Table(o TableOptions) (*datasets.Table, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	rows, cols := o.Groups*o.RowsPerGroup, o.Groups*o.ColsPerGroup
	rng := rand.New(rand.NewPCG(o.Seed, tableStream))
	ts := make([]sparse.Triplet, 0, o.Total)
	for range o.Total {
		var i, j int
		if rng.Float64() < o.Noise {
			i, j = rng.IntN(rows), rng.IntN(cols)
		} else {
			g := rng.IntN(o.Groups)
			i = g*o.RowsPerGroup + rng.IntN(o.RowsPerGroup)
			j = g*o.ColsPerGroup + rng.IntN(o.ColsPerGroup)
		}
		ts = append(ts, sparse.Triplet{I: int32(i), J: int32(j), V: 1})
	}
	n, err := sparse.FromTriplets(rows, cols, ts)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	t := &datasets.Table{
		Name:      "synthetic",
		RowLabels: flatten(names("g", "r", o.Groups, o.RowsPerGroup)),
		ColLabels: flatten(names("g", "c", o.Groups, o.ColsPerGroup)),
		N:         n,
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	return t, nil
}

func flatten(s [][]string) []string {
	var out []string
	for _, x := range s {
		out = append(out, x...)
	}
	return out
}
