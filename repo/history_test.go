package repo

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// copyFixture copies a fixture repository so a test may change it.
func copyFixture(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	return dst
}

func TestHistoryFilesMatchGit(t *testing.T) {
	testgit.RequireGit(t)
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "index", f, indexScript)
		dir := copyFixture(t, filepath.Join(root, "conflict"))
		open := func(env ...string) *Repository {
			r, err := Discover(EnvFromList(dir, testgit.Env(f, env...)))
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		git := func(env []string, args ...string) testgit.Result {
			res, err := testgit.Run(dir, f, nil, env, "git", args...)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		// MERGE_HEAD of a conflicted merge.
		heads, err := open().MergeHeads()
		want := strings.TrimSpace(string(git(nil, "rev-parse", "MERGE_HEAD").Stdout))
		if err != nil || len(heads) != 1 || heads[0].String() != want {
			t.Errorf("%s: MergeHeads = %v, %v; git %s", f, heads, err, want)
		}
		// A bad line is fatal, with git blame's wording.
		mh := filepath.Join(dir, ".git/MERGE_HEAD")
		orig, _ := os.ReadFile(mh)
		writeFile(t, mh, string(orig)+"garbage\n")
		_, err = open().MergeHeads()
		res := git(nil, "blame", "a.txt")
		if err == nil || renderFatal(err) != string(res.Stderr) || !errors.Is(err, ErrBadRef) {
			t.Errorf("%s: bad MERGE_HEAD: %v; git %q", f, err, res.Stderr)
		}
		writeFile(t, mh, string(orig))

		// info/grafts: the hint and bad-data errors git prints, then a
		// bad shallow line.
		head := strings.TrimSpace(string(git(nil, "rev-parse", "HEAD").Stdout))
		writeFile(t, filepath.Join(dir, ".git/info/grafts"), head+"\nnot a graft\n")
		res = git(nil, "rev-parse", "HEAD^0")
		_, msgs, err := open().EffectiveParents()
		if err != nil || strings.Join(append(msgs, ""), "\n") != string(res.Stderr) {
			t.Errorf("%s: graft messages %q, %v; git %q", f, msgs, err, res.Stderr)
		}
		res = git([]string{"GIT_CONFIG_PARAMETERS='advice.graftFileDeprecated'='false'"}, "rev-parse", "HEAD^0")
		_, msgs, _ = open("GIT_CONFIG_PARAMETERS='advice.graftFileDeprecated'='false'").EffectiveParents()
		if strings.Join(append(msgs, ""), "\n") != string(res.Stderr) {
			t.Errorf("%s: graft messages without advice %q; git %q", f, msgs, res.Stderr)
		}
		writeFile(t, filepath.Join(dir, ".git/shallow"), "zz\n")
		res = git(nil, "blame", "a.txt")
		_, msgs, err = open().EffectiveParents()
		got := strings.Join(append(msgs, ""), "\n")
		if err != nil {
			got += renderFatal(err)
		}
		if got != string(res.Stderr) {
			t.Errorf("%s: bad shallow: %q; git %q", f, got, res.Stderr)
		}
		os.Remove(filepath.Join(dir, ".git/shallow"))
		os.Remove(filepath.Join(dir, ".git/info/grafts"))

		// blame -S with a missing file.
		res = git(nil, "blame", "-S", "nosuch", "a.txt")
		_, err = ParseGraftFile("nosuch", f)
		if err == nil || renderFatal(err) != string(res.Stderr) {
			t.Errorf("%s: -S missing: %v; git %q", f, err, res.Stderr)
		}
		// blame -S with a readable file: a bad line is skipped quietly
		// there (read_graft_line's error is printed by git, though).
		gf := filepath.Join(t.TempDir(), "g")
		writeFile(t, gf, head+"\nbad\n")
		g, msgs, err := ReadGraftFile(gf, f)
		res = git(nil, "blame", "-S", gf, "a.txt")
		if err != nil || len(g) != 1 || strings.Join(append(msgs, ""), "\n") != string(res.Stderr) {
			t.Errorf("%s: -S file: %v %q %v; git %q", f, g, msgs, err, res.Stderr)
		}
	}
}

func TestPeelMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "revisions", f, revScript)
		dir := filepath.Join(root, "r")
		r, err := Discover(EnvFromList(dir, testgit.Env(f)))
		if err != nil {
			t.Fatal(err)
		}
		rd := r.Objects.NewReader()
		for _, c := range []struct {
			name string
			want object.Type
			spec string
		}{
			{"v1outer", object.Commit, "v1outer^{commit}"},
			{"v1outer", object.Tree, "v1outer^{tree}"},
			{"v1outer", object.Invalid, "v1outer^{}"},
			{"v1outer", object.Tag, "v1outer"},
			{"main", object.Tree, "main^{tree}"},
			{"blobtag", object.Blob, "blobtag^{blob}"},
		} {
			id, err := r.ResolveRevision(rd, c.name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Peel(rd, id, c.want)
			want := strings.TrimSpace(testgit.Golden(t).Git(dir, f, "rev-parse", c.spec))
			if err != nil || got.String() != want {
				t.Errorf("%s Peel(%s, %v) = %v, %v; git %s", f, c.name, c.want, got, err, want)
			}
		}
		id, _ := r.ResolveRevision(rd, "blobtag")
		if _, err := Peel(rd, id, object.Commit); err == nil {
			t.Errorf("%s: a blob peeled to a commit", f)
		}
		_ = oid.SHA1
	}
}
