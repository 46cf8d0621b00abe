package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kcalab/schema"
)

// ResultsTree is the directory under which a spec's output: may write
// (besides the spec file's own directory).
const ResultsTree = "results"

// CheckOutput refuses an output: key that leaves both the results tree and
// the spec file's directory. A spec is a file people share; it must not be
// able to write results.jsonl and report.html anywhere (/etc, ~/.ssh). The
// paths are compared as the file system resolves them, symbolic links
// followed, so a link inside the spec's directory cannot lead outside.
// The command line may say otherwise with -out, so the caller skips the
// check then.
func CheckOutput(s *schema.Spec) error {
	if s.OutputLine == 0 {
		return nil // the default, results/<name>
	}
	out, err := resolvePath(s.Output)
	if err != nil {
		return fmt.Errorf("output %q: %w", s.Output, err)
	}
	allowed := []string{ResultsTree}
	if tree, err := resolvePath(ResultsTree); err == nil && within(out, tree) {
		return nil
	}
	if s.Path != "" {
		dir := filepath.Dir(s.Path)
		allowed = append(allowed, dir)
		if abs, err := resolvePath(dir); err == nil && within(out, abs) {
			return nil
		}
	}
	msg := fmt.Sprintf("output %q is outside what a spec may write to (allowed: under %s): give that directory on the command line with -out instead",
		s.Output, strings.Join(quoteDirs(allowed), " or "))
	if abs, err := filepath.Abs(s.Output); err == nil && abs != out {
		msg = fmt.Sprintf("output %q resolves, through a symbolic link, to %s, outside what a spec may write to (allowed: under %s): give that directory on the command line with -out instead",
			s.Output, out, strings.Join(quoteDirs(allowed), " or "))
	}
	return &schema.SpecError{File: s.Path, Line: s.OutputLine, Msg: msg}
}

// resolvePath is the absolute path p names on the file system: each
// existing component resolved as the kernel does (symbolic links
// followed, ".." taken from where a link led), the components that do not
// exist yet appended as given.
func resolvePath(p string) (string, error) {
	return resolveIn("", p, 0)
}

func resolveIn(base, p string, depth int) (string, error) {
	if depth > 40 {
		return "", fmt.Errorf("too many levels of symbolic links in %s", p)
	}
	cur := base
	if filepath.IsAbs(p) {
		cur = string(filepath.Separator)
	} else if cur == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		cur = wd
	}
	parts := strings.Split(p, string(filepath.Separator))
	for i, part := range parts {
		switch part {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur) // cur is resolved, so its parent is real
			continue
		}
		next := filepath.Join(cur, part)
		st, err := os.Lstat(next)
		if err != nil {
			// Not there yet: what follows is created as written.
			return filepath.Join(append([]string{next}, parts[i+1:]...)...), nil
		}
		if st.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if cur, err = resolveIn(cur, target, depth+1); err != nil {
			return "", err
		}
	}
	return cur, nil
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
