// Package harness runs KCA lab experiments: it takes a decoded spec
// (package schema), runs its trials and writes their records (package
// records) to the spec's output directory.
//
// # Running
//
// Runner.Run executes the trials in parallel (results do not depend on the
// number of jobs), appends each finished trial's record to results.jsonl
// (synced) and compacts the file at the end, and reuses complete trials on
// a rerun. Whether a record may stand for a trial (the same trial, its
// inputs unchanged, from traceable code) is decided by Judge.Decide alone
// (decide.go): the run, -share (a trial another spec's results beside this
// one's hold, siblings.go), -untraced, the second round of a tuned grid and
// the page ask it; see docs/reuse.md. An output directory belongs to one
// spec and has one writer at a time: a run holds a lock file in it (see
// LockOutput), and a second run waits for the first or gives up. Trials with measure.process run one at a time, each in a
// re-executed child process (RunChild), so their wall time, CPU time and
// peak resident memory are the operating system's figures. Each computed
// record carries a records.RunInfo: start and end time, host, the git
// commit the running binary was built from (its build information, and
// whether that tree had changes; "unknown" without a stamp: runmeta.go,
// docs/provenance.md) and the SHA-256 of every data file read; a reused
// record keeps its own.
//
// # Methods
//
// A method is a Method registered with RegisterMethod: its description
// (schema.MethodInfo: name, label, inputs, the settings it reads) and a
// Run that gets a TrialRun, the trial toolkit. TrialRun loads the input
// (Table, Words, WordTable), times stages (Stage), decomposes word tables
// (CAVectors, Decompose), scores vectors (Score), runs programs
// (RunCommand) and records results (SetMetric, AnalyzeTable). The built-in
// methods live in package harness/builtin, one file each, written against
// this API alone.
package harness
