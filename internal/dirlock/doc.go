// Package dirlock gives one process at a time a directory to write: an
// exclusive flock(2) on a lock file inside it, which the kernel releases
// when the holder dies, however it dies, so a lock is never stale. The
// holder writes its pid into the file, so a process that waits can say
// whom it waits for, and removes the file when it lets go; a waiter that
// got the lock on a file removed meanwhile tries again on the new one.
package dirlock
