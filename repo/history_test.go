package repo

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// historyFilesScript adds to indexScript copies of the conflicted merge
// with the history files damaged: a bad MERGE_HEAD line, info/grafts with
// a bad line, and then a bad shallow file too; and a graft file for -S.
const historyFilesScript = `
cp -a conflict bad-merge-head && echo garbage >>bad-merge-head/.git/MERGE_HEAD
cp -a conflict grafts && printf '%s\nnot a graft\n' $(git -C conflict rev-parse HEAD) >grafts/.git/info/grafts
cp -a grafts bad-shallow && echo zz >bad-shallow/.git/shallow
printf '%s\nbad\n' $(git -C conflict rev-parse HEAD) >graft-file
`

func TestHistoryFilesMatchGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "history-files", f, indexScript+historyFilesScript)
		open := func(dir string, env ...string) *Repository {
			r, err := Discover(EnvFromList(filepath.Join(root, dir), testgit.Env(f, env...)))
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		git := func(dir string, env []string, args ...string) testgit.Result {
			return goldens.Run(testgit.Case{Dir: filepath.Join(root, dir), Format: f, Env: env, Args: args})
		}
		// MERGE_HEAD of a conflicted merge.
		heads, err := open("conflict").MergeHeads()
		want := strings.TrimSpace(string(git("conflict", nil, "rev-parse", "MERGE_HEAD").Stdout))
		if err != nil || len(heads) != 1 || heads[0].String() != want {
			t.Errorf("%s: MergeHeads = %v, %v; git %s", f, heads, err, want)
		}
		// A bad line is fatal, with git blame's wording.
		_, err = open("bad-merge-head").MergeHeads()
		res := git("bad-merge-head", nil, "blame", "a.txt")
		if err == nil || renderFatal(err) != string(res.Stderr) || !errors.Is(err, ErrBadRef) {
			t.Errorf("%s: bad MERGE_HEAD: %v; git %q", f, err, res.Stderr)
		}

		// info/grafts: the hint and bad-data errors git prints, then a
		// bad shallow line.
		res = git("grafts", nil, "rev-parse", "HEAD^0")
		_, msgs, err := open("grafts").EffectiveParents()
		if err != nil || strings.Join(append(msgs, ""), "\n") != string(res.Stderr) {
			t.Errorf("%s: graft messages %q, %v; git %q", f, msgs, err, res.Stderr)
		}
		noAdvice := "GIT_CONFIG_PARAMETERS='advice.graftFileDeprecated'='false'"
		res = git("grafts", []string{noAdvice}, "rev-parse", "HEAD^0")
		_, msgs, _ = open("grafts", noAdvice).EffectiveParents()
		if strings.Join(append(msgs, ""), "\n") != string(res.Stderr) {
			t.Errorf("%s: graft messages without advice %q; git %q", f, msgs, res.Stderr)
		}
		res = git("bad-shallow", nil, "blame", "a.txt")
		_, msgs, err = open("bad-shallow").EffectiveParents()
		got := strings.Join(append(msgs, ""), "\n")
		if err != nil {
			got += renderFatal(err)
		}
		if got != string(res.Stderr) {
			t.Errorf("%s: bad shallow: %q; git %q", f, got, res.Stderr)
		}

		// blame -S with a missing file.
		res = git("conflict", nil, "blame", "-S", "nosuch", "a.txt")
		_, err = ParseGraftFile("nosuch", f)
		if err == nil || renderFatal(err) != string(res.Stderr) {
			t.Errorf("%s: -S missing: %v; git %q", f, err, res.Stderr)
		}
		// blame -S with a readable file: a bad line is skipped quietly
		// there (read_graft_line's error is printed by git, though).
		gf := filepath.Join(root, "graft-file")
		g, msgs, err := ReadGraftFile(gf, gf, f)
		// (Of HEAD: the work tree's file has conflict markers, lines git
		// dates now.)
		res = git("conflict", nil, "blame", "-S", gf, "HEAD", "--", "a.txt")
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
