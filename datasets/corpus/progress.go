package corpus

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	prog "kcalab/internal/progress"
)

// progress reports long work through internal/progress: a redrawn bar on
// a terminal, occasional plain lines otherwise (logs and CI stay readable).
type progress struct {
	mu      sync.Mutex
	r       *prog.Reporter
	label   string
	unit    string // "B" formats as bytes, anything else as a count
	total   int64  // 0 when unknown
	last    time.Time
	lastPct int
	done    bool
}

// newProgress returns nil when w is nil; all methods accept a nil receiver.
func newProgress(w io.Writer, label, unit string, total int64) *progress {
	if w == nil {
		return nil
	}
	return &progress{r: prog.New(w), label: label, unit: unit, total: total, last: time.Now(), lastPct: -1}
}

// update reports that done units are finished, when a report is due.
func (p *progress) update(done int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done && p.due(done, time.Now()) {
		p.r.Update(p.line(done))
	}
}

// due reports whether to print now, and notes it if so: at most every
// 100 ms on a terminal; every 10 % (at most once a second) or 5 s
// otherwise.
func (p *progress) due(done int64, now time.Time) bool {
	since := now.Sub(p.last)
	if p.r.Terminal() {
		if since < 100*time.Millisecond {
			return false
		}
	} else {
		pct := -1
		if p.total > 0 {
			pct = int(100 * done / p.total)
		}
		if !(pct >= 0 && pct/10 > p.lastPct/10 && since >= time.Second) && since < 5*time.Second {
			return false
		}
		p.lastPct = pct
	}
	p.last = now
	return true
}

// finish prints the final state once, as a line that stays.
func (p *progress) finish(done int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done {
		p.done = true
		p.r.Line(p.line(done))
	}
}

func (p *progress) line(done int64) string {
	var b strings.Builder
	b.WriteString(p.label)
	el := p.r.Elapsed().Seconds()
	if p.total > 0 {
		frac := float64(done) / float64(p.total)
		frac = min(max(frac, 0), 1)
		if p.r.Terminal() {
			b.WriteString(" " + prog.Bar(frac, 30))
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
