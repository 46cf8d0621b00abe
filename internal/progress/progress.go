package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// defaultWidth bounds the status line when the terminal's width is unknown.
const defaultWidth = 120

// Reporter writes progress to one writer. A nil *Reporter (from New(nil))
// is valid and silent, so callers need not check for a missing writer. Its
// methods are safe for concurrent use. Write errors are ignored: progress
// is best effort and must not fail the work it reports on.
type Reporter struct {
	mu     sync.Mutex
	w      io.Writer
	fd     int // the terminal's descriptor, when tty
	tty    bool
	start  time.Time
	status bool // a status line is on screen
}

// New returns a reporter on w, or nil when w is nil.
func New(w io.Writer) *Reporter {
	if w == nil {
		return nil
	}
	r := &Reporter{w: w, start: time.Now()}
	if f, ok := w.(*os.File); ok && IsTerminal(f) {
		r.tty, r.fd = true, int(f.Fd())
	}
	return r
}

// IsTerminal reports whether f is a terminal that can redraw a line.
func IsTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd())) && os.Getenv("TERM") != "dumb"
}

// Terminal reports whether the reporter redraws a status line in place.
func (r *Reporter) Terminal() bool { return r != nil && r.tty }

// Elapsed is the time since New.
func (r *Reporter) Elapsed() time.Duration {
	if r == nil {
		return 0
	}
	return time.Since(r.start)
}

// Update shows line as the current status: redrawn in place on a terminal
// (cut to the terminal's width, since a wrapped line cannot be redrawn),
// a plain line otherwise.
func (r *Reporter) Update(line string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.tty {
		fmt.Fprintln(r.w, line)
		return
	}
	width := defaultWidth
	if w, _, err := term.GetSize(r.fd); err == nil && w > 1 {
		width = w - 1 // the cursor stays on the line
	}
	fmt.Fprintf(r.w, "\r%s\x1b[K", truncate(line, width))
	r.status = true
}

// Line prints line on its own; on a terminal it replaces the status line,
// which the next Update draws again below it.
func (r *Reporter) Line(line string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clear()
	fmt.Fprintln(r.w, line)
}

// Clear removes the status line from a terminal.
func (r *Reporter) Clear() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clear()
}

func (r *Reporter) clear() {
	if r.status {
		fmt.Fprint(r.w, "\r\x1b[K")
		r.status = false
	}
}

// Bar draws frac ∈ [0, 1] (clamped) as width cells, full then empty.
func Bar(frac float64, width int) string {
	fill := int(min(max(frac, 0), 1) * float64(width))
	return strings.Repeat("█", fill) + strings.Repeat("░", width-fill)
}

// truncate cuts s to at most n runes.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for range n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}
