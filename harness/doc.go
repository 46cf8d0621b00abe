// Package harness runs KCA lab experiments: it decodes YAML specs, expands
// their grids into trials, runs the trials and records their results.
//
// # Specs
//
// A spec is strict YAML (DecodeSpec): every key is one of Settings (or a
// run key such as name and seed), with its type, range and default declared
// in one table, which also generates docs/settings.md. A setting given as a
// list is a grid axis; variants: lists rows that override settings and are
// crossed with the remaining axes. Each trial's id hashes its non-default
// settings, and its seed derives from the spec seed and the id alone.
//
// # Running
//
// Runner.Run executes the trials in parallel (results do not depend on the
// number of jobs), writes results.jsonl atomically after each trial and
// reuses complete trials on a rerun. Trials with measure.process run one at
// a time, each in a re-executed child process (RunChild), so their wall
// time, CPU time and max RSS are the operating system's figures.
//
// # Checks
//
// CheckScores compares scores with reference results within a tolerance,
// CompareRuns checks that two runs are identical; the CLI's -check uses both.
package harness
