package machineload

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// userHZ is the unit of /proc/stat's times: Linux reports them in
// USER_HZ, which is 100 on every architecture it runs on for user space.
const userHZ = 100

// maxRead bounds what is read of a /proc file (the first line of
// /proc/stat and /proc/loadavg are far shorter).
const maxRead = 4 << 10

// BusySeconds is the CPU time (user, nice, system, irq, softirq, steal) all
// processes of the machine have used since boot, in seconds; false when the
// system does not say.
func BusySeconds() (float64, bool) {
	line, err := firstLine("/proc/stat")
	if err != nil {
		return 0, false
	}
	return parseStat(line)
}

// parseStat reads the aggregate "cpu" line of /proc/stat.
func parseStat(line string) (float64, bool) {
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return 0, false
	}
	var busy float64
	for i, s := range f[1:] {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, false
		}
		switch i {
		case 3, 4: // idle, iowait
		case 8, 9: // guest, guest_nice: already in user and nice
		default:
			busy += float64(v)
		}
	}
	return busy / userHZ, true
}

// LoadAvg1 is the one-minute load average; false when unknown.
func LoadAvg1() (float64, bool) {
	line, err := firstLine("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil
}

func firstLine(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	line, err := bufio.NewReader(io.LimitReader(f, maxRead)).ReadString('\n')
	if err != nil && line == "" {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return line, nil
}
