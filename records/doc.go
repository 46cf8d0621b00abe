// Package records is KCA lab's results format: the Record a trial
// produces, the results file that holds a run's records (read, written
// atomically, appended to as a log while the run is under way), the
// grammar of metric keys, the folding of replicates, and the comparisons
// -check makes. It imports nothing of the runner, the spec schema or the
// methods, so a reader of results needs only this package; it returns
// errors and warnings to its caller and never prints.
package records
