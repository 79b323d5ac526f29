package repo

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// configScript writes configuration in every syntax git accepts, with
// includes and conditional includes, into a repository.
const configScript = `
git init -q repo
mkdir -p repo/sub
cd repo
commit_all one
git branch feature/x
cat >>.git/config <<'CFG'
# a comment
; another comment
[blame]
	coloring
	empty =
	date = "  quoted  spaces  "   tail   # comment
	markIgnoredLines = yes
[Section.SubSection]
	legacy = v1
[section "Sub \"quoted\" \\ back"]
	key = v2
[section "CaseSensitive"]
	KEY = upper
[section "casesensitive"]
	key = lower
[multi]
	v = 1
	v = two
	V = THREE
[escape]
	tab = a\tb
	nl = a\nb
	bs = a\\b
	quote = \"q\"
	cont = one \
two
	semi = "a;b" ; c
	hash = a#b
	spaces = a    b
	b = x\by
[num]
	k = 2k
	m = 1m
	g = 1G
	hex = 0x1f
	oct = 017
	neg = -3
	bad = 12x
	big = 99999999999
	zero = 0
	empty =
	plus = +7
[bool]
	t1 = true
	t2 = YES
	t3 = On
	f1 = false
	f2 = no
	f3 = OFF
	n1 = 1
	n0 = 0
	n2 = 2k
	bad = maybe
	empty =
	novalue
[dash-sec]
	dash-key = 1
[a] k1 = inline
[include]
	path = inc.cfg
	path = missing.cfg
[includeIf "gitdir:**/repo/.git"]
	path = gitdir.cfg
[includeIf "gitdir:nomatch/"]
	path = never.cfg
[includeIf "gitdir/i:**/REPO/.GIT"]
	path = gitdiri.cfg
[includeIf "onbranch:main"]
	path = branch.cfg
[includeIf "onbranch:feature/"]
	path = never.cfg
[includeIf "unknown:x"]
	path = never.cfg
CFG
printf '[inc]\n\tval = from-include\n[include]\n\tpath = nested.cfg\n' >.git/inc.cfg
printf '[inc]\n\tnested = yes\n' >.git/nested.cfg
printf '[cond]\n\tgitdir = yes\n' >.git/gitdir.cfg
printf '[cond]\n\tgitdiri = yes\n' >.git/gitdiri.cfg
printf '[cond]\n\tbranch = yes\n' >.git/branch.cfg
printf '[cond]\n\tnever = yes\n' >.git/never.cfg
printf '\357\273\277[bom]\n\tok = 1\n' >bom.cfg
printf '[crlf]\r\n\tk = v\r\n' >crlf.cfg
printf '[noeol]\n\tk = v' >noeol.cfg
printf '[g]\n\tglobal = 1\n[multi]\n\tv = global\n' >global.cfg
printf '[x]\n\tsys = 1\n' >system.cfg
`

// describeConfigList renders entries as "git config --list
// --show-scope --show-origin" prints them.
func describeConfigList(c *Config) string {
	var b strings.Builder
	for _, e := range c.Entries() {
		origin := "command line:"
		if e.Origin != "" {
			origin = "file:" + e.Origin
		}
		fmt.Fprintf(&b, "%s\t%s\t%s", e.Scope, origin, e.Key)
		if e.HasValue {
			b.WriteString("=" + e.Value)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func configResult(r *Repository, err error) string {
	if err != nil {
		var ge *Error
		s := ""
		if errors.As(err, &ge) {
			for _, l := range ge.Before {
				s += l + "\n"
			}
		}
		return "exit 128\n--- stdout\n--- stderr\n" + s + "fatal: " + err.Error() + "\n"
	}
	return "exit 0\n--- stdout\n" + describeConfigList(r.Config) + "--- stderr\n"
}

func gitResult(t *testing.T, dir string, f oid.Format, env []string, args ...string) string {
	t.Helper()
	res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Env: env, Args: args})
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", res.ExitCode, res.Stdout, res.Stderr)
}

var configListCases = []struct {
	name string
	dir  string
	env  []string
}{
	{"plain", "repo", nil},
	{"subdir", "repo/sub", nil},
	{"git-dir", ".", []string{"GIT_DIR=@/repo/.git"}},
	{"global-and-system", "repo", []string{"GIT_CONFIG_GLOBAL=@/repo/global.cfg", "GIT_CONFIG_NOSYSTEM=0", "GIT_CONFIG_SYSTEM=@/repo/system.cfg"}},
	{"xdg-and-home", "repo", []string{"GIT_CONFIG_GLOBAL=", "XDG_CONFIG_HOME=@/repo/xdg", "HOME=@/repo/home"}},
	{"cmdline", "repo", []string{"GIT_CONFIG_PARAMETERS='Multi.V'='cmd' 'bare.Key' 'old.style=a=b' 'Sec.Sub.Key'='x y'"}},
	{"count", "repo", []string{"GIT_CONFIG_COUNT=3", "GIT_CONFIG_KEY_0=multi.v", "GIT_CONFIG_VALUE_0=c0", "GIT_CONFIG_KEY_1=A.B.C", "GIT_CONFIG_VALUE_1=", "GIT_CONFIG_KEY_2=include.path", "GIT_CONFIG_VALUE_2=@/repo/bom.cfg"}},
	{"count-and-params", "repo", []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=p.first", "GIT_CONFIG_VALUE_0=1", "GIT_CONFIG_PARAMETERS='p.second'='2'"}},
	{"cmdline-include-abs", "repo", []string{"GIT_CONFIG_PARAMETERS='include.path'='@/repo/crlf.cfg'"}},
	{"cmdline-include-rel", "repo", []string{"GIT_CONFIG_PARAMETERS='include.path'='crlf.cfg'"}},
	{"bad-key", "repo", []string{"GIT_CONFIG_PARAMETERS='nosection'='x'"}},
	{"bad-key-name", "repo", []string{"GIT_CONFIG_PARAMETERS='a.1b'='x'"}},
	{"bad-key-empty-name", "repo", []string{"GIT_CONFIG_PARAMETERS='a.'='x'"}},
	{"bad-format", "repo", []string{"GIT_CONFIG_PARAMETERS='a.b'x"}},
	{"bad-count", "repo", []string{"GIT_CONFIG_COUNT=x"}},
	// strtoul's count: a minus wraps around (too many), blanks and a
	// plus lead, nothing may follow, overflow saturates.
	{"negative-count", "repo", []string{"GIT_CONFIG_COUNT=-1"}},
	{"count-blank-plus", "repo", []string{"GIT_CONFIG_COUNT= +0"}},
	{"count-trailing-blank", "repo", []string{"GIT_CONFIG_COUNT=0 "}},
	{"count-overflow", "repo", []string{"GIT_CONFIG_COUNT=99999999999999999999"}},
	{"count-int-max", "repo", []string{"GIT_CONFIG_COUNT=2147483648"}},
	{"count-empty", "repo", []string{"GIT_CONFIG_COUNT="}},
	{"missing-key", "repo", []string{"GIT_CONFIG_COUNT=1"}},
	{"missing-value", "repo", []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=a.b"}},
	{"empty-key", "repo", []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=", "GIT_CONFIG_VALUE_0=x"}},
	{"bom-crlf-noeol", "repo", []string{"GIT_CONFIG_GLOBAL=@/repo/bom.cfg", "GIT_CONFIG_NOSYSTEM=0", "GIT_CONFIG_SYSTEM=@/repo/crlf.cfg", "GIT_CONFIG_PARAMETERS='include.path'='@/repo/noeol.cfg'"}},
}

func TestConfigListMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "config-syntax", f, configScript)
		for _, c := range configListCases {
			t.Run(f.String()+"/"+c.name, func(t *testing.T) {
				env := expandEnv(root, c.env)
				dir := filepath.Join(root, c.dir)
				want := gitResult(t, dir, f, env, "config", "--list", "--show-scope", "--show-origin")
				r, err := Discover(EnvFromList(dir, testgit.Env(f, env...)))
				if got := configResult(r, err); got != want {
					t.Errorf("got:\n%s\nwant:\n%s", got, want)
				}
			})
		}
	}
}

var configKeys = []string{
	"blame.coloring", "blame.empty", "blame.date", "BLAME.MarkIgnoredLines", "section.subsection.legacy",
	"Section.SubSection.Legacy", `section.Sub "quoted" \ back.key`, "section.CaseSensitive.key",
	"section.casesensitive.KEY", "section.CASESENSITIVE.key", "multi.v", "escape.tab", "escape.nl",
	"escape.bs", "escape.quote", "escape.cont", "escape.semi", "escape.hash", "escape.spaces", "escape.b",
	"num.k", "num.m", "num.g", "num.hex", "num.oct", "num.neg", "num.bad", "num.big", "num.zero", "num.empty",
	"num.plus", "bool.t1", "bool.t2", "bool.t3", "bool.f1", "bool.f2", "bool.f3", "bool.n1", "bool.n0", "bool.n2",
	"bool.bad", "bool.empty", "bool.novalue", "dash-sec.dash-key", "a.k1", "inc.val", "inc.nested",
	"cond.gitdir", "cond.gitdiri", "cond.branch", "cond.never", "no.such", "nosection", "a.1b",
}

func TestConfigGetMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "config-syntax", f, configScript)
		dir := filepath.Join(root, "repo")
		env := []string{"GIT_CONFIG_PARAMETERS='multi.v'='cmd'"}
		r, err := Discover(EnvFromList(dir, testgit.Env(f, env...)))
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range configKeys {
			// --get: the last value, exit 1 when unset.
			want := gitResult(t, dir, f, env, "config", "--get", key)
			got := "exit 1\n--- stdout\n--- stderr\n"
			if v, ok := r.Config.Get(key); ok {
				got = "exit 0\n--- stdout\n" + v + "\n--- stderr\n"
			}
			if _, err := canonicalKey(key); err != nil {
				got = "exit 1\n--- stdout\n--- stderr\nerror: " + err.Error() + "\n"
			}
			if got != want {
				t.Errorf("%s --get %q:\n got: %s\nwant: %s", f, key, got, want)
			}
			// --get-all
			want = gitResult(t, dir, f, env, "config", "--get-all", key)
			all := r.Config.GetAll(key)
			got = "exit 1\n--- stdout\n--- stderr\n"
			if len(all) > 0 {
				got = "exit 0\n--- stdout\n" + strings.Join(all, "\n") + "\n--- stderr\n"
			}
			if _, err := canonicalKey(key); err != nil {
				got = "exit 1\n--- stdout\n--- stderr\nerror: " + err.Error() + "\n"
			}
			if got != want {
				t.Errorf("%s --get-all %q:\n got: %s\nwant: %s", f, key, got, want)
			}
			if _, err := canonicalKey(key); err != nil || len(all) > 1 {
				// git config --bool/--int convert every value of a
				// multi-valued key (dying at the first bad one);
				// readers of a single value see only the last.
				continue
			}
			// --bool
			want = gitResult(t, dir, f, env, "config", "--bool", "--get", key)
			b, ok, berr := r.Config.Bool(key)
			switch {
			case berr != nil:
				got = "exit 128\n--- stdout\n--- stderr\nfatal: " + dieText(berr.Error()) + "\n"
			case !ok:
				got = "exit 1\n--- stdout\n--- stderr\n"
			default:
				got = fmt.Sprintf("exit 0\n--- stdout\n%v\n--- stderr\n", b)
			}
			if got != want {
				t.Errorf("%s --bool %q:\n got: %s\nwant: %s", f, key, got, want)
			}
			// --int: git config reads 64-bit values and names the file
			// in its error; blame's reads (configset) do not.
			want = gitResult(t, dir, f, env, "config", "--int", "--get", key)
			n, ok, nerr := r.Config.Int64(key)
			switch {
			case nerr != nil:
				e, _ := r.Config.Entry(key)
				msg := nerr.Error()
				if e.Origin != "" {
					i := strings.LastIndex(msg, ": ")
					msg = msg[:i] + " in file " + e.Origin + msg[i:]
				}
				got = "exit 128\n--- stdout\n--- stderr\nfatal: " + dieText(msg) + "\n"
			case !ok:
				got = "exit 1\n--- stdout\n--- stderr\n"
			default:
				got = fmt.Sprintf("exit 0\n--- stdout\n%d\n--- stderr\n", n)
			}
			if got != want {
				t.Errorf("%s --int %q:\n got: %s\nwant: %s", f, key, got, want)
			}
			if r.Config.IsValueless(key) != (key == "blame.coloring" || key == "bool.novalue") {
				t.Errorf("IsValueless(%q) = %v", key, r.Config.IsValueless(key))
			}
		}
	}
}

// TestConfigIntRangeMatchesGit checks the 32-bit reading (git_config_int)
// against a key git reads that way at startup.
func TestConfigIntRangeMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	root := testgit.Fixture(t, "config-syntax", oid.SHA1, configScript)
	dir := filepath.Join(root, "repo")
	for _, v := range []string{"12", "3k", "2g", "2147483647", "2147483648", "-5", "x", "1q", "0x10"} {
		env := []string{"GIT_CONFIG_PARAMETERS='core.packedGitWindowSize'='" + v + "'", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.compression", "GIT_CONFIG_VALUE_0=" + v}
		res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: oid.SHA1, Env: env, Args: []string{"rev-parse", "--git-dir"}})
		r, err := Discover(EnvFromList(dir, testgit.Env(oid.SHA1, env...)))
		if err != nil {
			t.Fatal(err)
		}
		// core.compression is read with git_config_int (and then range
		// checked by git: -1..9); only the parse errors are compared.
		_, _, ierr := r.Config.Int("core.compression")
		gitErr := strings.TrimSpace(string(res.Stderr))
		if ierr != nil {
			if gitErr != "fatal: "+ierr.Error() {
				t.Errorf("%q: got %q, git %q", v, ierr, gitErr)
			}
		} else if strings.Contains(gitErr, "bad numeric") && strings.Contains(gitErr, "core.compression") {
			t.Errorf("%q: parsed, git said %q", v, gitErr)
		}
	}
}

// TestParseConfigErrors compares "bad config line" errors with git.
func TestParseConfigErrors(t *testing.T) {
	testgit.Golden(t) // skips without git
	cases := []string{
		"[a]\n\tk = \"unterminated\n",
		"[a]\n\tk = bad\\q\n",
		"[a\n",
		"[a \"sub]\n",
		"[a \"sub\"x]\n",
		"[a]\n\t1k = v\n",
		"[a]\n\tk v\n",
		"[]\n",
		"[a b]\n",
		"\xef\xbbx[a]\n",
		"[a]\n\tk = v\n[b.c d]\n",
		"k = v\n",
		"[a]\n\tk = v\r\n\t=x\n",
		"[a]\n\tk=\"a\\\n\"\n",
		"[a]\n\tk\x00 = v\n",
		"[a \"x\\\ny\"]\n",
	}
	// The bad files are written by the fixture script, next to the
	// repository, so that the case names are the same on every machine.
	script := configScript + "mkdir ../bad\n"
	for i, text := range cases {
		script += shellWrite(fmt.Sprintf("../bad/%d.cfg", i), text)
	}
	root := testgit.Fixture(t, "config-errors", oid.SHA1, script)
	dir := filepath.Join(root, "repo")
	for i, text := range cases {
		env := []string{fmt.Sprintf("GIT_CONFIG_GLOBAL=%s/bad/%d.cfg", root, i)}
		want := gitResult(t, dir, oid.SHA1, env, "config", "--list", "--show-scope", "--show-origin")
		r, err := Discover(EnvFromList(dir, testgit.Env(oid.SHA1, env...)))
		if got := configResult(r, err); got != want {
			t.Errorf("case %d %q:\n got: %s\nwant: %s", i, text, got, want)
		}
	}
}

// TestConfigIncludeConditionsMatchGit covers hasconfig:remote.*.url,
// include loops, "./" and "~/" gitdir patterns and includes relative to
// a global file.
func TestConfigIncludeConditionsMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	f := testgit.Formats[0]
	// The global files of the cases, and the files they include, are
	// written by the fixture script next to the repository (in inc/), so
	// that the case names are the same on every machine; home is inc/home.
	cases := map[string]string{
		"hasconfig-true":  "[remote \"origin\"]\n\turl = https://example.com/r.git\n[includeIf \"hasconfig:remote.*.url:https://example.com/**\"]\n\tpath = inc.cfg\n",
		"hasconfig-false": "[remote \"origin\"]\n\turl = https://other.org/r.git\n[includeIf \"hasconfig:remote.*.url:https://example.com/**\"]\n\tpath = inc.cfg\n",
		"loop":            "[include]\n\tpath = loop.cfg\n",
		"relative":        "[include]\n\tpath = rel.cfg\n",
		"gitdir-dot":      "[includeIf \"gitdir:./\"]\n\tpath = inc.cfg\n",
		"gitdir-home":     "[includeIf \"gitdir:~/\"]\n\tpath = inc.cfg\n",
		"onbranch-glob":   "[includeIf \"onbranch:ma*\"]\n\tpath = inc.cfg\n",
		"tilde-include":   "[include]\n\tpath = ~/x.cfg\n",
		"no-value":        "[include]\n\tpath\n",
	}
	script := configScript + "mkdir ../inc\n" +
		shellWrite("../inc/inc.cfg", "[inc]\n\tfrom = included\n") +
		shellWrite("../inc/loop.cfg", "[loop]\n\tx = 1\n[include]\n\tpath = loop.cfg\n") +
		shellWrite("../inc/rel.cfg", "[rel]\n\tok = yes\n")
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		script += shellWrite("../inc/"+name+".cfg", cases[name])
	}
	root := testgit.Fixture(t, "config-includes", f, script)
	dir := filepath.Join(root, "repo")
	compare := func(name string, global string, live bool) {
		t.Helper()
		env := []string{"GIT_CONFIG_GLOBAL=" + global, "HOME=" + filepath.Join(root, "inc", "home")}
		var want string
		if live {
			res, ok := testgit.Golden(t).Live(testgit.Case{Dir: dir, Format: f, Env: env, Args: []string{"config", "--list", "--show-scope", "--show-origin"}})
			if !ok {
				return
			}
			want = fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", res.ExitCode, res.Stdout, res.Stderr)
		} else {
			want = gitResult(t, dir, f, env, "config", "--list", "--show-scope", "--show-origin")
		}
		r, err := Discover(EnvFromList(dir, testgit.Env(f, env...)))
		if got := configResult(r, err); got != want {
			t.Errorf("%s:\n got: %s\nwant: %s", name, got, want)
		}
	}
	for name := range cases {
		compare(name, filepath.Join(root, "inc", name+".cfg"), false)
	}
	// gitdir: with the repository's absolute path, which a fixture
	// cannot write (it is built elsewhere and moved): written here, and
	// compared with git 2.39.x only.
	global := filepath.Join(t.TempDir(), "global.cfg")
	writeFile(t, global, "[includeIf \"gitdir:"+dir+"/\"]\n\tpath = "+filepath.Join(root, "inc", "inc.cfg")+"\n")
	compare("gitdir-abs", global, true)
	// gitdir: naming the repository through a symbolic link, run from
	// the top of its work tree reached through the link: git's second
	// try (strbuf_add_absolute_path) takes $PWD, which keeps the link.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(t.TempDir(), "linked.cfg")
	writeFile(t, linked, "[includeIf \"gitdir:"+link+"/\"]\n\tpath = "+filepath.Join(root, "inc", "inc.cfg")+"\n")
	env := []string{"GIT_CONFIG_GLOBAL=" + linked, "HOME=" + filepath.Join(root, "inc", "home"), "PWD=" + link}
	if res, ok := testgit.Golden(t).Live(testgit.Case{Dir: link, Format: f, Env: env, Args: []string{"config", "--list", "--show-scope", "--show-origin"}}); ok {
		want := fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", res.ExitCode, res.Stdout, res.Stderr)
		r, err := Discover(EnvFromList(link, testgit.Env(f, env...)))
		if got := configResult(r, err); got != want {
			t.Errorf("gitdir through a link:\n got: %s\nwant: %s", got, want)
		}
		if !strings.Contains(want, "inc.from=included") {
			t.Errorf("gitdir through a link: git did not take the include:\n%s", want)
		}
	}
}
