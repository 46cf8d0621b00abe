package eval

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/datasets/wordsim"
	"kcalab/methods/vectors"
)

// The fixture (testdata/make_analogy_fixture.py): SGNS vectors of 1,240
// text8 words with capitalised twins, the Google questions they cover (and
// some they do not), and what gensim 4.2 answered.
const gensimRestrict = 1800

type gensimAnalogy struct {
	add map[string][2]int // section → correct, incorrect ("Total accuracy" too)
	acc float64
	mul [][4]string // a a* b and most_similar_cosmul's answer
}

func readGensimAnalogy(t *testing.T) gensimAnalogy {
	f, err := os.Open("testdata/analogy_gensim.txt")
	require.NoError(t, err)
	defer f.Close()
	g := gensimAnalogy{add: map[string][2]int{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		switch fs[0] {
		case "add":
			c, err1 := strconv.Atoi(fs[2])
			w, err2 := strconv.Atoi(fs[3])
			require.NoError(t, err1)
			require.NoError(t, err2)
			g.add[fs[1]] = [2]int{c, w}
		case "mul":
			g.mul = append(g.mul, [4]string{fs[1], fs[2], fs[3], fs[4]})
		case "# accuracy":
			g.acc, err = strconv.ParseFloat(fs[1], 64)
			require.NoError(t, err)
		}
	}
	require.NoError(t, sc.Err())
	return g
}

func TestAnalogyMatchesGensim(t *testing.T) {
	g := readGensimAnalogy(t)
	vs, err := vectors.ReadTextFile("testdata/analogy_vectors.txt")
	require.NoError(t, err)
	qs, err := wordsim.LoadAnalogyFile("testdata/analogy_questions.txt")
	require.NoError(t, err)
	total, secs, err := Analogies(vs, qs, AnalogyOptions{Restrict: gensimRestrict, CaseInsensitive: true})
	require.NoError(t, err)

	want := g.add["Total accuracy"]
	assert.Equal(t, want[0], total.Correct, "3CosAdd correct, total")
	assert.Equal(t, want[0]+want[1], total.Covered, "covered, total")
	assert.InDelta(t, g.acc, total.Accuracy(), 5e-4, "3CosAdd accuracy to 3 decimals")
	t.Logf("3CosAdd: Go %d/%d = %.6f, gensim %.6f; 3CosMul %.6f; coverage %.4f",
		total.Correct, total.Covered, total.Accuracy(), g.acc, total.AccuracyMul(), total.Coverage())
	n := 0
	for _, s := range secs {
		w, ok := g.add[s.Section]
		if !ok { // gensim lists no section whose questions were all skipped
			assert.Zero(t, s.Covered, s.Section)
			continue
		}
		n++
		assert.Equal(t, w[0], s.Correct, s.Section)
		assert.Equal(t, w[0]+w[1], s.Covered, s.Section)
	}
	assert.Equal(t, len(g.add)-1, n, "sections")
}

// TestCosMulMatchesGensim asks the fixture's questions of gensim's
// most_similar_cosmul (top answer, inputs excluded, over the first
// gensimRestrict words, case-sensitive) with its ε = 1e-6: Go gives the
// same answer to every one.
func TestCosMulMatchesGensim(t *testing.T) {
	g := readGensimAnalogy(t)
	require.NotEmpty(t, g.mul)
	vs, err := vectors.ReadTextFile("testdata/analogy_vectors.txt")
	require.NoError(t, err)
	qs := make([]wordsim.Question, len(g.mul))
	for i, m := range g.mul {
		qs[i] = wordsim.Question{A: m[0], AStar: m[1], B: m[2], BStar: m[3]}
	}
	total, _, err := Analogies(vs, qs, AnalogyOptions{Restrict: gensimRestrict, Epsilon: 1e-6})
	require.NoError(t, err)
	assert.Equal(t, len(qs), total.Covered)
	assert.Equal(t, len(qs), total.CorrectMul, "questions whose 3CosMul answer is gensim's")
	// With Levy and Goldberg's ε = 0.001 the answers barely move.
	total, _, err = Analogies(vs, qs, AnalogyOptions{Restrict: gensimRestrict})
	require.NoError(t, err)
	t.Logf("3CosMul, ε = 0.001: %d of %d answers are gensim's (ε = 1e-6)", total.CorrectMul, len(qs))
	assert.GreaterOrEqual(t, total.CorrectMul, len(qs)*9/10)
}
