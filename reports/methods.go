package reports

import (
	"kcalab/records"
	"kcalab/schema"
)

// builder builds a page's sections. It knows, beyond the records, the
// methods the records name (Report.Methods), as values the caller passes
// in.
type builder struct {
	methods map[string]schema.MethodInfo
	// similarity is the page's Report.Similarity: which similarity score
	// tables rank at (see rankSim).
	similarity string
	// present is the page's Report.FilePresent.
	present func(string) bool
	// verdicts are the sections' verdicts by section id (setVerdict), as
	// the sections are built.
	verdicts map[string]Verdict
	// tuningLead is what the tuning section's verdict answers, when it
	// set one: the methods at their best, or a halving check's rungs.
	tuningLead string
}

func newBuilder(r Report) *builder {
	p := &builder{methods: make(map[string]schema.MethodInfo, len(r.Methods)), similarity: r.Similarity, present: r.FilePresent}
	for _, m := range r.Methods {
		p.methods[m.Name] = m
	}
	return p
}

// methodLabel is a method's display label, or its name when the page does
// not know it (a method this build does not have, in an old record).
func (p *builder) methodLabel(name string) string {
	if m, ok := p.methods[name]; ok && m.Label != "" {
		return m.Label
	}
	return name
}

// method is the description of a record's method (zero when unknown).
func (p *builder) method(rec records.Record) schema.MethodInfo {
	name, _ := rec.Settings[schema.KeyMethod].(string)
	return p.methods[name]
}

// inSampleSet names the set a recorded trial was tuned on and is scored on
// ("" when its method tunes on none): that score is not held out.
func (p *builder) inSampleSet(rec records.Record) string {
	m := p.method(rec)
	if m.InSampleSet == nil {
		return ""
	}
	return m.InSampleSet(schema.RecordSettings(rec.Settings))
}

// measuredInChild reports whether a recorded trial ran (or was to run) in a
// measured child process (measure.process).
func measuredInChild(rec records.Record) bool {
	return schema.RecordSettings(rec.Settings).Measure.Process
}
