//go:build !linux

package cli

import "time"

// coarseNow is the second git's time(2) gives now.
func coarseNow() int64 { return time.Now().Unix() }
