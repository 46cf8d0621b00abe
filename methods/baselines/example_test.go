package baselines_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"kcalab/methods/baselines"
	"kcalab/methods/vectors"
)

// toyCorpus: two topics; each 10-word sentence stays inside one topic.
func toyCorpus() baselines.Corpus {
	words := []string{"cat", "dog", "mouse", "horse", "red", "green", "blue", "yellow"}
	r := rand.New(rand.NewPCG(1, 2))
	var toks []int32
	for s := 0; s < 1500; s++ {
		topic := r.IntN(2)
		for k := 0; k < 10; k++ {
			toks = append(toks, int32(4*topic+r.IntN(4)))
		}
	}
	return baselines.Corpus{Tokens: toks, Words: words, SkipID: -1}
}

func closest(s *vectors.Set, word string) string {
	v, _ := s.Vector(word)
	best, bw := -2.0, ""
	for i, w := range s.Words {
		if c := vectors.CosineSim(v, s.Row(i)); w != word && c > best {
			best, bw = c, w
		}
	}
	return bw
}

func ExampleTrainWord2Vec() {
	cfg := baselines.DefaultSGNS()
	cfg.Dim = 10
	s, err := baselines.TrainWord2Vec(context.Background(), toyCorpus(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Len(), "words ×", s.Dim())
	animal := map[string]bool{"cat": true, "dog": true, "mouse": true, "horse": true}
	for _, w := range []string{"cat", "red"} {
		fmt.Printf("%s is nearest to a word of its topic: %v\n", w, animal[closest(s, w)] == animal[w])
	}
	// Output:
	// 8 words × 10
	// cat is nearest to a word of its topic: true
	// red is nearest to a word of its topic: true
}

func ExampleTrainFastText() {
	cfg := baselines.DefaultFastText()
	cfg.Dim, cfg.Bucket = 10, 1000
	s, err := baselines.TrainFastText(context.Background(), toyCorpus(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, inVocab := s.Index("cats")
	v, ok := s.Vector("cats") // built from the n-grams of "<cats>"
	fmt.Println(inVocab, ok, len(v))
	// Output: false true 10
}
