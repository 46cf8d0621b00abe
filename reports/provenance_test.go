package reports

import (
	"math"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
)

func provRec(commit string, dirty bool, host, start, end string, measured bool) records.Record {
	rec := records.Record{Settings: map[string]any{"measure.process": measured}, Env: &records.Env{CPU: "AMD EPYC", GOMAXPROCS: 2}}
	if commit != "" || start != "" {
		rec.Run = &records.RunInfo{Commit: commit, Dirty: dirty, Host: host, Start: start, End: end}
	}
	return rec
}

func TestProvenances(t *testing.T) {
	recs := []records.Record{
		provRec("04780997a733405a", true, "vm", "2026-11-24T09:53:16Z", "2026-11-24T09:54:20Z", false),
		provRec("04780997a733405a", true, "vm", "2026-11-24T09:54:00Z", "2026-11-24T09:55:00Z", false),
		provRec("04780997a733405a", false, "vm", "2026-11-24T10:00:00Z", "2026-11-24T10:01:00Z", true),
		provRec("", false, "", "", "", false),
		provRec("04780997a733405a", false, "vm", "2026-11-24T11:00:00Z", "2026-11-24T11:01:00Z", true),
		provRec("04780997a733405a", false, "vm", "2026-11-24T12:00:00Z", "2026-11-24T12:01:00Z", true),
	}
	recs[4].Metrics = map[string]float64{"wall_s": 60, "others_cpu_s": 1.5}
	recs[5].Metrics = map[string]float64{"wall_s": 60, "others_cpu_s": 54}
	got := provenances(recs)
	assert.Equal(t, []provenance{
		{date: "2026-11-24 09:53", day: "2026-11-24", code: "04780997 + uncommitted changes", machine: "vm · AMD EPYC · GOMAXPROCS 2", alone: "beside 1 other"},
		{date: "2026-11-24 09:54", day: "2026-11-24", code: "04780997 + uncommitted changes", machine: "vm · AMD EPYC · GOMAXPROCS 2", alone: "beside 1 other"},
		{date: "2026-11-24 10:00", day: "2026-11-24", code: "04780997", machine: "vm · AMD EPYC · GOMAXPROCS 2", alone: "alone, measured (machine load not recorded)"},
		{code: "unknown", machine: "AMD EPYC · GOMAXPROCS 2", alone: "unknown"},
		{date: "2026-11-24 11:00", day: "2026-11-24", code: "04780997", machine: "vm · AMD EPYC · GOMAXPROCS 2", alone: "alone, measured, machine quiet"},
		{date: "2026-11-24 12:00", day: "2026-11-24", code: "04780997", machine: "vm · AMD EPYC · GOMAXPROCS 2", alone: "measured on a busy machine (other programs used 0.9 cores)"},
	}, got)
	recs[4].Run.ID, recs[5].Run.ID = "run", "run"
	ok, why := timesCompare(recs[4:5], recs[5:6])
	assert.False(t, ok)
	assert.Equal(t, whyBusy, why)
}

func TestProvenanceLines(t *testing.T) {
	one := provRec("04780997a733405a", false, "vm", "2026-11-24T09:53:16Z", "2026-11-24T09:54:20Z", true)
	other := provRec("bafb88c0ffff", true, "vm", "2026-11-20T09:53:16Z", "2026-11-20T09:54:20Z", true)
	cases := []struct {
		name        string
		recs        []records.Record
		lines, warn []string
	}{
		{"one origin", []records.Record{one, one},
			[]string{"Computed on 2026-11-24 from commit 04780997 on vm · AMD EPYC · GOMAXPROCS 2."}, nil},
		{"two commits", []records.Record{one, other, other},
			[]string{"Computed between 2026-11-20 and 2026-11-24.", "Machine: vm · AMD EPYC · GOMAXPROCS 2."},
			[]string{"These trials ran from 2 code versions: 1 trial at 04780997, 2 at bafb88c0 + uncommitted changes. Numbers from different code may not compare."}},
		{"no run information", []records.Record{{}},
			[]string{"The records carry no run information (written before it was recorded)."}, nil},
		// A binary without a commit stamp (go run), or a commit that is
		// no hash, is said for what it is, never as a commit.
		{"no commit stamp", []records.Record{provRec(records.UnknownCommit, false, "vm", "2026-11-24T09:53:16Z", "2026-11-24T09:54:20Z", true)},
			[]string{"Computed on 2026-11-24 from a binary with no commit stamp on vm · AMD EPYC · GOMAXPROCS 2."}, nil},
		{"no stamp beside a commit", []records.Record{one, provRec(records.UnknownCommit, false, "vm", "2026-11-24T09:53:16Z", "2026-11-24T09:54:20Z", true), provRec("<b>HEAD</b>", false, "vm", "2026-11-24T09:53:16Z", "2026-11-24T09:54:20Z", true)},
			[]string{"Computed on 2026-11-24.", "Machine: vm · AMD EPYC · GOMAXPROCS 2."},
			[]string{`These trials ran from 3 code versions: 1 trial at 04780997, 1 from a binary with no commit stamp, 1 from not a commit ("<b>HEAD</b>"). Numbers from different code may not compare.`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lines, warn := provenanceLines(c.recs)
			assert.Equal(t, c.lines, lines)
			assert.Equal(t, c.warn, warn)
		})
	}
}

func TestDropConstant(t *testing.T) {
	tab := Table{Header: []string{"#", "ID", "a", "b"}, Numeric: []bool{true, false, true, false},
		Rows: [][]string{{"1", "x", "5", "ok"}, {"2", "x", "6", "ok"}}}
	got, same := dropConstant(tab, 2)
	assert.Equal(t, []string{"#", "ID", "a"}, got.Header, "columns before keep stay even when constant")
	assert.Equal(t, []bool{true, false, true}, got.Numeric)
	assert.Equal(t, [][]string{{"1", "x", "5"}, {"2", "x", "6"}}, got.Rows)
	assert.Equal(t, [][2]string{{"b", "ok"}}, same)

	single := Table{Header: []string{"a"}, Rows: [][]string{{"1"}}}
	got, same = dropConstant(single, 0)
	assert.Equal(t, single, got, "one row: nothing is constant across rows")
	assert.Nil(t, same)
}

// A time ratio stands on the replicates measured alike on a quiet machine
// when a size has some on both sides, and says how many; with none on one
// side it is not printed.
func TestPairRatioOnQuietReplicates(t *testing.T) {
	rep := func(id string, wall, others float64) records.Record {
		return records.Record{ID: id, Status: "ok", Settings: map[string]any{"measure.process": true},
			Metrics: map[string]float64{"wall_s": wall, "cpu_s": wall, "others_cpu_s": others}, Run: &records.RunInfo{ID: "run"}}
	}
	dense := []records.Record{rep("d", 50, 0.5)}
	cases := []struct {
		name   string
		sketch []records.Record
		time   float64 // NaN: not compared
		on     string
		why    string
	}{
		{"all quiet", []records.Record{rep("a", 1, 0), rep("b", 2, 0.1), rep("c", 3, 0)}, 2.0 / 50, "", ""},
		{"one busy", []records.Record{rep("a", 1, 0), rep("b", 2, 0.3), rep("c", 3, 0)}, 2.0 / 50, "dssvd: 2 of 3", ""},
		{"one disturbed", []records.Record{rep("a", 1, 0), rep("b", 2, 0), {ID: "c", Status: "ok", Settings: map[string]any{"measure.process": true},
			Metrics: map[string]float64{"wall_s": 9, "cpu_s": 3, "others_cpu_s": 0}, Run: &records.RunInfo{ID: "run"}}}, 1.5 / 50, "dssvd: 2 of 3", ""},
		{"all busy", []records.Record{rep("a", 1, 0.5), rep("b", 2, 0.5)}, math.NaN(), "", whyBusy},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sum := 0.0
			for _, r := range c.sketch {
				sum += r.Metrics["wall_s"]
			}
			pa := ratioPoint{wall: sum / float64(len(c.sketch)), rss: 1, trials: c.sketch}
			pb := ratioPoint{wall: 50, rss: 1, trials: dense}
			at := comparePairAt(1000, pa, pb, "dssvd", "dense", nil)
			if math.IsNaN(c.time) {
				assert.True(t, math.IsNaN(at.time))
				assert.Equal(t, c.why, at.timeWhy)
				return
			}
			assert.InDelta(t, c.time, at.time, 1e-12)
			assert.Equal(t, c.on, at.timeOn)
			assert.InDelta(t, c.time*50, at.wallA, 1e-12, "the row shows the times the ratio stands on")
		})
	}
}
