// Package machineload samples how busy the whole machine is, so that a
// measured time can say whether anything else ran beside it: the CPU time
// every process on the machine has used (Linux: /proc/stat) and the load
// average (/proc/loadavg). Elsewhere the samples are unknown.
package machineload
