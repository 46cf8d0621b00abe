//go:build !unix

package baselines

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }
