package harness

import (
	"fmt"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/corpus"
	"kcalab/methods/vectors"
)

// VectorsFileName is the name of a trial's exported vectors:
// <spec>-<label>-<id>.txt, the label (the method when the trial has none)
// reduced to a safe file name, so a directory of exports reads as a list of
// what they are and still cannot collide (the id is unique in a spec).
func VectorsFileName(spec, label, method, id string) string {
	l := safeName(label)
	if l == "" {
		l = safeName(method)
	}
	return safeName(spec) + "-" + l + "-" + id + ".txt"
}

// safeName keeps ASCII letters, digits, '.', '_' and '+', turns every other
// run of characters into one '-', and trims '-' and '.' from the ends (no
// hidden files, no "..", no separators); at most 60 bytes.
func safeName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '+')
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.Trim(b.String(), "-.")
	if len(out) > 60 {
		out = strings.Trim(out[:60], "-.")
	}
	return out
}

// withoutUnk drops the <unk> row: it pools every out-of-vocabulary token, so
// it is not a word, and a user of the file (gensim, a nearest-neighbour
// query) would otherwise meet it as one. It is never exported.
func withoutUnk(vs *vectors.Set) (*vectors.Set, error) {
	i, ok := vs.Index(corpus.Unk)
	if !ok {
		return vs, nil
	}
	n, dim := vs.M.Dims()
	if n == 1 {
		return nil, fmt.Errorf("vectors: only %s has a vector", corpus.Unk)
	}
	words := make([]string, 0, n-1)
	m := mat.NewDense(n-1, dim, nil)
	r := 0
	for k, w := range vs.Words {
		if k == i {
			continue
		}
		words = append(words, w)
		m.SetRow(r, vs.Row(k))
		r++
	}
	return vectors.New(words, m)
}

// outputRel names path relative to the output directory (where
// results.jsonl and report.html are), so that a record's Files are links
// that hold wherever the directory is moved with its files; a path that
// cannot be made relative is kept absolute.
func outputRel(outputDir, path string) string {
	ad, err1 := filepath.Abs(outputDir)
	ap, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return path
	}
	rel, err := filepath.Rel(ad, ap)
	if err != nil {
		return ap
	}
	return filepath.ToSlash(rel)
}
