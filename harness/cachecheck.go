package harness

import (
	"fmt"
	"os"

	"kcalab/internal/termsafe"
	"kcalab/internal/tmpfiles"
	"kcalab/schema"
)

// usableCache checks, once per runner, that the cache directory can be
// created and written. When it cannot (read-only disk, unwritable HOME),
// the cache is only a speed-up: warn once and run without it rather than
// fail every corpus trial.
func (r *Runner) usableCache(trials []schema.Trial) {
	if r.CacheDir == "" || r.cacheChecked {
		return
	}
	needed := false
	for _, t := range trials {
		if s := t.Data.Source; s == "corpus" || s == "synthetic" {
			needed = true
			break
		}
	}
	if !needed {
		return
	}
	r.cacheChecked = true
	err := os.MkdirAll(r.CacheDir, 0o755)
	if err == nil {
		var f *os.File
		if f, err = os.CreateTemp(r.CacheDir, tmpfiles.Pattern("writecheck")); err == nil {
			f.Close()
			err = os.Remove(f.Name())
		}
	}
	if err != nil {
		fmt.Fprintf(r.log(), "kcalab: warning: cache directory %s is not writable (%v): running without the cache (set -cache DIR or $KCALAB_CACHE to a writable directory, or -cache off)\n", termsafe.String(r.CacheDir), err)
		r.CacheDir = ""
	}
}
