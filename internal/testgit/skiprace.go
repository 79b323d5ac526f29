package testgit

import "testing"

// SkipUnderRace skips a test that counts allocations when the race
// detector, whose instrumentation allocates, is on (go test -race).
func SkipUnderRace(t testing.TB) {
	t.Helper()
	if RaceEnabled {
		t.Skip("allocation counts are the race detector's under -race")
	}
}
