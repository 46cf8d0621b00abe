package vectors

import (
	"fmt"
	"strings"
	"sync"
	"unicode"

	"gonum.org/v1/gonum/mat"
)

// Set is a vocabulary and its vectors: row i of M is the vector of Words[i].
// Words and M must not change once the set is in use (the word index is
// built on first lookup). A Set is safe for concurrent lookups.
type Set struct {
	Words []string
	M     *mat.Dense

	// OOV, when not nil, gives a vector to a word that is not in Words
	// (fastText builds one from character n-grams). It must return Dim()
	// values; ok = false means the word stays unknown.
	OOV func(word string) (v []float64, ok bool)

	once  sync.Once
	index map[string]int
}

// New checks words against m (one non-empty, distinct word per row, no
// whitespace inside a word, so the set can be written in word2vec format)
// and builds the word index.
func New(words []string, m *mat.Dense) (*Set, error) {
	if m == nil || m.IsEmpty() {
		return nil, fmt.Errorf("word vectors: empty matrix")
	}
	if r, _ := m.Dims(); r != len(words) {
		return nil, fmt.Errorf("word vectors: %d words but %d matrix rows", len(words), r)
	}
	index := make(map[string]int, len(words))
	for i, w := range words {
		if err := checkWord(w); err != nil {
			return nil, fmt.Errorf("word vectors: word %d: %w", i+1, err)
		}
		if j, dup := index[w]; dup {
			return nil, fmt.Errorf("word vectors: word %d %q repeats word %d", i+1, w, j+1)
		}
		index[w] = i
	}
	s := &Set{Words: words, M: m, index: index}
	s.once.Do(func() {})
	return s, nil
}

func checkWord(w string) error {
	if w == "" {
		return fmt.Errorf("empty word")
	}
	if strings.IndexFunc(w, unicode.IsSpace) >= 0 {
		return fmt.Errorf("word %q contains whitespace (the word2vec format separates fields by spaces)", w)
	}
	return nil
}

// Len is the number of words.
func (s *Set) Len() int { return len(s.Words) }

// Dim is the vector dimension.
func (s *Set) Dim() int {
	_, c := s.M.Dims()
	return c
}

// Index returns the row of word, if the word is in the vocabulary.
func (s *Set) Index(word string) (int, bool) {
	s.once.Do(func() {
		// A Set made as a literal: first occurrence wins, as in lookups
		// by scanning; New rejects duplicates outright.
		s.index = make(map[string]int, len(s.Words))
		for i := len(s.Words) - 1; i >= 0; i-- {
			s.index[s.Words[i]] = i
		}
	})
	i, ok := s.index[word]
	return i, ok
}

// Row returns row i of M; it shares M's memory and must not be modified.
func (s *Set) Row(i int) []float64 { return s.M.RawRowView(i) }

// Vector returns the vector of word: its row of M, else the OOV hook's
// vector, else ok = false. A row shares M's memory and must not be modified.
func (s *Set) Vector(word string) (v []float64, ok bool) {
	if i, ok := s.Index(word); ok {
		return s.Row(i), true
	}
	if s.OOV != nil {
		return s.OOV(word)
	}
	return nil, false
}
