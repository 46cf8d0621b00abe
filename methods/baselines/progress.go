package baselines

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress prints training progress: one line redrawn in place on a
// terminal, plain lines every few seconds otherwise. Timing never feeds back
// into training, so it cannot change the vectors.
type progress struct {
	w     io.Writer
	name  string
	tty   bool
	every time.Duration
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer, name string) *progress {
	if w == nil {
		return nil
	}
	p := &progress{w: w, name: name, every: 5 * time.Second, start: time.Now()}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty, p.every = true, 250*time.Millisecond
		}
	}
	p.last = p.start
	return p
}

// update reports frac ∈ [0,1] done, the learning rate and the words (or
// non-zeros, unit) processed so far; it prints only when a report is due.
func (p *progress) update(frac, rate float64, done int64, unit string) {
	if p == nil {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < p.every {
		return
	}
	p.last = now
	p.print(frac, rate, done, unit, now)
}

func (p *progress) print(frac, rate float64, done int64, unit string, now time.Time) {
	speed := float64(done) / now.Sub(p.start).Seconds()
	line := fmt.Sprintf("%s: %5.1f%%  lr %.6f  %.1fk %s/s", p.name, 100*frac, rate, speed/1e3, unit)
	if p.tty {
		fmt.Fprintf(p.w, "\r%s\x1b[K", line)
	} else {
		fmt.Fprintln(p.w, line)
	}
}

// note prints a line of its own (e.g. GloVe's per-epoch cost).
func (p *progress) note(format string, args ...any) {
	if p == nil {
		return
	}
	if p.tty {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	fmt.Fprintf(p.w, "%s: "+format+"\n", append([]any{p.name}, args...)...)
}

func (p *progress) done(rate float64, done int64, unit string) {
	if p == nil {
		return
	}
	p.print(1, rate, done, unit, time.Now())
	if p.tty {
		fmt.Fprintln(p.w)
	}
}
