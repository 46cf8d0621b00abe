package reports

import (
	"fmt"
	"strconv"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
)

// neighbourBlocks are the probe words' nearest neighbours, one table per
// method or label (its representative trial), each ranked by the
// similarity its scores are ranked at (rankSim: the method's own), the
// other beside it when the record holds it; a record older than holding
// both shows the one it has and says so. The CA family's dot-product
// lists get a note on why they hold rare words.
func (p *builder) neighbourBlocks(all projection) []Block {
	keys := groupKeys(all.Records())
	withNeighbours := all.Where(func(rec records.Record) bool { return len(rec.Neighbours) > 0 }, compare.Not(isMeasuredTrial))
	better := representativeOrder(withNeighbours)
	var tables []Block
	caDot, caCosine, older, anyOther := false, false, false, false
	for gi, g := range withNeighbours.GroupBy(func(_ int, t trial) string { return keys[t.Num-1] }) {
		t := g.Trials[0]
		for _, c := range g.Trials[1:] {
			if better(c, t) {
				t = c
			}
		}
		sim := p.rankSim(t.Record)
		ranked, other := neighboursAt(t.Record, sim), neighboursAt(t.Record, otherSim(sim))
		how := "by " + simPhrase(sim)
		if p.similarity != SimilarityDot && p.similarity != SimilarityCosine {
			how += ", its method's own similarity"
		}
		if len(ranked) == 0 {
			// Recorded before both were: the one the trial has.
			older = true
			ranked, other, sim = t.Neighbours, nil, ownSim(t.Record)
			how = fmt.Sprintf("by %s: the record holds no %s neighbours (recorded before both similarities were; rerun the spec with -fresh for them)", simPhrase(sim), p.rankSim(t.Record))
		}
		if p.isCAFamily(t.Record) && sim == records.SimDot {
			caDot = true
			caCosine = caCosine || len(other) > 0
		}
		tab := Table{ID: "neighbours-" + strconv.Itoa(gi+1), Caption: fmt.Sprintf("Nearest neighbours: %s (trial #%d), %s", p.soloLabel(t), t.Num, how),
			Header: []string{"Word", "Nearest 10 by " + string(sim) + ", most similar first"}}
		if len(other) > 0 {
			anyOther = true
			tab.Header = append(tab.Header, "Nearest 10 by "+string(otherSim(sim)))
		}
		for i, nb := range ranked {
			row := []string{nb.Word, neighboursText(nb)}
			if len(other) > 0 {
				cell := "—"
				if i < len(other) && other[i].Word == nb.Word {
					cell = neighboursText(other[i])
				}
				row = append(row, cell)
			}
			tab.Rows = append(tab.Rows, row)
		}
		tables = append(tables, tab)
	}
	if len(tables) == 0 {
		return nil
	}
	text := "The probe words (the spec's eval.probes) and their nearest words, each trial's by the similarity its scores are ranked at (" + p.simText() + ")"
	if anyOther {
		text += ", the other beside it"
	}
	text += "; one trial per method or label (on the most data, most exact, largest dimension and window)."
	if older {
		text += " Some records hold their neighbours at one similarity only (recorded before both were): their tables say which."
	}
	out := []Block{Paragraph(text)}
	if caDot {
		note := "Why the CA family's dot-product neighbours are rare words: a word's principal coordinates grow with how peculiar its contexts are, so a rare word seen in one narrow context (a name in one article) has a long vector, and a long vector has a large dot product with almost any word; the dot product, the paper's similarity, ranks by direction and length together."
		if caCosine {
			note += " Cosine, beside it, ranks by direction alone: the words used alike."
		} else {
			note += " These records hold no cosine neighbours, which rank by direction alone (recorded before both similarities were)."
		}
		out = append(out, Paragraph(note))
	}
	out = append(out, tables[0])
	if len(tables) > 1 {
		out = append(out, Details{Summary: fmt.Sprintf("Neighbours in the other %d trials", len(tables)-1), Blocks: tables[1:]})
	}
	return out
}

// neighboursAt is a record's neighbours by sim: its own list when sim is
// the trial's similarity (eval.similarity), else the other list; nil when
// the record holds none by sim.
func neighboursAt(rec records.Record, sim records.Similarity) []records.Neighbours {
	if ownSim(rec) == sim {
		return rec.Neighbours
	}
	return rec.NeighboursOther
}

// neighboursText prints a probe word's neighbours with their similarity
// ("queen 0.812, prince 0.77").
func neighboursText(nb records.Neighbours) string {
	if len(nb.Words) == 0 {
		return "not in the vocabulary"
	}
	parts := make([]string, len(nb.Words))
	for k, w := range nb.Words {
		parts[k] = w
		if k < len(nb.Sims) {
			parts[k] += " " + sig(nb.Sims[k], 3)
		}
	}
	return strings.Join(parts, ", ")
}
