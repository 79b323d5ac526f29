package cli

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// partialCloneScript makes a history of f.txt, renamed to g.txt at the
// end, x.txt changed ten times and then left alone for thirty commits (a
// long walk that needs two of its versions), in "full", and a blobless
// partial clone of it, "partial": its
// blobs are fetched from full (the promisor remote) as they are read.
const partialCloneScript = `git init -q full && cd full
git config uploadpack.allowFilter true
for i in 1 2 3 4 5 6; do
  printf 'line %s\n' $(seq 1 $((i*2))) >f.txt
  printf 'other %s\n' $i >o.txt
  commit_all "step $i"
done
git tag steps
git mv f.txt g.txt && commit_all rename
for i in $(seq 1 10); do printf 'x %s\n' $i >x.txt && commit_all "x $i"; done
for i in $(seq 1 30); do printf 'pad %s\n' $i >pad.txt && commit_all "pad $i"; done
cd .. && git clone -q --no-local --filter=blob:none "file://$PWD/full" partial
`

func packCount(t *testing.T, dir string) int {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	return len(m)
}

// TestPartialCloneFetchesAsGit: in a blobless partial clone, blame reads
// the blobs the clone lacks by running git fetch from the promisor
// remote, as git does, and prints what git blame prints in the full
// repository; each blame runs in a fresh copy of the clone, so that its
// blobs are really fetched (the copy gets new packs). With
// GIT_NO_LAZY_FETCH set it fails as git does. It fetches what git
// fetches: nothing ahead of need.
func TestPartialCloneFetchesAsGit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds goblame and runs git fetch")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git to fetch with")
	}
	bin := filepath.Join(t.TempDir(), "goblame")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/goblame/goblame").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "partial-clone", f, partialCloneScript)
		full, partial := filepath.Join(root, "full"), filepath.Join(root, "partial")
		env := testgit.Env(f, "GOBLAME_CACHE=off", "GIT_CONFIG_PARAMETERS='gc.auto'='0'")
		for _, args := range [][]string{
			{"HEAD", "--", "g.txt"}, {"--porcelain", "g.txt"}, {"--incremental", "-M", "HEAD", "--", "g.txt"},
			{"-C", "-C", "steps~1", "--", "f.txt"}, {"--reverse", "steps~4..steps", "--", "f.txt"},
			{"HEAD", "--", "o.txt"}, {"HEAD", "--", "x.txt"}, // done two versions back
		} {
			want := testgit.Golden(t).Run(testgit.Case{Dir: full, Format: f, Args: append([]string{"blame"}, args...)})
			dir := filepath.Join(t.TempDir(), "partial")
			testgit.CopyTree(t, partial, dir)
			before := packCount(t, dir)
			cmd := exec.Command(bin, args...)
			cmd.Dir, cmd.Env = dir, env
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			if got := stdout.String(); got != string(want.Stdout) || stderr.Len() != 0 || cmd.ProcessState.ExitCode() != 0 {
				t.Errorf("%v: goblame %s in the partial clone: exit %d, stderr %q\n%s\nwant (git in the full repository):\n%s",
					f, strings.Join(args, " "), cmd.ProcessState.ExitCode(), stderr.String(), got, want.Stdout)
			}
			after := packCount(t, dir)
			if after <= before {
				t.Errorf("%v: goblame %s: %d packs before, %d after: nothing was fetched", f, strings.Join(args, " "), before, after)
			}
			// git fetches an object a pack, as goblame does: as many
			// packs means the same objects fetched, none ahead of need.
			gitDir := filepath.Join(t.TempDir(), "partial")
			testgit.CopyTree(t, partial, gitDir)
			g := exec.Command("git", append([]string{"blame"}, args...)...)
			g.Dir, g.Env = gitDir, env
			if out, err := g.CombinedOutput(); err != nil {
				t.Fatalf("git blame %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			if n := packCount(t, gitDir); n != after {
				t.Errorf("%v: goblame %s left %d packs, git %d", f, strings.Join(args, " "), after, n)
			}
		}
		// A clone whose remote is no promisor any more (promisor=false,
		// no filter): nothing is fetched, and a missing blob is the
		// error of any repository, without GIT_NO_LAZY_FETCH's warning.
		notPromisor := filepath.Join(t.TempDir(), "partial")
		testgit.CopyTree(t, partial, notPromisor)
		for _, kv := range [][]string{{"remote.origin.promisor", "false"}, {"--unset", "remote.origin.partialclonefilter"}} {
			if out, err := exec.Command("git", append([]string{"-C", notPromisor, "config"}, kv...)...).CombinedOutput(); err != nil {
				t.Fatalf("git config %v: %v\n%s", kv, err, out)
			}
		}
		packs := packCount(t, notPromisor)
		for _, extra := range [][]string{nil, {"GIT_NO_LAZY_FETCH=1"}} {
			run := func(prog string) (string, int) {
				cmd := exec.Command(prog, "HEAD", "--", "g.txt")
				if prog == "git" {
					cmd.Args = []string{"git", "blame", "HEAD", "--", "g.txt"}
				}
				cmd.Dir, cmd.Env = notPromisor, append(append([]string{}, env...), extra...)
				out, _ := cmd.CombinedOutput()
				return string(out), cmd.ProcessState.ExitCode()
			}
			got, gotCode := run(bin)
			want, wantCode := run("git")
			if got != want || gotCode != wantCode || packCount(t, notPromisor) != packs {
				t.Errorf("%v: %v goblame in a clone without promisor remote: exit %d\n%s\nwant exit %d\n%s(packs %d)", f, extra, gotCode, got, wantCode, want, packCount(t, notPromisor))
			}
		}
		// No lazy fetch: git's warning and fatal error (nothing changes
		// in the clone, so git runs in the fixture itself).
		args := []string{"HEAD", "--", "g.txt"}
		noLazy := []string{"GIT_NO_LAZY_FETCH=1"}
		want := testgit.Golden(t).Run(testgit.Case{Dir: partial, Format: f, Env: noLazy, Args: append([]string{"blame"}, args...)})
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = partial, append(env, noLazy...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Run()
		if stdout.String() != string(want.Stdout) || stderr.String() != string(want.Stderr) || cmd.ProcessState.ExitCode() != want.ExitCode {
			t.Errorf("%v: GIT_NO_LAZY_FETCH=1 goblame %s: exit %d\n%s%s\nwant exit %d\n%s%s", f, strings.Join(args, " "),
				cmd.ProcessState.ExitCode(), stdout.String(), stderr.String(), want.ExitCode, want.Stdout, want.Stderr)
		}
	}
}
