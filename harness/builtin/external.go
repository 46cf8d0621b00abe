package builtin

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"kcalab/harness"
	"kcalab/internal/tmpfiles"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/methods/vectors"
)

// external runs a program that writes word vectors.
type external struct{}

func init() { harness.RegisterMethod(external{}) }

func (external) Info() schema.MethodInfo {
	return schema.MethodInfo{Name: "external", Label: "external", Rank: 50, Inputs: schema.CorpusInput,
		Doc:         "a command that writes word vectors (external.*)",
		CorpusReads: append([]string{"external", "data.min_count"}, baselineReads...),
		Reference:   true, ZeroMeans: word2vecZero, Similarity: records.SimCosine}
}

func (external) Run(ctx context.Context, tr *harness.TrialRun) error {
	wd, err := tr.Words(ctx)
	if err != nil {
		return err
	}
	if wd.IDs == nil {
		return errors.New("method external writes the corpus's tokens for its program: it cannot read counted tables (data.source: tables)")
	}
	vs, err := runExternal(ctx, tr, wd)
	if err != nil {
		return err
	}
	return tr.Score(vs)
}

// runExternal runs external.command, which must write word vectors in
// word2vec text format to {out}, on the trial's corpus section written as
// one plain text file {corpus} (out-of-vocabulary tokens removed, so the
// program sees the same vocabulary as the Go methods when its own minimum
// count matches data.min_count).
func runExternal(ctx context.Context, tr *harness.TrialRun, wd *harness.WordData) (*vectors.Set, error) {
	t := tr.Trial
	argv := t.External.Command
	if len(argv) == 0 {
		return nil, errors.New("method external needs external.command (the program and its arguments)")
	}
	python := "python3"
	if strings.HasPrefix(filepath.Base(argv[0]), "python") {
		python = argv[0] // check modules with the interpreter the command uses
	}
	for _, req := range t.External.Requires {
		if err := checkRequirement(ctx, req, python); err != nil {
			return nil, fmt.Errorf("%w: %v (install it to run this trial)", harness.ErrSkipped, err)
		}
	}
	dir, err := os.MkdirTemp("", tmpfiles.Pattern("external"))
	if err != nil {
		return nil, fmt.Errorf("external: %w", err)
	}
	defer os.RemoveAll(dir)
	corpusPath := filepath.Join(dir, "corpus.txt")
	outPath := filepath.Join(dir, "vectors.txt")
	if err := tr.Stage("corpus", func() error { return writeCorpusText(corpusPath, wd) }); err != nil {
		return nil, fmt.Errorf("external: writing the corpus: %w", err)
	}
	wordsPath := filepath.Join(dir, "words.txt")
	if err := writeEvalWords(tr, wordsPath); err != nil {
		return nil, fmt.Errorf("external: writing the evaluation words: %w", err)
	}
	specDir := "."
	if tr.Spec.Path != "" {
		if abs, err := filepath.Abs(filepath.Dir(tr.Spec.Path)); err == nil {
			specDir = abs
		}
	}
	repl := strings.NewReplacer(
		"{spec_dir}", specDir,
		"{corpus}", corpusPath,
		"{out}", outPath,
		"{words}", wordsPath,
		"{dim}", strconv.Itoa(baselineDim(t)),
		"{window}", strconv.Itoa(orInt(t.Train.Window, 5)),
		"{epochs}", strconv.Itoa(orInt(t.Train.Epochs, 5)),
		"{min_count}", strconv.Itoa(t.Data.MinCount),
		"{seed}", strconv.FormatUint(t.Seed%(1<<31), 10),
		"{threads}", "1",
	)
	args := make([]string, len(argv))
	for i, a := range argv {
		args[i] = repl.Replace(a)
	}
	if err := tr.Stage("train", func() error { return tr.RunCommand(ctx, dir, args) }); err != nil {
		return nil, err
	}
	vs, err := vectors.ReadTextFile(outPath)
	if err != nil {
		return nil, fmt.Errorf("external command %s did not write usable vectors to {out}: %w", args[0], err)
	}
	tr.SetMetric(records.MetricVocab, float64(vs.Len()))
	return vs, nil
}

// checkRequirement checks that a program is on PATH (or, for a path, that
// it exists), or for "py:NAME" that the python interpreter can import NAME.
func checkRequirement(ctx context.Context, req, python string) error {
	if mod, ok := strings.CutPrefix(req, "py:"); ok {
		if _, err := exec.LookPath(python); err != nil {
			return fmt.Errorf("%s is not installed (needed for module %s)", python, mod)
		}
		if err := exec.CommandContext(ctx, python, "-c", "import "+mod).Run(); err != nil {
			return fmt.Errorf("python module %s is not installed for %s", mod, python)
		}
		return nil
	}
	if _, err := exec.LookPath(req); err != nil {
		return fmt.Errorf("program %s is not installed", req)
	}
	return nil
}

// writeCorpusText writes the token ids as words, one line of at most 10,000
// words per line (tools such as word2vec.c and fastText cut long lines),
// without <unk>.
func writeCorpusText(path string, wd *harness.WordData) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	n := 0
	for _, id := range wd.IDs {
		if id == wd.Vocab.Unk {
			continue
		}
		if n > 0 {
			if n%10000 == 0 {
				w.WriteByte('\n')
			} else {
				w.WriteByte(' ')
			}
		}
		w.WriteString(wd.Vocab.Words[id])
		n++
	}
	w.WriteByte('\n')
	return errors.Join(w.Flush(), f.Close())
}

// writeEvalWords writes the distinct words of the trial's evaluation sets,
// one per line, so a subword model (fastText) can add vectors for the words
// it would be scored on but did not see, as the Go fastText does.
func writeEvalWords(tr *harness.TrialRun, path string) error {
	sets := tr.Sets()
	var b strings.Builder
	seen := map[string]bool{}
	for _, s := range sets {
		for _, w := range s.Set.Words() {
			if !seen[w] {
				seen[w] = true
				b.WriteString(w)
				b.WriteByte('\n')
			}
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
