package harness

import (
	"bufio"
	"os"
	"runtime"
	"strings"
	"sync"

	"kcalab/records"
)

var (
	envOnce sync.Once
	envVal  records.Env
)

// CurrentEnv describes this process: Go version, CPU model and GOMAXPROCS.
func CurrentEnv() *records.Env {
	envOnce.Do(func() {
		envVal = records.Env{GoVersion: runtime.Version(), CPU: cpuModel()}
	})
	e := envVal
	e.GOMAXPROCS = runtime.GOMAXPROCS(0)
	return &e
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
