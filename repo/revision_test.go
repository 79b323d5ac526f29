package repo

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// revScript builds a history with enough objects for ambiguous short
// names, tags of every kind, a merge, odd refs and a staged change.
const revScript = `
git init -q r
cd r
{
for i in $(seq 1 3000); do printf 'blob\nmark :%d\ndata <<EOB\nblob number %d\nEOB\n' $i $i; done
t=1112911993
for i in $(seq 1 400); do
  t=$((t+60))
  printf 'commit refs/heads/main\nauthor A U Thor <a@example.com> %d -0700\ncommitter C O Mitter <c@example.com> %d -0700\ndata <<EOM\ncommit %d\n\nbody of %d\nEOM\nM 100644 :%d f\n' $t $t $i $i $i
done
} | git fast-import --quiet
git checkout -q main
mkdir -p d/e && echo deep >d/e/file && commit_all deep
git tag -a -m annotated v1 main~10
git tag -a -m outer v1outer v1 2>/dev/null
git tag light main~5
git tag treetag main^{tree}
git tag -a -m blobtag blobtag main:f
git checkout -q -b side main~3
echo side >g && commit_all side1
git checkout -q main
test_tick
git merge -q --no-ff -m merge side
git branch v1 main~2
git update-ref refs/remotes/origin/main main~1
git symbolic-ref refs/remotes/origin/HEAD refs/remotes/origin/main
git update-ref refs/heads/$(git rev-parse main~7) main~8
git symbolic-ref refs/heads/dangle refs/heads/none
echo garbage >.git/refs/heads/broken
git update-ref refs/myreplace/$(git rev-parse main~1) main~4
echo staged >f && git add f
git pack-refs --all
git cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)' >../objects
`

// specs are revision expressions; "{x}" placeholders are filled from git.
var revSpecs = []string{
	"HEAD", "@", "main", "refs/heads/main", "heads/main", "side", "origin/main", "origin", "v1", "light",
	"v1outer", "treetag", "blobtag", "HEAD~3", "HEAD^", "HEAD^^", "HEAD^2", "HEAD^3", "HEAD~0", "HEAD^0",
	"HEAD~", "v1^0", "v1~2", "v1^{}", "v1outer^{}", "v1outer^{tag}", "v1^{commit}", "v1^{tree}", "HEAD^{tree}",
	"HEAD^{blob}", "treetag^{commit}", "blobtag^{tree}", "blobtag^{blob}", "HEAD^{object}", "HEAD^{}",
	"HEAD^{bogus}", "HEAD:f", "HEAD:d/e/file", "HEAD:d", "HEAD:d/", "HEAD:", "HEAD:nonexistent",
	"HEAD:d/e/file/", "HEAD:f/x", "main~2:f", "v1:f", "v1outer:f", ":f", ":0:f", ":1:f", ":d/e/file", ":d",
	"HEAD^{tree}:f", "HEAD:./f", ":./f", "{full}", "{FULL}", "{missing}", "{abbrev7}", "{ABBREV7}", "{amb}",
	"{amb}^{commit}", "{amb}^{tree}", "{amb}:f", "{ambtree}", "{ambtree}^{tree}", "{amb}~1", "nosuch",
	"HEAD~500", "{describe}", "broken", "dangle", "{hexref}", "..", "x:y:z", "/", "./f", "HEAD^{commit}^{tree}",
	"main~1^2", "side^", "HEAD^2~1", "refs/heads/v1", "tags/v1", "v1^{tag}", "light^{tag}",
	"{abc}", "abcd", "ab", "treetag^", "treetag~1", "blobtag^0", "v1outer~1", "HEAD^{tree}^", "{full}:f", "main^{tree}^{tree}", "HEAD~1000000000000",
}

// revFixtureValues computes the placeholders: full and abbreviated
// names, a short prefix shared by a commit and a blob, one shared by a
// tree and a blob, describe output and the 40/64-hex branch.
func revFixtureValues(t *testing.T, dir string, f oid.Format) map[string]string {
	t.Helper()
	git := func(args ...string) string { return strings.TrimSpace(testgit.Golden(t).Git(dir, f, args...)) }
	full := git("rev-parse", "main~4")
	vals := map[string]string{
		"{full}":     full,
		"{FULL}":     strings.ToUpper(full),
		"{missing}":  strings.Repeat("1", f.HexSize()),
		"{abbrev7}":  full[:7],
		"{ABBREV7}":  strings.ToUpper(full[:7]),
		"{describe}": "v1-3-g" + git("rev-parse", "main~6")[:8],
		"{hexref}":   git("rev-parse", "main~7"),
		"{abc}":      full[:3],
	}
	// Every object and its type, listed by the fixture script.
	all, err := os.ReadFile(filepath.Join(dir, "..", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	types := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(all))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		p := fields[0][:4]
		types[p] = append(types[p], fields[1])
	}
	var prefixes []string
	for p := range types {
		prefixes = append(prefixes, p)
	}
	sort.Strings(prefixes)
	for _, p := range prefixes {
		ts := strings.Join(types[p], " ")
		if vals["{amb}"] == "" && len(types[p]) == 2 && strings.Contains(ts, "commit") && strings.Contains(ts, "blob") {
			vals["{amb}"] = p
		}
		if vals["{ambtree}"] == "" && len(types[p]) == 2 && strings.Contains(ts, "tree") && strings.Contains(ts, "blob") {
			vals["{ambtree}"] = p
		}
	}
	if vals["{amb}"] == "" || vals["{ambtree}"] == "" {
		t.Fatalf("fixture has no ambiguous prefixes: %v", vals)
	}
	return vals
}

// gitRevParse runs rev-parse --verify and renders stdout, the stderr
// lines before git's final fatal line, and whether it succeeded.
func gitRevParse(t *testing.T, dir string, f oid.Format, env []string, spec string) string {
	t.Helper()
	res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Env: env, Args: []string{"rev-parse", "--verify", "--end-of-options", spec}})
	stderr := strings.TrimSuffix(string(res.Stderr), "fatal: Needed a single revision\n")
	return fmt.Sprintf("exit %d\n%s--- stderr\n%s", res.ExitCode, res.Stdout, stderr)
}

func ourRevParse(r *Repository, spec string) string {
	var warnings []string
	r.WarningHandler = func(l string) { warnings = append(warnings, l) }
	defer func() { r.WarningHandler = nil }()
	rd := r.Objects.NewReader()
	id, err := r.ResolveRevision(rd, spec)
	stderr := ""
	for _, w := range warnings {
		stderr += w + "\n"
	}
	if err != nil {
		ge, ok := err.(*Error)
		if ok {
			for _, l := range ge.Before {
				stderr += l + "\n"
			}
		}
		if !ok || !strings.HasPrefix(ge.Msg, "bad revision '") {
			stderr += "fatal: " + err.Error() + "\n"
			return fmt.Sprintf("exit 128\n--- stderr\n%s", stderr)
		}
		return fmt.Sprintf("exit 128\n--- stderr\n%s", stderr)
	}
	return fmt.Sprintf("exit 0\n%s\n--- stderr\n%s", id, stderr)
}

func TestResolveRevisionMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "revisions", f, revScript)
		dir := filepath.Join(root, "r")
		vals := revFixtureValues(t, dir, f)
		r, err := Discover(EnvFromList(dir, testgit.Env(f)))
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range revSpecs {
			for k, v := range vals {
				spec = strings.ReplaceAll(spec, k, v)
			}
			want := gitRevParse(t, dir, f, nil, spec)
			if got := ourRevParse(r, spec); got != want {
				t.Errorf("%s %q:\n got: %s\nwant: %s", f, spec, got, want)
			}
		}
		// From a subdirectory, "./" and "../" are relative to the prefix.
		sub := filepath.Join(dir, "d")
		rs, err := Discover(EnvFromList(sub, testgit.Env(f)))
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range []string{"HEAD:./e/file", ":./e/file", "HEAD:../f", ":../f", "HEAD:../../f", "HEAD:e/file", "HEAD:./"} {
			want := gitRevParse(t, sub, f, nil, spec)
			if got := ourRevParse(rs, spec); got != want {
				t.Errorf("%s in d/ %q:\n got: %s\nwant: %s", f, spec, got, want)
			}
		}
	}
}

// TestResolveRevisionHistoryFiles checks that grafts, shallow files and
// replace refs change what ~ and ^ reach, as in git.
// revHistoryFilesScript adds to revScript a graft file (with a comment
// and a bad line) and a shallow file next to the repository.
const revHistoryFilesScript = `
printf '%s %s %s\n# comment\n%s\nbad line\n' $(git rev-parse main~2 main~20 main~30 main~40) >../grafts
git rev-parse main~3 >../shallow
`

func TestResolveRevisionHistoryFiles(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "revisions-history-files", f, revScript+revHistoryFilesScript)
		dir := filepath.Join(root, "r")
		grafts, shallow := filepath.Join(root, "grafts"), filepath.Join(root, "shallow")
		envs := [][]string{
			{"GIT_GRAFT_FILE=" + grafts},
			{"GIT_SHALLOW_FILE=" + shallow},
			{"GIT_GRAFT_FILE=" + grafts, "GIT_SHALLOW_FILE=" + shallow},
			{"GIT_REPLACE_REF_BASE=refs/myreplace/"},
			{"GIT_REPLACE_REF_BASE=refs/myreplace/", "GIT_NO_REPLACE_OBJECTS=1"},
		}
		for _, env := range envs {
			r, err := Discover(EnvFromList(dir, testgit.Env(f, env...)))
			if err != nil {
				t.Fatal(err)
			}
			for _, spec := range []string{"main~2^", "main~2^2", "main~2~2", "main~3^", "main~40^", "main~2^{tree}", "main~1^", "main~1:f", "main~1^{tree}"} {
				want := gitRevParse(t, dir, f, env, spec)
				// The graft-file hint is printed when grafts are read.
				want = stripHints(want)
				if got := stripHints(ourRevParse(r, spec)); got != want {
					t.Errorf("%s %v %q:\n got: %s\nwant: %s", f, env, spec, got, want)
				}
			}
		}
	}
}

func stripHints(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "hint: ") && !strings.HasPrefix(l, "hint:   ") && l != "hint: The candidates are:" {
			continue
		}
		if strings.HasPrefix(l, "error: bad graft data") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
