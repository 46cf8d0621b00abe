// Package progress is the one progress reporter of KCA lab: the harness's
// trial bar, the corpus reader and counter, and the baseline trainers all
// write through it.
//
// On a terminal a Reporter keeps one status line redrawn in place (Update)
// and prints other lines above it (Line); anywhere else (logs, CI, a
// buffer in a test) both are plain lines, so the output stays readable and
// each caller keeps its own line format. What to print and how often stays
// with the caller. The terminal check is golang.org/x/term's, and a
// TERM=dumb terminal counts as none, since it cannot redraw a line.
//
// It sits below datasets, methods and harness and imports none of them.
package progress
