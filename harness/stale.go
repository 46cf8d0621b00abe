package harness

import (
	"os"
	"path/filepath"
	"regexp"
	"time"

	"kcalab/internal/tmpfiles"
)

// legacyCacheTemp matches the temporary cache files of earlier versions'
// atomic writer (renameio: "." + name + random digits).
var legacyCacheTemp = regexp.MustCompile(`^\.[a-z]+-[0-9a-f]{32}\.bin[0-9]+$`)

// legacyAge is how old such a file must be to be taken for stale: a run of
// an earlier version may still be writing a young one.
const legacyAge = 24 * time.Hour

// RemoveStaleFiles removes what killed runs left in the system's temporary
// directory and in the cache directory (which may be ""): temporary files
// and directories whose process is gone (internal/tmpfiles), and earlier
// versions' temporary cache files a day old. It returns how many it
// removed.
func RemoveStaleFiles(cacheDir string) int {
	n := len(tmpfiles.Clean(os.TempDir()))
	if cacheDir == "" {
		return n
	}
	n += len(tmpfiles.Clean(cacheDir))
	es, err := os.ReadDir(cacheDir)
	if err != nil {
		return n
	}
	for _, e := range es {
		if !legacyCacheTemp.MatchString(e.Name()) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > legacyAge {
			if os.Remove(filepath.Join(cacheDir, e.Name())) == nil {
				n++
			}
		}
	}
	return n
}
