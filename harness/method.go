package harness

import (
	"context"
	"sync"

	"kcalab/schema"
)

// Method is an analysis a trial can run. Each method registers itself, in
// its own file, with RegisterMethod; the spec's allowed values, the
// dispatch and the reports' labels derive from its Info.
type Method interface {
	Info() schema.MethodInfo
	// Run analyses the trial's input (TrialRun.Table or TrialRun.Words) and
	// writes its results into TrialRun.Record (metrics, CA result), or
	// scores word vectors with TrialRun.Score.
	Run(ctx context.Context, tr *TrialRun) error
}

var (
	methodsMu sync.RWMutex
	methods   = map[string]Method{}
)

// RegisterMethod adds a method to the runner and its description to the
// schema, and returns a function that removes both again (for tests).
// Registering a name twice is a programming error and panics.
func RegisterMethod(m Method) (unregister func()) {
	info := m.Info()
	drop := schema.RegisterMethod(info)
	methodsMu.Lock()
	defer methodsMu.Unlock()
	methods[info.Name] = m
	return func() {
		drop()
		methodsMu.Lock()
		defer methodsMu.Unlock()
		delete(methods, info.Name)
	}
}

// lookupMethod returns a registered method.
func lookupMethod(name string) (Method, bool) {
	methodsMu.RLock()
	defer methodsMu.RUnlock()
	m, ok := methods[name]
	return m, ok
}
