package harness

import (
	"fmt"
	"kcalab/schema"
	"path/filepath"
	"strings"
)

// ResultsTree is the directory under which a spec's output: may write
// (besides the spec file's own directory).
const ResultsTree = "results"

// CheckOutput refuses an output: key that leaves both the results tree and
// the spec file's directory. A spec is a file people share; it must not be
// able to write results.jsonl and report.html anywhere (/etc, ~/.ssh). The
// command line may say otherwise with -out, so the caller skips the check
// then.
func CheckOutput(s *schema.Spec) error {
	if s.OutputLine == 0 {
		return nil // the default, results/<name>
	}
	out, err := filepath.Abs(s.Output)
	if err != nil {
		return fmt.Errorf("output %q: %w", s.Output, err)
	}
	allowed := []string{ResultsTree}
	if tree, err := filepath.Abs(ResultsTree); err == nil && within(out, tree) {
		return nil
	}
	if s.Path != "" {
		dir := filepath.Dir(s.Path)
		allowed = append(allowed, dir)
		if abs, err := filepath.Abs(dir); err == nil && within(out, abs) {
			return nil
		}
	}
	return &schema.SpecError{File: s.Path, Line: s.OutputLine, Msg: fmt.Sprintf(
		"output %q is outside what a spec may write to (allowed: under %s): give that directory on the command line with -out instead",
		s.Output, strings.Join(quoteDirs(allowed), " or "))}
}

// within reports whether path is dir or below it (both absolute, cleaned).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}

func quoteDirs(dirs []string) []string {
	out := make([]string, len(dirs))
	for i, d := range dirs {
		out[i] = d + string(filepath.Separator)
	}
	return out
}
