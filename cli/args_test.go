package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/goblame/goblame/internal/cnum"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// argsFixture is a small history in which most blame options change the
// output: a whitespace-only change (-w), lines copied from another file
// (-C), a merged side branch (--first-parent), a rename (--no-follow),
// commits on both sides of a --since date, an annotated tag, a tracked
// file named like a tag ("v1"), helper files for --ignore-revs-file, -S
// and --contents, and a bare clone.
const argsFixture = `
git init -q
mkdir sub
cat >file <<'EOF'
line one
line two
line three
line four of the file with enough text to be matched
line five of the file with enough text to be matched
line six
line seven
line eight
EOF
cat >other <<'EOF'
other one with quite a lot of words that will be copied later on
other two with quite a lot of words that will be copied later on
other three
EOF
printf 'sub file\n' >sub/f
printf 'tracked file named like a tag\n' >v1
commit_all one
git tag v1
git checkout -q -b side
sed -i 's/line one/line one on the side branch/' file
commit_all side
git checkout -q main
sed -i 's/line four of the file/line  four of  the file/' file
cat other >>file
commit_all two
test_tick
git merge -q --no-edit side
git mv other other2
echo "other four" >>other2
commit_all rename
test_tick
git tag -a -m annotated v2
git rev-parse v1 >ignorelist
git rev-parse side >ignorelist2
git rev-parse HEAD~1 >grafts
printf 'new first line\nline three\n' >contents.txt
git clone -q --bare . bare.git
`

// argsDateNow pins "now" for relative dates in both git runs.
const argsDateNow = "GIT_TEST_DATE_NOW=1113000000"

type argsRepo struct {
	dir    string // work tree
	bare   string // bare clone
	format oid.Format

	mu sync.Mutex
	// resolved caches git's answers by golden file (the top-level test),
	// directory and name, so that each test's goldens record the ones it
	// asked.
	resolved map[string]ResolvedName
}

var (
	argsReposMu sync.Mutex
	argsRepos   = map[oid.Format]*argsRepo{}
)

func argsFixtureRepo(t *testing.T, format oid.Format) *argsRepo {
	t.Helper()
	dir := testgit.Fixture(t, "cli-args", format, argsFixture)
	argsReposMu.Lock()
	defer argsReposMu.Unlock()
	r := argsRepos[format]
	if r == nil {
		r = &argsRepo{dir: dir, bare: filepath.Join(dir, "bare.git"), format: format, resolved: map[string]ResolvedName{}}
		argsRepos[format] = r
	}
	return r
}

// resolve answers as git 2.39.5 does (git itself, or its goldens):
// get_oid (rev-parse --verify), the object's existence (cat-file -e),
// peeling to a commit.
func (r *argsRepo) resolve(t *testing.T, liveOnly bool, dir, name string) ResolvedName {
	t.Helper()
	top, _, _ := strings.Cut(t.Name(), "/")
	key := top + "\x00" + dir + "\x00" + name
	r.mu.Lock()
	k, ok := r.resolved[key]
	r.mu.Unlock()
	if ok {
		return k
	}
	run := func(args ...string) (string, bool) {
		res, _ := argsGit(t, liveOnly, testgit.Case{Dir: dir, Format: r.format, Args: args})
		return strings.TrimSpace(string(res.Stdout)), res.ExitCode == 0
	}
	k = ResolvedName{}
	if id, ok := run("rev-parse", "--verify", "--quiet", "--end-of-options", name); ok {
		k.Kind = NameMissing
		if _, ok := run("cat-file", "-e", id); ok {
			k.Kind = NameObject
			if _, ok := run("rev-parse", "--verify", "--quiet", "--end-of-options", id+"^{commit}"); ok {
				k.Kind = NameCommittish
			} else {
				k.PeeledHex, _ = run("rev-parse", "--verify", "--quiet", "--end-of-options", id+"^{}")
				k.PeeledType, _ = run("cat-file", "-t", k.PeeledHex)
			}
		}
	}
	r.mu.Lock()
	r.resolved[key] = k
	r.mu.Unlock()
	return k
}

// argsCase is one command line run through git and ParseArgs.
type argsCase struct {
	args     []string
	annotate bool     // run as git annotate
	bare     bool     // run in the bare clone
	config   []string // "key=value" given to git with -c (and applied to the defaults)
	// want checks the decoded fields of a command line git accepts.
	want func(t *testing.T, a *BlameArgs, hexsz int)
	// later is what git reports after parsing, at a stage ParseArgs leaves
	// to the driver (the test checks git says exactly this, with exit
	// status laterCode: 128, or 129 for a malformed -L).
	later     string
	laterCode int
	// liveOnly compares with git 2.39.x only, keeping no goldens: for
	// command lines other than the committed cases (a random run with
	// another seed or count).
	liveOnly bool
}

func (c argsCase) name() string {
	var b strings.Builder
	if c.annotate {
		b.WriteString("annotate ")
	}
	if c.bare {
		b.WriteString("bare ")
	}
	for _, kv := range c.config {
		b.WriteString("-c " + kv + " ")
	}
	b.WriteString(strings.Join(quoteArgs(c.args), " "))
	return b.String()
}

func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"\\") {
			a = strconv.Quote(a)
		}
		out[i] = a
	}
	return out
}

// gitRun gives git 2.39.5's result for git blame (or annotate) with args
// in dir: git's own, or the golden one; false when the output is dated
// now (lines not committed yet) and git 2.39.x is not installed.
func (r *argsRepo) gitRun(t *testing.T, liveOnly bool, dir string, annotate bool, config, args []string) (testgit.Result, bool) {
	t.Helper()
	var argv []string
	for _, kv := range config {
		argv = append(argv, "-c", kv)
	}
	if annotate {
		argv = append(argv, "annotate")
	} else {
		argv = append(argv, "blame")
	}
	argv = append(argv, args...)
	return argsGit(t, liveOnly, testgit.Case{Dir: dir, Format: r.format, Env: []string{argsDateNow}, Args: argv})
}

// argsGit gives git 2.39.5's result for c: from the goldens (see
// Goldens.RunOrLive), or, for a live-only case, from git 2.39.x, which
// the test has made sure is installed.
func argsGit(t *testing.T, liveOnly bool, c testgit.Case) (testgit.Result, bool) {
	t.Helper()
	if !liveOnly {
		return testgit.Golden(t).RunOrLive(c)
	}
	res, err := testgit.Run(c.Dir, c.Format, c.Stdin, c.Env, "git", c.Args...)
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(c.Args, " "), err)
	}
	return res, true
}

// parseContext builds what the driver would pass: the configuration of
// the case applied to the defaults, and the repository callbacks.
func (r *argsRepo) parseContext(t *testing.T, c argsCase, dir string) (BlameArgs, ParseContext, *strings.Builder) {
	t.Helper()
	callbackOutput := new(strings.Builder)
	defaults := DefaultBlameArgs()
	ctx := ParseContext{
		Annotate: c.annotate,
		Format:   r.format,
		Bare:     c.bare,
		Resolve:  func(name string) ResolvedName { return r.resolve(t, c.liveOnly, dir, name) },
		ReadRevsFile: func(path string) error {
			data, err := os.ReadFile(filepath.Join(dir, path))
			if path == "" {
				err = os.ErrNotExist // fopen("")
			}
			if err != nil {
				return fatalf("reading graft file '%s' failed: %s", path, errnoText(err))
			}
			// git's read_graft_line reports bad lines and goes on.
			for _, line := range strings.Split(string(data), "\n") {
				line = strings.TrimRight(line, " \t\n\v\f\r")
				if line != "" && line[0] != '#' && !validGraftLine(line, r.format.HexSize()) {
					callbackOutput.WriteString(reportLine("error: ", "bad graft data: "+line))
				}
			}
			return nil
		},
		OpenDiffOutput: func(path string) error {
			f, err := os.Create(path)
			if err != nil {
				return fatalf("could not open '%s' for writing: %s", path, errnoText(err))
			}
			return f.Close()
		},
	}
	for _, kv := range c.config {
		key, value, _ := strings.Cut(kv, "=")
		switch key {
		case "blame.showRoot":
			defaults.ShowRoot = value == "true"
		case "blame.blankBoundary":
			defaults.BlankBoundary = value == "true"
		case "blame.showEmail":
			defaults.ShowEmail = value == "true"
		case "blame.date":
			mode, err := ParseDateFormat(value, false)
			if err != nil {
				t.Fatalf("config %s: %v", kv, err)
			}
			defaults.Date = mode
		case "blame.ignoreRevsFile":
			defaults.IgnoreRevsFiles = append(defaults.IgnoreRevsFiles, value)
		case "core.abbrev":
			switch value {
			case "auto":
			case "no":
				ctx.CoreAbbrev = r.format.HexSize()
			default:
				ctx.CoreAbbrev, _ = strconv.Atoi(value)
			}
		default:
			if name, ok := strings.CutPrefix(key, "pretty."); ok {
				ctx.PrettyFormats = append(ctx.PrettyFormats, PrettyFormat{Name: name, Value: value})
				continue
			}
			t.Fatalf("test does not know config %s", key)
		}
	}
	return defaults, ctx, callbackOutput
}

// validGraftLine checks "<commit> <parent>..." as read_graft_line does.
func validGraftLine(line string, hexsz int) bool {
	for {
		if len(line) < hexsz || strings.Trim(line[:hexsz], "0123456789abcdefABCDEF") != "" {
			return false
		}
		line = line[hexsz:]
		if line == "" {
			return true
		}
		if !cnum.IsSpace(line[0]) {
			return false
		}
		line = line[1:]
	}
}

func errnoText(err error) string {
	if errors.Is(err, os.ErrNotExist) {
		return "No such file or directory"
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		s := pe.Err.Error()
		return strings.ToUpper(s[:1]) + s[1:]
	}
	return err.Error()
}

// canonicalArgs rebuilds a command line from a parse, with one plain
// spelling per setting and no configuration. git gives the same output for
// it as for the original command line exactly when the parse kept
// everything that matters.
func canonicalArgs(a *BlameArgs, hexsz int) []string {
	var out []string
	add := func(on bool, args ...string) {
		if on {
			out = append(out, args...)
		}
	}
	add(a.Incremental, "--incremental")
	add(a.BlankBoundary, "-b")
	add(a.ShowRoot, "--root")
	add(a.ShowStats, "--show-stats")
	add(a.Progress == 1, "--progress")
	add(a.Progress == 0 && !a.Incremental && !a.Porcelain, "--no-progress")
	add(a.ScoreDebug, "--score-debug")
	add(a.ShowName, "-f")
	add(a.ShowNumber, "-n")
	switch {
	case a.Porcelain && a.LinePorcelain:
		out = append(out, "--line-porcelain")
	case a.Porcelain:
		out = append(out, "--porcelain")
	case a.LinePorcelain:
		out = append(out, "--line-porcelain", "--no-porcelain")
	}
	add(a.Annotate, "-c")
	add(a.RawTime, "-t")
	add(a.LongHash, "-l")
	add(a.NoAuthor, "-s")
	add(a.ShowEmail, "-e")
	add(a.IgnoreWhitespace, "-w")
	add(a.Minimal, "--minimal")
	add(a.ColorLines, "--color-lines")
	add(a.ColorByAge, "--color-by-age")
	for _, r := range a.IgnoreRevs {
		out = append(out, "--ignore-rev", r)
	}
	for _, f := range a.IgnoreRevsFiles {
		out = append(out, "--ignore-revs-file", f)
	}
	if a.RevsFile != nil {
		out = append(out, "-S", *a.RevsFile)
	}
	if a.Contents != nil {
		out = append(out, "--contents", *a.Contents)
	}
	if a.Move && a.CopyLevel == 0 {
		if a.MoveScore != 0 {
			out = append(out, "-M"+strconv.FormatUint(uint64(a.MoveScore), 10))
		} else {
			out = append(out, "-M")
		}
	}
	if a.MoveScore != 0 && a.CopyLevel > 0 {
		out = append(out, "-M"+strconv.FormatUint(uint64(a.MoveScore), 10))
	}
	for i := 0; i < a.CopyLevel; i++ {
		if i == a.CopyLevel-1 && a.CopyScore != 0 {
			out = append(out, "-C"+strconv.FormatUint(uint64(a.CopyScore), 10))
		} else {
			out = append(out, "-C")
		}
	}
	for _, r := range a.Ranges {
		out = append(out, "-L", r)
	}
	switch {
	case a.Abbrev < 0:
	case a.Abbrev >= hexsz:
		out = append(out, "--no-abbrev")
	default:
		out = append(out, "--abbrev="+strconv.Itoa(a.Abbrev-1))
	}
	add(a.Reverse, "--reverse")
	add(a.FirstParent, "--first-parent")
	if a.Since != nil {
		if a.Since.Epoch {
			out = append(out, "--max-age="+a.Since.Value)
		} else {
			out = append(out, "--since="+a.Since.Value)
		}
	}
	out = append(out, "--date="+a.Date.String())
	if a.Encoding != nil {
		if *a.Encoding == "" {
			out = append(out, "--encoding=none")
		} else {
			out = append(out, "--encoding="+*a.Encoding)
		}
	}
	if a.IndentHeuristic != nil {
		add(*a.IndentHeuristic, "--indent-heuristic")
		add(!*a.IndentHeuristic, "--no-indent-heuristic")
	}
	add(!a.TextConv, "--no-textconv")
	add(a.NoFollow, "--no-follow")
	// Revision options that shape the walk: replayed, not checked.
	if a.Rev.Default != nil {
		out = append(out, "--default", *a.Rev.Default)
	}
	add(a.Rev.ExcludeFirstParentOnly, "--exclude-first-parent-only")
	add(a.Rev.AncestryPath, "--ancestry-path")
	for _, b := range a.Rev.AncestryPathBottoms {
		out = append(out, "--ancestry-path="+b)
	}
	add(a.Rev.SimplifyByDecoration, "--simplify-by-decoration")
	add(a.Rev.SimplifyMerges && !a.Rev.SimplifyByDecoration, "--simplify-merges")
	add(a.Rev.WalkReflogs, "-g")
	add(a.Rev.ShowMerge, "--merge")
	// A revision word that looks like an option (a pseudo revision only
	// setup_revisions knows) can only come after the path.
	if len(a.RevArgs) == 1 && strings.HasPrefix(a.RevArgs[0], "-") && !isPassThroughPseudo(a.RevArgs[0]) {
		return append(out, "--", a.Path, a.RevArgs[0])
	}
	out = append(out, a.RevArgs...)
	if a.NoDashDash {
		out = append(out, "--end-of-options")
	} else {
		out = append(out, "--")
	}
	return append(out, a.Path)
}

// runArgsCase compares one command line: git's output with ParseArgs'
// error, or, when both accept it, git's output with git's output for the
// canonical command line rebuilt from the parse. git's outputs are git
// 2.39.5's, from the goldens where git 2.39.x is not installed; a command
// line whose output is dated now is compared only with git 2.39.x.
func runArgsCase(t *testing.T, r *argsRepo, c argsCase) {
	dir := r.dir
	if c.bare {
		dir = r.bare
	}
	gitRes, live := r.gitRun(t, c.liveOnly, dir, c.annotate, c.config, slices.Clone(c.args))
	if !live {
		return
	}
	if gitRes.ExitCode == -1 && strings.HasPrefix(string(gitRes.Stderr), "BUG: ") {
		gitRes.ExitCode = 134 // killed by SIGABRT, as a shell reports it
	}
	defaults, ctx, callbackOutput := r.parseContext(t, c, dir)
	got, err := ParseArgs(slices.Clone(c.args), defaults, ctx)

	var ue *UsageError
	var fe *FatalError
	switch {
	case errors.As(err, &ue):
		compareResult(t, gitRes, testgit.Result{Stdout: []byte(ue.Stdout), Stderr: []byte(callbackOutput.String() + ue.Stderr), ExitCode: ue.ExitCode})
		if c.want != nil {
			t.Errorf("ParseArgs rejected a command line the case expects to be accepted: %v", err)
		}
		return
	case errors.As(err, &fe):
		compareResult(t, gitRes, testgit.Result{Stderr: []byte(callbackOutput.String() + fe.Stderr()), ExitCode: fe.ExitCode()})
		if c.want != nil {
			t.Errorf("ParseArgs rejected a command line the case expects to be accepted: %v", err)
		}
		return
	case err != nil:
		t.Fatalf("ParseArgs: unexpected error type %T: %v", err, err)
	}

	malformedRange := len(got.Ranges) > 0 && string(gitRes.Stderr) == callbackOutput.String()+UsageLine(c.annotate)
	if gitRes.ExitCode == 129 && c.later == "" && !malformedRange {
		t.Fatalf("ParseArgs accepted a command line git rejects:\n%s\nparse: %+v", gitRes, got)
	}
	if c.want != nil {
		c.want(t, got, r.format.HexSize())
	}
	if c.later != "" {
		code := c.laterCode
		if code == 0 {
			code = 128
		}
		if string(gitRes.Stderr) != c.later || gitRes.ExitCode != code {
			t.Errorf("git reported\n%s\nwant exit %d and stderr %q", gitRes, code, c.later)
		}
	}

	// The canonical command line keeps configuration that BlameArgs does
	// not carry (core.*, pretty.*), and drops blame.*, which it spells out
	// (git annotate keeps blame.date, whose "-local" it uses).
	var config []string
	for _, kv := range c.config {
		if !strings.HasPrefix(kv, "blame.") || (c.annotate && strings.HasPrefix(kv, "blame.date=")) {
			config = append(config, kv)
		}
	}
	canonical := canonicalArgs(got, r.format.HexSize())
	canonRes, live := r.gitRun(t, c.liveOnly, dir, c.annotate, config, canonical)
	if !live {
		t.Fatalf("git's output for %s is dated now, but its output for the canonical command line is not: %s", c.name(), strings.Join(quoteArgs(canonical), " "))
	}

	// setup_revisions' checks come after the revisions are resolved: git
	// reports them unless resolving failed first, which the canonical
	// command line (without the options the checks are about) shows.
	if err := got.CheckRevisionSetup(false, got.NoWalk()); err != nil {
		fe := err.(*FatalError)
		mine := testgit.Result{Stderr: []byte(callbackOutput.String() + fe.Stderr()), ExitCode: 128}
		switch {
		case resultsEqual(gitRes, mine):
		case canonRes.ExitCode != 0 && resultsEqual(gitRes, canonRes):
			// Resolving the revisions failed before the check.
		default:
			t.Errorf("CheckRevisionSetup: %v; git:%s", err, describeDifference(gitRes, mine))
		}
		if c.later != "" {
			t.Errorf("CheckRevisionSetup: %v, but the case expects git to report %q", err, c.later)
		}
		return
	}

	// Output naming the current time (uncommitted lines) can straddle a
	// second between the two runs: run both again before judging.
	for attempt := 0; attempt < 3 && !resultsEqual(gitRes, canonRes) &&
		bytes.Contains(gitRes.Stdout, []byte("Not Committed Yet")); attempt++ {
		gitRes, _ = r.gitRun(t, c.liveOnly, dir, c.annotate, c.config, slices.Clone(c.args))
		canonRes, _ = r.gitRun(t, c.liveOnly, dir, c.annotate, config, canonical)
	}
	if !resultsEqual(gitRes, canonRes) {
		t.Errorf("git's output for the canonical command line differs, so the parse missed something\ncanonical: %s%s",
			strings.Join(quoteArgs(canonical), " "), describeDifference(gitRes, canonRes))
	}
}

func resultsEqual(a, b testgit.Result) bool {
	return a.ExitCode == b.ExitCode && string(a.Stdout) == string(b.Stdout) && string(a.Stderr) == string(b.Stderr)
}

func compareResult(t *testing.T, git, got testgit.Result) {
	t.Helper()
	if !resultsEqual(git, got) {
		t.Errorf("output differs from git's: %s", describeDifference(git, got))
	}
}

// describeDifference says where two results differ, briefly.
func describeDifference(want, got testgit.Result) string {
	var b strings.Builder
	if want.ExitCode != got.ExitCode {
		fmt.Fprintf(&b, "\nexit status: git %d, goblame %d", want.ExitCode, got.ExitCode)
	}
	for _, s := range []struct {
		name      string
		want, got []byte
	}{{"stdout", want.Stdout, got.Stdout}, {"stderr", want.Stderr, got.Stderr}} {
		if string(s.want) == string(s.got) {
			continue
		}
		wl := strings.SplitAfter(string(s.want), "\n")
		gl := strings.SplitAfter(string(s.got), "\n")
		i := 0
		for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
			i++
		}
		line := func(l []string) string {
			if i < len(l) {
				return strconv.Quote(l[i])
			}
			return "(end)"
		}
		fmt.Fprintf(&b, "\n%s line %d: git %s\n%*s goblame %s", s.name, i+1, line(wl), len(s.name)+len(strconv.Itoa(i+1))+7, "", line(gl))
	}
	return b.String()
}

func TestArgsAgainstGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	cases := argsCases(t)
	if len(cases) < 300 {
		t.Fatalf("only %d cases", len(cases))
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name()] {
			t.Errorf("duplicate case %s", c.name())
		}
		seen[c.name()] = true
	}
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			r := argsFixtureRepo(t, format)
			for _, c := range cases {
				t.Run(c.name(), func(t *testing.T) {
					t.Parallel()
					runArgsCase(t, r, c)
				})
			}
		})
	}
}

func expect(t *testing.T, what string, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}
