// Package harness runs KCA lab experiments: it decodes YAML specs, expands
// their grids into trials, runs the trials and records their results.
//
// # Specs
//
// A spec is strict YAML (schema.DecodeSpec): every key is a field of schema.Settings (or
// of RunSettings: name, seed, …), one struct per namespace, whose tags
// declare its type, range or allowed values, default, help text and the
// label metadata reports use; docs/settings.md is generated from them. A
// setting given as a list is a grid axis; variants: lists rows that override
// settings and are crossed with the remaining axes. Each trial's id hashes
// its non-default settings, and its seed derives from the spec seed and the
// id alone. After decoding, code reads typed fields (t.SVD.Rank), never keys.
//
// # schema.Methods
//
// A method is one file that calls RegisterMethod with its name, label, the
// inputs it takes (a table, a corpus) and the settings it reads; its Run
// gets a TrialRun, which loads the input (Table, Words, WordTable), times
// stages and records results (SetMetric, Score, AnalyzeTable). A record
// keeps the settings its method and data source read. Metric keys are built
// and parsed in metrics.go, with the metadata reports and -check use.
//
// # Running
//
// Runner.Run executes the trials in parallel (results do not depend on the
// number of jobs), writes results.jsonl atomically after each trial and
// reuses complete trials on a rerun (a recorded trial is reused when the
// settings it read are unchanged). Trials with measure.process run one at
// a time, each in a re-executed child process (RunChild), so their wall
// time, CPU time and max RSS are the operating system's figures. Each
// computed record carries a RunInfo: start and end time, host, the git
// commit of the working directory (and whether it was dirty) and the
// SHA-256 of every data file read; a reused record keeps its own. schema.Spec
// names of built-in corpora and sets are checked when the spec is decoded.
//
// # Checks
//
// records.CheckScores compares scores with reference results within a tolerance,
// records.CompareRuns checks that two runs are identical; the CLI's -check uses both.
package harness
