package harness

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Progress reports trial progress on stderr: a redrawn bar on a terminal,
// plain lines otherwise (logs, CI).
type Progress struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	total int
	done  int
	start time.Time
	cur   map[int]string // running trials: index → "label: stage"
}

// NewProgress reports on w for a run of total trials.
func NewProgress(w io.Writer, total int) *Progress {
	return &Progress{w: w, tty: isTerminal(w), total: total, start: time.Now(), cur: map[int]string{}}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb"
}

// Stage records that trial t entered a stage ("table", "svd", "eval", …).
func (p *Progress) Stage(t Trial, stage string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cur[t.Index] = fmt.Sprintf("%s %s", t.name(), stage)
	if p.tty {
		p.draw()
		return
	}
	fmt.Fprintf(p.w, "kcalab: [%d/%d %s] %s: %s\n", p.done, p.total, time.Since(p.start).Round(time.Second), t.name(), stage)
}

// Done records a finished (or reused) trial.
func (p *Progress) Done(t Trial, r Record, reused bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	delete(p.cur, t.Index)
	what := r.Status
	if reused {
		what = "already complete, reused"
	} else if tt, ok := r.Timings["total"]; ok {
		what = fmt.Sprintf("%s in %.2fs", r.Status, tt)
	}
	if r.Error != "" {
		what += ": " + TermSafeText(r.Error)
	}
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K[%d/%d] %s: %s\n", p.done, p.total, t.name(), what)
		p.draw()
		return
	}
	fmt.Fprintf(p.w, "kcalab: [%d/%d] %s: %s\n", p.done, p.total, t.name(), what)
}

// Finish ends the bar.
func (p *Progress) Finish() {
	if p == nil || !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\033[K")
}

func (p *Progress) draw() {
	const width = 24
	filled := 0
	if p.total > 0 {
		filled = width * p.done / p.total
	}
	bar := strings.Repeat("█", filled) + strings.Repeat("░", width-filled)
	var running string
	for _, s := range p.cur { // any one running trial is enough for a one-line bar
		running = s
		break
	}
	line := fmt.Sprintf("%s %d/%d %s %s", bar, p.done, p.total, time.Since(p.start).Round(time.Second), running)
	if len(line) > 120 {
		line = line[:120]
	}
	fmt.Fprintf(p.w, "\r\033[K%s", line)
}

func (t Trial) name() string {
	if t.Label == "" {
		return t.ID
	}
	return t.ID + " (" + TermSafe(t.Label) + ")" // a label can hold anything a spec file does
}
