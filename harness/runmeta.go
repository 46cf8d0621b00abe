package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"kcalab/internal/inputfile"
	"kcalab/records"
)

// timeFormat is RFC 3339 to the second: the precision a reader compares
// runs by, and the same width in every record.
const timeFormat = time.RFC3339

// beginRun starts a trial's records.RunInfo: the code is the one the
// running binary was built from (binaryCode), never the working
// directory's checkout, which need not be what was compiled.
func (r *Runner) beginRun() *records.RunInfo {
	c := binaryCode()
	host, _ := os.Hostname()
	return &records.RunInfo{ID: r.runID, Start: time.Now().UTC().Format(timeFormat), Commit: c.commit, Dirty: c.dirty,
		CommitSource: records.CommitFromBuild, Host: host}
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

// codeState is what the running binary can prove of the code it was
// built from.
type codeState struct {
	commit string // a full commit hash, or records.UnknownCommit
	dirty  bool
}

var (
	codeOnce sync.Once
	codeVal  codeState
)

// binaryCode reads the running binary's build information once per
// process (see codeFromBuild).
func binaryCode() codeState {
	codeOnce.Do(func() {
		bi, ok := debug.ReadBuildInfo()
		if !ok {
			bi = nil
		}
		codeVal = codeFromBuild(bi)
	})
	return codeVal
}

// codeFromBuild is the commit the Go toolchain stamped into a binary
// (vcs.revision) and whether the tree it was built from had changes
// (vcs.modified: tracked or untracked files). `go build` and `go install`
// stamp them in a git clone; `go run`, `go test`, -buildvcs=false and a
// git worktree (whose .git is a file the toolchain does not take for a
// repository) leave them out. Without a full stamp the commit is
// records.UnknownCommit, which never traces (records.Untraced).
func codeFromBuild(bi *debug.BuildInfo) codeState {
	unknown := codeState{commit: records.UnknownCommit}
	if bi == nil {
		return unknown
	}
	set := map[string]string{}
	for _, s := range bi.Settings {
		set[s.Key] = s.Value
	}
	rev, modified := set["vcs.revision"], set["vcs.modified"]
	if set["vcs"] != "git" || !records.FullCommit(rev) || (modified != "true" && modified != "false") {
		return unknown
	}
	return codeState{commit: rev, dirty: modified == "true"}
}

// gitTimeout bounds the git calls: a metadata field must never hold up or
// fail a run (a huge checkout, a network file system).
const gitTimeout = 10 * time.Second

// inHistory reports whether commit is an ancestor of (or is) the working
// directory's HEAD; false without git or outside a checkout.
func inHistory(commit string) bool {
	if !records.FullCommit(commit) {
		return false // never handed to git as an argument: "HEAD", "--x"
	}
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
