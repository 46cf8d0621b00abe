package records

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"kcalab/internal/atomicfile"
)

// CheckWrittenFile says whether f, a file a record names (Files: relative
// to the output directory dir, or absolute), still holds what the trial
// wrote: it is there (missing is false), and wrong is "" when it is a
// regular file reached through no symbolic link below dir whose SHA-256 is
// sha (when sha is given: records older than FileHashes have none). A
// missing file is not wrong: exported vectors are build outputs, absent
// from a fresh clone. wrong says what is the matter, for a message.
func CheckWrittenFile(dir, f, sha string) (missing bool, wrong string) {
	path := filepath.FromSlash(f)
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	st, err := os.Lstat(path)
	switch {
	case os.IsNotExist(err):
		return true, ""
	case err != nil:
		return false, err.Error()
	case st.Mode()&os.ModeSymlink != 0:
		target, _ := os.Readlink(path)
		return false, fmt.Sprintf("is now a symbolic link (to %s)", target)
	case !st.Mode().IsRegular():
		return false, "is no longer a regular file"
	}
	if err := atomicfile.CheckNoLinkBelow(dir, path); err != nil {
		return false, "is reached through a symbolic link"
	}
	if sha == "" {
		return false, ""
	}
	got, err := FileSHA256(path)
	if err != nil {
		return false, err.Error()
	}
	if got != sha {
		return false, "has changed since the trial wrote it (its SHA-256 differs from the record's)"
	}
	return false, ""
}

// FileSHA256 is the SHA-256 (hex) of a file's content.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hashing %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
