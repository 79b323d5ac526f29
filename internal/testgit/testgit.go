package testgit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/goblame/goblame/oid"
)

// TargetVersion is the git release whose behaviour goblame reproduces.
const TargetVersion = "2.39."

// VersionEnv names the environment variable that makes the tests take
// the installed git for another version (GOBLAME_TEST_GIT_VERSION=2.40.0):
// git is still run to build fixtures, but not as the reference, so the
// golden outputs are used, as on a machine without git 2.39.
const VersionEnv = "GOBLAME_TEST_GIT_VERSION"

var (
	versionOnce sync.Once
	version     string
	versionErr  error
)

// Version returns the installed git's version string ("2.39.5"), or the
// one GOBLAME_TEST_GIT_VERSION names when git is installed.
func Version() (string, error) {
	v, err := installedVersion()
	if err != nil {
		return "", err
	}
	if o := os.Getenv(VersionEnv); o != "" {
		return o, nil
	}
	return v, nil
}

// installedVersion asks git its version, once.
func installedVersion() (string, error) {
	versionOnce.Do(func() {
		out, err := exec.Command("git", "version").Output()
		if err != nil {
			versionErr = fmt.Errorf("running git: %w", err)
			return
		}
		s := strings.TrimSpace(string(out))
		version = strings.TrimPrefix(s, "git version ")
	})
	return version, versionErr
}

// RequireGit skips the test unless git 2.39.x is installed.
func RequireGit(t testing.TB) {
	t.Helper()
	v, err := Version()
	if err != nil {
		t.Skipf("skipping: git is not available (%v); goblame's output is compared with git %sx", err, TargetVersion)
	}
	if !strings.HasPrefix(v, TargetVersion) {
		t.Skipf("skipping: installed git is %s, but goblame reproduces git %sx; its output is not the reference", v, TargetVersion)
	}
}

func requireGit(t testing.TB, why string) {
	t.Helper()
	v, err := Version()
	if err != nil {
		t.Skipf("skipping: git is not available (%v); goblame's output is compared with git %sx", err, TargetVersion)
	}
	if !strings.HasPrefix(v, TargetVersion) {
		t.Skipf("skipping: installed git is %s, not git %sx, and this test has no golden outputs: %s", v, TargetVersion, why)
	}
}

// RequireAnyGit skips the test unless some git is installed: for tests
// that use git only to build fixtures, or ask it what any version
// answers alike (an object's bytes, which its hash names).
func RequireAnyGit(t testing.TB) {
	t.Helper()
	if _, err := Version(); err != nil {
		t.Skipf("skipping: git is not available (%v); fixtures are built with it", err)
	}
}

// RequireGitFor is RequireGit for a test that can have no golden
// outputs, saying why in its skip message.
func RequireGitFor(t testing.TB, why string) {
	t.Helper()
	requireGit(t, why)
}

// Formats lists the object formats every differential test covers.
var Formats = []oid.Format{oid.SHA1, oid.SHA256}

// Env returns the hermetic environment for running git (or goblame) in a
// fixture: nothing from the caller's environment but PATH, with home set
// to an empty directory. extra entries ("K=V") are appended and win.
func Env(format oid.Format, extra ...string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + emptyHome(),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=A U Thor",
		"GIT_AUTHOR_EMAIL=author@example.com",
		"GIT_COMMITTER_NAME=C O Mitter",
		"GIT_COMMITTER_EMAIL=committer@example.com",
		"GIT_DEFAULT_HASH=" + format.String(),
		"GIT_PAGER=cat",
		"PAGER=cat",
		"TZ=UTC",
		"LC_ALL=C",
		"LANG=C",
		"GIT_TERMINAL_PROMPT=0",
		// goblame's blame cache is off: tests measure cold blames
		// unless they turn it on.
		"GOBLAME_CACHE=off",
	}
	return append(env, extra...)
}

var (
	homeOnce sync.Once
	homeDir  string
)

func emptyHome() string {
	homeOnce.Do(func() {
		homeDir = filepath.Join(os.TempDir(), "goblame-testgit-home"+userSuffix())
		_ = os.MkdirAll(homeDir, 0o755)
	})
	return homeDir
}

// scriptPrelude defines the helpers fixture scripts may use.
const scriptPrelude = `set -e
export GIT_CONFIG_COUNT=2
export GIT_CONFIG_KEY_0=init.defaultBranch GIT_CONFIG_VALUE_0=main
export GIT_CONFIG_KEY_1=gc.auto GIT_CONFIG_VALUE_1=0
test_tick () {
	if test -z "${test_tick+set}"; then test_tick=1112911993; else test_tick=$(($test_tick + 60)); fi
	GIT_COMMITTER_DATE="$test_tick -0700"
	GIT_AUTHOR_DATE="$test_tick -0700"
	export GIT_COMMITTER_DATE GIT_AUTHOR_DATE
}
# commit_all MSG: stage everything and commit with the next tick.
commit_all () { test_tick; git add -A; git commit -q --allow-empty -m "$1"; }
test_tick
`

var (
	fixtureMu    sync.Mutex
	fixtureLocks = map[string]*sync.Mutex{}
)

// CacheRoot is where built fixtures are kept: GOBLAME_FIXTURE_CACHE, else
// a directory of the user's under the temporary directory.
func CacheRoot() string {
	if d := os.Getenv("GOBLAME_FIXTURE_CACHE"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "goblame-fixtures"+userSuffix())
}

// userSuffix tells apart the temporary directories of the users of one
// machine: another user's fixtures are repositories git refuses to use
// (safe.directory), and another user's empty home one git may not read.
func userSuffix() string {
	if uid := os.Getuid(); uid >= 0 {
		return "-" + strconv.Itoa(uid)
	}
	return ""
}

// Fixture runs script (bash) in a new empty directory with the hermetic
// environment for format and returns that directory. The result is cached:
// the same name, script, format and git version give the same directory,
// built once. A failing script fails the test with its output; without
// git, or with a git other than 2.39.x, it skips the test instead (a
// script may use what git 2.39.5 has and an older git lacks, such as
// repack --cruft).
func Fixture(t testing.TB, name string, format oid.Format, script string) string {
	t.Helper()
	dir, err := BuildFixture(name, format, script)
	if err != nil {
		v, verr := Version()
		if verr != nil {
			t.Skipf("skipping: git is not available (%v); fixture %s (%s) is built with it", verr, name, format)
		}
		if !strings.HasPrefix(v, TargetVersion) {
			t.Skipf("skipping: git %s cannot build fixture %s (%s), which git %sx builds: %v", v, name, format, TargetVersion, err)
		}
		t.Fatalf("fixture %s (%s): %v", name, format, err)
	}
	return dir
}

// BuildFixture is Fixture without a testing.TB, for benchmarks and tools.
func BuildFixture(name string, format oid.Format, script string) (string, error) {
	dir, err := buildFixture(name, format, script)
	if err == nil {
		registerFixture(name, format, script, dir)
	}
	return dir, err
}

func buildFixture(name string, format oid.Format, script string) (string, error) {
	v, _ := installedVersion()
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00%s", fixtureLayout, v, format, name, scriptPrelude, script)
	key := sanitize(name) + "-" + format.String() + "-" + hex.EncodeToString(h.Sum(nil))[:16]
	root := CacheRoot()
	final := filepath.Join(root, key)

	fixtureMu.Lock()
	l := fixtureLocks[key]
	if l == nil {
		l = new(sync.Mutex)
		fixtureLocks[key] = l
	}
	fixtureMu.Unlock()
	l.Lock()
	defer l.Unlock()

	if _, err := os.Stat(filepath.Join(final, ".done")); err == nil {
		return filepath.Join(final, "w"), nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	// The script runs where the fixture stays: git writes absolute paths
	// into some repositories (a linked worktree's .git file, its gitdir),
	// which a fixture built elsewhere and moved would point past. Other
	// processes (test binaries of other packages) wait on the lock file.
	unlock, err := lockFile(final + ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(filepath.Join(final, ".done")); err == nil {
		return filepath.Join(final, "w"), nil
	}
	os.RemoveAll(final) // what a build that died left
	work := filepath.Join(final, "w")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return "", err
	}
	cmd := exec.Command("bash", "-c", scriptPrelude+script)
	cmd.Dir = work
	cmd.Env = Env(format)
	out, err := cmd.CombinedOutput()
	if err != nil {
		os.RemoveAll(final)
		return "", fmt.Errorf("script failed: %v\n%s", err, out)
	}
	if err := normalizeInitConfigs(work); err != nil {
		os.RemoveAll(final)
		return "", err
	}
	if err := os.WriteFile(filepath.Join(final, ".done"), nil, 0o644); err != nil {
		os.RemoveAll(final)
		return "", err
	}
	return work, nil
}

// fixtureLayout is part of every fixture's key: a change to how fixtures
// are built (2: in place, so that absolute paths git records stay valid;
// 3: configurations in git 2.39.5's layout, normalizeInitConfigs) builds
// them all again.
const fixtureLayout = "fixture layout 3"

// fixtureInfo is what the goldens know of a built fixture: its name,
// format, the hash of its script, and its work directory on this machine.
type fixtureInfo struct {
	name       string
	format     oid.Format
	scriptHash string
	root       string
}

var (
	fixturesMu sync.Mutex
	fixtures   = map[string]fixtureInfo{} // by work directory
)

func registerFixture(name string, format oid.Format, script, dir string) {
	// The hash is of the text the fixture runs, with the directories of
	// other fixtures it names (a clone's source) written as their names,
	// without the key that holds the git version and the build layout,
	// and the temporary directory (where a script may find its input)
	// written as a name, so that it is the same on every machine and for
	// every git.
	script = fixtureKeyInPath.ReplaceAllString(script, "${1}-$${KEY}${2}")
	script = strings.ReplaceAll(script, CacheRoot(), "${FIXTURES}")
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s", scriptPrelude, strings.ReplaceAll(script, os.TempDir(), "${TMPDIR}"))
	info := fixtureInfo{name: name, format: format, scriptHash: hex.EncodeToString(h.Sum(nil))[:16], root: filepath.Clean(dir)}
	fixturesMu.Lock()
	fixtures[info.root] = info
	fixturesMu.Unlock()
}

// fixtureKeyInPath finds a fixture's directory name in a path: its name
// and format, then the hash of its key (buildFixture).
var fixtureKeyInPath = regexp.MustCompile(`(/[^/\s]+-(?:sha1|sha256))-[0-9a-f]{16}(/|$|\s)`)

// lookupFixture finds the fixture whose work directory holds dir.
func lookupFixture(dir string) (fixtureDir, bool) {
	dir = filepath.Clean(dir)
	fixturesMu.Lock()
	defer fixturesMu.Unlock()
	for d := dir; ; d = filepath.Dir(d) {
		if info, ok := fixtures[d]; ok {
			sub, err := filepath.Rel(d, dir)
			if err != nil {
				return fixtureDir{}, false
			}
			return fixtureDir{fixtureInfo: info, dir: dir, sub: filepath.ToSlash(sub)}, true
		}
		if parent := filepath.Dir(d); parent == d {
			return fixtureDir{}, false
		}
	}
}

func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Result is what a command printed and how it exited.
type Result struct {
	Stdout, Stderr []byte
	ExitCode       int
}

func (r Result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", r.ExitCode, r.Stdout, r.Stderr)
}

// Run runs a command in dir with the hermetic environment for format plus
// extra, feeding stdin. It never fails the test; the caller compares.
func Run(dir string, format oid.Format, stdin []byte, extra []string, name string, args ...string) (Result, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = Env(format, extra...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	err := cmd.Run()
	res := Result{Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		res.ExitCode = exitErr.ExitCode()
		err = nil
	}
	return res, err
}

// Git runs git in dir (hermetic environment) and returns its stdout,
// failing the test if git fails.
func Git(t testing.TB, dir string, format oid.Format, args ...string) string {
	t.Helper()
	res, err := Run(dir, format, nil, nil, "git", args...)
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("git %s: %s", strings.Join(args, " "), res)
	}
	return string(res.Stdout)
}

// newerInitConfig is how a newer git (2.55.0 does) starts the
// configuration of a new SHA-256 repository: its [extensions] section
// first, then [core]. git 2.39.5 writes them the other way round.
// (The script may have set the object format since, which git writes
// with the key's case as given.)
var newerInitConfig = [2]string{"[extensions]\n\tobjectformat = ", "[core]\n\trepositoryformatversion = 1\n"}

// normalizeInitConfigs rewrites every repository configuration under
// work that starts as newerInitConfig with its first two sections in git
// 2.39.5's order, so that a fixture another git built reads as the one
// git 2.39.5 built (git config --list lists them in file order). What
// the script set later stays where it was: git appends a key to the
// section that has its name, and a new section at the end, whichever
// comes first.
func normalizeInitConfigs(work string) error {
	return filepath.WalkDir(work, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "config" {
			return err
		}
		data, err := os.ReadFile(path)
		n := len(newerInitConfig[0])
		if err != nil || len(data) < n || !bytes.EqualFold(data[:n], []byte(newerInitConfig[0])) {
			return err
		}
		ext, rest := cutSection(data)
		core, rest := cutSection(rest)
		if !bytes.HasPrefix(core, []byte(newerInitConfig[1])) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fixed := append(append(append([]byte{}, core...), ext...), rest...)
		// Through a new file: the script may have made this one read-only.
		tmp := path + ".normalizing"
		if err := os.WriteFile(tmp, fixed, info.Mode().Perm()); err != nil {
			return err
		}
		return os.Rename(tmp, path)
	})
}

// cutSection splits a configuration file's text after its first section:
// the section's header line and the lines up to the next header.
func cutSection(data []byte) (section, rest []byte) {
	i := bytes.IndexByte(data, '\n') + 1 // past the header
	for i < len(data) && data[i] != '[' {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			return data, nil
		}
		i += j + 1
	}
	return data[:i], data[i:]
}
