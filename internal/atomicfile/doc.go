// Package atomicfile writes files so that a reader, or a crash, never sees
// a half-written one: the data goes to a temporary file in the destination's
// directory, is synced, and is renamed over the destination. Results,
// reports, the corpus cache and the corpus download all write this way.
//
// The directory is created if missing, the temporary file stays in that
// directory (named with the writer's pid, see internal/tmpfiles, so a
// killed writer's file is recognised and removed later), the file gets
// mode 0644 whatever the umask, errors name the destination path, and a
// destination that is a symbolic link is refused (ErrLink): a write never
// lands outside the directory it names.
package atomicfile
