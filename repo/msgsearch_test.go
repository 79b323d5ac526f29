package repo

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// Every commit of this history has the same committer date, so the
// order in which "^{/re}" and ":/re" visit commits is decided by git's
// tie rule alone (commit_list_insert_by_date: a commit goes after those
// of the same date; ":/" starts from the refs, newest ref first).
const sameDateSearchScript = `
export GIT_COMMITTER_DATE='1112911993 +0000' GIT_AUTHOR_DATE='1112911993 +0000'
git init -q r
cd r
echo 0 >f && git add f && git commit -q -m 'base match'
for b in a b c; do
	git checkout -q -b $b main
	for i in 1 2; do echo $b$i >>f; git commit -q -am "$b$i match"; done
done
git checkout -q main
git merge -q --no-ff -m 'merge a' a
git merge -q --no-ff -m 'merge b' b -X theirs
git merge -q --no-ff -m 'merge c' c -X theirs
echo top >>f && git commit -q -am 'top'
git tag t1 a~1
git branch z b~1
`

func TestMessageSearchTiesMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "same-date-search", f, sameDateSearchScript), "r")
		r, err := Discover(EnvFromList(dir, testgit.Env(f)))
		if err != nil {
			t.Fatal(err)
		}
		rd := r.Objects.NewReader()
		for _, spec := range []string{"HEAD^{/match}", "HEAD^{/[abc]2}", "HEAD^{/[abc]1}", "HEAD^{/!-match}", "HEAD^{/base}",
			"HEAD~1^{/match}", "z^{/match}", "HEAD^{/b2|c1}", "HEAD^{/a2|c1}", ":/b2|c1", ":/a1|b1", ":/match", ":/[abc]2", ":/[abc]1", ":/!-match", ":/merge", ":/"} {
			res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Args: []string{"rev-parse", "-q", "--verify", "--end-of-options", spec}})
			want := strings.TrimSpace(string(res.Stdout))
			got := ""
			if id, err := r.ResolveRevision(rd, spec); err == nil {
				got = id.String()
			}
			if got != want {
				t.Errorf("%s: %s = %q, git %q", f, spec, got, want)
			}
		}
		r.Close()
	}
}
