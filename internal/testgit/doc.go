// Package testgit builds fixture repositories with the real git in a
// hermetic environment and runs git next to goblame so that tests can
// compare the two byte for byte.
//
// A fixture is a bash script run in an empty directory with no system or
// global configuration, fixed author and committer names and e-mails,
// fixed dates (the test_tick helper of git's own test suite, starting at
// 1112911993 and advancing 60 seconds per call), TZ=UTC, LC_ALL=C,
// init.defaultBranch=main and automatic gc off. GIT_DEFAULT_HASH selects the
// object format, so a plain "git init" in a script makes a SHA-1 or a
// SHA-256 repository as the test asks. Fixtures are cached on disk, keyed by
// the script text, the format and the git version, and built at most once
// per machine (a build goes to a temporary directory that is renamed into
// place, so concurrent test binaries do not trip over each other).
//
// Tests that compare with git call RequireGit, which skips the test with a
// message when the installed git is not 2.39.x, the version whose output
// goblame reproduces.
//
// # Concurrency
//
// Every function is safe for concurrent use by parallel tests.
package testgit
