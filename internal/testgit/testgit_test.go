package testgit

import (
	"bytes"
	"errors"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/txtar"
	"github.com/goblame/goblame/oid"
)

func TestFixtureIsHermeticAndCached(t *testing.T) {
	RequireAnyGit(t) // any git builds the same fixture
	for _, f := range Formats {
		script := `git init -q
printf 'a\n' >file
commit_all one
printf 'a\nb\n' >file
commit_all two
`
		dir := Fixture(t, "basic", f, script)
		again := Fixture(t, "basic", f, script)
		if dir != again {
			t.Fatalf("fixture not cached: %s vs %s", dir, again)
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
			t.Fatal(err)
		}
		log := Git(t, dir, f, "log", "--format=%an <%ae> %at %ai|%cn <%ce>", "main")
		want := "A U Thor <author@example.com> 1112912113 2005-04-07 15:15:13 -0700|C O Mitter <committer@example.com>\n" +
			"A U Thor <author@example.com> 1112912053 2005-04-07 15:14:13 -0700|C O Mitter <committer@example.com>\n"
		if log != want {
			t.Errorf("%s log:\n%s\nwant:\n%s", f, log, want)
		}
		format := strings.TrimSpace(Git(t, dir, f, "rev-parse", "--show-object-format"))
		if format != f.String() {
			t.Errorf("object format %s, want %s", format, f)
		}
		head := strings.TrimSpace(Git(t, dir, f, "rev-parse", "HEAD"))
		if _, err := oid.ParseHex(f, head); err != nil {
			t.Errorf("HEAD %q is not a %s id", head, f)
		}
	}
}

func TestResultEncodingRoundTrips(t *testing.T) {
	outputs := []string{
		"", "\n", "plain\n", "no final newline", "two\nlines\n", "-- looks like a marker --\n",
		"crlf\r\n", "nul\x00byte\n", "caf\xc3\xa9\n", "latin-1 caf\xe9\n", "trailing space \n", "tab\t\n",
		"\x1b[31mred\x1b[m\n", "|starts with a bar\n", "\"quoted\"\n", "stdout:\n", "exit 3\n", "\u0085 C1\n",
	}
	r := rand.New(rand.NewSource(1))
	const alphabet = "ab \n\t\r\x00\xff\xc3-|\""
	for range 200 {
		b := make([]byte, r.Intn(40))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		outputs = append(outputs, string(b))
	}
	for i, out := range outputs {
		res := Result{Stdout: []byte(out), Stderr: []byte(outputs[len(outputs)-1-i]), ExitCode: i % 130}
		enc := encodeResult(res)
		for _, line := range strings.SplitAfter(string(enc), "\n") {
			if txtar.IsMarker([]byte(line)) {
				t.Fatalf("%q encodes to a txtar marker line %q", out, line)
			}
		}
		a := txtar.Parse(txtar.Format(&txtar.Archive{Files: []txtar.File{{Name: "m", Data: enc}}}))
		got, err := decodeResult(a.Files[0].Data)
		if err != nil {
			t.Fatalf("%q: %v\n%s", out, err, enc)
		}
		if !bytes.Equal(got.Stdout, res.Stdout) || !bytes.Equal(got.Stderr, res.Stderr) || got.ExitCode != res.ExitCode {
			t.Fatalf("round trip of %+v gave %+v\n%s", res, got, enc)
		}
	}
	for _, bad := range []string{"", "exit x\n", "exit 0\nstdout:\nbare line\n", "exit 0\n|no section\n", "exit 0\nstdout:\n\"unterminated\n", "exit 0\nstderr:\nstdout:\n"} {
		if _, err := decodeResult([]byte(bad)); err == nil {
			t.Errorf("decodeResult(%q) succeeded", bad)
		}
	}
}

func TestKeyWords(t *testing.T) {
	for in, want := range map[string]string{
		"-p": "-p", "HEAD~2": "HEAD~2", "": `""`, "with space": `"with space"`, "new\nline": `"new\nline"`,
		"caf\xc3\xa9": `"café"`, "<": `"<"`, "a'b": `"a'b"`,
	} {
		if got := keyWord(in); got != want {
			t.Errorf("keyWord(%q) = %s, want %s", in, got, want)
		}
	}
	if got := keyWord(strings.Repeat("x", 300)); !strings.HasPrefix(got, "<300 bytes, sha256 ") {
		t.Errorf("long word: %s", got)
	}
}

// goldenHelperScript is the fixture of the golden helper process.
const goldenHelperScript = `git init -q r && cd r
printf 'one\ntwo\n' >file
commit_all one
printf 'one\nTWO\nthree\n' >file
commit_all two
mkdir sub
`

// TestGoldenHelperProcess is run by TestGoldenModes as a child process
// (it does nothing otherwise): it asks the goldens for git's results and
// compares them with git's, as a test would compare goblame's.
func TestGoldenHelperProcess(t *testing.T) {
	dir := os.Getenv("GOBLAME_GOLDEN_HELPER_DIR")
	if dir == "" {
		t.Skip("run by TestGoldenModes")
	}
	GoldenDir = dir
	for _, f := range Formats {
		root := filepath.Join(Fixture(t, "golden-helper", f, goldenHelperScript), "r")
		g := Golden(t)
		for _, c := range []Case{
			{Dir: root, Format: f, Args: []string{"blame", "file"}},
			{Dir: root, Format: f, Args: []string{"blame", "-p", "HEAD~1", "--", "file"}},
			{Dir: root, Format: f, Args: []string{"blame", "-p", "HEAD~1", "file"}}, // the same output
			{Dir: root, Format: f, Args: []string{"blame", "../outside"}},
			{Dir: root, Format: f, Stdin: []byte("one\nx\n"), Args: []string{"blame", "--contents", "-", "-s", "file"}},
			{Dir: filepath.Join(root, "sub"), Format: f, Env: []string{"GIT_CONFIG_PARAMETERS='core.abbrev'='12'"}, Args: []string{"blame", "../file"}},
		} {
			want := g.Run(c)
			real, err := Run(c.Dir, c.Format, c.Stdin, c.Env, "git", c.Args...)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want.Stdout, real.Stdout) || !bytes.Equal(want.Stderr, real.Stderr) || want.ExitCode != real.ExitCode {
				t.Errorf("%v: the golden result differs from git's:\n%s\ngit:\n%s", c.Args, want, real)
			}
		}
		// A case made by a program that turns out to be dated now (the
		// buffer's lines are not committed yet), and one that is not.
		for _, c := range []Case{
			{Dir: root, Format: f, Stdin: []byte("new\n"), Args: []string{"blame", "--contents", "-", "file"}},
			{Dir: root, Format: f, Args: []string{"blame", "-s", "file"}},
		} {
			want, live := g.RunOrLive(c)
			if !live {
				continue
			}
			real, err := Run(c.Dir, c.Format, c.Stdin, c.Env, "git", c.Args...)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want.Stdout, real.Stdout) && !bytes.Contains(real.Stdout, []byte("Not Committed Yet")) {
				t.Errorf("%v: RunOrLive's result differs from git's:\n%s\ngit:\n%s", c.Args, want, real)
			}
		}
		g.RequireFiles(root, "file", "no-such-file")

		// A command on files the test writes, outside any fixture.
		files := t.TempDir()
		for name, text := range map[string]string{"a": "one\ntwo\n", "b": "one\n2\n"} {
			if err := os.WriteFile(filepath.Join(files, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		c := Case{Dir: files, Format: f, Args: []string{"diff", "--no-index", "-U0", "a", "b"}}
		want := g.RunInFiles(c)
		real, err := Run(c.Dir, c.Format, c.Stdin, c.Env, "git", c.Args...)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want.Stdout, real.Stdout) || want.ExitCode != real.ExitCode {
			t.Errorf("RunInFiles' result differs from git's:\n%s\ngit:\n%s", want, real)
		}
	}
}

// TestGoldenModes drives TestGoldenHelperProcess in every mode: recording
// the goldens, comparing them with git 2.39.x, using them in place of
// another git, and failing or skipping when they are stale, missing or
// made from another fixture.
func TestGoldenModes(t *testing.T) {
	RequireGitFor(t, "it records golden files, which only git 2.39.x may write")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "TestGoldenHelperProcess.txtar")
	run := func(env ...string) (string, bool) {
		t.Helper()
		cmd := exec.Command(exe, "-test.run=^TestGoldenHelperProcess$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "GOBLAME_GOLDEN_HELPER_DIR="+dir, UpdateEnv+"=", VersionEnv+"=")
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.CombinedOutput()
		var exitErr *exec.ExitError
		if err != nil && !errors.As(err, &exitErr) {
			t.Fatal(err)
		}
		return string(out), err == nil
	}
	other := VersionEnv + "=2.40.0"
	expect := func(what string, out string, ok, wantOK bool, wantText string) {
		t.Helper()
		if ok != wantOK || !strings.Contains(out, wantText) {
			t.Fatalf("%s: passed=%v, want %v, and output with %q:\n%s", what, ok, wantOK, wantText, out)
		}
	}

	out, ok := run(other)
	expect("no golden file, another git", out, ok, true, "--- SKIP")
	out, ok = run()
	expect("no golden file, git 2.39", out, ok, false, "has no member")
	out, ok = run(UpdateEnv + "=1")
	expect("recording", out, ok, true, "--- PASS")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "-- fingerprint golden-helper sha256 r --\n") ||
		!strings.Contains(string(data), "-- golden-helper sha1 r/sub: \"GIT_CONFIG_PARAMETERS='core.abbrev'='12'\" git blame ../file --\n") ||
		!strings.Contains(string(data), "${FIXTURE}/r") || strings.Contains(string(data), CacheRoot()) {
		t.Fatalf("golden file:\n%s", data)
	}
	if !strings.Contains(string(data), "-- golden-helper sha1 r: git blame --contents - file < \"new\\n\" --\nlive-only: ") ||
		!strings.Contains(string(data), "-- bytes golden-helper sha1 r/file --\nfile: 14 bytes, sha256 ") ||
		!strings.Contains(string(data), "-- bytes golden-helper sha256 r/no-such-file --\nno such file\n") {
		t.Fatalf("golden file lacks the live-only or pinned-file members:\n%s", data)
	}
	if !strings.Contains(string(data), ": git diff --no-index -U0 a b --\nexit 1\n") || !strings.Contains(string(data), "-- files ") {
		t.Fatalf("golden file lacks the member of a case on files:\n%s", data)
	}
	if !strings.Contains(string(data), "-- golden-helper sha1 r: git blame -p HEAD~1 file --\nsame as: golden-helper sha1 r: git blame -p HEAD~1 -- file\n") {
		t.Fatalf("golden file does not write an equal output once:\n%s", data)
	}
	out, ok = run()
	expect("git 2.39 against its goldens", out, ok, true, "--- PASS")
	out, ok = run(other)
	expect("another git, goldens in place", out, ok, true, "--- PASS")
	expect("another git, a live-only case", out, ok, true, "not compared: 2 of the cases need git 2.39.x itself")

	// One byte of git's output changed in the golden file.
	broken := strings.Replace(string(data), ") three\n", ") threE\n", 1)
	if broken == string(data) {
		t.Fatal("no line to break")
	}
	write := func(s string) {
		if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(broken)
	out, ok = run()
	expect("git 2.39 against a broken golden", out, ok, false, "differs from git")
	out, ok = run(other)
	expect("another git, broken golden", out, ok, false, "the golden result differs from git's")
	out, ok = run(UpdateEnv + "=1")
	expect("re-recording", out, ok, true, "--- PASS")
	if again, _ := os.ReadFile(file); string(again) != string(data) {
		t.Fatalf("re-recorded golden file differs from the first:\n%s", again)
	}

	// A fixture whose objects differ from git 2.39.5's.
	a := txtar.Parse(data)
	for i, m := range a.Files {
		if m.Name == "fingerprint golden-helper sha1 r" {
			a.Files[i].Data = []byte(strings.Replace(string(m.Data), "HEAD ", "HEAD 0", 1))
		}
	}
	write(string(txtar.Format(a)))
	out, ok = run(other)
	expect("another git, other objects", out, ok, true, "its golden outputs do not apply")
	out, ok = run()
	expect("git 2.39, other fingerprint", out, ok, false, "differs from the fixture git")

	// A pinned file whose bytes git 2.39.5 wrote otherwise.
	a = txtar.Parse(data)
	for i, m := range a.Files {
		if m.Name == "bytes golden-helper sha1 r/file" {
			a.Files[i].Data = []byte("file: 1 bytes, sha256 00\n")
		}
	}
	write(string(txtar.Format(a)))
	out, ok = run(other)
	expect("another git, other bytes in a pinned file", out, ok, true, "wrote file other than git 2.39.5 did")
	if !strings.Contains(out, "--- SKIP") {
		t.Fatalf("a pinned file with other bytes did not skip:\n%s", out)
	}
	out, ok = run()
	expect("git 2.39, other bytes in a pinned file", out, ok, false, "differs from the fixture git")

	// A case missing.
	a = txtar.Parse(data)
	a.Files = a.Files[:len(a.Files)-1]
	write(string(txtar.Format(a)))
	out, ok = run(other)
	expect("another git, a member missing", out, ok, true, "has no member")
	if !strings.Contains(out, "--- SKIP") {
		t.Fatalf("a missing member did not skip:\n%s", out)
	}

	// Updating needs git 2.39.
	out, ok = run(other, UpdateEnv+"=1")
	expect("updating with another git", out, ok, false, "rewrites golden files from git 2.39.x")
}

func TestGoldenSameAs(t *testing.T) {
	dir := t.TempDir()
	load := func(text string) (*goldenFile, error) {
		t.Helper()
		path := filepath.Join(dir, "g.txtar")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return loadGoldenFile(path)
	}
	f, err := load("-- a --\nexit 0\n-- b --\nsame as: a\n")
	if err != nil || string(f.stored["b"]) != "exit 0\n" {
		t.Errorf("a reference: %v, b = %q", err, f.stored["b"])
	}
	for _, bad := range []string{"-- b --\nsame as: a\n", "-- a --\nsame as: c\n-- b --\nsame as: a\n-- c --\nexit 0\n"} {
		if _, err := load(bad); err == nil {
			t.Errorf("%q: a dangling or chained reference loaded", bad)
		}
	}
}

// TestNormalizeInitConfigs: a SHA-256 repository's configuration as a
// newer git starts it, with keys a script set afterwards, reads as git
// 2.39.5 would have written it; other configurations are left alone.
func TestNormalizeInitConfigs(t *testing.T) {
	work := t.TempDir()
	newer := "[extensions]\n\tobjectFormat = sha999\n\tworktreeconfig = true\n[core]\n\trepositoryformatversion = 1\n\tfilemode = true\n\tbare = false\n[blame]\n\tdate = short\n"
	want := "[core]\n\trepositoryformatversion = 1\n\tfilemode = true\n\tbare = false\n[extensions]\n\tobjectFormat = sha999\n\tworktreeconfig = true\n[blame]\n\tdate = short\n"
	old := "[core]\n\trepositoryformatversion = 0\n[extensions]\n\tobjectformat = sha256\n"
	other := "[extensions]\n\tobjectformat = sha1\n[core]\n\tbare = true\n"
	files := map[string]string{"r/.git/config": newer, "bare.git/config": newer[:len(newer)-len("[blame]\n\tdate = short\n")],
		"s/.git/config": old, "t/.git/config": other, "r/notes/config.txt": newer}
	for name, text := range files {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	if err := normalizeInitConfigs(work); err != nil {
		t.Fatal(err)
	}
	wants := map[string]string{"r/.git/config": want, "bare.git/config": want[:len(want)-len("[blame]\n\tdate = short\n")],
		"s/.git/config": old, "t/.git/config": other, "r/notes/config.txt": newer}
	for name, w := range wants {
		got, err := os.ReadFile(filepath.Join(work, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != w {
			t.Errorf("%s:\n%s\nwant:\n%s", name, got, w)
		}
	}
}

// TestFixtureScriptHashIgnoresKeys: a script that names another
// fixture's directory hashes the same whatever git built that fixture.
func TestFixtureScriptHashIgnoresKeys(t *testing.T) {
	hash := func(script string) string {
		dir := t.TempDir()
		registerFixture("x", oid.SHA1, script, dir)
		info, ok := lookupFixture(dir)
		if !ok {
			t.Fatal("not registered")
		}
		return info.scriptHash
	}
	root := CacheRoot()
	a := hash("git clone -q file://" + root + "/history-graph-sha1-0123456789abcdef/w c\n")
	b := hash("git clone -q file://" + root + "/history-graph-sha1-fedcba9876543210/w c\n")
	c := hash("git clone -q file://" + root + "/history-other-sha1-fedcba9876543210/w c\n")
	if a != b {
		t.Errorf("the same script with another key hashed %s and %s", a, b)
	}
	if a == c {
		t.Errorf("scripts naming other fixtures hashed alike (%s)", a)
	}
}
