package records

import "fmt"

// UnknownCommit is RunInfo.Commit when the binary that computed a record
// could not prove what it was built from: it carries no version-control
// stamp (`go run`, `go test`, -buildvcs=false, a build in a git worktree).
const UnknownCommit = "unknown"

// CommitFromBuild is RunInfo.CommitSource when Commit and Dirty are the
// running binary's own build information (vcs.revision, vcs.modified).
const CommitFromBuild = "build"

// FullCommit reports whether c is a full git object name: 40 lowercase hex
// digits (SHA-1), or 64 (SHA-256). "HEAD", an abbreviated hash or any
// other text names no fixed code.
func FullCommit(c string) bool {
	if len(c) != 40 && len(c) != 64 {
		return false
	}
	for i := 0; i < len(c); i++ {
		if !('0' <= c[i] && c[i] <= '9' || 'a' <= c[i] && c[i] <= 'f') {
			return false
		}
	}
	return true
}

// Untraced says why a record's result cannot be traced to code a reader can
// rebuild, or "" when it can: a committed result must have been computed
// by a binary built from a clean tree (RunInfo.Dirty false; untracked files
// count as changes) at a commit of the history, named by its full hash
// (inHistory reports whether a commit is an ancestor of the checkout; it
// is asked of full hashes only). A record without run metadata, or whose
// binary carried no commit, names no code. Records made before
// RunInfo.CommitSource existed name the working directory's checkout; they
// are held to the same rule.
func Untraced(rec Record, inHistory func(commit string) bool) string {
	switch {
	case rec.Run == nil:
		return "no run metadata (made before records carried it): it names no commit"
	case rec.Run.Commit == "":
		return "no commit recorded (run outside a git checkout, or git failed)"
	case rec.Run.Commit == UnknownCommit:
		return "the binary that computed it carries no commit (built by go run, go test, -buildvcs=false or in a git worktree; build it with go build -buildvcs=true in a clone)"
	case !FullCommit(rec.Run.Commit):
		return fmt.Sprintf("its commit %q is not a full commit hash", truncate(rec.Run.Commit, 48))
	case rec.Run.Dirty:
		return fmt.Sprintf("computed from commit %.8s with uncommitted changes", rec.Run.Commit)
	case !inHistory(rec.Run.Commit):
		return fmt.Sprintf("commit %.8s is not in this history", rec.Run.Commit)
	}
	return ""
}

// truncate cuts s to at most n bytes (on a rune boundary), marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
