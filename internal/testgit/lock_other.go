//go:build !unix

package testgit

// lockFile is a no-op where flock is missing: fixtures are then built
// safely within one test binary only.
func lockFile(string) (unlock func(), err error) { return func() {}, nil }
