package reports

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"kcalab/records"
)

// Provenance: where, when and from which code each trial's numbers came,
// read from the records' run and environment fields. A reader trusts a
// comparison of two trials only when they ran from the same code on the
// same machine, and a time only when nothing else ran beside it, so the
// page says both per trial and warns at its top when its trials differ.

// provenance is what the page says of one trial's origin.
type provenance struct {
	date    string // UTC start, "2026-11-24 09:53"; "" when unknown
	day     string // "2026-11-24"; "" when unknown
	code    string // "04780997", "04780997 + uncommitted changes", "unknown"
	machine string // "vm · AMD EPYC · GOMAXPROCS 2", "unknown"
	alone   string // "alone, measured, machine quiet", "alone", "beside 3 others", "unknown", …
}

// noStamp is the code of a trial whose binary carried no commit
// (records.UnknownCommit: go run, a worktree's build).
const noStamp = "a binary with no commit stamp"

// shortText cuts s to n bytes (on a character boundary).
func shortText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// shortCommit is the commit's first 8 hex digits, as git prints them.
func shortCommit(c string) string {
	if len(c) > 8 {
		return c[:8]
	}
	return c
}

// codeOf names the code a trial ran: its commit, and whether tracked
// files differed from it.
func codeOf(run *records.RunInfo) string {
	switch {
	case run == nil || run.Commit == "":
		return "unknown"
	case run.Commit == records.UnknownCommit:
		return noStamp
	case !isHex(run.Commit):
		return "not a commit (" + strconv.Quote(shortText(run.Commit, 20)) + ")"
	}
	c := shortCommit(run.Commit)
	if run.Dirty {
		c += " + uncommitted changes"
	}
	return c
}

// machineOf names the machine a trial ran on: host, CPU and the threads
// Go used.
func machineOf(rec records.Record) string {
	var parts []string
	if rec.Run != nil && rec.Run.Host != "" {
		parts = append(parts, rec.Run.Host)
	}
	if rec.Env != nil {
		if rec.Env.CPU != "" {
			parts = append(parts, rec.Env.CPU)
		}
		if rec.Env.GOMAXPROCS > 0 {
			parts = append(parts, "GOMAXPROCS "+strconv.Itoa(rec.Env.GOMAXPROCS))
		}
	}
	if len(parts) == 0 {
		return "unknown"
	}
	return strings.Join(parts, " · ")
}

// span is a trial's run interval; ok is false without run information.
func span(rec records.Record) (start, end time.Time, ok bool) {
	if rec.Run == nil {
		return time.Time{}, time.Time{}, false
	}
	s, err1 := time.Parse(time.RFC3339, rec.Run.Start)
	e, err2 := time.Parse(time.RFC3339, rec.Run.End)
	if err1 != nil || err2 != nil {
		return time.Time{}, time.Time{}, false
	}
	return s, e, true
}

// provenances describes each record. A trial ran alone when no other
// trial of these records on its machine ran during it (its interval
// overlaps none), which is always so for a measured trial: the runner
// runs those one at a time, in a process of their own. A measured trial
// also says whether the machine was quiet (records.Quiet): no other
// program competed for its cores, and whether its record is disturbed
// (disturbedRecords).
func provenances(recs []records.Record) []provenance {
	out := make([]provenance, len(recs))
	disturbed := disturbedRecords(recs)
	for i, rec := range recs {
		p := provenance{code: codeOf(rec.Run), machine: machineOf(rec), alone: "unknown"}
		s, e, ok := span(rec)
		if ok {
			p.date, p.day = s.UTC().Format("2006-01-02 15:04"), s.UTC().Format("2006-01-02")
			beside := 0
			for j, o := range recs {
				ostart, oend, ook := span(o)
				if j != i && ook && machineOf(o) == p.machine && ostart.Before(e) && s.Before(oend) {
					beside++
				}
			}
			switch {
			case beside > 0:
				p.alone = fmt.Sprintf("beside %d other%s", beside, plural(beside))
			case measuredInChild(rec):
				// Alone among these trials is not alone on the machine:
				// another program may have competed for the cores.
				switch quiet, cores, known := records.Quiet(rec); {
				case !known:
					p.alone = "alone, measured (machine load not recorded)"
				case quiet:
					p.alone = "alone, measured, machine quiet"
				default:
					p.alone = fmt.Sprintf("measured on a busy machine (other programs used %.1f cores)", cores)
				}
			default:
				p.alone = "alone"
			}
		}
		// A disturbed record says so wherever its times are read.
		if why, ok := disturbed[rec.ID]; ok {
			p.alone += "; a disturbed record: " + why
		}
		out[i] = p
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// provenanceLines are the page header's lines on where the numbers came
// from: one line when every trial ran from one code on one machine;
// otherwise warnings naming each code version and machine with its count
// of trials, so a reader knows which numbers compare.
func provenanceLines(recs []records.Record) (lines, warnings []string) {
	if len(recs) == 0 {
		return nil, nil
	}
	ps := provenances(recs)
	codes := counted(ps, func(p provenance) string { return p.code })
	// A record without run information names no host: it is counted
	// among the code versions as such, not as a machine of its own.
	var known []provenance
	for i, p := range ps {
		if recs[i].Run != nil {
			known = append(known, p)
		}
	}
	machines := counted(known, func(p provenance) string { return p.machine })
	if len(machines) == 0 {
		machines = []keyCount{{key: "unknown", n: len(ps)}}
	}
	first, last := "", ""
	for _, p := range ps {
		if p.day == "" {
			continue
		}
		if first == "" || p.day < first {
			first = p.day
		}
		if p.day > last {
			last = p.day
		}
	}
	when := ""
	switch {
	case first == "":
	case first == last:
		when = " on " + first
	default:
		when = " between " + first + " and " + last
	}
	if len(codes) == 1 && len(machines) == 1 {
		from := " from commit " + codes[0].key
		if notCommit(codes[0].key) {
			from = " from " + codes[0].key
		}
		line := "Computed" + when + from + " on " + machines[0].key + "."
		if codes[0].key == "unknown" && machines[0].key == "unknown" {
			line = "The records carry no run information (written before it was recorded)."
		}
		return []string{line}, nil
	}
	if when != "" {
		lines = append(lines, "Computed"+when+".")
	}
	if len(codes) > 1 {
		warnings = append(warnings, fmt.Sprintf("These trials ran from %d code versions: %s. Numbers from different code may not compare.", len(codes), countList(codes)))
	} else {
		if notCommit(codes[0].key) {
			lines = append(lines, "Code: "+codes[0].key+".")
		} else {
			lines = append(lines, "Code: commit "+codes[0].key+".")
		}
	}
	if len(machines) > 1 {
		warnings = append(warnings, fmt.Sprintf("These trials ran on %d machines: %s. Times and memory from different machines do not compare.", len(machines), countList(machines)))
	} else {
		lines = append(lines, "Machine: "+machines[0].key+".")
	}
	return lines, warnings
}

// keyCount is a value and how many trials have it.
type keyCount struct {
	key string
	n   int
}

// counted counts the trials per value of key, in first-seen order.
func counted(ps []provenance, key func(provenance) string) []keyCount {
	var out []keyCount
	at := map[string]int{}
	for _, p := range ps {
		k := key(p)
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, keyCount{key: k})
		}
		out[i].n++
	}
	return out
}

// countList prints "58 trials at bafb88c0, 4 at aeb75834 + uncommitted
// changes".
func countList(kc []keyCount) string {
	parts := make([]string, len(kc))
	for i, c := range kc {
		what := "at " + c.key
		if c.key == "unknown" {
			what = "with no run information"
		} else if notCommit(c.key) {
			what = "from " + c.key
		} else if strings.Contains(c.key, "·") || !isHexPrefix(c.key) {
			what = "on " + c.key
		}
		if i == 0 {
			parts[i] = fmt.Sprintf("%d trial%s %s", c.n, plural(c.n), what)
		} else {
			parts[i] = fmt.Sprintf("%d %s", c.n, what)
		}
	}
	return strings.Join(parts, ", ")
}

// notCommit says a code (codeOf) names no commit: a binary without a
// stamp, or text that is no hash.
func notCommit(code string) bool {
	return code == noStamp || strings.HasPrefix(code, "not a commit")
}

// isHex reports whether s is lower-case hex digits only (a commit, perhaps
// abbreviated).
func isHex(s string) bool {
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return s != ""
}

// isHexPrefix reports whether s starts with a commit's hex digits.
func isHexPrefix(s string) bool {
	h, _, _ := strings.Cut(s, " ")
	if len(h) == 0 {
		return false
	}
	for _, r := range h {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}
