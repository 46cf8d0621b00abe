package records

import "fmt"

// Untraced says why a record's result cannot be traced to code a reader can
// rebuild, or "" when it can: a committed result must have been computed
// from a clean tree (RunInfo.Dirty false) at a commit of the history
// (inHistory reports whether a commit is an ancestor of the checkout). A
// record without run metadata, or made outside a checkout, names no code.
func Untraced(rec Record, inHistory func(commit string) bool) string {
	switch {
	case rec.Run == nil:
		return "no run metadata (made before records carried it): it names no commit"
	case rec.Run.Commit == "":
		return "no commit recorded (run outside a git checkout, or git failed)"
	case rec.Run.Dirty:
		return fmt.Sprintf("computed from commit %.8s with uncommitted changes", rec.Run.Commit)
	case !inHistory(rec.Run.Commit):
		return fmt.Sprintf("commit %.8s is not in this history", rec.Run.Commit)
	}
	return ""
}
