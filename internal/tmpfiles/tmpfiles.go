package tmpfiles

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

// Pattern is the os.MkdirTemp / os.CreateTemp pattern of a temporary file
// or directory of the given kind ("table", "spill", "child", ...).
func Pattern(kind string) string {
	return "kcalab-" + kind + "-" + strconv.Itoa(os.Getpid()) + "-*"
}

// atomicSuffix ends the name of an atomic writer's temporary file.
const atomicSuffix = ".kcalab-tmp"

// AtomicName is a fresh name for the temporary file that becomes name
// when renamed, in the same directory: hidden, with this process's pid.
func AtomicName(name string) string {
	return "." + name + "." + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(rand.Uint64(), 36) + atomicSuffix
}

var (
	patternRE = regexp.MustCompile(`^kcalab-[a-z]+-([0-9]+)-`)
	atomicRE  = regexp.MustCompile(`^\..+\.([0-9]+)-[0-9a-z]+` + regexp.QuoteMeta(atomicSuffix) + `$`)
)

// Owner is the pid in a name of either form, or 0 when the name is not
// one of ours.
func Owner(name string) int {
	m := patternRE.FindStringSubmatch(name)
	if m == nil {
		m = atomicRE.FindStringSubmatch(name)
	}
	if m == nil {
		return 0
	}
	pid, err := strconv.Atoi(m[1])
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// Alive reports whether a process with this pid exists. A pid reused by
// another program counts as alive: its files wait for a later Clean.
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Clean removes, directly in dir, the temporary files and directories of
// either form whose process is gone, and returns their names. A missing
// or unreadable dir is nothing to clean.
func Clean(dir string) []string {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range es {
		name := e.Name()
		if !strings.HasPrefix(name, "kcalab-") && !strings.HasSuffix(name, atomicSuffix) {
			continue
		}
		pid := Owner(name)
		if pid == 0 || pid == os.Getpid() || Alive(pid) {
			continue
		}
		if os.RemoveAll(filepath.Join(dir, name)) == nil {
			removed = append(removed, name)
		}
	}
	return removed
}
