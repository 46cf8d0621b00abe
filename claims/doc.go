// Package claims checks the research claims that KCA lab's committed
// results make (results/<spec>/results.jsonl), apart from the tests of the
// code: a refresh of the results that breaks a claim fails here, naming
// the claim. Each test states its claim in its comment, reads the records
// through package records (metric keys built by records.Metric) and the
// settings through schema.RecordSettings, and never runs a trial.
package claims
