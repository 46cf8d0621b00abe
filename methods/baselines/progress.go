package baselines

import (
	"fmt"
	"io"
	"time"

	prog "kcalab/internal/progress"
)

// progress prints training progress through internal/progress: one line
// redrawn in place on a terminal, plain lines every few seconds otherwise.
// Timing never feeds back into training, so it cannot change the vectors.
type progress struct {
	r     *prog.Reporter
	name  string
	every time.Duration
	last  time.Time
}

func newProgress(w io.Writer, name string) *progress {
	if w == nil {
		return nil
	}
	p := &progress{r: prog.New(w), name: name, every: 5 * time.Second, last: time.Now()}
	if p.r.Terminal() {
		p.every = 250 * time.Millisecond
	}
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
	p.r.Update(p.line(frac, rate, done, unit))
}

func (p *progress) line(frac, rate float64, done int64, unit string) string {
	speed := float64(done) / p.r.Elapsed().Seconds()
	return fmt.Sprintf("%s: %5.1f%%  lr %.6f  %.1fk %s/s", p.name, 100*frac, rate, speed/1e3, unit)
}

// note prints a line of its own (e.g. GloVe's per-epoch cost).
func (p *progress) note(format string, args ...any) {
	if p == nil {
		return
	}
	p.r.Line(fmt.Sprintf("%s: "+format, append([]any{p.name}, args...)...))
}

// done prints the final state as a line that stays.
func (p *progress) done(rate float64, done int64, unit string) {
	if p == nil {
		return
	}
	p.r.Line(p.line(1, rate, done, unit))
}
