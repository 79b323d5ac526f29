//go:build race

package testgit

// RaceEnabled reports whether the tests run under the race detector,
// whose instrumentation allocates: tests that count allocations skip
// then (SkipUnderRace).
const RaceEnabled = true
