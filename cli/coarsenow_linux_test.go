package cli

import (
	"time"

	"golang.org/x/sys/unix"
)

// coarseNow is the second git's time(2) gives now: glibc reads the
// coarse real-time clock, which can still show the last second for a
// few milliseconds after time.Now has passed into the next.
func coarseNow() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_REALTIME_COARSE, &ts); err != nil {
		return time.Now().Unix()
	}
	return ts.Sec
}
