package odb

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the process's user+system CPU time. On a shared machine
// it is a steadier measure than wall time: benchmarks report both.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuMeter reports CPU time per operation (and per item) for a benchmark.
type cpuMeter struct{ start time.Duration }

func startCPU() cpuMeter { return cpuMeter{cpuTime()} }

func (m cpuMeter) report(b *testing.B, items int, unit string) {
	used := cpuTime() - m.start
	b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
	if items > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N)/float64(items), "cpu-ns/"+unit)
	}
}
