// Package inputfile opens the files KCA lab reads as input (a spec, a CSV
// table, a word-pair or analogy set, a results file, a lock or cache file)
// by one rule: only a regular file is read. A FIFO, a device (/dev/zero,
// /dev/urandom), a socket or a directory is refused before a byte is read
// and without waiting (the open is non-blocking, and the type is checked
// on the open file, so a file swapped after the check cannot slip
// through). Files read whole are bounded in size; the caller names the
// limit and what the file should be, so the message says what is allowed.
// Files a cloned repository or a shared directory can plant a link at
// (results, lock and cache files) are opened without following links.
package inputfile
