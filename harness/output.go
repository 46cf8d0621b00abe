package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"kcalab/schema"
)

// ResultsTree is the directory under which a spec's output: may write
// (besides the spec file's own directory).
const ResultsTree = "results"

// CheckOutput refuses an output directory a spec may not write to. A spec
// is a file people share; it must not be able to write results.jsonl and
// report.html anywhere (/etc, ~/.ssh). An output: key must stay under the
// results tree or the spec file's directory, the paths compared as the
// file system resolves them, symbolic links followed, so a link inside
// the spec's directory cannot lead outside. And whatever the output (the
// default results/<name> too), nothing is written through a link: the
// results tree itself, or a link inside it or inside the spec's directory
// on the way to the output, is refused (linkOnTheWay). The command line
// may say otherwise with -out, so the caller skips the check then.
func CheckOutput(s *schema.Spec) error {
	file := s.Path
	if file == "" {
		file = "spec"
	}
	if s.OutputLine != 0 {
		if err := checkConfined(s); err != nil {
			return err
		}
	}
	if link := linkOnTheWay(s); link != "" {
		target, _ := os.Readlink(link)
		what := "output " + strconv.Quote(s.Output)
		if s.OutputLine == 0 {
			what = "the default output " + s.Output
		}
		return &schema.SpecError{File: file, Line: s.OutputLine, Msg: fmt.Sprintf(
			"%s goes through %s, a symbolic link (to %s): kcalab writes nothing through a link under %s or the spec's directory; "+
				"remove the link, or give the directory on the command line with -out", what, link, target, ResultsTree+string(filepath.Separator))}
	}
	return nil
}

// checkConfined refuses an output: key outside both the results tree and
// the spec file's directory. The output must lie under one of them both as
// written (made absolute, cleaned, no link followed) and as the file
// system resolves it, against the same root: a results/ that is a link to
// elsewhere does not make that elsewhere a place a spec may name
// (linkOnTheWay then refuses the link itself).
func checkConfined(s *schema.Spec) error {
	out, err := resolvePath(s.Output)
	if err != nil {
		return fmt.Errorf("output %q: %w", s.Output, err)
	}
	written, err := filepath.Abs(s.Output)
	if err != nil {
		return fmt.Errorf("output %q: %w", s.Output, err)
	}
	allowed := []string{ResultsTree}
	if s.Path != "" {
		allowed = append(allowed, filepath.Dir(s.Path))
	}
	for _, root := range allowed {
		abs, err1 := filepath.Abs(root)
		real, err2 := resolvePath(root)
		if err1 == nil && err2 == nil && within(written, abs) && within(out, real) {
			return nil
		}
	}
	msg := fmt.Sprintf("output %q is outside what a spec may write to (allowed: under %s): give that directory on the command line with -out instead",
		s.Output, strings.Join(quoteDirs(allowed), " or "))
	if written != out {
		msg = fmt.Sprintf("output %q resolves, through a symbolic link, to %s, outside what a spec may write to (allowed: under %s): give that directory on the command line with -out instead",
			s.Output, out, strings.Join(quoteDirs(allowed), " or "))
	}
	return &schema.SpecError{File: s.Path, Line: s.OutputLine, Msg: msg}
}

// linkOnTheWay is the first symbolic link on the way to the spec's output
// directory (the directory itself included) that is the results tree or
// lies inside it or inside the spec file's directory; "" when there is
// none. Links above those directories (a home directory that is a link)
// are the machine's, not the spec's, and are followed.
func linkOnTheWay(s *schema.Spec) string {
	abs, err := filepath.Abs(s.Output)
	if err != nil {
		return ""
	}
	tree, err1 := filepath.Abs(ResultsTree)
	treeReal, err2 := resolvePath(ResultsTree)
	if err1 != nil || err2 != nil {
		return ""
	}
	roots := []string{treeReal}
	if s.Path != "" {
		if d, err := resolvePath(filepath.Dir(s.Path)); err == nil {
			roots = append(roots, d)
		}
	}
	var way []string
	for p := abs; ; p = filepath.Dir(p) {
		way = append(way, p)
		if filepath.Dir(p) == p {
			break
		}
	}
	for i := len(way) - 1; i >= 0; i-- {
		p := way[i]
		st, err := os.Lstat(p)
		if err != nil {
			return "" // not there yet: created as written
		}
		if st.Mode()&os.ModeSymlink == 0 {
			continue
		}
		if p == tree {
			return p
		}
		parent, err := resolvePath(filepath.Dir(p))
		if err != nil {
			return p
		}
		for _, r := range roots {
			if within(parent, r) {
				return p
			}
		}
	}
	return ""
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
