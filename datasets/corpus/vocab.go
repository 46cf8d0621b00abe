package corpus

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Unk is the word of the shared out-of-vocabulary row/column. A literal
// "<unk>" token in the text (as in corpora that mark rare words already) is
// treated as out of vocabulary too.
const Unk = "<unk>"

// OOV says what happens to out-of-vocabulary tokens.
type OOV string

const (
	// OOVUnk keeps every OOV token in place as one shared <unk> id, so
	// distances between in-vocabulary words are not shortened (the authors').
	OOVUnk OOV = "unk"
	// OOVDrop deletes OOV tokens; the remaining tokens close up.
	OOVDrop OOV = "drop"
)

// DefaultMinCount is the paper's vocabulary threshold.
const DefaultMinCount = 5

// VocabOptions select the vocabulary.
type VocabOptions struct {
	// MinCount: words occurring fewer times are out of vocabulary.
	// 0 means DefaultMinCount (5); use 1 to keep every word.
	MinCount int64
	// MaxSize > 0 keeps only the MaxSize most frequent words (<unk> not
	// counted); 0 means no limit.
	MaxSize int
	// MinSize > 0 makes Build fail when fewer words qualify (say, fewer
	// than the dimensions a method asks for).
	MinSize int
	// OOV is OOVUnk (also when empty) or OOVDrop.
	OOV OOV
}

func (o VocabOptions) resolve() (VocabOptions, error) {
	if o.MinCount < 0 {
		return o, fmt.Errorf("vocabulary: MinCount = %d: want ≥ 1 (0 = default %d)", o.MinCount, DefaultMinCount)
	}
	if o.MinCount == 0 {
		o.MinCount = DefaultMinCount
	}
	if o.MaxSize < 0 || o.MinSize < 0 {
		return o, fmt.Errorf("vocabulary: MaxSize = %d, MinSize = %d: want ≥ 0 (0 = no limit)", o.MaxSize, o.MinSize)
	}
	if o.MaxSize > 0 && o.MinSize > o.MaxSize {
		return o, fmt.Errorf("vocabulary: MinSize = %d exceeds MaxSize = %d", o.MinSize, o.MaxSize)
	}
	switch o.OOV {
	case "":
		o.OOV = OOVUnk
	case OOVUnk, OOVDrop:
	default:
		return o, fmt.Errorf("vocabulary: OOV = %q: want %q or %q", o.OOV, OOVUnk, OOVDrop)
	}
	return o, nil
}

// Vocab is a corpus vocabulary. Ids 0..len-1 are the in-vocabulary words by
// count (descending), ties in byte order of the words; <unk>, when present,
// comes last whatever its count, so a word's id is its frequency rank and
// is the same in both OOV modes.
type Vocab struct {
	Words  []string         // id → word
	Counts []int64          // id → occurrences; for <unk> the number of OOV tokens
	Index  map[string]int32 // word → id
	// Unk is the id of <unk>; -1 when absent (OOVDrop, or no OOV token).
	Unk int32
	// Tokens is the number of corpus tokens read (the selected section);
	// Dropped how many of them OOVDrop deleted.
	Tokens, Dropped int64
	// Options are the resolved settings the vocabulary was built with.
	Options VocabOptions
	// Key is the content address of the token id stream (corpus identity,
	// reading options, vocabulary settings); "" for hand-made vocabularies.
	Key string
}

// Size is the number of ids, <unk> included.
func (v *Vocab) Size() int { return len(v.Words) }

// ID returns the id of word, or false when it is not in the vocabulary.
func (v *Vocab) ID(word string) (int32, bool) {
	id, ok := v.Index[word]
	return id, ok
}

// Build reads the corpus once, builds its vocabulary and returns it with
// the token ids (one int32 per kept token; with OOVDrop the OOV tokens are
// gone). With Options.CacheDir set, the result is cached under a key made
// of the corpus identity and all settings.
func Build(ctx context.Context, c *Corpus, o VocabOptions) (*Vocab, []int32, error) {
	o, err := o.resolve()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", c.label(), err)
	}
	ident, err := c.Identity()
	if err != nil {
		return nil, nil, err
	}
	key := cacheKey("vocab v1", ident,
		strconv.FormatBool(c.opts.Lowercase),
		strconv.FormatInt(c.opts.MaxTokens, 10),
		strconv.FormatUint(math.Float64bits(c.opts.Fraction), 16),
		strconv.FormatInt(o.MinCount, 10),
		strconv.Itoa(o.MaxSize),
		string(o.OOV))
	dir := c.opts.CacheDir
	// Looked up, and on a miss looked up again under the entry's lock: a
	// run that waited for another building it finds it then.
	for try := 0; dir != "" && try < 2; try++ {
		v, ids, err := loadVocab(dir, key)
		switch {
		case err == nil && v != nil:
			v.Options.MinSize = o.MinSize
			if err := checkMinSize(c, v, o); err != nil {
				return nil, nil, err
			}
			return v, ids, nil
		case errors.Is(err, errDamaged):
			removeDamaged(c.opts.Log, err, dir, "vocab", key)
		case err != nil:
			return nil, nil, err
		}
		if try == 0 {
			defer lockEntry(ctx, dir, "vocab", key, c.opts.Log)()
		}
	}
	v, ids, err := buildVocab(ctx, c, o)
	if err != nil {
		return nil, nil, err
	}
	v.Key = key
	if err := checkMinSize(c, v, o); err != nil {
		return nil, nil, err
	}
	if dir != "" {
		// A cache that cannot take the file (a full disk) costs the cache,
		// not the run: the vocabulary is the same either way.
		if err := storeVocab(dir, key, v, ids); err != nil {
			warnf(c.opts.Log, "%v; going on without caching it", err)
		}
	}
	return v, ids, nil
}

func checkMinSize(c *Corpus, v *Vocab, o VocabOptions) error {
	if err := checkMinSizeCounts(v, o); err != nil {
		return fmt.Errorf("%s: %w", c.label(), err)
	}
	return nil
}

func buildVocab(ctx context.Context, c *Corpus, o VocabOptions) (*Vocab, []int32, error) {
	// Provisional ids in order of first appearance; renumbered below.
	index := make(map[string]int32, 1<<16)
	var words []string
	est := c.size / 5
	switch c.format {
	case formatZip:
		est = int64(c.zipLen / 5)
	case formatGzip:
		est = c.size * 3 / 5
	}
	if c.opts.MaxTokens > 0 {
		est = min(est, c.opts.MaxTokens)
	}
	est = min(est, 1<<28)
	ids := make([]int32, 0, est)
	tooMany := fmt.Errorf("%s: more than %d tokens: not supported (ids are int32)", c.label(), math.MaxInt32)
	_, err := c.scan(ctx, c.opts.MaxTokens, "reading "+c.Name, func(tok []byte) error {
		id, ok := index[string(tok)]
		if !ok {
			s := string(tok)
			id = int32(len(words))
			index[s] = id
			words = append(words, s)
		}
		if len(ids) == math.MaxInt32 {
			return tooMany
		}
		ids = append(ids, id)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	index = nil
	if len(ids) == 0 {
		return nil, nil, fmt.Errorf("%s: holds no tokens (empty file?)", c.label())
	}
	if f := c.opts.Fraction; f > 0 && f < 1 {
		n := fractionTokens(int64(len(ids)), f)
		if n == 0 {
			return nil, nil, fmt.Errorf("%s: Fraction %v of %d tokens selects no token", c.label(), f, len(ids))
		}
		ids = ids[:n]
	}
	counts := make([]int64, len(words))
	for _, id := range ids {
		counts[id]++
	}
	v, perm, err := rankWords(words, counts, int64(len(ids)), o)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", c.label(), err)
	}
	if o.OOV == OOVDrop {
		out := ids[:0]
		for _, id := range ids {
			if q := perm[id]; q >= 0 {
				out = append(out, q)
			}
		}
		ids = out
	} else {
		for t, id := range ids {
			ids[t] = perm[id]
		}
	}
	return v, ids, nil
}

// VocabFromCounts applies Build's vocabulary rules (min count, max size,
// order by count then bytes, a literal <unk> token out of vocabulary,
// <unk> last) to word counts gathered elsewhere, such as by a distributed
// counting pass over a sharded corpus. The vocabulary is the one Build
// makes of any text with these counts; Tokens is the sum of the counts and,
// with OOVDrop, Dropped the out-of-vocabulary part of it. Key is empty.
func VocabFromCounts(counts map[string]int64, o VocabOptions) (*Vocab, error) {
	o, err := o.resolve()
	if err != nil {
		return nil, err
	}
	words := make([]string, 0, len(counts))
	ns := make([]int64, 0, len(counts))
	var tokens int64
	for w, n := range counts {
		if n < 0 {
			return nil, fmt.Errorf("vocabulary: word %q has count %d", w, n)
		}
		if n == 0 {
			continue
		}
		words = append(words, w)
		ns = append(ns, n)
		tokens += n
	}
	if tokens == 0 {
		return nil, errors.New("vocabulary: no tokens counted")
	}
	v, _, err := rankWords(words, ns, tokens, o)
	if err != nil {
		return nil, err
	}
	if err := checkMinSizeCounts(v, o); err != nil {
		return nil, err
	}
	return v, nil
}

// checkMinSizeCounts reports a vocabulary smaller than MinSize.
func checkMinSizeCounts(v *Vocab, o VocabOptions) error {
	words := v.Size()
	if v.Unk >= 0 {
		words--
	}
	if o.MinSize > 0 && words < o.MinSize {
		return fmt.Errorf("only %d words occur at least %d times in %d tokens, fewer than the %d asked for (MinSize)",
			words, o.MinCount, v.Tokens, o.MinSize)
	}
	return nil
}

// rankWords is the vocabulary rule shared by Build and VocabFromCounts:
// words[p] occurs counts[p] times among tokens. It returns the vocabulary
// and perm[p], the id word p gets (the <unk> id, or -1 with OOVDrop, when
// it is out of vocabulary).
func rankWords(words []string, counts []int64, tokens int64, o VocabOptions) (*Vocab, []int32, error) {
	var keep []int32
	for p, n := range counts {
		if n >= o.MinCount && words[p] != Unk {
			keep = append(keep, int32(p))
		}
	}
	slices.SortFunc(keep, func(a, b int32) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return cmp.Compare(words[a], words[b])
	})
	if o.MaxSize > 0 && len(keep) > o.MaxSize {
		keep = keep[:o.MaxSize]
	}
	if len(keep) == 0 {
		return nil, nil, fmt.Errorf("no word occurs at least %d times (MinCount) in its %d tokens", o.MinCount, tokens)
	}
	v := &Vocab{Unk: -1, Tokens: tokens, Options: o}
	perm := make([]int32, len(words))
	for p := range perm {
		perm[p] = -1
	}
	for r, p := range keep {
		perm[p] = int32(r)
		v.Words = append(v.Words, words[p])
		v.Counts = append(v.Counts, counts[p])
	}
	oov := v.Tokens
	for _, n := range v.Counts {
		oov -= n
	}
	switch {
	case o.OOV == OOVUnk && oov > 0:
		v.Unk = int32(len(v.Words))
		v.Words = append(v.Words, Unk)
		v.Counts = append(v.Counts, oov)
		for p := range perm {
			if perm[p] < 0 {
				perm[p] = v.Unk
			}
		}
	case o.OOV == OOVDrop:
		v.Dropped = oov
	}
	v.Index = make(map[string]int32, len(v.Words))
	for i, w := range v.Words {
		v.Index[w] = int32(i)
	}
	return v, perm, nil
}

func storeVocab(dir, key string, v *Vocab, ids []int32) error {
	return writeCache(dir, "vocab", key, func(w *cacheWriter) {
		w.u64(uint64(len(v.Words)))
		for _, s := range v.Words {
			w.bytes([]byte(s))
		}
		w.i64s(v.Counts)
		w.i64s([]int64{int64(v.Unk), v.Tokens, v.Dropped, v.Options.MinCount, int64(v.Options.MaxSize)})
		w.bytes([]byte(v.Options.OOV))
		w.i32s(ids)
	})
}

// loadVocab returns (nil, nil, nil) when nothing is cached.
func loadVocab(dir, key string) (*Vocab, []int32, error) {
	var v *Vocab
	var ids []int32
	found, err := readCache(dir, "vocab", key, func(r *cacheReader) error {
		n := r.length(8)
		words := make([]string, 0, n)
		for range n {
			words = append(words, string(r.bytes()))
		}
		counts := r.i64s()
		meta := r.i64s()
		oov := OOV(r.bytes())
		ids = r.i32s()
		if r.err != nil {
			return nil
		}
		if len(counts) != n || len(meta) != 5 {
			return errors.New("inconsistent vocabulary arrays")
		}
		v = &Vocab{Words: words, Counts: counts, Unk: int32(meta[0]), Tokens: meta[1], Dropped: meta[2],
			Options: VocabOptions{MinCount: meta[3], MaxSize: int(meta[4]), OOV: oov}, Key: key}
		if v.Unk < -1 || int(v.Unk) >= n {
			return errors.New("bad <unk> id")
		}
		v.Index = make(map[string]int32, n)
		for i, w := range words {
			v.Index[w] = int32(i)
		}
		for _, id := range ids {
			if id < 0 || int(id) >= n {
				return fmt.Errorf("token id %d outside the vocabulary of %d", id, n)
			}
		}
		return nil
	})
	if err != nil || !found {
		return nil, nil, err
	}
	return v, ids, nil
}
