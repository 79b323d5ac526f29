package gitdate

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
	"time"
)

// leapSecond is a TZif leap-second record: from transition on (a time_t
// as the zone file counts it), change seconds are taken off.
type leapSecond struct {
	transition int64
	change     int64
}

// leapTables holds the leap seconds of the zones TZ loaded from files
// that have them (the "right/" zones), by location: glibc's gmtime and
// localtime apply them to every time they convert while such a zone is
// the local one, so git prints every date 27 seconds early there.
var leapTables sync.Map // *time.Location -> []leapSecond

// anyLeaps is set once a zone with leap seconds is registered: every
// other run converts its dates without looking in leapTables.
var anyLeaps atomic.Bool

// registerLeaps records the leap seconds of the TZif data a location was
// loaded from, if it has any.
func registerLeaps(loc *time.Location, data []byte) {
	if leaps := parseLeaps(data); len(leaps) > 0 {
		leapTables.Store(loc, leaps)
		anyLeaps.Store(true)
	}
}

// leapsOf is the leap seconds the local zone loc applies (nil: none).
func leapsOf(loc *time.Location) []leapSecond {
	if loc == time.Local {
		LocalLeaps()
	}
	if loc == nil || !anyLeaps.Load() {
		return nil
	}
	if v, ok := leapTables.Load(loc); ok {
		return v.([]leapSecond)
	}
	return nil
}

// parseLeaps reads the leap-second records of TZif data: the 64-bit ones
// of a version 2 or later file, as glibc reads them, else the 32-bit
// ones; nil where the data does not parse.
func parseLeaps(data []byte) []leapSecond {
	counts := func(d []byte) (isut, isstd, leap, timecnt, typecnt, charcnt int, ok bool) {
		if len(d) < 44 || string(d[:4]) != "TZif" {
			return 0, 0, 0, 0, 0, 0, false
		}
		c := func(i int) int { return int(binary.BigEndian.Uint32(d[20+4*i:])) }
		return c(0), c(1), c(2), c(3), c(4), c(5), true
	}
	isut, isstd, leapcnt, timecnt, typecnt, charcnt, ok := counts(data)
	if !ok || leapcnt > 1<<16 {
		return nil
	}
	// The version 1 block, 32-bit times.
	size := 44 + timecnt*5 + typecnt*6 + charcnt + leapcnt*8 + isstd + isut
	if size > len(data) {
		return nil
	}
	tsize, leapAt := 4, 44+timecnt*5+typecnt*6+charcnt
	if data[4] >= '2' {
		// The version 2 block after it, 64-bit times.
		d := data[size:]
		isut, isstd, leapcnt, timecnt, typecnt, charcnt, ok = counts(d)
		if !ok || leapcnt > 1<<16 || 44+timecnt*9+typecnt*6+charcnt+leapcnt*12+isstd+isut > len(d) {
			return nil
		}
		data, tsize, leapAt = d, 8, 44+timecnt*9+typecnt*6+charcnt
	}
	leaps := make([]leapSecond, leapcnt)
	for i := range leaps {
		rec := data[leapAt+i*(tsize+4):]
		if tsize == 8 {
			leaps[i].transition = int64(binary.BigEndian.Uint64(rec))
		} else {
			leaps[i].transition = int64(int32(binary.BigEndian.Uint32(rec)))
		}
		leaps[i].change = int64(int32(binary.BigEndian.Uint32(rec[tsize:])))
	}
	return leaps
}

// leapCorrection is glibc's leap-second lookup in __tzfile_compute for
// the time t: the seconds to take off, and the seconds of a leap second
// t falls on (shown as :60).
func leapCorrection(leaps []leapSecond, t int64) (correct int64, hit int32) {
	i := len(leaps)
	for {
		if i == 0 {
			return 0, 0
		}
		i--
		if t >= leaps[i].transition {
			break
		}
	}
	correct = leaps[i].change
	if t == leaps[i].transition && (i == 0 && leaps[i].change > 0 || i > 0 && leaps[i].change > leaps[i-1].change) {
		hit = 1
		for i > 0 && leaps[i].transition == leaps[i-1].transition+1 && leaps[i].change == leaps[i-1].change+1 {
			hit++
			i--
		}
	}
	return correct, hit
}
