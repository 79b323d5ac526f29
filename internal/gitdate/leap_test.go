package gitdate

import (
	"os"
	"sync"
	"testing"
	"time"
)

// TestLeapCorrection is glibc's lookup: the correction in force at t,
// and a hit exactly at a transition that adds a second.
func TestLeapCorrection(t *testing.T) {
	leaps := []leapSecond{{100, 1}, {200, 2}, {300, 1}}
	for _, c := range []struct {
		t       int64
		correct int64
		hit     int32
	}{{99, 0, 0}, {100, 1, 1}, {101, 1, 0}, {199, 1, 0}, {200, 2, 1}, {250, 2, 0}, {300, 1, 0}, {400, 1, 0}} {
		correct, hit := leapCorrection(leaps, c.t)
		if correct != c.correct || hit != c.hit {
			t.Errorf("t=%d: correction %d, hit %d; want %d, %d", c.t, correct, hit, c.correct, c.hit)
		}
	}
	if correct, hit := leapCorrection(nil, 1e9); correct != 0 || hit != 0 {
		t.Errorf("no leap seconds: %d, %d", correct, hit)
	}
}

// TestParseLeaps reads the leap seconds of a right/ zone file, and none
// of a zone without them.
func TestParseLeaps(t *testing.T) {
	data, err := os.ReadFile("/usr/share/zoneinfo/right/UTC")
	if err != nil {
		t.Skip("no right/ zone files:", err)
	}
	leaps := parseLeaps(data)
	if len(leaps) < 27 || leaps[0].transition != 78796800 || leaps[0].change != 1 || leaps[26].change != 27 {
		t.Errorf("right/UTC: %d leap seconds, first %+v", len(leaps), leaps[:min(len(leaps), 1)])
	}
	if plain, err := os.ReadFile("/usr/share/zoneinfo/UTC"); err == nil && len(parseLeaps(plain)) != 0 {
		t.Errorf("UTC: leap seconds read where there are none")
	}
	if parseLeaps([]byte("TZif2 short")) != nil {
		t.Errorf("truncated data: leap seconds read")
	}
}

// TestLocalLeapsWhenFirstUsed: time.Local's leap seconds are read from
// the local zone file when a date is first converted in it, not before
// (a right/ zone file stands in for /etc/localtime), and only where TZ
// is unset (glibc reads the zone TZ names then, and time.Local follows
// TZ).
func TestLocalLeapsWhenFirstUsed(t *testing.T) {
	const right = "/usr/share/zoneinfo/right/UTC"
	if _, err := os.Stat(right); err != nil {
		t.Skip("no right/ zone files:", err)
	}
	if tz, set := os.LookupEnv("TZ"); set {
		// Unset for the test, as t.Setenv would restore it.
		t.Setenv("TZ", tz)
		os.Unsetenv("TZ")
	}
	defer func(path string, any bool) {
		localtimePath, localLeapsOnce = path, sync.Once{}
		leapTables.Delete(time.Local)
		anyLeaps.Store(any)
	}(localtimePath, anyLeaps.Load())
	localtimePath, localLeapsOnce = right, sync.Once{}
	leapTables.Delete(time.Local)
	if _, ok := leapTables.Load(time.Local); ok {
		t.Fatal("time.Local has leap seconds before any date is converted in it")
	}
	if leaps := leapsOf(time.Local); len(leaps) < 27 {
		t.Fatalf("time.Local's first use: %d leap seconds, want right/UTC's", len(leaps))
	}
	if leaps := leapsOf(time.UTC); leaps != nil {
		t.Errorf("time.UTC: %d leap seconds", len(leaps))
	}

	// TZ set: the local zone file is not read.
	t.Setenv("TZ", "UTC")
	localLeapsOnce = sync.Once{}
	leapTables.Delete(time.Local)
	if leaps := leapsOf(time.Local); leaps != nil {
		t.Errorf("TZ set: time.Local has the local zone file's %d leap seconds", len(leaps))
	}
}
