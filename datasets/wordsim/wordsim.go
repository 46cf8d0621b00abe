package wordsim

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"kcalab/internal/inputfile"
)

// Pair is one line of a set: two words and their human score.
type Pair struct {
	W1, W2 string
	Score  float64
}

// Set is a word-similarity test set, pairs in file order.
type Set struct {
	Name  string // display name for a registered set ("MEN"), else the file path
	Pairs []Pair
}

// Words returns the distinct words of s in order of first appearance.
func (s *Set) Words() []string {
	seen := make(map[string]bool, 2*len(s.Pairs))
	var out []string
	for _, p := range s.Pairs {
		for _, w := range [2]string{p.W1, p.W2} {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// Info describes one of the registered sets.
type Info struct {
	Short    string  // name used in specs and metric keys ("men")
	Display  string  // column header of the paper's table ("MEN")
	File     string  // file name in <dataDir>/wordsim
	Pairs    int     // number of pairs in the file
	MinScore float64 // lowest score the scale allows
	MaxScore float64 // highest score the scale allows
	Citation string  // short reference to the set's paper
}

// registry is in the column order of the paper's table. Counts and scales
// are those of shared/data/SOURCES.md.
var registry = []Info{
	{"sim", "Sim", "ws353_similarity.txt", 203, 0, 10, "Finkelstein et al. 2002; Agirre et al. 2009"},
	{"rel", "Rel", "ws353_relatedness.txt", 252, 0, 10, "Finkelstein et al. 2002; Agirre et al. 2009"},
	{"men", "MEN", "men.txt", 3000, 0, 50, "Bruni, Tran, Baroni 2014"},
	{"mturk", "M.Turk", "mturk287.txt", 287, 1, 5, "Radinsky et al. 2011"},
	{"rare", "Rare", "rare_words.txt", 2034, 0, 10, "Luong, Socher, Manning 2013"},
	{"s999", "S999", "simlex999.txt", 999, 0, 10, "Hill, Reichart, Korhonen 2015"},
}

// Sets returns the registered sets in the column order of the paper's table.
func Sets() []Info { return append([]Info(nil), registry...) }

// Names returns the short names of the registered sets, in table order.
func Names() []string {
	out := make([]string, len(registry))
	for i, in := range registry {
		out[i] = in.Short
	}
	return out
}

// Lookup finds a registered set by its short name ("men") or display name
// ("MEN", "M.Turk"), ignoring case.
func Lookup(name string) (Info, error) {
	for _, in := range registry {
		if strings.EqualFold(name, in.Short) || strings.EqualFold(name, in.Display) {
			return in, nil
		}
	}
	return Info{}, fmt.Errorf("unknown word-similarity set %q: want one of %s (or a file via LoadFile)", name, strings.Join(Names(), ", "))
}

// Option changes how a set is read.
type Option func(*options)

type options struct{ lower bool }

// Lowercase folds both words of every pair to lower case (Unicode rules).
// The shared sets are already lower case; user files may not be.
func Lowercase() Option { return func(o *options) { o.lower = true } }

// Load reads a registered set (short or display name, see Lookup) from
// <dataDir>/wordsim and checks that it has the registered number of pairs,
// so a truncated or substituted file is caught.
func Load(dataDir, name string, opts ...Option) (*Set, error) {
	in, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dataDir, "wordsim", in.File)
	s, err := LoadFile(path, opts...)
	if err != nil {
		return nil, fmt.Errorf("word-similarity set %s: %w", in.Display, err)
	}
	if len(s.Pairs) != in.Pairs {
		return nil, fmt.Errorf("word-similarity set %s: %s has %d pairs, want %d: wrong or truncated file", in.Display, path, len(s.Pairs), in.Pairs)
	}
	s.Name = in.Display
	return s, nil
}

// LoadFile reads a user's set; see Parse for the format. The set's Name is
// path. Only a regular file of at most MaxFileBytes is read: a FIFO, a
// device or a directory is refused before anything is read.
func LoadFile(path string, opts ...Option) (*Set, error) {
	b, err := inputfile.ReadFile(path, pairsFile)
	if err != nil {
		return nil, fmt.Errorf("word-similarity file: %w", err)
	}
	return Parse(bytes.NewReader(b), path, opts...)
}

// MaxFileBytes bounds a word-similarity or analogy file. The largest
// published sets (Rare Words, word2vec's 19,544 analogy questions) take
// under 1 MiB; a larger file is not a test set.
const MaxFileBytes = 64 << 20

var (
	pairsFile     = inputfile.Spec{What: "a word-similarity set (a regular text file of at most 64 MiB)", Limit: MaxFileBytes}
	analogiesFile = inputfile.Spec{What: "an analogy file (a regular text file of at most 64 MiB)", Limit: MaxFileBytes}
)

// maxLine bounds one line; a pair of words and a score is far shorter, so a
// longer line means the file is not a word-similarity set.
const maxLine = 1 << 20

// errTooLarge ends a parse past MaxFileBytes.
var errTooLarge = errors.New("over the size limit")

// limited reads at most MaxFileBytes from r, then fails with errTooLarge,
// so a parser fed from any reader (a device, an endless pipe) stops.
type limited struct {
	r    io.Reader
	left int64
}

func newLimited(r io.Reader, limit int64) *limited { return &limited{r: r, left: limit} }

func (l *limited) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// One byte more tells a file of exactly the limit from a longer one.
		var one [1]byte
		if n, err := l.r.Read(one[:]); n > 0 {
			return 0, errTooLarge
		} else if err != nil {
			return 0, err
		}
		return 0, nil
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// scanErr is the error of a scan that stopped at line (the line it could
// not read) for a file of kind ("a word-similarity file").
func scanErr(err error, name string, line int, spec inputfile.Spec, kind string) error {
	switch {
	case errors.Is(err, bufio.ErrTooLong):
		return fmt.Errorf("%s:%d: line longer than %d bytes: not %s", name, line, maxLine, kind)
	case errors.Is(err, errTooLarge):
		return fmt.Errorf("%s: more than %s, the limit for %s", name, inputfile.Size(spec.Limit), spec.What)
	}
	return fmt.Errorf("%s:%d: %w", name, line, err)
}

// Parse reads pairs, one per line: word1, word2 and a finite score separated
// by tabs and/or spaces. Blank lines are skipped; a UTF-8 byte-order mark and
// CR line endings are accepted. name is used in error messages, which read
// "name:line: problem".
func Parse(r io.Reader, name string, opts ...Option) (*Set, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	sc := bufio.NewScanner(newLimited(r, MaxFileBytes))
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	s := &Set{Name: name}
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		fields := strings.Fields(string(b))
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 3 (word1 word2 score, separated by tabs or spaces)", name, line, len(fields))
		}
		v, err := strconv.ParseFloat(fields[2], 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, fmt.Errorf("%s:%d: score %q is not a number", name, line, fields[2])
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s:%d: score %q is not finite", name, line, fields[2])
		}
		p := Pair{W1: fields[0], W2: fields[1], Score: v}
		if o.lower {
			p.W1, p.W2 = strings.ToLower(p.W1), strings.ToLower(p.W2)
		}
		s.Pairs = append(s.Pairs, p)
	}
	if err := sc.Err(); err != nil {
		return nil, scanErr(err, name, line+1, pairsFile, "a word-similarity file")
	}
	if len(s.Pairs) == 0 {
		return nil, fmt.Errorf("%s: no pairs: want lines of word1 word2 score", name)
	}
	return s, nil
}

// MergeRepeats returns a copy of s in which every word pair listed more
// than once (in either order) appears once, at its first place, with the
// mean of its scores; n is the number of lines merged away. A repeated pair
// would otherwise count twice in ρ, and in SCA could tune one fold and be
// scored by another.
func (s *Set) MergeRepeats() (out *Set, n int) {
	type acc struct {
		at    int
		sum   float64
		count int
	}
	byPair := map[[2]string]*acc{}
	out = &Set{Name: s.Name}
	for _, p := range s.Pairs {
		k := [2]string{p.W1, p.W2}
		if k[1] < k[0] {
			k[0], k[1] = k[1], k[0]
		}
		if a, ok := byPair[k]; ok {
			a.sum += p.Score
			a.count++
			n++
			continue
		}
		byPair[k] = &acc{at: len(out.Pairs), sum: p.Score, count: 1}
		out.Pairs = append(out.Pairs, p)
	}
	for _, a := range byPair {
		out.Pairs[a.at].Score = a.sum / float64(a.count)
	}
	return out, n
}
