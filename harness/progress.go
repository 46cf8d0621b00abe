package harness

import (
	"fmt"
	"io"
	"sync"
	"time"

	"kcalab/internal/termsafe"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/internal/progress"
)

// Progress reports trial progress on stderr: a redrawn bar on a terminal,
// plain lines otherwise (logs, CI).
type Progress struct {
	mu    sync.Mutex
	r     *progress.Reporter
	total int
	done  int
	cur   map[int]string // running trials: index → "label: stage"
}

// NewProgress reports on w for a run of total trials.
func NewProgress(w io.Writer, total int) *Progress {
	return &Progress{r: progress.New(w), total: total, cur: map[int]string{}}
}

// Stage records that trial t entered a stage ("table", "svd", "eval", …).
func (p *Progress) Stage(t schema.Trial, stage string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cur[t.Index] = fmt.Sprintf("%s %s", trialName(t), stage)
	if p.r.Terminal() {
		p.draw()
		return
	}
	p.r.Line(fmt.Sprintf("kcalab: [%d/%d %s] %s: %s", p.done, p.total, p.r.Elapsed().Round(time.Second), trialName(t), stage))
}

// Done records a finished (or reused) trial.
func (p *Progress) Done(t schema.Trial, r records.Record, reused bool) {
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
		what += ": " + termsafe.Text(r.Error)
	}
	if p.r.Terminal() {
		p.r.Line(fmt.Sprintf("[%d/%d] %s: %s", p.done, p.total, trialName(t), what))
		p.draw()
		return
	}
	p.r.Line(fmt.Sprintf("kcalab: [%d/%d] %s: %s", p.done, p.total, trialName(t), what))
}

// Again adds n trials computed a second time in the same run (a candidate
// the choice now picks, whose record was cut to the search).
func (p *Progress) Again(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total += n
}

// NotRun takes n trials off the total: the halving plan does not run them.
func (p *Progress) NotRun(n int) {
	if p == nil || n == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total -= n
}

// Finish ends the bar.
func (p *Progress) Finish() {
	if p == nil {
		return
	}
	p.r.Clear()
}

func (p *Progress) draw() {
	frac := 0.0
	if p.total > 0 {
		frac = float64(p.done) / float64(p.total)
	}
	var running string
	for _, s := range p.cur { // any one running trial is enough for a one-line bar
		running = s
		break
	}
	p.r.Update(fmt.Sprintf("%s %d/%d %s %s", progress.Bar(frac, 24), p.done, p.total, p.r.Elapsed().Round(time.Second), running))
}

// trialName names a trial in progress lines: its id and title.
func trialName(t schema.Trial) string {
	if t.Title == "" {
		return t.ID
	}
	return t.ID + " (" + termsafe.String(t.Title) + ")" // a label can hold anything a spec file does
}
