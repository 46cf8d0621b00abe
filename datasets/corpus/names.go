package corpus

import "sort"

// Names lists the named corpora Open knows ("text8", "text8_prefix"), so
// that a spec can be checked before anything runs.
func Names() []string {
	out := make([]string, 0, len(named))
	for n := range named {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
