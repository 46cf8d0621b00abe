package reports

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"kcalab/records"
	"kcalab/reports/compare"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPaperRows: the rows are taken at the dimension most of them have
// (a row without a trial there takes its largest), an id pins a trial,
// the rows are ranked in groups of one d, and in-sample cells never are.
func TestPaperRows(t *testing.T) {
	recs := paperRecords()
	m, missing := pickPaperTrials(tb().project(recs, compare.HasMetric(records.ScoreMetric)), []string{"SCA+MEN=SCA+MEN in-sample"})
	require.Len(t, m, 4)
	assert.Equal(t, []string{"SGNS", "GloVe", "tail-cut", "SCA+MEN"}, []string{m[0].published.Name, m[1].published.Name, m[2].published.Name, m[3].published.Name})
	assert.Equal(t, "t1", m[2].ID, "of two tail-cut trials, the one at d = 300, where SGNS and GloVe are too")
	assert.Equal(t, "t3", m[3].ID, "SCA has no trial at d = 300: its largest")
	assert.Contains(t, missing, "CBOW")
	m, _ = pickPaperTrials(tb().project(recs, compare.HasMetric(records.ScoreMetric)), []string{"tail-cut=t2"})
	assert.Equal(t, "t2", m[2].ID, "an id pins the trial")

	sec := tb().paperSection(recs, []string{"SCA+MEN=SCA+MEN in-sample"})
	require.NotNil(t, sec)
	require.IsType(t, Headline{}, sec.Blocks[0], "the section opens with what its numbers say")
	stab := sec.Blocks[2].(ScoreTable)
	assert.Equal(t, []string{"d = 300", "d = 300", "d = 300", "d = 1000"}, []string{stab.Rows[0].Group, stab.Rows[1].Group, stab.Rows[2].Group, stab.Rows[3].Group})
	sca := stab.Rows[3]
	assert.Equal(t, []bool{false, false, true, false, false, false}, sca.Unranked, "† MEN cell of SCA+MEN is not ranked")
	assert.Equal(t, "† cos 0.529 paper 0.770 · Δ −0.201", sca.Notes[2])
	assert.Equal(t, "SGNS: SGNS (d = 300, W = 10, epochs = 5 (default))", stab.Rows[0].Name)
	assert.Equal(t, "GloVe: GloVe (d = 300, W = 15 (default), epochs = 25 (default))", stab.Rows[1].Name)

	page := string(render(t, paperReport(stubScript(t))))
	assert.Empty(t, markedTuned(page), "a † cell is never marked")
	assert.Contains(t, page, `<td class="num">0.569 <small class="ci">±0.063</small> <small>† cos 0.529 paper 0.770 · Δ −0.201</small></td>`)
	rows, order, _ := tableRows(t, page, "paper-table")
	require.Len(t, order, 4)
	assert.Equal(t, [2]string{"0.498", "best"}, rows[order[2]][0], "tail-cut, 0.498 at d = 300, is significantly above SGNS's 0.306")
	assert.Equal(t, [2]string{"0.475", ""}, rows[order[3]][0], "SCA at d = 1000 is alone in its group: nothing to rank it against")
	assert.Contains(t, string(sec.Blocks[0].(Headline)[0]), "At d = 300, zero rule, each method at its own similarity: the paper's ordering")

	t.Run("rows stand on the most data", func(t *testing.T) {
		// tail-cut and SGNS ran on a quarter and on all of the corpus,
		// GloVe on the quarter only: the paper's rows are on its whole
		// corpus, so the first two take the whole, GloVe its quarter, and
		// the intro says the rows differ in share.
		var recs []records.Record
		for _, r := range paperRecords() {
			r.Settings = with(r.Settings, "data.fraction", 0.25)
			recs = append(recs, r)
			if r.ID == "t1" || r.ID == "t4" {
				whole := r
				whole.ID, whole.Seed, whole.Settings = r.ID+"-whole", r.Seed+100, with(r.Settings, "data.fraction", 1.0)
				recs = append(recs, whole)
			}
		}
		m, _ := pickPaperTrials(tb().project(recs, compare.HasMetric(records.ScoreMetric)), []string{"SCA+MEN=SCA+MEN in-sample"})
		require.Len(t, m, 4)
		assert.Equal(t, []string{"t4-whole", "t5", "t1-whole", "t3"}, []string{m[0].ID, m[1].ID, m[2].ID, m[3].ID})
		assert.Contains(t, paperIntro(recs[0], m), "Ours: text8_prefix (fractions 0.25, 1: not every row ran on the same share)")

		var quarter []records.Record
		for _, r := range recs {
			if fractionOf(r) == 0.25 {
				quarter = append(quarter, r)
			}
		}
		m, _ = pickPaperTrials(tb().project(quarter, compare.HasMetric(records.ScoreMetric)), []string{"SCA+MEN=SCA+MEN in-sample"})
		assert.Contains(t, paperIntro(quarter[0], m), "Ours: text8_prefix (fraction 0.25), zero rule")
		assert.Contains(t, paperIntro(paperRecords()[0], nil), "Ours: text8_prefix, zero rule", "the whole corpus needs no fraction")
	})

	t.Run("replicates are one row of the other trials", func(t *testing.T) {
		recs := paperRecords()
		others := func(recs []records.Record) ScoreTable {
			sec := tb().paperSection(recs, []string{"SCA+MEN=SCA+MEN in-sample"})
			require.NotNil(t, sec)
			for _, b := range sec.Blocks {
				if d, ok := b.(Details); ok {
					for _, in := range d.Blocks {
						if st, ok := in.(ScoreTable); ok && st.ID == "paper-others" {
							return st
						}
					}
				}
				if st, ok := b.(ScoreTable); ok && st.ID == "paper-others" {
					return st
				}
			}
			t.Fatal("no paper-others table")
			return ScoreTable{}
		}
		before := others(recs)
		i := slices.IndexFunc(recs, func(r records.Record) bool { return r.ID == "t2" })
		require.GreaterOrEqual(t, i, 0)
		for rep := 1; rep <= 2; rep++ {
			r := recs[i]
			r.ID = fmt.Sprintf("t2r%d", rep)
			r.Settings = maps.Clone(r.Settings)
			r.Settings["replicate"] = float64(rep)
			r.Metrics = maps.Clone(r.Metrics)
			r.Metrics[records.Score(records.RuleZero, "men").Key()] += 0.01 * float64(rep)
			recs = append(recs, r)
		}
		after := others(recs)
		require.Len(t, after.Rows, len(before.Rows), "three replicates, one row")
		var notes []string
		for _, row := range after.Rows {
			notes = append(notes, strings.Join(row.Notes, "|"))
		}
		assert.Contains(t, strings.Join(notes, "\n"), "sd 0.01 over 3 seeds", "the MEN cell's spread over the seeds")
		k := slices.IndexFunc(after.Rows, func(r ScoreRow) bool { return strings.HasPrefix(r.Name, "tail-cut") })
		require.GreaterOrEqual(t, k, 0)
		// The seeds' replicates share the resamples: their mean per resample
		// is the bootstrap of the mean, so the folded row keeps an interval.
		hw := after.Rows[k].HalfWidths[2]
		assert.True(t, finite(hw) && hw > 0, "the folded MEN cell has an interval, got %v", hw)
	})

	t.Run("a paper row over seeds is their mean", func(t *testing.T) {
		recs := paperRecords()
		i := slices.IndexFunc(recs, func(r records.Record) bool { return r.ID == "t4" }) // SGNS
		require.GreaterOrEqual(t, i, 0)
		before := tb().paperSection(recs, []string{"SCA+MEN=SCA+MEN in-sample"}).Blocks[2].(ScoreTable).Rows[0].Scores[2]
		for rep := 1; rep <= 2; rep++ {
			r := recs[i]
			r.ID = fmt.Sprintf("t4r%d", rep)
			r.Settings = maps.Clone(r.Settings)
			r.Settings["replicate"] = float64(rep)
			r.Metrics = maps.Clone(r.Metrics)
			for k := range r.Metrics {
				if m := records.ParseMetric(k); m.Kind == records.ScoreMetric && m.Set == "men" {
					r.Metrics[k] += 0.03 * float64(rep) // seeds 1 and 2 score 0.03 and 0.06 higher
				}
			}
			recs = append(recs, r)
		}
		sec := tb().paperSection(recs, []string{"SCA+MEN=SCA+MEN in-sample"})
		require.NotNil(t, sec)
		stab := sec.Blocks[2].(ScoreTable)
		require.Equal(t, "paper-table", stab.ID)
		require.True(t, strings.HasPrefix(stab.Rows[0].Name, "SGNS"), stab.Rows[0].Name)
		assert.InDelta(t, before+0.03, stab.Rows[0].Scores[2], 1e-12, "the MEN cell is the mean of the three seeds, not the first seed's")
		assert.Contains(t, stab.Rows[0].Notes[2], "over 3 seeds")
		for _, st := range sec.Blocks {
			if d, ok := st.(Details); ok {
				for _, in := range d.Blocks {
					if o, ok := in.(ScoreTable); ok {
						for _, r := range o.Rows {
							assert.False(t, strings.HasPrefix(r.Name, "SGNS"), "a replicate of the paper row is not among the others: %s", r.Name)
						}
					}
				}
			}
		}
	})
}

// A difference that rounds to zero keeps its sign: an interval's bound
// beside "reference higher" is below zero.
func TestSigned(t *testing.T) {
	assert.Equal(t, "−0.0005", signed(-0.00049, 3))
	assert.Equal(t, "+0.0004", signed(0.00041, 3))
	assert.Equal(t, "±0.000", signed(0, 3))
	assert.Equal(t, "−0.011", signed(-0.011, 3))
	assert.Equal(t, "—", percent(math.NaN(), 1), "never NaN%")
	assert.Equal(t, "—", sig(math.NaN(), 3), "never NaN")
}

func TestRowsOf(t *testing.T) {
	assert.Equal(t, "41 trials", rowsOf(41, 41))
	assert.Equal(t, "1 trial", rowsOf(1, 1))
	assert.Equal(t, "41 rows of 65 trials (replicates folded)", rowsOf(41, 65))
}

// The paper's table shows each cell's coverage: once below the table when
// every row covers a set alike, else in each cell of that set; its CSV
// has a numeric coverage column per set.
func TestPaperTableCoverage(t *testing.T) {
	cases := []struct {
		name     string
		sgnsRare float64 // SGNS's coverage of Rare; the others cover 41.2%
		footer   string  // the Rare column's footer cell
		note     string  // how SGNS's Rare cell's notes begin
	}{
		{"every row alike: said once", fullCoverage[4], "41.2% of 2034", "dot "},
		{"SGNS covers less: in each cell", 0.296, "varies: see cells (of 2034)", "29.6% dot "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recs := paperRecords()
			k := slices.IndexFunc(recs, func(r records.Record) bool { return r.ID == "t4" })
			require.GreaterOrEqual(t, k, 0)
			recs[k].Metrics = maps.Clone(recs[k].Metrics)
			recs[k].Metrics[records.Coverage("rare").Key()] = c.sgnsRare

			sec := tb().paperSection(recs, []string{"SCA+MEN=SCA+MEN in-sample"})
			require.NotNil(t, sec)
			stab := sec.Blocks[2].(ScoreTable)
			require.Equal(t, "paper-table", stab.ID)
			require.Len(t, stab.Footer, 1)
			assert.Equal(t, "pairs covered", stab.Footer[0].Name)
			assert.Equal(t, c.footer, stab.Footer[0].Cells[4])
			assert.True(t, strings.HasPrefix(stab.Rows[0].Notes[4], c.note), "SGNS's Rare cell: %q", stab.Rows[0].Notes[4])

			r := wordReport("The paper's table", recs, stubScript(t))
			r.PaperRows = []string{"SCA+MEN=SCA+MEN in-sample"}
			got := csvOf(t, string(render(t, r)))["paper-table.csv"]
			require.NotEmpty(t, got)
			for _, set := range []string{"Sim", "Rel", "MEN", "M.Turk", "Rare", "S999"} {
				j := slices.Index(got[0], set+" coverage")
				require.GreaterOrEqual(t, j, 0, "no %s coverage column in %v", set, got[0])
				for _, row := range got[1:] {
					if strings.Contains(row[1], "Published") {
						continue // the paper's own rows: no coverage recorded
					}
					v, err := strconv.ParseFloat(row[j], 64)
					require.NoError(t, err, "%s coverage of %s: %q", set, row[1], row[j])
					if set == "Rare" && strings.HasPrefix(row[1], "SGNS") {
						assert.InDelta(t, c.sgnsRare, v, 0)
					}
				}
			}
		})
	}
}
