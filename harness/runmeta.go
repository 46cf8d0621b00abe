package harness

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"kcalab/internal/inputfile"
	"kcalab/records"
)

// timeFormat is RFC 3339 to the second: the precision a reader compares
// runs by, and the same width in every record.
const timeFormat = time.RFC3339

// beginRun starts a trial's records.RunInfo.
func (r *Runner) beginRun() *records.RunInfo {
	g := currentGit()
	host, _ := os.Hostname()
	return &records.RunInfo{ID: r.runID, Start: time.Now().UTC().Format(timeFormat), Commit: g.commit, Dirty: g.dirty, Host: host}
}

// newRunID names one invocation of Runner.Run: its start to the
// nanosecond, the host and the process, unique enough that two runs never
// share one.
func newRunID() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%s/%d", time.Now().UTC().Format(time.RFC3339Nano), host, os.Getpid())
}

// endRun stamps the end time and hashes the inputs. A file that can no longer
// be read is listed with the error instead of a hash, so the record says
// which file it was.
func endRun(ri *records.RunInfo, inputs []string) *records.RunInfo {
	ri.End = time.Now().UTC().Format(timeFormat)
	for _, p := range inputs {
		if ri.Inputs == nil {
			ri.Inputs = map[string]string{}
		}
		sum, err := fileSHA256(p)
		if err != nil {
			sum = "error: " + err.Error()
		}
		ri.Inputs[p] = sum
	}
	return ri
}

// noteInput records that the trial read a data file (once per path).
func (tr *TrialRun) noteInput(path string) {
	if path == "" {
		return
	}
	tr.inputsMu.Lock()
	defer tr.inputsMu.Unlock()
	for _, p := range tr.inputs {
		if p == path {
			return
		}
	}
	tr.inputs = append(tr.inputs, path)
	sort.Strings(tr.inputs)
}

// Inputs are the data files the trial has read so far.
func (tr *TrialRun) Inputs() []string {
	tr.inputsMu.Lock()
	defer tr.inputsMu.Unlock()
	return append([]string(nil), tr.inputs...)
}

// gitState is the checkout a process runs in.
type gitState struct {
	commit string
	dirty  bool
}

var (
	gitOnce sync.Once
	gitVal  gitState
)

// gitTimeout bounds the git calls: a metadata field must never hold up or
// fail a run (a huge checkout, a network file system).
const gitTimeout = 10 * time.Second

// currentGit reads the working directory's checkout once per process. git
// itself is asked, because telling a dirty tree needs the index; without
// git, or outside a checkout, the state is empty.
func currentGit() gitState {
	gitOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
		defer cancel()
		out, err := exec.CommandContext(ctx, "git", "rev-parse", "--verify", "HEAD").Output()
		if err != nil {
			return
		}
		gitVal.commit = strings.TrimSpace(string(out))
		out, err = exec.CommandContext(ctx, "git", "status", "--porcelain", "--untracked-files=no").Output()
		if err != nil {
			return
		}
		gitVal.dirty = dirtyBeyondResults(out)
	})
	return gitVal
}

// inHistory reports whether commit is an ancestor of (or is) the working
// directory's HEAD; false without git or outside a checkout.
func inHistory(commit string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	return exec.CommandContext(ctx, "git", "merge-base", "--is-ancestor", commit, "HEAD").Run() == nil
}

// historyMemo remembers inHistory's answer per commit: the records of a
// spec name a handful of commits, checked once each.
type historyMemo map[string]bool

func (h historyMemo) inHistory(commit string) bool {
	ok, seen := h[commit]
	if !seen {
		ok = inHistory(commit)
		h[commit] = ok
	}
	return ok
}

// dirtyBeyondResults reports whether `git status --porcelain` lists a
// change to anything but a results.jsonl: the results are what runs write
// (an interrupted run leaves its file changed), not the code or data that
// made the numbers.
func dirtyBeyondResults(porcelain []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(porcelain))
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 4 {
			continue
		}
		path := line[3:]
		if _, to, ok := strings.Cut(path, " -> "); ok {
			path = to
		}
		if filepath.Base(strings.Trim(path, `"`)) != records.FileName {
			return true
		}
	}
	return false
}

// fileHashes memoizes hashes by path, size and modification time, so that
// a corpus read by a hundred trials is hashed once per process.
var fileHashes struct {
	mu sync.Mutex
	m  map[string]string
}

func fileSHA256(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	key := fmt.Sprintf("%s\x00%d\x00%d", path, st.Size(), st.ModTime().UnixNano())
	fileHashes.mu.Lock()
	sum, ok := fileHashes.m[key]
	fileHashes.mu.Unlock()
	if ok {
		return sum, nil
	}
	// A regular file only: a path a record names could be a FIFO or a
	// device by now, which would block or never end.
	f, _, err := inputfile.Open(path, inputfile.Spec{What: "a data file"})
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hashing %s: %w", path, err)
	}
	sum = hex.EncodeToString(h.Sum(nil))
	fileHashes.mu.Lock()
	if fileHashes.m == nil {
		fileHashes.m = map[string]string{}
	}
	fileHashes.m[key] = sum
	fileHashes.mu.Unlock()
	return sum, nil
}
