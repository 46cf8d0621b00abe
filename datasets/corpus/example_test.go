package corpus_test

import (
	"context"
	"fmt"
	"log"

	"kcalab/datasets/corpus"
)

// The paper's example sentence: "is" follows "this" at offsets 1 and 3,
// never 2.
func Example() {
	ctx := context.Background()
	// A data directory is needed for "text8" and "text8_prefix" only.
	c, err := corpus.Open(ctx, "", "testdata/this_is.txt", corpus.Options{})
	if err != nil {
		log.Fatal(err)
	}
	v, ids, err := corpus.Build(ctx, c, corpus.VocabOptions{MinCount: 1, OOV: corpus.OOVUnk})
	if err != nil {
		log.Fatal(err)
	}
	tables, err := corpus.NewTables(v, ids, corpus.TableOptions{}) // CacheDir: a directory, to cache
	if err != nil {
		log.Fatal(err)
	}
	offs, err := tables.Offsets(ctx, 3)
	if err != nil {
		log.Fatal(err)
	}
	this, is := int(v.Index["this"]), int(v.Index["is"])
	for k, n := range offs {
		fmt.Printf("N^%d[this][is] = %v\n", k+1, n.At(this, is))
	}
	flat, err := tables.Table(ctx, corpus.Spec{Kind: corpus.Flat, Window: 3})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("words:", v.Words, "counts:", v.Counts)
	fmt.Println("N^flat total:", flat.Sum(), "= 8 + 7 + 6")
	// Output:
	// N^1[this][is] = 4
	// N^2[this][is] = 0
	// N^3[this][is] = 3
	// words: [this is] counts: [5 4]
	// N^flat total: 21 = 8 + 7 + 6
}
