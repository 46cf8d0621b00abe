package wordsim

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"kcalab/internal/inputfile"
)

// analogyFiles are the built-in analogy sets, by name, as paths under the
// data directory.
var analogyFiles = map[string]string{
	"google": filepath.Join("analogy", "questions-words.txt"), // word2vec's questions-words.txt
}

// AnalogyNames lists the built-in analogy sets, sorted.
func AnalogyNames() []string {
	var out []string
	for k := range analogyFiles {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// AnalogyFile is a built-in analogy set's file, relative to the data
// directory.
func AnalogyFile(name string) (string, bool) {
	f, ok := analogyFiles[name]
	return f, ok
}

// Question is an analogy question "A is to AStar as B is to BStar"
// (athens greece baghdad iraq), from the section it was listed under.
type Question struct {
	Section            string
	A, AStar, B, BStar string
}

// LoadAnalogyFile reads analogy questions; see ParseAnalogies. Only a
// regular file of at most MaxFileBytes is read.
func LoadAnalogyFile(path string, opts ...Option) ([]Question, error) {
	b, err := inputfile.ReadFile(path, analogiesFile)
	if err != nil {
		return nil, fmt.Errorf("analogy file: %w", err)
	}
	return ParseAnalogies(bytes.NewReader(b), path, opts...)
}

// ParseAnalogies reads analogy questions in the format of word2vec's
// questions-words.txt: a line ": name" starts a section, every other
// non-blank line holds four words separated by tabs or spaces. Questions
// before the first section have section "". Errors read "name:line: problem".
func ParseAnalogies(r io.Reader, name string, opts ...Option) ([]Question, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	sc := bufio.NewScanner(newLimited(r, MaxFileBytes))
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	var qs []Question
	section := ""
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		text := strings.TrimSpace(string(b))
		if text == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(text, ":"); ok {
			section = strings.TrimSpace(rest)
			if section == "" {
				return nil, fmt.Errorf("%s:%d: empty section name after \":\"", name, line)
			}
			continue
		}
		f := strings.Fields(text)
		if len(f) != 4 {
			return nil, fmt.Errorf("%s:%d: %d words, want 4 (a a* b b*) or a \": section\" line", name, line, len(f))
		}
		if o.lower {
			for i := range f {
				f[i] = strings.ToLower(f[i])
			}
		}
		qs = append(qs, Question{Section: section, A: f[0], AStar: f[1], B: f[2], BStar: f[3]})
	}
	if err := sc.Err(); err != nil {
		return nil, scanErr(err, name, line+1, analogiesFile, "an analogy file")
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s: no questions: want lines of four words a a* b b*", name)
	}
	return qs, nil
}
