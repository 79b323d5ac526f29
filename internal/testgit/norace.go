//go:build !race

package testgit

// RaceEnabled reports whether the tests run under the race detector
// (see race.go).
const RaceEnabled = false
