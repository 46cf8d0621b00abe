// Package datatest finds the data that tests need from outside the repository
// (text8_prefix, the word-similarity sets). When it is absent a test skips with
// a message saying how to provide it, so a fresh clone passes go test ./...;
// with KCALAB_REQUIRE_DATA=1 (set by .ci/run) the same absence fails the test,
// so CI always runs the data tests.
package datatest

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the data directory ($KCALAB_DATA) or skips/fails t.
func Dir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("KCALAB_DATA")
	if dir == "" {
		absent(t, "KCALAB_DATA is not set: point it at a data directory (for example ../shared/data) to run this test")
		return ""
	}
	if _, err := os.Stat(dir); err != nil {
		absent(t, "KCALAB_DATA="+dir+": "+err.Error())
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// File returns the path of name inside the data directory or skips/fails t.
func File(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(Dir(t), name)
	if _, err := os.Stat(p); err != nil {
		absent(t, "data file missing: "+err.Error())
	}
	return p
}

// Required reports whether missing data must fail tests rather than skip them.
func Required() bool { return os.Getenv("KCALAB_REQUIRE_DATA") == "1" }

func absent(t testing.TB, msg string) {
	t.Helper()
	if Required() {
		t.Fatal("KCALAB_REQUIRE_DATA=1 but " + msg)
	}
	t.Skip(msg)
}
