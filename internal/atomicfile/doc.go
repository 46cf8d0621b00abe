// Package atomicfile writes files so that a reader, or a crash, never sees
// a half-written one: the data goes to a temporary file in the destination's
// directory, is synced, and is renamed over the destination. Results,
// reports, the corpus cache and the corpus download all write this way.
//
// It wraps github.com/google/renameio/v2, which does the temporary file,
// fsync and rename correctly, and adds what every caller here wants: the
// directory is created if missing, the temporary file stays in that
// directory (renameio would otherwise try os.TempDir), the file gets mode
// 0644 whatever the umask, and errors name the destination path.
package atomicfile
