package pipelines

import (
	"context"
	"errors"
	"fmt"
	"path"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	// Local paths work in every binary that counts; gs:// and others are
	// registered by the binary (kcacount takes them all through beamx).
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"kcalab/datasets/corpus"
)

// DefaultRowsPerBlock is how many table rows travel together between the
// merge, derive and write stages.
const DefaultRowsPerBlock = 1024

// Options configure the counting pipeline.
type Options struct {
	// Shards are the corpus's text files (plain, or gzip when named .gz)
	// in corpus order: the corpus is their token streams one after the
	// other, as if joined with whitespace.
	Shards []string
	// Out is the table directory to write (local, or any Beam file system
	// registered in the binary, e.g. gs://). It must not hold a manifest.
	Out string
	// Window W: N^1 … N^W and the combined tables over 1..W.
	Window int
	// Vocab are the vocabulary settings (corpus.Build's).
	Vocab corpus.VocabOptions
	// Lowercase maps tokens to lower case, as corpus.Options.Lowercase.
	Lowercase bool
	// RowsPerBlock is the row-block height; 0 means DefaultRowsPerBlock.
	// It changes only how work is cut, never the tables.
	RowsPerBlock int
}

func (o Options) resolve() (Options, error) {
	if len(o.Shards) == 0 {
		return o, errors.New("count pipeline: no input shards")
	}
	if o.Out == "" {
		return o, errors.New("count pipeline: no output directory")
	}
	if o.Window < 1 {
		return o, fmt.Errorf("count pipeline: window %d: want ≥ 1", o.Window)
	}
	if o.RowsPerBlock < 0 {
		return o, fmt.Errorf("count pipeline: RowsPerBlock %d: want ≥ 0 (0 = %d)", o.RowsPerBlock, DefaultRowsPerBlock)
	}
	if o.RowsPerBlock == 0 {
		o.RowsPerBlock = DefaultRowsPerBlock
	}
	// VocabFromCounts checks the vocabulary settings on the worker; a
	// one-word trial here fails before anything runs.
	if o.Vocab.MinCount < 0 {
		return o, fmt.Errorf("count pipeline: vocabulary: MinCount = %d: want ≥ 1 (0 = default %d)", o.Vocab.MinCount, corpus.DefaultMinCount)
	}
	trial := o.Vocab
	trial.MinSize = 0
	if _, err := corpus.VocabFromCounts(map[string]int64{"x": max(o.Vocab.MinCount, corpus.DefaultMinCount)}, trial); err != nil {
		return o, fmt.Errorf("count pipeline: %w", err)
	}
	if o.Vocab.MinCount == 0 {
		o.Vocab.MinCount = corpus.DefaultMinCount
	}
	if o.Vocab.OOV == "" {
		o.Vocab.OOV = corpus.OOVUnk
	}
	return o, nil
}

// source describes the input for the manifest.
func (o Options) source() string {
	names := make([]string, len(o.Shards))
	for i, s := range o.Shards {
		names[i] = path.Base(s)
	}
	if len(names) > 6 {
		names = append(names[:3], "…", names[len(names)-1])
	}
	return fmt.Sprintf("kcalab/pipelines on Apache Beam: %d shards (%s)", len(o.Shards), strings.Join(names, " "))
}

// CountTables adds the counting pipeline to scope s; see the package
// documentation for its stages.
func CountTables(s beam.Scope, o Options) error {
	o, err := o.resolve()
	if err != nil {
		return err
	}
	shards := make([]Shard, len(o.Shards))
	for i, p := range o.Shards {
		shards[i] = Shard{Index: i, Path: p}
	}
	w, rpb := o.Window, o.RowsPerBlock

	sh := beam.CreateList(s.Scope("shards"), shards)

	// Vocabulary: word counts per shard, summed per word, ranked in one place.
	vs := s.Scope("vocabulary")
	wc := beam.ParDo(vs, &countShardWords{Lowercase: o.Lowercase}, sh)
	wc = beam.CombinePerKey(vs, sumCounts, wc)
	all := beam.GroupByKey(vs, beam.AddFixedKey(vs, beam.ParDo(vs, toWordCount, wc)))
	vocab := beam.ParDo(vs, &buildVocab{MinCount: o.Vocab.MinCount, MaxSize: o.Vocab.MaxSize, MinSize: o.Vocab.MinSize, OOV: string(o.Vocab.OOV)}, all)

	// Offset tables: pairs within each shard, pairs across shard ends,
	// summed per (offset, row block).
	ps := s.Scope("offsets")
	inShard, edges := beam.ParDo2(ps, &countShardPairs{Window: w, RowsPerBlock: rpb, Lowercase: o.Lowercase}, sh, beam.SideInput{Input: vocab})
	cross := beam.ParDo(ps, &crossShards{Window: w, RowsPerBlock: rpb}, beam.GroupByKey(ps, beam.AddFixedKey(ps, edges)))
	merged := beam.CombinePerKey(ps, mergeBlocks, beam.Flatten(ps, inShard, cross))

	// Combined tables: the tail cut needs colsum(N^1) everywhere; the
	// empty element makes the sum exist even when N^1 is empty.
	cs := s.Scope("combined")
	col1 := beam.Combine(cs, mergeColSums, beam.Flatten(cs, beam.ParDo(cs, n1ColSums, merged), beam.Create(cs, ColSums{})))
	byRow := beam.GroupByKey(cs, beam.ParDo(cs, byRowBlock, merged))
	tables := beam.ParDo(cs, &deriveTables{Window: w}, byRow, beam.SideInput{Input: col1})

	// Files: one writer per table, then the vocabulary and the manifest.
	fs := s.Scope("write")
	files := beam.ParDo(fs, &writeTable{Dir: o.Out, Window: w}, beam.GroupByKey(fs, tables), beam.SideInput{Input: vocab})
	files = beam.Flatten(fs, files, beam.Create(fs, FileInfo{}))
	beam.ParDo0(fs, &writeManifest{Dir: o.Out, Window: w, Source: o.source()},
		beam.GroupByKey(fs, beam.AddFixedKey(fs, files)), beam.SideInput{Input: vocab})
	return nil
}

// NewPipeline builds the counting pipeline, after checking that o.Out
// holds no manifest: a finished table directory is never written over.
func NewPipeline(ctx context.Context, o Options) (*beam.Pipeline, error) {
	if o.Out != "" {
		if err := refuseFinished(ctx, o.Out); err != nil {
			return nil, err
		}
	}
	p, s := beam.NewPipelineWithRoot()
	if err := CountTables(s, o); err != nil {
		return nil, err
	}
	return p, nil
}

func refuseFinished(ctx context.Context, dir string) error {
	man := joinPath(dir, corpus.ManifestFile)
	fsys, err := filesystem.New(ctx, man)
	if err != nil {
		return fmt.Errorf("count pipeline: output %s: %w", dir, err)
	}
	defer fsys.Close()
	if _, err := fsys.Size(ctx, man); err == nil {
		return fmt.Errorf("count pipeline: %s exists: %s already holds tables (choose a new directory)", man, dir)
	}
	return nil
}

// joinPath joins a directory and a file name with "/", which every Beam
// file system accepts (filepath.Join would turn gs:// into gs:/).
func joinPath(dir, name string) string {
	return strings.TrimSuffix(dir, "/") + "/" + name
}

func init() {
	for _, t := range []any{Shard{}, WordCount{}, VocabInfo{}, Block{}, ShardEdge{}, OffsetBlock{}, RowBlock{}, FileInfo{}, ColSums{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.DoFn3x1[context.Context, Shard, func(string, int64), error](&countShardWords{})
	register.Emitter2[string, int64]()
	register.Function2x1(sumCounts)
	register.Function2x1(toWordCount)
	register.DoFn3x1[int, func(*WordCount) bool, func(VocabInfo), error](&buildVocab{})
	register.Iter1[WordCount]()
	register.Emitter1[VocabInfo]()
	register.DoFn5x1[context.Context, Shard, VocabInfo, func(int64, Block), func(ShardEdge), error](&countShardPairs{})
	register.Emitter2[int64, Block]()
	register.Emitter1[ShardEdge]()
	register.DoFn3x1[int, func(*ShardEdge) bool, func(int64, Block), error](&crossShards{})
	register.Iter1[ShardEdge]()
	register.Function2x1(mergeBlocks)
	register.Function3x0(n1ColSums)
	register.Emitter1[ColSums]()
	register.Function2x1(mergeColSums)
	register.Function2x2(byRowBlock)
	register.DoFn4x1[int, func(*OffsetBlock) bool, ColSums, func(string, RowBlock), error](&deriveTables{})
	register.Iter1[OffsetBlock]()
	register.Emitter2[string, RowBlock]()
	register.DoFn5x1[context.Context, string, func(*RowBlock) bool, VocabInfo, func(FileInfo), error](&writeTable{})
	register.Iter1[RowBlock]()
	register.Emitter1[FileInfo]()
	register.DoFn4x1[context.Context, int, func(*FileInfo) bool, VocabInfo, error](&writeManifest{})
	register.Iter1[FileInfo]()
}
