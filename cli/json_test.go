package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/blame"
	"github.com/goblame/goblame/internal/cquote"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/testjson"
	"github.com/goblame/goblame/internal/testpack"
	"github.com/goblame/goblame/oid"
)

// jsonFixtures are the fixture repositories of the cli tests (their
// names and scripts as the other tests build them). Every file at HEAD
// of the first directory is blamed at HEAD and, in a work tree, in the
// working tree; the other directories (copies: bare, shallow, grafted,
// damaged, ...) blame copyFile at HEAD; spread names the files blamed
// with more options (in SHA-256 repositories jsonEveryOption is cut to
// jsonBasicOptions, to keep the golden file small). The copies of
// cli-damage are damaged repositories, where goblame's messages are its
// own (see TestDamagedRepositories): they are compared by exit status
// and the entries printed before the failure.
var jsonFixtures = []struct {
	name, script string
	dirs         []string
	copyFile     string
	spread       map[string][]jsonOption
}{
	{"cli-history", historyScript, []string{"r"}, "", map[string][]jsonOption{
		"file": jsonEveryOption, "moved.txt": jsonBasicOptions, ".mailmap": jsonBasicOptions}},
	{"cli-worktree", worktreeScript, []string{"r"}, "", map[string][]jsonOption{
		"file": jsonWorkTreeOptions, "moved.txt": jsonWorkTreeOptions}},
	{"cli-moves", movesScript, []string{"r"}, "", map[string][]jsonOption{
		"main.c": jsonEveryOption, "copy.c": jsonBasicOptions, "util.c": jsonBasicOptions}},
	{"cli-special", specialScript, []string{"r", "bare.git", "shallow", "grafted", "replaced", "wt", "crlf"}, "file", map[string][]jsonOption{
		"file": jsonBasicOptions, ".mailmap": jsonWorkTreeOptions}},
	{"cli-encodings", encodingScript, []string{"r"}, "", map[string][]jsonOption{
		"file": {{args: []string{"--encoding=ISO-8859-1", "HEAD"}, final: "HEAD"}}}},
	// Commits in many encodings, shown in SJIS (r-logout's
	// i18n.logOutputEncoding) and as they are (--encoding=none): names
	// and summaries that are not UTF-8 come with their bytes.
	// SHA-1 only: the encodings do not depend on the object format, and
	// the blames are 20 KB each.
	{"cli-encodings-every-format", encodingsScript, []string{"r-logout"}, "", map[string][]jsonOption{
		"file": {{args: []string{"--encoding=none", "HEAD"}, final: "HEAD"}}}},
	{"cli-worktree-bloom", bloomScript, []string{"r"}, "", map[string][]jsonOption{"file": jsonBasicOptions}},
	{"cli-funcname", funcnameScript, []string{"r"}, "", map[string][]jsonOption{
		"code.c":    {{args: []string{"-L", ":first", "HEAD"}, final: "HEAD"}},
		"notes.txt": {{args: []string{"-L", ":two", "HEAD"}, final: "HEAD"}}}},
	{"cli-textconv", textconvScript, []string{"r"}, "", nil},
	{"cli-edges", edgesScript, []string{"r"}, "", nil},
	{"cli-slash-entry", slashScript, []string{"r"}, "", nil},
	{"cli-ref-listing", refsScript, []string{"r", "one"}, "f", nil},
	{"cli-special-files", specialFilesScript, []string{"r"}, "", nil},
	{"cli-gitlink", gitlinkScript, []string{"r"}, "", map[string][]jsonOption{
		"f": {{args: []string{"--contents", "-"}, stdin: []byte("hi\none\n"), worktree: true}}}},
	{"cli-damaged-graph", graphScript, []string{"r"}, "", nil},
	{"cli-damaged-midx", testpack.MultiPackIndexScript, []string{"r"}, "", nil},
	{"cli-damage", damageScript, []string{"r", "packed", "missing-blob", "missing-commit", "corrupt-loose", "truncated-pack", "flipped-byte", "empty-idx", "bad-head"}, "f", nil},
	{"cli-args", argsFixture, []string{".", "bare.git"}, "file", map[string][]jsonOption{"file": jsonBasicOptions}},
	// A path 4,100 directories deep, whose blame warns 8 MB: compared
	// with git 2.39.x itself only (jsonLarge).
	{"cli-deep-path", deepPathScript, []string{"r"}, "", nil},
}

// jsonOption is a set of options a --json case is blamed with, git's
// words before the path, and the revision that names the final commit
// for git rev-parse ("" for the working tree or --contents).
type jsonOption struct {
	args  []string
	final string
	stdin []byte
	// worktree: the path alone ends the command line (blame of the
	// working-tree file, or of --contents against it); otherwise "--"
	// comes before the path.
	worktree bool
	ignore   bool // compares the ignored and unblamable marks with git's
}

var jsonBuffer = []byte("ONE\ntwo\nTHREE\nfour\nfive\nsix (buffer)\nseven\n")

// jsonWorkTreeOptions blame text that is not committed.
var jsonWorkTreeOptions = []jsonOption{
	{args: []string{"--contents", "-"}, stdin: jsonBuffer, worktree: true},
	{args: []string{"--contents", "-", "-L", "3,5", "HEAD~1"}, stdin: jsonBuffer, worktree: true},
}

// jsonBasicOptions are the options that change attribution most.
var jsonBasicOptions = []jsonOption{
	{args: []string{"-L", "2,3", "HEAD"}, final: "HEAD"},
	{args: []string{"-C", "-C", "HEAD"}, final: "HEAD"},
	{args: []string{"--ignore-rev", "HEAD~1", "HEAD"}, final: "HEAD", ignore: true},
	{args: []string{"--reverse", "HEAD~2..HEAD"}, final: "HEAD~2"},
}

// jsonEveryOption covers every option that changes what is blamed.
var jsonEveryOption = append(append(slices.Clone(jsonBasicOptions), jsonWorkTreeOptions...),
	jsonOption{args: []string{"-w", "HEAD"}, final: "HEAD"},
	jsonOption{args: []string{"-M", "HEAD"}, final: "HEAD"},
	jsonOption{args: []string{"-C", "HEAD~1"}, final: "HEAD~1"},
	jsonOption{args: []string{"-C", "-C", "-C", "-w", "HEAD"}, final: "HEAD"},
	jsonOption{args: []string{"-L", "1,2", "-L", "/e/,+2", "HEAD"}, final: "HEAD"},
	jsonOption{args: []string{"--reverse", "--first-parent", "HEAD~3..HEAD"}, final: "HEAD~3"},
	jsonOption{args: []string{"HEAD~2..HEAD"}, final: "HEAD"},
	jsonOption{args: []string{"--root", "HEAD"}, final: "HEAD"},
	jsonOption{args: []string{"--first-parent", "HEAD"}, final: "HEAD"},
	jsonOption{args: []string{"--since=1112912200", "HEAD"}, final: "HEAD"},
	jsonOption{args: []string{"--encoding=ISO-8859-1", "HEAD"}, final: "HEAD"},
	jsonOption{args: []string{"--ignore-rev", "HEAD~1", "--ignore-rev", "HEAD~3", "-M", "HEAD"}, final: "HEAD", ignore: true},
	jsonOption{args: []string{"--ignore-revs-file", "revs", "HEAD"}, final: "HEAD", ignore: true},
)

// TestJSONMatchesGit: --json output satisfies the committed schema, and
// it says what git blame --incremental and --porcelain say for the same
// blame (and the default format's ignored and unblamable marks), field
// by field, on every fixture repository of the cli tests, for SHA-1 and
// SHA-256: the same entries in the same order, commits, line ranges,
// paths and previous versions, flags, and author and committer details.
// Failing blames fail alike (exit status, standard error, the entries
// printed before).
func TestJSONMatchesGit(t *testing.T) {
	g := testgit.Golden(t) // skips without git
	plain := jsonOption{args: []string{"HEAD"}, final: "HEAD"}
	for _, fx := range jsonFixtures {
		for _, format := range testgit.Formats {
			if fx.name == "cli-encodings-every-format" && format != oid.SHA1 {
				continue
			}
			root := testgit.Fixture(t, fx.name, format, fx.script)
			finals := map[string]string{}
			for i, sub := range fx.dirs {
				dir := filepath.Join(root, sub)
				bare := strings.HasSuffix(sub, ".git")
				files := []string{fx.copyFile}
				if i == 0 {
					files = jsonFiles(t, dir)
				}
				for k, file := range files {
					opts := []jsonOption{plain}
					if i == 0 {
						// The working tree: where the file has changes,
						// for the first file and the files with more
						// options (a clean file's blame is HEAD's).
						if !bare && sub != "r-logout" && (k == 0 || fx.spread[file] != nil || jsonChanged(t, dir, format, file)) {
							opts = append(opts, jsonOption{worktree: true})
						}
						spread := fx.spread[file]
						if format == oid.SHA256 && len(spread) == len(jsonEveryOption) {
							spread = jsonBasicOptions
						}
						opts = append(opts, spread...)
					}
					large := jsonLarge(t, filepath.Join(root, fx.dirs[0]), file)
					for _, o := range opts {
						args := slices.Clone(o.args)
						if o.worktree {
							args = append(args, file)
						} else {
							args = append(args, "--", file)
						}
						compareJSONWithGit(t, g, jsonCase{dir: dir, format: format, stdin: o.stdin, args: args,
							final: o.final, ignore: o.ignore, live: large, finals: finals, damaged: fx.name == "cli-damage" && i > 0})
					}
				}
			}
		}
	}
}

// TestJSONMailmapAndConfig blames with the mailmap settings that change
// the commit records, and with the configuration of git's own formats,
// which --json ignores.
func TestJSONMailmapAndConfig(t *testing.T) {
	g := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		hist := filepath.Join(testgit.Fixture(t, "cli-history", format, historyScript), "r")
		for _, env := range [][]string{
			{"GIT_CONFIG_PARAMETERS='mailmap.blob'='HEAD~1:.mailmap'"},
			{"GIT_CONFIG_PARAMETERS='blame.showEmail'='true' 'blame.date'='relative' 'blame.blankBoundary'='true' 'core.quotePath'='false'"},
		} {
			compareJSONWithGit(t, g, jsonCase{dir: hist, format: format, env: env, args: []string{"HEAD", "--", "file"}, final: "HEAD"})
		}
	}
}

// jsonChanged reports whether the work tree or the index changes file.
func jsonChanged(t *testing.T, dir string, format oid.Format, file string) bool {
	t.Helper()
	return testgit.Git(t, dir, format, "--no-optional-locks", "status", "--porcelain", "--", file) != ""
}

// jsonFiles lists the files at HEAD of a fixture directory with the
// library (an empty list when it has no HEAD).
func jsonFiles(t *testing.T, dir string) []string {
	t.Helper()
	r, err := blame.Open(dir)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	defer r.Close()
	files, err := r.Files("HEAD")
	if err != nil {
		return nil
	}
	return files
}

// jsonLarge reports files whose blames are too big for a golden file
// (edges' 20,000 lines, deep paths): they are compared with git 2.39.x
// itself only.
func jsonLarge(t *testing.T, dir, file string) bool {
	t.Helper()
	if len(file) > 1000 {
		return true
	}
	r, err := blame.Open(dir)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	defer r.Close()
	p, err := r.Prepare(t.Context(), "HEAD", file, blame.Options{})
	if err != nil {
		return false
	}
	defer p.Close()
	return p.NumLines() > 1000
}

// jsonCase is one --json blame compared with git's.
type jsonCase struct {
	dir    string
	format oid.Format
	env    []string
	stdin  []byte
	args   []string // git blame's, without the output format
	final  string   // git rev-parse's name of the final commit; "" when uncommitted
	ignore bool     // compare the ignored and unblamable marks too
	live   bool     // compare with git 2.39.x itself only (no golden)
	// damaged: a damaged repository, where goblame's error messages are
	// its own: a failure is compared by exit status and "fatal: ".
	damaged bool
	finals  map[string]string // rev-parse's answers in dir, shared by its cases
}

// gitRun gives git blame's result for args in c: from git 2.39.x or the
// golden file; with uncommitted (dated now) or large output, from git
// 2.39.x only (ok false without it).
func (c jsonCase) gitRun(g *testgit.Goldens, live bool, args ...string) (testgit.Result, bool) {
	tc := testgit.Case{Dir: c.dir, Format: c.format, Stdin: c.stdin, Env: c.env, Args: append([]string{"blame"}, args...)}
	if live || c.live {
		return g.Live(tc)
	}
	return g.Run(tc), true
}

func compareJSONWithGit(t *testing.T, g *testgit.Goldens, c jsonCase) {
	t.Helper()
	got := runGoblame(c.dir, c.format, c.stdin, c.env, append([]string{"--json"}, c.args...)...)
	name := fmt.Sprintf("goblame --json %s (in %s, %s)", strings.Join(shellArgs(c.args), " "), c.dir, c.format)
	recs, err := testjson.Decode(got.Stdout)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	// Uncommitted lines are dated now: such blames need git itself.
	live := false
	for _, r := range recs {
		live = live || r.Type == "entry" && r.Uncommitted
	}
	inc, ok := c.gitRun(g, live, append([]string{"--incremental"}, c.args...)...)
	if !ok {
		return
	}
	sameStderr := bytes.Equal(got.Stderr, inc.Stderr)
	if c.damaged && got.ExitCode != 0 {
		sameStderr = bytes.Contains(got.Stderr, []byte("fatal: ")) && bytes.Contains(inc.Stderr, []byte("fatal: "))
	}
	if got.ExitCode != inc.ExitCode || !sameStderr {
		t.Errorf("%s: exit %d, stderr %q; git --incremental: exit %d, stderr %q", name, got.ExitCode, got.Stderr, inc.ExitCode, inc.Stderr)
		return
	}
	want, err := parseGitBlame(inc.Stdout, false)
	if err != nil {
		t.Fatalf("%s: git --incremental: %v", name, err)
	}
	if got.ExitCode != 0 {
		// Nothing when git failed before the walk (the header comes
		// after those checks), else the entries git printed before it
		// failed.
		if len(recs) > 0 && recs[0].Type != "header" {
			t.Errorf("%s: no header record first", name)
		}
		checkJSONIncremental(t, name, recs, want)
		return
	}
	if len(recs) == 0 || recs[0].Type != "header" {
		t.Errorf("%s: no header record first", name)
		return
	}
	checkJSONIncremental(t, name, recs, want)

	porc, ok := c.gitRun(g, live, append([]string{"--porcelain"}, c.args...)...)
	if !ok {
		return
	}
	if porc.ExitCode != 0 {
		t.Fatalf("%s: git --porcelain failed where --incremental did not: %s", name, porc.Stderr)
	}
	lines, err := parseGitBlame(porc.Stdout, true)
	if err != nil {
		t.Fatalf("%s: git --porcelain: %v", name, err)
	}
	checkJSONPorcelain(t, name, recs, lines)

	var marks []byte
	if c.ignore {
		env := append(slices.Clone(c.env), "GIT_CONFIG_PARAMETERS='blame.markIgnoredLines'='true' 'blame.markUnblamableLines'='true'")
		mc := c
		mc.env = env
		res, ok := mc.gitRun(g, live, append([]string{"-l", "-s"}, c.args...)...)
		if !ok {
			return
		}
		marks = res.Stdout
	}
	checkJSONHeaderAndFlags(t, g, name, c, recs, marks)
}

// gitBlame is git's --incremental or --porcelain output, parsed.
type gitBlame struct {
	entries []gitEntry // incremental: entries; porcelain: lines (NumLines 1)
	commits map[string]map[string]string
	order   []string // commits in the order their details first appear
}

type gitEntry struct {
	commit                         string
	sourceLine, finalLine, numLine int
	filename                       string
	previous                       *[2]string
}

// parseGitBlame reads --incremental output or, with porcelain, every
// line of --porcelain output: a header line "<id> <source> <final>
// [<n>]", the commit's details the first time, "previous" and
// "filename" (in porcelain only where it changes), and in porcelain the
// line's text after a tab.
func parseGitBlame(out []byte, porcelain bool) (*gitBlame, error) {
	b := &gitBlame{commits: map[string]map[string]string{}}
	paths := map[string]gitEntry{} // porcelain: the commit's last filename and previous
	var cur *gitEntry
	for len(out) > 0 {
		var line []byte
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			line, out = out[:i], out[i+1:]
		} else {
			line, out = out, nil
		}
		if porcelain && len(line) > 0 && line[0] == '\t' {
			if cur == nil {
				return nil, fmt.Errorf("text before a header")
			}
			e := *cur
			if e.filename == "" {
				last, ok := paths[e.commit]
				if !ok {
					return nil, fmt.Errorf("line %d: no filename for %s", e.finalLine, e.commit)
				}
				e.filename, e.previous = last.filename, last.previous
			}
			paths[e.commit] = e
			b.entries = append(b.entries, e)
			cur = nil
			continue
		}
		if e, ok := parseBlameHeader(string(line)); ok {
			if cur != nil {
				return nil, fmt.Errorf("header %q before the last entry ended", line)
			}
			if porcelain || e.numLine == 0 {
				e.numLine = 1
			}
			cur = &e
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("%q outside an entry", line)
		}
		key, value, _ := strings.Cut(string(line), " ")
		switch key {
		case "filename":
			p, err := unquotePath(value)
			if err != nil {
				return nil, err
			}
			cur.filename = p
			if !porcelain {
				b.entries = append(b.entries, *cur)
				cur = nil
			}
		case "previous":
			id, path, _ := strings.Cut(value, " ")
			p, err := unquotePath(path)
			if err != nil {
				return nil, err
			}
			cur.previous = &[2]string{id, p}
		default:
			details := b.commits[cur.commit]
			if details == nil {
				details = map[string]string{}
				b.commits[cur.commit] = details
				b.order = append(b.order, cur.commit)
			}
			details[key] = value
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("unfinished entry at the end")
	}
	return b, nil
}

// parseBlameHeader reads "<id> <source> <final> [<n>]".
func parseBlameHeader(line string) (gitEntry, bool) {
	f := strings.Split(line, " ")
	if len(f) != 3 && len(f) != 4 || len(f[0]) != 40 && len(f[0]) != 64 || strings.Trim(f[0], "0123456789abcdef") != "" {
		return gitEntry{}, false
	}
	var n [3]int
	for i := range len(f) - 1 {
		v, err := strconv.Atoi(f[i+1])
		if err != nil {
			return gitEntry{}, false
		}
		n[i] = v
	}
	return gitEntry{commit: f[0], sourceLine: n[0], finalLine: n[1], numLine: n[2]}, true
}

// unquotePath reads a path git may have C-quoted (core.quotePath).
func unquotePath(s string) (string, error) {
	if !strings.HasPrefix(s, `"`) {
		return s, nil
	}
	p, n, ok := cquote.Unquote([]byte(s))
	if !ok || n != len(s) {
		return "", fmt.Errorf("bad quoted path %q", s)
	}
	return string(p), nil
}

// checkJSONIncremental compares the records with --incremental's
// entries, in order, and each commit record with the details git printed
// at the commit's first entry.
func checkJSONIncremental(t *testing.T, name string, recs []testjson.Record, want *gitBlame) {
	t.Helper()
	var entries []testjson.Record
	var commitOrder []string
	commits := map[string]testjson.Record{}
	for i, r := range recs {
		switch r.Type {
		case "header":
			if i != 0 {
				t.Errorf("%s: a header record at %d", name, i+1)
			}
		case "commit":
			if _, dup := commits[r.ID]; dup {
				t.Errorf("%s: commit %s has two records", name, r.ID)
			}
			commits[r.ID] = r
			commitOrder = append(commitOrder, r.ID)
		case "entry":
			if _, ok := commits[r.Commit]; !ok {
				t.Errorf("%s: entry %d names commit %s before its record", name, len(entries)+1, r.Commit)
			}
			entries = append(entries, r)
		}
	}
	if len(entries) != len(want.entries) {
		t.Errorf("%s: %d entries, git --incremental %d", name, len(entries), len(want.entries))
	}
	for i := range min(len(entries), len(want.entries)) {
		checkJSONEntry(t, fmt.Sprintf("%s: entry %d", name, i+1), entries[i], want.entries[i], want)
	}
	if !slices.Equal(commitOrder, want.order) {
		t.Errorf("%s: commit records in the order %v, git's details %v", name, commitOrder, want.order)
	}
	for id, r := range commits {
		checkJSONCommit(t, name, r, want.commits[id])
	}
}

// checkJSONEntry compares an entry record with git's entry (or line).
func checkJSONEntry(t *testing.T, name string, r testjson.Record, w gitEntry, git *gitBlame) {
	t.Helper()
	_, boundary := git.commits[w.commit]["boundary"]
	var prev *[2]string
	if r.Previous != nil {
		prev = &[2]string{r.Previous.Commit, r.Previous.Path.Raw()}
	}
	got := fmt.Sprintf("%s %d %d %d %q %v boundary=%v uncommitted=%v", r.Commit, r.SourceLine, r.FinalLine, r.NumLines, r.Path.Raw(), prev, r.Boundary, r.Uncommitted)
	want := fmt.Sprintf("%s %d %d %d %q %v boundary=%v uncommitted=%v", w.commit, w.sourceLine, w.finalLine, w.numLine, w.filename, w.previous, boundary, strings.Trim(w.commit, "0") == "")
	if got != want {
		t.Errorf("%s:\n  json %s\n  git  %s", name, got, want)
	}
}

// checkJSONCommit compares a commit record with git's details of the
// commit: the same bytes, the email inside git's angle brackets, and an
// ISO 8601 time that is the same instant in the recorded zone.
func checkJSONCommit(t *testing.T, name string, r testjson.Record, details map[string]string) {
	t.Helper()
	for _, who := range []struct {
		key string
		p   testjson.Person
	}{{"author", r.Author}, {"committer", r.Committer}} {
		email := who.p.Email.Raw()
		if mail := details[who.key+"-mail"]; mail != "(unknown)" {
			email = "<" + email + ">"
		}
		gitTime := details[who.key+"-time"]
		if n, err := strconv.ParseUint(gitTime, 10, 64); err == nil && strings.Trim(r.ID, "0") == "" && max(n, who.p.Time)-min(n, who.p.Time) <= 10 {
			// The pseudo commit is dated when each blame ran.
			gitTime = strconv.FormatUint(who.p.Time, 10)
		}
		got := fmt.Sprintf("%q %q %d %q", who.p.Name.Raw(), email, who.p.Time, who.p.Zone.Raw())
		want := fmt.Sprintf("%q %q %s %q", details[who.key], details[who.key+"-mail"], gitTime, details[who.key+"-tz"])
		if got != want {
			t.Errorf("%s: commit %s's %s:\n  json %s\n  git  %s", name, r.ID, who.key, got, want)
		}
		checkISOTime(t, fmt.Sprintf("%s: commit %s's %s", name, r.ID, who.key), who.p)
	}
	if r.Summary.Raw() != details["summary"] {
		t.Errorf("%s: commit %s's summary %q, git %q", name, r.ID, r.Summary.Raw(), details["summary"])
	}
}

// checkISOTime checks that iso is the time in the recorded zone, as the
// schema describes it.
func checkISOTime(t *testing.T, name string, p testjson.Person) {
	t.Helper()
	if p.ISO == nil {
		if p.Time <= 253402300799 {
			t.Errorf("%s: no ISO time for %d", name, p.Time)
		}
		return
	}
	iso, err := time.Parse(time.RFC3339, *p.ISO)
	if err != nil || iso.Unix() != int64(p.Time) {
		t.Errorf("%s: ISO time %q is not %d (%v)", name, *p.ISO, p.Time, err)
		return
	}
	zone := p.Zone.Raw()
	wantSuffix := "Z"
	if len(zone) == 5 && (zone[0] == '+' || zone[0] == '-') && strings.Trim(zone[1:], "0123456789") == "" && zone[1:3] <= "23" && zone[3:] <= "59" {
		wantSuffix = zone[:3] + ":" + zone[3:]
	}
	if !strings.HasSuffix(*p.ISO, wantSuffix) {
		t.Errorf("%s: ISO time %q is not in the zone %q", name, *p.ISO, zone)
	}
}

// checkJSONPorcelain compares the records, line by line, with
// --porcelain's lines and commit details.
func checkJSONPorcelain(t *testing.T, name string, recs []testjson.Record, porc *gitBlame) {
	t.Helper()
	perLine := jsonLines(recs)
	if len(perLine) != len(porc.entries) {
		t.Errorf("%s: %d lines, git --porcelain %d", name, len(perLine), len(porc.entries))
	}
	for i := range min(len(perLine), len(porc.entries)) {
		checkJSONEntry(t, fmt.Sprintf("%s: line %d (porcelain)", name, porc.entries[i].finalLine), perLine[i], porc.entries[i], porc)
	}
	for _, r := range recs {
		if r.Type == "commit" {
			checkJSONCommit(t, name+" (porcelain)", r, porc.commits[r.ID])
		}
	}
}

// jsonLines splits the entry records into one record per line, in line
// order.
func jsonLines(recs []testjson.Record) []testjson.Record {
	var lines []testjson.Record
	for _, r := range recs {
		if r.Type != "entry" {
			continue
		}
		for k := range r.NumLines {
			l := r
			l.FinalLine, l.SourceLine, l.NumLines = r.FinalLine+k, r.SourceLine+k, 1
			lines = append(lines, l)
		}
	}
	slices.SortFunc(lines, func(a, b testjson.Record) int { return a.FinalLine - b.FinalLine })
	return lines
}

// checkJSONHeaderAndFlags checks the header (the version, the object
// format, the path, the final commit as git rev-parse names it, the
// ranges that the entries cover once each, the line count) and the
// ignored and unblamable flags of every line against git's marks (marks
// is git's default output with blame.markIgnoredLines and
// blame.markUnblamableLines, nil when the case has no ignored revision:
// then no line may be marked).
func checkJSONHeaderAndFlags(t *testing.T, g *testgit.Goldens, name string, c jsonCase, recs []testjson.Record, marks []byte) {
	t.Helper()
	h := recs[0]
	path := c.args[len(c.args)-1]
	if h.Version != 1 || h.ObjectFormat != c.format.String() || h.Path.Raw() != path {
		t.Errorf("%s: header version %d, object format %q, path %q; want 1, %q, %q", name, h.Version, h.ObjectFormat, h.Path.Raw(), c.format, path)
	}
	wantCommit := oid.Null(c.format).String()
	if c.final != "" {
		key := c.dir + " " + c.final
		id, ok := c.finals[key]
		if !ok {
			res := g.Run(testgit.Case{Dir: c.dir, Format: c.format, Args: []string{"rev-parse", "--verify", c.final + "^{commit}"}})
			id = strings.TrimSpace(string(res.Stdout))
			if c.finals != nil {
				c.finals[key] = id
			}
		}
		wantCommit = id
	}
	if h.Commit != wantCommit || h.Uncommitted != (c.final == "") {
		t.Errorf("%s: header commit %s (uncommitted %v), want %s", name, h.Commit, h.Uncommitted, wantCommit)
	}
	lines := jsonLines(recs)
	var covered []int
	for _, rg := range h.Ranges {
		for k := range rg.NumLines {
			covered = append(covered, rg.FinalLine+k)
		}
	}
	var blamed []int
	for _, l := range lines {
		blamed = append(blamed, l.FinalLine)
	}
	if !slices.Equal(covered, blamed) {
		t.Errorf("%s: the header's ranges %v cover lines %v; the entries %v", name, h.Ranges, covered, blamed)
	}
	if !slices.Contains(c.args, "-L") && h.NumLines != len(blamed) {
		t.Errorf("%s: header numLines %d; %d lines blamed", name, h.NumLines, len(blamed))
	}

	var gitFlags []string
	for _, line := range strings.SplitAfter(string(marks), "\n") {
		if line == "" {
			continue
		}
		line = strings.TrimPrefix(line, "^")
		f := ""
		if strings.HasPrefix(line, "*") {
			f, line = f+"unblamable ", line[1:]
		}
		if strings.HasPrefix(line, "?") {
			f += "ignored "
		}
		gitFlags = append(gitFlags, f)
	}
	for i, l := range lines {
		f := ""
		if l.Unblamable {
			f += "unblamable "
		}
		if l.Ignored {
			f += "ignored "
		}
		want := ""
		if marks != nil && i < len(gitFlags) {
			want = gitFlags[i]
		}
		if f != want {
			t.Errorf("%s: line %d is %q, git marks it %q", name, l.FinalLine, f, want)
		}
	}
	if marks != nil && len(gitFlags) != len(lines) {
		t.Errorf("%s: %d lines, git's marked output %d", name, len(lines), len(gitFlags))
	}
}

// TestJSONConflicts: --json with another output format, or with
// --progress, is a usage error (exit status 129, one line in git's words
// for options that cannot be used together, nothing on standard output);
// the last of --porcelain and --no-porcelain counts, as in git.
func TestJSONConflicts(t *testing.T) {
	for _, c := range []struct {
		args     []string
		annotate bool
		other    string // "" when the command line is accepted
	}{
		{[]string{"--json", "--porcelain", "f"}, false, "--porcelain"},
		{[]string{"-p", "--json", "f"}, false, "--porcelain"},
		{[]string{"--json", "--line-porcelain", "f"}, false, "--line-porcelain"},
		{[]string{"--json", "--incremental", "f"}, false, "--incremental"},
		{[]string{"--json", "-c", "f"}, false, "-c"},
		{[]string{"--json", "--progress", "f"}, false, "--progress"},
		{[]string{"--json", "--incremental", "--progress", "f"}, false, "--incremental"},
		{[]string{"--json", "f"}, true, "git annotate"},
		{[]string{"--json", "--porcelain", "--no-porcelain", "f"}, false, ""},
		{[]string{"--json", "--line-porcelain", "--no-line-porcelain", "f"}, false, ""},
		{[]string{"--json", "--progress", "--no-progress", "f"}, false, ""},
		{[]string{"--json", "--no-json", "--porcelain", "f"}, false, ""},
		{[]string{"--json", "-l", "-t", "-s", "-e", "-f", "-n", "-b", "--abbrev=12", "--date=short", "--color-lines", "--color-by-age", "--score-debug", "--show-stats", "f"}, false, ""},
	} {
		a, err := ParseArgs(c.args, DefaultBlameArgs(), ParseContext{Annotate: c.annotate})
		if c.other == "" {
			if err != nil {
				t.Errorf("%q: %v", c.args, err)
			}
			if err == nil && a.JSON != !slices.Contains(c.args, "--no-json") {
				t.Errorf("%q: JSON is %v", c.args, a.JSON)
			}
			continue
		}
		want := "error: options '--json' and '" + c.other + "' cannot be used together\n"
		if c.annotate {
			want = "error: --json cannot be used with git annotate\n"
		}
		ue, ok := err.(*UsageError)
		if !ok || ue.ExitCode != 129 || ue.Stderr != want || ue.Stdout != "" {
			t.Errorf("%q (annotate %v): %#v, want a usage error %q", c.args, c.annotate, err, want)
		}
	}

	// The command: the message, exit status 129, nothing blamed.
	dirs := fixtureDirs(t, "history", historyScript)
	for _, format := range testgit.Formats {
		got := runGoblame(dirs[format], format, nil, nil, "--json", "-p", "file")
		if got.ExitCode != 129 || len(got.Stdout) != 0 || string(got.Stderr) != "error: options '--json' and '--porcelain' cannot be used together\n" {
			t.Errorf("goblame --json -p file: %s", got)
		}
		got = runGoblame(dirs[format], format, nil, nil, "annotate", "--json", "file")
		if got.ExitCode != 129 || len(got.Stdout) != 0 || string(got.Stderr) != "error: --json cannot be used with git annotate\n" {
			t.Errorf("goblame annotate --json file: %s", got)
		}
	}
}

// TestJSONIsGoblamesOwn: --json is taken only spelled out in full, so
// that every other command line, abbreviations, typos and --no- forms
// included, parses as git parses it; git's help does not show it (-h is
// git's usage byte for byte: TestUsageMatchesGit, --help-all and the
// completion list: TestArgsAgainstGit), the manual page does.
func TestJSONIsGoblamesOwn(t *testing.T) {
	dirs := fixtureDirs(t, "history", historyScript)
	for _, format := range testgit.Formats {
		for _, args := range [][]string{
			{"--js", "file"}, {"--jso", "file"}, {"--jsonx", "file"}, {"-json", "file"}, {"--no-js", "file"},
			{"--no-", "file"}, {"--no", "file"}, {"--json-x", "file"},
			// --no-json undoes --json: the output is -p's.
			{"--json", "--no-json", "-p", "file"},
		} {
			// git gets the same words without --json and --no-json.
			gitArgs := slices.DeleteFunc(slices.Clone(args), func(w string) bool { return w == "--json" || w == "--no-json" })
			want := testgit.Golden(t).Run(testgit.Case{Dir: dirs[format], Format: format, Args: append([]string{"blame"}, gitArgs...)})
			got := runGoblame(dirs[format], format, nil, nil, args...)
			if !bytes.Equal(got.Stdout, want.Stdout) || !bytes.Equal(got.Stderr, want.Stderr) || got.ExitCode != want.ExitCode {
				t.Errorf("goblame %s:\n%s", strings.Join(args, " "), describeDiff(got, want))
			}
		}
	}
	for _, full := range []bool{false, true} {
		if help := renderUsage(usageStrings(false), blameOptionTable(nil), full); strings.Contains(help, "json") {
			t.Errorf("git's help (full %v) shows --json:\n%s", full, help)
		}
	}
	var doc *OptionDoc
	for _, d := range OptionDocs() {
		if d.Long == "json" {
			doc = &d
		}
	}
	if doc == nil || doc.Hidden || !doc.Goblame {
		t.Errorf("OptionDocs: --json is %+v, want a goblame option the manual page shows", doc)
	}
}
