package repo

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

const refsScript = `
git init -q r
cd r
commit_all one
git tag v1
git tag -a -m ann v1ann
commit_all two
git branch side
git branch deep/nested/x
git update-ref refs/remotes/origin/main HEAD~1
git symbolic-ref refs/remotes/origin/HEAD refs/remotes/origin/main
git pack-refs --all
commit_all three
git symbolic-ref refs/heads/sym refs/heads/side
git symbolic-ref refs/heads/sym2 refs/heads/sym
git symbolic-ref refs/heads/dangling refs/heads/nothing
echo garbage >.git/refs/heads/broken
ln -s refs/heads/side .git/refs/heads/link
git symbolic-ref refs/heads/c1 refs/heads/c2
git symbolic-ref refs/heads/c2 refs/heads/c3
git symbolic-ref refs/heads/c3 refs/heads/c4
git symbolic-ref refs/heads/c4 refs/heads/c5
git symbolic-ref refs/heads/c5 refs/heads/main
git symbolic-ref refs/heads/d1 refs/heads/c1
mkdir -p .git/refs/heads/dirref/x
git rev-parse HEAD~2 >.git/refs/heads/dirref/x/y
git update-ref refs/bisect/bad HEAD~1
printf '%s extra text\n' $(git rev-parse HEAD) >.git/FETCH_HEAD
git rev-parse HEAD~1 >.git/ORIG_HEAD
git worktree add -q ../wt side
# Fixtures are built elsewhere and moved: make the worktree link relative.
printf 'gitdir: ../r/.git/worktrees/wt\n' >../wt/.git
cd ../wt && commit_all wt-commit && git update-ref refs/bisect/bad HEAD && cd ../r
git init -q ../unborn
git init -q ../detached
cd ../detached && commit_all d1 && git checkout -q --detach && cd ../r
git init -q ../unsorted
cd ../unsorted && commit_all u1 && git branch zeta && git branch alpha && git pack-refs --all
id=$(git rev-parse HEAD)
printf '%s refs/heads/zeta\n%s refs/heads/main\n%s refs/heads/alpha\n' $id $id $id >.git/packed-refs
cd ../r
`

var refNames = []string{
	"HEAD", "refs/heads/main", "refs/heads/side", "refs/heads/deep/nested/x", "refs/tags/v1",
	"refs/tags/v1ann", "refs/remotes/origin/main", "refs/remotes/origin/HEAD", "refs/heads/sym",
	"refs/heads/sym2", "refs/heads/dangling", "refs/heads/broken", "refs/heads/link", "refs/heads/c1",
	"refs/heads/d1", "refs/heads/dirref", "refs/heads/dirref/x/y", "refs/heads/nothing",
	"refs/bisect/bad", "FETCH_HEAD", "ORIG_HEAD", "main-worktree/HEAD", "worktrees/wt/HEAD",
	"worktrees/wt/refs/bisect/bad", "main-worktree/refs/bisect/bad", "refs/heads/a..b",
	"refs/heads/x.lock", "refs/heads/@{u}", "refs/heads/", "refs//heads/main",
}

func TestResolveRefMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "refs", f, refsScript)
		for _, dir := range []string{"r", "wt"} {
			r, err := Discover(EnvFromList(filepath.Join(root, dir), testgit.Env(f)))
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range refNames {
				res := testgit.Golden(t).Run(testgit.Case{Dir: filepath.Join(root, dir), Format: f, Args: []string{"rev-parse", "-q", "--verify", "--end-of-options", name}})
				want := strings.TrimSpace(string(res.Stdout))
				id, rerr := r.ResolveRef(name)
				got := ""
				if rerr == nil {
					got = id.String()
				} else if !errors.Is(rerr, ErrRefNotFound) {
					t.Errorf("%s %s %s: error %v is not ErrRefNotFound", f, dir, name, rerr)
				}
				if got != want {
					t.Errorf("%s in %s: ResolveRef(%q) = %q (%v), git %q", f, dir, name, got, rerr, want)
				}
			}
		}
	}
}

func TestHeadMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "refs", f, refsScript)
		for _, dir := range []string{"r", "wt", "unborn", "detached", "unsorted"} {
			d := filepath.Join(root, dir)
			r, err := Discover(EnvFromList(d, testgit.Env(f)))
			if err != nil {
				t.Fatal(err)
			}
			sym := testgit.Golden(t).Run(testgit.Case{Dir: d, Format: f, Args: []string{"symbolic-ref", "-q", "HEAD"}})
			head := testgit.Golden(t).Run(testgit.Case{Dir: d, Format: f, Args: []string{"rev-parse", "-q", "--verify", "HEAD"}})
			id, symref, err := r.Head()
			if symref != strings.TrimSpace(string(sym.Stdout)) {
				t.Errorf("%s %s: symref %q, git %q", f, dir, symref, sym.Stdout)
			}
			wantID := strings.TrimSpace(string(head.Stdout))
			if wantID == "" {
				if !errors.Is(err, ErrUnbornHead) || err.Error() != "no such ref: HEAD" {
					t.Errorf("%s %s: unborn HEAD gave %v", f, dir, err)
				}
			} else if err != nil || id.String() != wantID {
				t.Errorf("%s %s: Head = %v, %v; git %s", f, dir, id, err, wantID)
			}
		}
		// Unsorted packed-refs are sorted on load.
		r, err := Discover(EnvFromList(filepath.Join(root, "unsorted"), testgit.Env(f)))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"refs/heads/alpha", "refs/heads/main", "refs/heads/zeta"} {
			want := strings.TrimSpace(testgit.Golden(t).Git(filepath.Join(root, "unsorted"), f, "rev-parse", name))
			if id, err := r.ResolveRef(name); err != nil || id.String() != want {
				t.Errorf("%s unsorted %s = %v %v, want %s", f, name, id, err, want)
			}
		}
	}
}

func TestPackedRefsErrors(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	// Each case is an empty repository packed-<i> whose packed-refs is
	// the text, with @ID@ standing for refsScript's HEAD, written by the
	// fixture script.
	cases := []string{
		"# pack-refs with: peeled fully-peeled sorted \n@ID@ refs/heads/main",
		"# bogus header\n@ID@ refs/heads/main\n",
		"# pack-refs with: sorted\nshort refs/heads/main\n",
		"# pack-refs with: peeled fully-peeled sorted ",
		"# pack-refs with: sorted\n@ID@ refs/heads/main\n^@ID@\n",
		"@ID@ refs/heads/zz\n@ID@ refs/heads/main\n",
	}
	script := refsScript + "id=$(git rev-parse HEAD)\n"
	for i, packed := range cases {
		script += fmt.Sprintf("git init -q ../packed-%d\n", i) + shellWrite(fmt.Sprintf("../packed-%d.in", i), packed) +
			fmt.Sprintf("sed \"s/@ID@/$id/g\" ../packed-%d.in >../packed-%d/.git/packed-refs\n", i, i)
	}
	root := testgit.Fixture(t, "refs-packed-errors", oid.SHA1, script)
	for i := range cases {
		dir := filepath.Join(root, fmt.Sprintf("packed-%d", i))
		res := goldens.Run(testgit.Case{Dir: dir, Format: oid.SHA1, Args: []string{"rev-parse", "-q", "--verify", "refs/heads/main"}})
		r, rerr := Discover(EnvFromList(dir, testgit.Env(oid.SHA1)))
		var got oid.ID
		if rerr == nil {
			got, rerr = r.ResolveRef("refs/heads/main")
		}
		gotText := ""
		code := 0
		if rerr != nil {
			if errors.Is(rerr, ErrRefNotFound) {
				code = 1
			} else {
				gotText = "fatal: " + rerr.Error() + "\n"
				code = 128
			}
		} else {
			gotText = ""
		}
		wantOut := strings.TrimSpace(string(res.Stdout))
		if code != res.ExitCode || gotText != string(res.Stderr) || (code == 0 && got.String() != wantOut) {
			t.Errorf("case %d: got %v %q exit %d; git %q %q exit %d", i, got, gotText, code, wantOut, res.Stderr, res.ExitCode)
		}
	}
}

func TestCheckRefnameFormat(t *testing.T) {
	good := []string{"refs/heads/main", "HEAD", "refs/heads/a.b", "refs/heads/@", "a/b"}
	bad := []string{"refs/heads/.x", "refs/heads/a..b", "refs/heads/x.lock", "refs/heads/a@{b", "refs/heads/a b",
		"refs/heads/a:b", "refs/heads/a~1", "refs/heads/a^", "refs/heads/a?", "refs/heads/a*", "refs/heads/a[",
		"refs/heads/a\\b", "refs/heads/", "refs//heads", "refs/heads/a.", "@", "", "refs/heads/\x01"}
	for _, n := range good {
		if !checkRefnameFormat(n, true) {
			t.Errorf("%q rejected", n)
		}
	}
	for _, n := range bad {
		if checkRefnameFormat(n, true) {
			t.Errorf("%q accepted", n)
		}
	}
	if checkRefnameFormat("HEAD", false) {
		t.Error("one-level name accepted without oneLevel")
	}
}
