package reports

import (
	"fmt"

	"kcalab/records"
)

// filesBlock lists the files the trials wrote (their word vectors), or nil
// when none did. A record's Files are relative to its output directory,
// where the page is written; present, when not nil, says which of them are
// there and still hold what their trial wrote (exported vectors are build
// outputs, not committed with results).
func filesBlock(recs []records.Record, present func(string) bool) []Block {
	var l Links
	absent := 0
	for _, rec := range recs {
		name := rec.ID
		if label, _ := rec.Settings["label"].(string); label != "" {
			name = fmt.Sprintf("%s (%s)", label, rec.ID)
		}
		for _, f := range rec.Files {
			gone := present != nil && !present(f)
			if gone {
				absent++
			}
			l = append(l, Link{Text: name, Path: f, Absent: gone})
		}
	}
	if len(l) == 0 {
		return nil
	}
	out := []Block{Paragraph("Files the trials wrote (word vectors in word2vec text format):"), l}
	if absent > 0 {
		out = append(out, Paragraph(fmt.Sprintf("%d of these %d files are not beside this page, or no longer hold what the trial wrote (a link in their place, or changed since): shown without a link. Exported vectors are not committed with the results, and a reused trial writes none. Rerun the spec with -fresh to write them.", absent, len(l))))
	}
	return out
}
