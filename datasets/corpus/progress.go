package corpus

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// progress reports long work on a writer: a redrawn bar on a terminal,
// occasional plain lines otherwise (logs and CI stay readable).
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	tty     bool
	label   string
	unit    string // "B" formats as bytes, anything else as a count
	total   int64  // 0 when unknown
	start   time.Time
	last    time.Time
	lastPct int
	done    bool
}

// newProgress returns nil when w is nil; all methods accept a nil receiver.
func newProgress(w io.Writer, label, unit string, total int64) *progress {
	if w == nil {
		return nil
	}
	now := time.Now()
	return &progress{w: w, tty: isTerminal(w), label: label, unit: unit, total: total, start: now, last: now, lastPct: -1}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// update reports that done units are finished; it prints at most every 100 ms
// on a terminal and every 10 % or 5 s otherwise.
func (p *progress) update(done int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	now := time.Now()
	if p.tty {
		if now.Sub(p.last) < 100*time.Millisecond {
			return
		}
		p.last = now
		fmt.Fprintf(p.w, "\r%s\x1b[K", p.line(done, now))
		return
	}
	pct := -1
	if p.total > 0 {
		pct = int(100 * done / p.total)
	}
	since := now.Sub(p.last)
	if (pct >= 0 && pct/10 > p.lastPct/10 && since >= time.Second) || since >= 5*time.Second {
		p.last, p.lastPct = now, pct
		fmt.Fprintln(p.w, p.line(done, now))
	}
}

// finish prints the final state once.
func (p *progress) finish(done int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	p.done = true
	line := p.line(done, time.Now())
	if p.tty {
		fmt.Fprintf(p.w, "\r%s\x1b[K\n", line)
	} else {
		fmt.Fprintln(p.w, line)
	}
}

func (p *progress) line(done int64, now time.Time) string {
	var b strings.Builder
	b.WriteString(p.label)
	el := now.Sub(p.start).Seconds()
	if p.total > 0 {
		frac := float64(done) / float64(p.total)
		frac = min(max(frac, 0), 1)
		if p.tty {
			const width = 30
			fill := int(frac * width)
			b.WriteString(" [" + strings.Repeat("=", fill) + strings.Repeat(" ", width-fill) + "]")
		}
		fmt.Fprintf(&b, " %3.0f%% %s/%s", 100*frac, p.amount(done), p.amount(p.total))
	} else {
		fmt.Fprintf(&b, " %s", p.amount(done))
	}
	if el > 0 {
		fmt.Fprintf(&b, " %s/s", p.amount(int64(float64(done)/el)))
	}
	fmt.Fprintf(&b, " %.1fs", el)
	return b.String()
}

func (p *progress) amount(n int64) string {
	if p.unit == "B" {
		switch {
		case n >= 1<<30:
			return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
		case n >= 1<<20:
			return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
		case n >= 1<<10:
			return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
		}
		return fmt.Sprintf("%d B", n)
	}
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2fG %s", float64(n)/1e9, p.unit)
	case n >= 1e6:
		return fmt.Sprintf("%.2fM %s", float64(n)/1e6, p.unit)
	case n >= 1e3:
		return fmt.Sprintf("%.1fk %s", float64(n)/1e3, p.unit)
	}
	return fmt.Sprintf("%d %s", n, p.unit)
}

// warnf reports a problem the caller should see even without a progress
// writer (a damaged cache file, say): to log, or stderr when log is nil.
func warnf(log io.Writer, format string, args ...any) {
	if log == nil {
		log = os.Stderr
	}
	fmt.Fprintf(log, "corpus: warning: "+format+"\n", args...)
}
