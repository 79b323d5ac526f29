package testgit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/goblame/goblame/internal/txtar"
	"github.com/goblame/goblame/oid"
)

// UpdateEnv is the environment variable that rewrites golden files from
// the installed git 2.39.x: GOBLAME_UPDATE_GOLDEN=1 go test ./...
const UpdateEnv = "GOBLAME_UPDATE_GOLDEN"

// GoldenDir is where a package's golden files live, one per test.
var GoldenDir = filepath.Join("testdata", "golden")

// Case is one git command whose output a test compares with goblame's:
// git's arguments, run in Dir (a fixture's directory or one below it)
// with the hermetic environment for Format plus Env, fed Stdin.
type Case struct {
	Dir    string
	Format oid.Format
	Stdin  []byte
	Env    []string
	Args   []string
	// Stable, when set, is what of git's result is the same on every
	// machine (without the times and inode numbers git ls-files --debug
	// prints, say): the golden file keeps it, and git's result is
	// checked against the golden through it. The caller still gets git's
	// whole result when git runs.
	Stable func(Result) Result
}

// Goldens gives a test git 2.39.5's results for its cases: by running
// git when git 2.39.x is installed (and checking that the committed
// golden file agrees), from the golden file otherwise. See the package
// documentation.
type Goldens struct {
	t    testing.TB
	file *goldenFile
	// liveSkipped counts the cases of Live that had no git to run.
	liveSkipped atomic.Int64
}

// goldenFile is one testdata/golden/<Test>.txtar, shared by the handles of
// a test and its subtests.
type goldenFile struct {
	path string

	mu      sync.Mutex
	comment []byte
	stored  map[string][]byte // members as read from disk
	used    map[string][]byte // members this run produced or read
	// scripts maps a fixture's name and format to its script hash: one
	// name must not stand for two scripts in one golden file.
	scripts map[string]string
	handles int
	changed bool // update mode: a member differs from the stored one
	partial bool // a test failed or ran only in part: keep unused members
}

var (
	goldenMu      sync.Mutex
	goldenFiles   = map[string]*goldenFile{}
	goldenHandles = map[testing.TB]*Goldens{}
)

// Updating reports whether GOBLAME_UPDATE_GOLDEN asks for golden files
// to be rewritten.
func Updating() bool {
	v := os.Getenv(UpdateEnv)
	return v != "" && v != "0"
}

// HaveTargetGit reports whether the installed git is 2.39.x (or
// GOBLAME_TEST_GIT_VERSION says it is).
func HaveTargetGit() bool {
	v, err := Version()
	return err == nil && strings.HasPrefix(v, TargetVersion)
}

// Golden returns the golden outputs of t's test, kept in
// testdata/golden/<Test>.txtar (subtests share their top-level test's
// file). It skips t when no git at all is installed (fixtures need one),
// and fails it when GOBLAME_UPDATE_GOLDEN is set without git 2.39.x.
// Calling it again with the same t returns the same handle.
func Golden(t testing.TB) *Goldens {
	t.Helper()
	goldenMu.Lock()
	g := goldenHandles[t]
	goldenMu.Unlock()
	if g != nil {
		return g
	}
	v, err := Version()
	if err != nil {
		t.Skipf("skipping: git is not available (%v); fixtures are built with it", err)
	}
	if Updating() && !HaveTargetGit() {
		t.Fatalf("%s=1 rewrites golden files from git %sx, but the installed git is %s", UpdateEnv, TargetVersion, v)
	}
	top, _, _ := strings.Cut(t.Name(), "/")
	path := filepath.Join(GoldenDir, top+".txtar")

	goldenMu.Lock()
	defer goldenMu.Unlock()
	f := goldenFiles[path]
	if f == nil {
		f, err = loadGoldenFile(path)
		if err != nil {
			t.Fatalf("golden file: %v", err)
		}
		goldenFiles[path] = f
	}
	f.mu.Lock()
	f.handles++
	f.mu.Unlock()
	g = &Goldens{t: t, file: f}
	goldenHandles[t] = g
	t.Cleanup(g.release)
	return g
}

func loadGoldenFile(path string) (*goldenFile, error) {
	f := &goldenFile{path: path, stored: map[string][]byte{}, used: map[string][]byte{}, scripts: map[string]string{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		f.comment = []byte(goldenComment)
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	a := txtar.Parse(data)
	f.comment = a.Comment
	for _, m := range a.Files {
		if _, dup := f.stored[m.Name]; dup {
			return nil, fmt.Errorf("%s: member %q appears twice", path, m.Name)
		}
		f.stored[m.Name] = m.Data
	}
	raw := maps.Clone(f.stored)
	for name, data := range raw {
		ref, ok := sameAs(data)
		if !ok {
			continue
		}
		target, ok := raw[ref]
		if _, chained := sameAs(target); !ok || chained {
			return nil, fmt.Errorf("%s: member %q is the same as %q, which is not a member with text", path, name, ref)
		}
		f.stored[name] = target
	}
	return f, nil
}

// sameAsPrefix starts a member written as a reference to an earlier one
// with the same text, which keeps golden files of many equal outputs
// small.
const sameAsPrefix = "same as: "

// minShared is the size from which equal members are written once.
const minShared = 256

func sameAs(data []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(sameAsPrefix))
	if !ok || len(rest) == 0 || rest[len(rest)-1] != '\n' || bytes.IndexByte(rest[:len(rest)-1], '\n') >= 0 {
		return "", false
	}
	return string(rest[:len(rest)-1]), true
}

const goldenComment = `Outputs of git 2.39.5 for the cases of one test (internal/testgit's
goldens): a "fingerprint" member per fixture directory, then one member per
command, named <fixture> <format> <dir>: [env] git <args> [< stdin].
Lines are "|text" (text and a newline) or a Go-quoted string of bytes.
A member "same as: <name>" has the text of the earlier member <name>.
Rewritten by GOBLAME_UPDATE_GOLDEN=1 go test with git 2.39.x installed.
`

func (g *Goldens) release() {
	f := g.file
	goldenMu.Lock()
	delete(goldenHandles, g.t)
	goldenMu.Unlock()
	if n := g.liveSkipped.Load(); n > 0 {
		g.t.Logf("not compared: %d of the cases need git %sx itself (no golden output is kept for them)", n, TargetVersion)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if g.t.Failed() || g.t.Skipped() {
		f.partial = true
	}
	f.handles--
	if f.handles > 0 || !Updating() {
		return
	}
	if err := f.write(); err != nil {
		g.t.Errorf("writing golden file: %v", err)
	}
}

// write rewrites the golden file with the members this run used, and the
// unused ones too when the run was partial (a failure, -short, or a -run
// pattern naming subtests). Called with f.mu held.
func (f *goldenFile) write() error {
	keepUnused := f.partial || testing.Short()
	if run := flag.Lookup("test.run"); run != nil && strings.Contains(run.Value.String(), "/") {
		keepUnused = true
	}
	members := map[string][]byte{}
	for k, v := range f.used {
		members[k] = v
	}
	dropped := 0
	for k, v := range f.stored {
		if _, ok := members[k]; ok {
			continue
		}
		if keepUnused {
			members[k] = v
		} else {
			dropped++
		}
	}
	if !f.changed && dropped == 0 {
		return nil
	}
	if len(members) == 0 {
		if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	names := make([]string, 0, len(members))
	for k := range members {
		names = append(names, k)
	}
	sort.Strings(names)
	a := &txtar.Archive{Comment: []byte(goldenComment)}
	first := map[string]string{} // text -> the first member with it
	for _, k := range names {
		data := members[k]
		if len(data) >= minShared {
			if prev, ok := first[string(data)]; ok {
				data = []byte(sameAsPrefix + prev + "\n")
			} else {
				first[string(data)] = k
			}
		}
		a.Files = append(a.Files, txtar.File{Name: k, Data: data})
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
		return err
	}
	tmp := f.path + ".tmp"
	if err := os.WriteFile(tmp, txtar.Format(a), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, f.path); err != nil {
		return err
	}
	f.stored = members
	f.changed = false
	return nil
}

// Run returns git 2.39.5's result for c.
//
// With git 2.39.x installed it runs git, and fails the test if the golden
// file's member for c (or the fingerprint of c's fixture) is missing or
// differs, unless GOBLAME_UPDATE_GOLDEN is set, which records git's
// result instead. With another git it returns the golden member, and
// skips the test when there is none or when the installed git built a
// fixture with other object IDs than git 2.39.5 did.
func (g *Goldens) Run(c Case) Result {
	g.t.Helper()
	res, _ := g.run(c, false)
	return res
}

// Git is Git's golden counterpart: git 2.39.5's standard output for
// args run in dir, failing the test if git failed.
func (g *Goldens) Git(dir string, format oid.Format, args ...string) string {
	g.t.Helper()
	res := g.Run(Case{Dir: dir, Format: format, Args: args})
	if res.ExitCode != 0 {
		g.t.Fatalf("git %s: %s", strings.Join(args, " "), res)
	}
	return string(res.Stdout)
}

// RunOrLive is Run for a test whose cases are made by a program (random
// command lines), where a case may turn out to show the current time:
// such a case's member only records that it is live-only, and RunOrLive
// reports false for it when git 2.39.x is not installed, as Live does.
func (g *Goldens) RunOrLive(c Case) (Result, bool) {
	g.t.Helper()
	return g.run(c, true)
}

// liveOnlyPrefix starts the member of a RunOrLive case whose output is
// dated now.
const liveOnlyPrefix = "live-only: "

func (g *Goldens) run(c Case, allowLive bool) (Result, bool) {
	g.t.Helper()
	fx, ok := lookupFixture(c.Dir)
	if !ok {
		g.t.Fatalf("golden case in %s: not a directory of a fixture built by testgit.Fixture", c.Dir)
	}
	g.checkFingerprint(fx)
	return g.runKeyed(c, fx.caseKey(c), fx.normalize, fx.denormalize, allowLive)
}

// RunInFiles is Run for a command that reads nothing but files the test
// wrote under c.Dir, which is no fixture (git diff --no-index of two
// directories): the case is named by a hash of every file's name and
// bytes under c.Dir instead of a fixture, and c.Dir in git's output is
// kept as ${DIR}. Files written otherwise name another case.
func (g *Goldens) RunInFiles(c Case) Result {
	g.t.Helper()
	sum, err := treeHash(c.Dir)
	if err != nil {
		g.t.Fatalf("golden case in %s: %v", c.Dir, err)
	}
	dir := filepath.Clean(c.Dir)
	norm := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, dir, dirPlaceholder), emptyHome(), homePlaceholder)
	}
	key := caseKey(fmt.Sprintf("files %s %s", sum, c.Format), c, norm)
	replacing := func(pairs ...string) func(Result) Result {
		r := strings.NewReplacer(pairs...)
		return func(res Result) Result {
			return Result{Stdout: []byte(r.Replace(string(res.Stdout))), Stderr: []byte(r.Replace(string(res.Stderr))), ExitCode: res.ExitCode}
		}
	}
	res, _ := g.runKeyed(c, key,
		replacing(dir, dirPlaceholder, emptyHome(), homePlaceholder),
		replacing(dirPlaceholder, dir, homePlaceholder, emptyHome()), false)
	return res
}

const dirPlaceholder = "${DIR}"

// treeHash is a hash of the names and bytes of every file under dir.
func treeHash(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(data))
		h.Write(data)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16], err
}

// runKeyed is Run for a case named key, whose results normalize and
// denormalize put in and take out of the golden file.
func (g *Goldens) runKeyed(c Case, key string, normalize, denormalize func(Result) Result, allowLive bool) (Result, bool) {
	g.t.Helper()
	f := g.file
	if HaveTargetGit() {
		res, err := Run(c.Dir, c.Format, c.Stdin, c.Env, "git", c.Args...)
		if err != nil {
			g.t.Fatalf("git %s: %v", strings.Join(c.Args, " "), err)
		}
		var enc []byte
		if marker := timeDependent(res); marker != "" {
			if !allowLive {
				g.t.Errorf("%s: git's output shows %q, dated with the current time: it cannot be a golden; compare it with Live", key, marker)
				return res, true
			}
			enc = []byte(fmt.Sprintf("%sgit's output shows %q, dated with the current time\n", liveOnlyPrefix, marker))
		} else if c.Stable != nil {
			enc = encodeResult(normalize(c.Stable(res)))
		} else {
			enc = encodeResult(normalize(res))
		}
		f.mu.Lock()
		stored, had := f.stored[key]
		f.used[key] = enc
		same := had && bytes.Equal(stored, enc)
		if !same && Updating() {
			f.changed = true
		}
		f.mu.Unlock()
		if !same && !Updating() {
			if !had {
				g.t.Errorf("%s has no member %q; %s=1 records git's output", f.path, key, UpdateEnv)
			} else {
				g.t.Errorf("%s, member %q, differs from git %s's output (%s=1 rewrites it):\n%s", f.path, key, versionOrUnknown(), UpdateEnv, diffLines(stored, enc))
			}
		}
		return res, true
	}
	f.mu.Lock()
	stored, had := f.stored[key]
	if had {
		f.used[key] = stored
	}
	f.mu.Unlock()
	if !had {
		g.t.Skipf("skipping: %s has no member %q, and the installed git %s is not git %sx (regenerate the goldens with git 2.39.5 and %s=1)", f.path, key, versionOrUnknown(), TargetVersion, UpdateEnv)
	}
	if bytes.HasPrefix(stored, []byte(liveOnlyPrefix)) {
		if !allowLive {
			g.t.Fatalf("%s, member %q, is live-only: compare it with RunOrLive", f.path, key)
		}
		g.liveSkipped.Add(1)
		return Result{}, false
	}
	res, err := decodeResult(stored)
	if err != nil {
		g.t.Fatalf("%s, member %q: %v", f.path, key, err)
	}
	return denormalize(res), true
}

// RequireFixture skips the test, as Run would, unless dir is in a
// fixture whose fingerprint is the one git 2.39.5 gave it (recording it
// under GOBLAME_UPDATE_GOLDEN): for checks that use a fixture without
// asking git for a reference, and trust it to be the one the goldens
// describe.
func (g *Goldens) RequireFixture(dir string) {
	g.t.Helper()
	fx, ok := lookupFixture(dir)
	if !ok {
		g.t.Fatalf("%s: not a directory of a fixture built by testgit.Fixture", dir)
	}
	g.checkFingerprint(fx)
}

// RequireFiles is RequireFixture for tests whose result hangs on the
// bytes of files the fingerprint does not cover, such as a pack damaged
// at a fixed offset (another git may compress it otherwise): each
// pattern (filepath.Glob syntax, relative to dir) gets a member with the
// files it matches and their hashes, and files whose names or bytes are
// not the ones git 2.39.5 made skip the test without git 2.39.x (and
// fail it with git 2.39.x, unless GOBLAME_UPDATE_GOLDEN is set). A
// pattern that matches nothing is recorded as such.
func (g *Goldens) RequireFiles(dir string, patterns ...string) {
	g.t.Helper()
	fx, ok := lookupFixture(dir)
	if !ok {
		g.t.Fatalf("%s: not a directory of a fixture built by testgit.Fixture", dir)
	}
	g.checkFingerprint(fx)
	for _, pattern := range patterns {
		matches, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			g.t.Fatalf("pinned files %s: %v", pattern, err)
		}
		var enc strings.Builder
		for _, m := range matches {
			data, err := os.ReadFile(m)
			if err != nil {
				g.t.Fatalf("pinned file: %v", err)
			}
			rel, _ := filepath.Rel(dir, m)
			sum := sha256.Sum256(data)
			fmt.Fprintf(&enc, "%s: %d bytes, sha256 %s\n", filepath.ToSlash(rel), len(data), hex.EncodeToString(sum[:]))
		}
		if len(matches) == 0 {
			enc.WriteString("no such file\n")
		}
		name := fmt.Sprintf("bytes %s %s %s", fx.name, fx.format, path.Join(fx.sub, filepath.ToSlash(pattern)))
		g.checkMember(name, []byte(enc.String()), func(diff string) string {
			return fmt.Sprintf("skipping the cases of fixture %s (%s): git %s wrote %s other than git 2.39.5 did, so its golden outputs do not apply:\n%s", fx.name, fx.format, versionOrUnknown(), pattern, diff)
		})
	}
}

// Live returns git's result for c when git 2.39.x is installed, and
// false otherwise: for cases that cannot be goldens (their output shows
// the current time, or there are too many to keep). The test's log
// counts the cases it could not compare.
func (g *Goldens) Live(c Case) (Result, bool) {
	g.t.Helper()
	if !HaveTargetGit() {
		g.liveSkipped.Add(1)
		return Result{}, false
	}
	res, err := Run(c.Dir, c.Format, c.Stdin, c.Env, "git", c.Args...)
	if err != nil {
		g.t.Fatalf("git %s: %v", strings.Join(c.Args, " "), err)
	}
	return res, true
}

func versionOrUnknown() string {
	v, err := Version()
	if err != nil {
		return "(none)"
	}
	return v
}

// timeDependent names what in git's output depends on the clock: lines
// not committed yet, which blame dates now.
func timeDependent(res Result) string {
	for _, m := range []string{"Not Committed Yet", "not.committed.yet", "External file (--contents)"} {
		if bytes.Contains(res.Stdout, []byte(m)) {
			return m
		}
	}
	return ""
}

// checkFingerprint compares the fixture directory's fingerprint with the
// golden file's: in live mode a difference fails (or is recorded), in
// golden mode it skips, since the goldens were made on other objects.
func (g *Goldens) checkFingerprint(fx fixtureDir) {
	g.t.Helper()
	f := g.file
	fp, err := fx.fingerprint()
	if err != nil {
		g.t.Fatalf("fingerprint of %s: %v", fx.dir, err)
	}
	f.mu.Lock()
	id := fx.name + " " + fx.format.String()
	if prev, ok := f.scripts[id]; ok && prev != fx.scriptHash {
		f.mu.Unlock()
		g.t.Fatalf("fixture name %q (%s) stands for two scripts in one test; give each its own name", fx.name, fx.format)
	}
	f.scripts[id] = fx.scriptHash
	f.mu.Unlock()
	g.checkMember(fx.fingerprintName(), []byte(fp), func(diff string) string {
		return fmt.Sprintf("skipping the cases of fixture %s (%s, %s): git %s built it other than git 2.39.5 did, so its golden outputs do not apply:\n%s", fx.name, fx.format, fx.sub, versionOrUnknown(), diff)
	})
}

// checkMember compares a member that describes the fixture (not a git
// result) with what this machine computed: in live mode a difference
// fails once (or is recorded), in golden mode it skips with the message
// otherFixture makes of the difference.
func (g *Goldens) checkMember(name string, enc []byte, otherFixture func(diff string) string) {
	g.t.Helper()
	f := g.file
	f.mu.Lock()
	stored, had := f.stored[name]
	_, seen := f.used[name]
	f.used[name] = enc
	same := had && bytes.Equal(stored, enc)
	if !same && Updating() {
		f.changed = true
	}
	f.mu.Unlock()
	if same {
		return
	}
	if HaveTargetGit() {
		if !seen && !Updating() {
			if !had {
				g.t.Errorf("%s has no member %q; %s=1 records it", f.path, name, UpdateEnv)
			} else {
				g.t.Errorf("%s, member %q, differs from the fixture git %s built (%s=1 rewrites it):\n%s", f.path, name, versionOrUnknown(), UpdateEnv, diffLines(stored, enc))
			}
		}
		return
	}
	if !had {
		g.t.Skipf("skipping: %s has no member %q, and the installed git %s is not git %sx (regenerate the goldens with git 2.39.5 and %s=1)", f.path, name, versionOrUnknown(), TargetVersion, UpdateEnv)
	}
	g.t.Skip(otherFixture(diffLines(stored, enc)))
}

// diffLines shows the first line where two encodings differ.
func diffLines(want, got []byte) string {
	wl := strings.SplitAfter(string(want), "\n")
	gl := strings.SplitAfter(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n  golden %q\n  now    %q", i+1, w, g)
		}
	}
	return "(no difference)"
}

// fixtureDir is a directory of a built fixture: the fixture and the path
// below its work directory ("." for the top).
type fixtureDir struct {
	fixtureInfo
	dir string
	sub string
}

func (fx fixtureDir) fingerprintName() string {
	return fmt.Sprintf("fingerprint %s %s %s", fx.name, fx.format, fx.sub)
}

// caseKey names c in the golden file: fixture, format, directory, the
// extra environment, git's arguments and standard input, with the
// fixture's path replaced and long or unprintable words quoted or hashed.
func (fx fixtureDir) caseKey(c Case) string {
	return caseKey(fmt.Sprintf("%s %s %s", fx.name, fx.format, fx.sub), c, fx.normalizeString)
}

// caseKey names c in a golden file: where (a fixture directory, or
// files), then the environment, git's arguments and standard input.
func caseKey(where string, c Case, normalize func(string) string) string {
	var b strings.Builder
	b.WriteString(where + ":")
	for _, e := range c.Env {
		b.WriteByte(' ')
		b.WriteString(keyWord(normalize(e)))
	}
	b.WriteString(" git")
	for _, a := range c.Args {
		b.WriteByte(' ')
		b.WriteString(keyWord(normalize(a)))
	}
	if c.Stdin != nil {
		b.WriteString(" < ")
		b.WriteString(keyWord(string(c.Stdin)))
	}
	return b.String()
}

// keyWord is a word of a case key: as it is when plain, Go-quoted when
// it holds spaces, quotes or unprintable bytes, a hash when long.
func keyWord(s string) string {
	if len(s) > 200 {
		sum := sha256.Sum256([]byte(s))
		return fmt.Sprintf("<%d bytes, sha256 %s>", len(s), hex.EncodeToString(sum[:8]))
	}
	if s == "" {
		return `""`
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || c == '"' || c == '\'' || c == '\\' || c == '<' {
			return strconv.Quote(s)
		}
	}
	return s
}

const (
	fixturePlaceholder = "${FIXTURE}"
	// fixtureRelPlaceholder stands for the fixture's directory without
	// its leading slash: what git prints as the prefix of a directory
	// under a work tree at the root (core.worktree = /).
	fixtureRelPlaceholder = "${FIXTURE#/}"
	homePlaceholder       = "${HOME}"
)

func (fx fixtureDir) normalizeString(s string) string { return fx.normalizer().Replace(s) }

// normalizer replaces the paths that differ between machines (the
// fixture's directory, with and without its leading slash, and the empty
// home) with placeholders; denormalizer puts this machine's back. (The
// directory's name holds a hash of the git that built it.)
func (fx fixtureDir) normalizer() *strings.Replacer {
	return strings.NewReplacer(fx.root, fixturePlaceholder, strings.TrimPrefix(fx.root, "/"), fixtureRelPlaceholder,
		emptyHome(), homePlaceholder)
}

func (fx fixtureDir) denormalizer() *strings.Replacer {
	return strings.NewReplacer(fixturePlaceholder, fx.root, fixtureRelPlaceholder, strings.TrimPrefix(fx.root, "/"),
		homePlaceholder, emptyHome())
}

// normalize writes a result with normalizer's placeholders; denormalize
// puts this machine's paths back.
func (fx fixtureDir) normalize(res Result) Result {
	r := fx.normalizer()
	return Result{Stdout: []byte(r.Replace(string(res.Stdout))), Stderr: []byte(r.Replace(string(res.Stderr))), ExitCode: res.ExitCode}
}

func (fx fixtureDir) denormalize(res Result) Result {
	r := fx.denormalizer()
	return Result{Stdout: []byte(r.Replace(string(res.Stdout))), Stderr: []byte(r.Replace(string(res.Stderr))), ExitCode: res.ExitCode}
}

// maxListedRefs is how many refs a fingerprint lists; more are hashed.
const maxListedRefs = 50

var (
	fingerprintMu    sync.Mutex
	fingerprintCache = map[string]string{}
)

// fingerprint is what identifies the repository a fixture directory holds
// for any git: the fixture script's hash, HEAD, every ref (their hash
// past maxListedRefs) and the index.
// Object IDs come from the scripts' fixed names and dates, so a modern
// git gives git 2.39.5's; where one does not, this differs.
func (fx fixtureDir) fingerprint() (string, error) {
	fingerprintMu.Lock()
	fp, ok := fingerprintCache[fx.dir]
	fingerprintMu.Unlock()
	if ok {
		return fp, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "script %s\n", fx.scriptHash)
	git := func(args ...string) (Result, error) {
		return Run(fx.dir, fx.format, nil, nil, "git", args...)
	}
	res, err := git("rev-parse", "--verify", "-q", "HEAD")
	if err != nil {
		return "", err
	}
	if head := strings.TrimSpace(string(res.Stdout)); res.ExitCode == 0 && head != "" {
		fmt.Fprintf(&b, "HEAD %s\n", head)
	} else {
		b.WriteString("HEAD -\n")
	}
	res, err = git("for-each-ref", "--format=%(objectname) %(refname)")
	if err != nil {
		return "", err
	}
	switch {
	case res.ExitCode != 0:
		b.WriteString("refs -\n")
	case bytes.Count(res.Stdout, []byte("\n")) > maxListedRefs:
		sum := sha256.Sum256(res.Stdout)
		fmt.Fprintf(&b, "refs: %d, sha256 %s\n", bytes.Count(res.Stdout, []byte("\n")), hex.EncodeToString(sum[:8]))
	default:
		b.Write(res.Stdout)
	}
	res, err = git("rev-parse", "--is-inside-work-tree")
	if err != nil {
		return "", err
	}
	index := "-"
	if res.ExitCode == 0 && strings.TrimSpace(string(res.Stdout)) == "true" {
		res, err = git("ls-files", "--stage")
		if err != nil {
			return "", err
		}
		if res.ExitCode == 0 {
			sum := sha256.Sum256(res.Stdout)
			index = hex.EncodeToString(sum[:8])
		}
	}
	fmt.Fprintf(&b, "index %s\n", index)
	fp = b.String()
	fingerprintMu.Lock()
	fingerprintCache[fx.dir] = fp
	fingerprintMu.Unlock()
	return fp, nil
}

// encodeResult writes a result as member text: "exit N", then "stdout:"
// and "stderr:" sections (left out when empty) whose lines are "|text"
// for a line of printable text ending in a newline, and a Go-quoted
// string for any other (control bytes, invalid UTF-8, trailing blanks, a
// last line without a newline), cut after each NUL. No line can look like
// a txtar marker.
func encodeResult(res Result) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "exit %d\n", res.ExitCode)
	for _, s := range []struct {
		name string
		data []byte
	}{{"stdout", res.Stdout}, {"stderr", res.Stderr}} {
		if len(s.data) == 0 {
			continue
		}
		b.WriteString(s.name + ":\n")
		data := s.data
		for len(data) > 0 {
			line := data
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				line, data = data[:i+1], data[i+1:]
			} else {
				data = nil
			}
			if plainLine(line) {
				b.WriteByte('|')
				b.Write(line)
			} else {
				// Quoted, one string per NUL-terminated piece, so that
				// NUL-separated output (-z) reads a record a line.
				for len(line) > 0 {
					piece := line
					if i := bytes.IndexByte(line, 0); i >= 0 && i+1 < len(line) {
						piece = line[:i+1]
					}
					line = line[len(piece):]
					b.WriteString(strconv.Quote(string(piece)))
					b.WriteByte('\n')
				}
			}
		}
	}
	return b.Bytes()
}

// plainLine reports whether line is printable UTF-8 text ending in a
// newline, with no blank before it.
func plainLine(line []byte) bool {
	n := len(line)
	if n == 0 || line[n-1] != '\n' {
		return false
	}
	text := line[:n-1]
	if len(text) > 0 && (text[len(text)-1] == ' ' || text[len(text)-1] == '\t') {
		return false
	}
	if !utf8.Valid(text) {
		return false
	}
	for _, r := range string(text) {
		if r < ' ' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// decodeResult reads what encodeResult wrote.
func decodeResult(data []byte) (Result, error) {
	var res Result
	var cur *[]byte
	lineNo := 0
	for len(data) > 0 {
		lineNo++
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			return res, fmt.Errorf("line %d: no final newline", lineNo)
		}
		text := string(line[:len(line)-1])
		switch {
		case lineNo == 1:
			n, ok := strings.CutPrefix(text, "exit ")
			code, err := strconv.Atoi(n)
			if !ok || err != nil {
				return res, fmt.Errorf("line 1: %q, want \"exit N\"", text)
			}
			res.ExitCode = code
		case text == "stdout:" && res.Stdout == nil && res.Stderr == nil:
			res.Stdout = []byte{}
			cur = &res.Stdout
		case text == "stderr:" && res.Stderr == nil:
			res.Stderr = []byte{}
			cur = &res.Stderr
		case cur != nil && strings.HasPrefix(text, "|"):
			*cur = append(*cur, line[1:]...)
		case cur != nil && strings.HasPrefix(text, `"`):
			s, err := strconv.Unquote(text)
			if err != nil {
				return res, fmt.Errorf("line %d: %v", lineNo, err)
			}
			*cur = append(*cur, s...)
		default:
			return res, fmt.Errorf("line %d: unexpected %q", lineNo, text)
		}
	}
	if lineNo == 0 {
		return res, errors.New("empty member")
	}
	return res, nil
}
