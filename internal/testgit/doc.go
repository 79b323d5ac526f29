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
// # Golden outputs
//
// Differential tests compare goblame's bytes with git 2.39.5's, the
// version whose output goblame reproduces. So that they still do on a
// machine with another git, git 2.39.5's results are committed next to
// the tests: Golden(t) opens testdata/golden/<Test>.txtar (one file per
// top-level test, shared by its subtests), and Goldens.Run(Case) returns
// git's result for a command run in a fixture directory:
//
//   - with git 2.39.x installed it runs git, and fails the test when the
//     golden file has no member for the case or a different one;
//     GOBLAME_UPDATE_GOLDEN=1 records git's result instead (the file is
//     rewritten when the test ends, keeping only the members the run used
//     unless it failed, ran with -short or ran part of the subtests);
//   - with another git it returns the golden member (standard output,
//     standard error, exit status), so the test compares goblame with git
//     2.39.5 all the same; with none for the case it skips the test.
//
// Regenerate the goldens of every package with git 2.39.5 installed:
//
//	GOBLAME_UPDATE_GOLDEN=1 go test ./...
//
// A member is named by the fixture, the object format, the directory in
// the fixture, the extra environment, git's arguments and standard input
// (quoted where they hold blanks or unprintable bytes, hashed where long);
// its text is "exit N" and "stdout:"/"stderr:" sections of lines, each
// "|text" or a Go-quoted string (for control bytes, invalid UTF-8,
// trailing blanks, a missing final newline). The fixture's directory and
// the empty home in outputs are stored as ${FIXTURE} and ${HOME} (the
// directory without its leading slash, as a prefix below a work tree at
// the root prints it, as ${FIXTURE#/}). A
// member whose text (256 bytes or more) equals an earlier one's is written
// "same as: <name>".
//
// Fixtures are still built by the installed git. Their scripts fix names
// and dates, so any modern git makes the objects git 2.39.5 made; but that
// is checked, not assumed: the golden file keeps a fingerprint of each
// fixture directory a case ran in (the script's hash, HEAD, every ref, the
// index), and a fixture that another git built with a different one skips
// the test, naming the first difference, rather than compare with outputs
// of other objects. Goldens.RequireFixture makes the same check for tests
// that use a fixture without asking git anything, and Goldens.RequireFiles
// pins the bytes of files the fingerprint does not cover (a pack a script
// damaged at a fixed offset: another git may have compressed it otherwise).
// One difference of layout is undone when a fixture is built: newer gits
// (2.55.0 does) write the [extensions] section of a new SHA-256 repository's
// configuration before [core], git 2.39 after it (normalizeInitConfigs).
//
// A command that reads only files the test wrote, outside any fixture
// (git diff --no-index of generated pairs), goes through
// Goldens.RunInFiles: its case is named by a hash of those files.
//
// Cases whose git output cannot be kept — it shows the current time (lines
// not committed yet), or there are too many — go through Goldens.Live,
// which runs git 2.39.x and reports false without it; the test's log
// counts the cases it could not compare. Run refuses output dated now.
// Tests whose cases a program makes (random command lines), where a case
// may turn out to be dated now, use Goldens.RunOrLive: its member then
// only records that the case is live-only.
// Tests that compare only with a live git call RequireGit, which skips
// the test with a message when the installed git is not 2.39.x.
//
// GOBLAME_TEST_GIT_VERSION=2.40.0 makes the tests take the installed git
// for that version: goldens are used in place of running git, as on a
// machine without git 2.39, which is how the golden mode is tested.
//
// # Concurrency
//
// Every function is safe for concurrent use by parallel tests.
package testgit
