// Package tmpfiles names the temporary files and directories kcalab
// creates so that a later process can tell which are stale: every name
// carries the pid of the process that made it. A process killed outright
// (SIGKILL, the OOM killer, a power cut) cannot remove its own temporary
// files; Clean, run at the start of later runs, removes those whose
// process is gone and nothing else: a name that does not follow these
// patterns (a user's .results.jsonl.mybackup) is never touched.
//
// Two forms:
//
//	kcalab-<kind>-<pid>-<random>            Pattern, for os.MkdirTemp and os.CreateTemp
//	.<name>.<pid>-<random>.kcalab-tmp      AtomicName, the atomic writer's file before its rename
package tmpfiles
