package repo

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

const upstreamScript = `
git init -q r
cd r
commit_all one
commit_all two
git update-ref refs/remotes/origin/main HEAD~1
git update-ref refs/remotes/up/feature/x HEAD
git config remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*'
git config --add remote.origin.fetch 'refs/tags/fixed:refs/remotes/origin/fixed-tag'
git config remote.up.fetch '+refs/heads/feature/*:refs/remotes/up/feature/*'
git config branch.main.remote origin && git config branch.main.merge refs/heads/main
git branch side && git config branch.side.remote origin && git config branch.side.merge refs/heads/side
git branch loc && git config branch.loc.remote . && git config branch.loc.merge refs/heads/main
git branch locshort && git config branch.locshort.remote . && git config branch.locshort.merge side
git branch nostore && git config branch.nostore.remote other && git config branch.nostore.merge refs/heads/x
git branch noremote && git config branch.noremote.merge refs/heads/main
git branch feat && git config branch.feat.remote up && git config branch.feat.merge refs/heads/feature/x
git branch tagged && git config branch.tagged.remote origin && git config branch.tagged.merge refs/tags/fixed
git branch plain
cd .. && git clone -q r detached && cd detached && git checkout -q --detach
`

func TestUpstreamMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "upstream", f, upstreamScript)
		for _, repoDir := range []string{"r", "detached"} {
			dir := filepath.Join(root, repoDir)
			r, err := Discover(EnvFromList(dir, testgit.Env(f)))
			if err != nil {
				t.Fatal(err)
			}
			rd := r.Objects.NewReader()
			for _, spec := range []string{"@{u}", "@{U}", "@{upstream}", "@{UpStream}~1", "HEAD@{u}", "main@{u}", "main@{upstream}^0",
				"side@{u}", "loc@{u}", "locshort@{u}", "nostore@{u}", "noremote@{u}", "feat@{u}", "tagged@{u}", "plain@{u}",
				"nope@{u}", "main@{up}", "main@{u}..HEAD"} {
				res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Args: []string{"rev-parse", "--verify", "-q", "--end-of-options", spec}})
				id, rerr := r.ResolveRevision(rd, spec)
				want := strings.TrimSpace(string(res.Stdout))
				switch res.ExitCode {
				case 0:
					if rerr != nil || id.String() != want {
						t.Errorf("%s %s: %s = %v, %v; git %s", f, repoDir, spec, id, rerr, want)
					}
				case 128:
					msg := strings.TrimSpace(strings.TrimPrefix(string(res.Stderr), "fatal: "))
					if rerr == nil || !strings.Contains(rerr.Error(), msg) {
						t.Errorf("%s %s: %s = %v, %v; git dies with %q", f, repoDir, spec, id, rerr, msg)
					}
				default:
					if rerr == nil {
						t.Errorf("%s %s: %s = %v; git finds nothing (exit %d)", f, repoDir, spec, id, res.ExitCode)
					}
				}
			}
			r.Close()
		}
	}
}
