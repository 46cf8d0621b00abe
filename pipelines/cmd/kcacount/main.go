// Command kcacount counts a sharded text corpus into a KCA lab table
// directory with the Apache Beam pipeline of kcalab/pipelines. Beam's own
// flags choose the runner (--runner=prism, the default, runs in this
// process; flink, spark and dataflow submit to a cluster) and its options.
//
//	kcacount --input 'shards/*.txt' --output tables --window 24 --min_count 5
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"kcalab/datasets/corpus"
	"kcalab/pipelines"
)

var (
	input     = flag.String("input", "", "comma-separated file patterns of the text shards; the corpus is the matches in name order")
	output    = flag.String("output", "", "table directory to write (must not hold a manifest)")
	window    = flag.Int("window", 24, "window W: offset tables N^1 … N^W")
	minCount  = flag.Int64("min_count", corpus.DefaultMinCount, "vocabulary: minimum count")
	maxVocab  = flag.Int("max_vocab", 0, "vocabulary: at most this many words (0 = no limit)")
	oov       = flag.String("oov", string(corpus.OOVUnk), "out-of-vocabulary tokens: unk (kept in place as <unk>) or drop")
	lowercase = flag.Bool("lowercase", false, "lowercase every token")
	rowsBlock = flag.Int("rows_per_block", pipelines.DefaultRowsPerBlock, "table rows per work unit (does not change the tables)")
)

func main() {
	flag.Parse()
	beam.Init()
	ctx := context.Background()
	if err := run(ctx); err != nil {
		// Not log.Fatal: Beam routes the standard logger to INFO lines.
		fmt.Fprintf(os.Stderr, "kcacount: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	if *input == "" || *output == "" {
		return fmt.Errorf("--input and --output are required")
	}
	shards, err := expand(ctx, *input)
	if err != nil {
		return err
	}
	p, err := pipelines.NewPipeline(ctx, pipelines.Options{
		Shards: shards, Out: *output, Window: *window,
		Vocab:     corpus.VocabOptions{MinCount: *minCount, MaxSize: *maxVocab, OOV: corpus.OOV(*oov)},
		Lowercase: *lowercase, RowsPerBlock: *rowsBlock,
	})
	if err != nil {
		return err
	}
	if err := beamx.Run(ctx, p); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	return nil
}

// expand lists the files each pattern matches, in name order per pattern:
// shard order is corpus order, so it must not depend on the file system's.
func expand(ctx context.Context, patterns string) ([]string, error) {
	var out []string
	for _, pat := range strings.Split(patterns, ",") {
		fsys, err := filesystem.New(ctx, pat)
		if err != nil {
			return nil, fmt.Errorf("--input %s: %w", pat, err)
		}
		names, err := fsys.List(ctx, pat)
		fsys.Close()
		if err != nil {
			return nil, fmt.Errorf("--input %s: %w", pat, err)
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("--input %s matches no file", pat)
		}
		slices.Sort(names)
		out = append(out, names...)
	}
	return out, nil
}
