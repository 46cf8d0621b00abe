package reports

import (
	"kcalab/records"
	"kcalab/reports/compare"
)

// project selects the records that keep every filter.
func (b *builder) project(recs []records.Record, keep ...filter) projection {
	return compare.Project(recs, b.trialLabels, keep...)
}
