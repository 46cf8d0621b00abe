package harness

import (
	"errors"
	"fmt"
	"strings"

	"kcalab/datasets"
)

// dataSource is one value of data.source: the input it gives a method and
// the settings it reads.
type dataSource struct {
	input Input
	reads []string // namespaces or keys
}

// dataSources are the values of data.source. The word-table keys
// (data.window, data.table, …) belong to the methods that build word
// tables, not to the source.
var dataSources = map[string]dataSource{
	"fisher":    {input: TableInput, reads: supplementaryKeys},
	"csv":       {input: TableInput, reads: append([]string{"data.csv"}, supplementaryKeys...)},
	"corpus":    {input: CorpusInput, reads: append([]string{"data.corpus", "data.fraction", "data.lowercase"}, vocabKeys...)},
	"synthetic": {input: CorpusInput, reads: append([]string{"synthetic"}, vocabKeys...)},
	// Counted tables carry their vocabulary: the vocabulary settings were
	// applied when they were counted.
	"tables": {input: CorpusInput, reads: []string{"data.tables"}},
}

// supplementaryKeys are read by every table source.
var supplementaryKeys = []string{"data.supplementary_rows", "data.supplementary_cols"}

// vocabKeys are read by every corpus source (data.memory_mb bounds its
// counting).
var vocabKeys = []string{"data.min_count", "data.max_vocab", "data.oov", "data.memory_mb"}

// wordTableKeys are read by the methods that decompose a CA word table.
var wordTableKeys = []string{"data.window", "data.table", "data.symmetric", "data.cut_n1_twice"}

// generalKeys matter to every trial.
var generalKeys = []string{"label", "replicate", "method", "data.source", "measure", "budget"}

// loadTable loads the labelled table of a table source.
func loadTable(t Trial) (*datasets.Table, error) {
	switch t.Data.Source {
	case "fisher":
		return datasets.Fisher(), nil
	case "csv":
		if t.Data.CSV == "" {
			return nil, errors.New(`data.source is "csv" but data.csv (the file) is not set`)
		}
		return datasets.ReadCSVFile(t.Data.CSV)
	}
	return nil, fmt.Errorf("data.source %q is not a table", t.Data.Source)
}

// readKeys returns the keys or namespaces a trial's method and data source
// read; nil when the method is unknown (an old record: everything matters).
// An unknown source (a hand-written record without one) reads what the
// method reads from any input, and every data setting.
func readKeys(method, source string) []string {
	m, ok := LookupMethod(method)
	if !ok {
		return nil
	}
	info := m.Info()
	out := append([]string(nil), generalKeys...)
	src, ok := dataSources[source]
	switch {
	case !ok:
		out = append(out, "data", "synthetic")
		out = append(out, info.TableReads...)
		return append(out, info.CorpusReads...)
	case src.input == TableInput:
		out = append(out, src.reads...)
		return append(out, info.TableReads...)
	}
	out = append(out, src.reads...)
	return append(out, info.CorpusReads...)
}

// readsKey reports whether key is one of reads or in one of its namespaces.
func readsKey(reads []string, key string) bool {
	for _, r := range reads {
		if key == r || strings.HasPrefix(key, r+".") {
			return true
		}
	}
	return false
}

// RecordSettings are the settings a trial's record keeps: those its method
// and data source read, and the general ones (label, method, data.source,
// measure.*, budget.*), so a reader sees what mattered. The trial id still
// hashes every non-default setting.
func (t Trial) RecordSettings() map[string]any {
	method, _ := t.Values[KeyMethod].(string)
	source, _ := t.Values["data.source"].(string)
	out := keep(t.Values, readKeys(method, source))
	if t.Replicate == 0 {
		// Replicate 0 is the trial itself: its record is the one it had
		// before replicates existed.
		delete(out, "replicate")
	}
	return out
}
