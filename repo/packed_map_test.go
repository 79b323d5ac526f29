package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// A packed-refs file above git's 32 KiB is mapped, not read: 1,500 tags
// make one of about 90 KiB (sorted, as git writes it), and a second
// repository holds the same records unsorted, which goblame sorts in a
// copy.
const bigPackedScript = `
git init -q r
cd r
commit_all one
commit_all two
for i in $(seq 1 1500); do echo "create refs/tags/t$i HEAD~$((i % 2))"; done | git update-ref --stdin
git branch side HEAD~1
git pack-refs --all
git init -q ../unsorted
cp -r .git/objects ../unsorted/.git/
cp .git/HEAD ../unsorted/.git/HEAD
{ echo '# pack-refs with: peeled '; grep -v '^#' .git/packed-refs | sort -r -k2; } >../unsorted/.git/packed-refs
`

func TestMappedPackedRefsMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "bigpacked", f, bigPackedScript)
		for _, dir := range []string{"r", "unsorted"} {
			gitDir := filepath.Join(root, dir)
			st, err := os.Stat(filepath.Join(gitDir, ".git/packed-refs"))
			if err != nil || st.Size() <= packedMapBytes {
				t.Fatalf("packed-refs of %d bytes (%v): the fixture must be above %d", st.Size(), err, packedMapBytes)
			}
			r, err := Discover(EnvFromList(gitDir, testgit.Env(f)))
			if err != nil {
				t.Fatal(err)
			}
			names := []string{"refs/heads/side", "refs/tags/t1", "refs/tags/t2", "refs/tags/t777", "refs/tags/t1500", "refs/tags/t1501", "refs/tags/t", "t42", "side"}
			for _, name := range names {
				res := testgit.Golden(t).Run(testgit.Case{Dir: gitDir, Format: f, Args: []string{"rev-parse", "-q", "--verify", "--end-of-options", name}})
				want := strings.TrimSpace(string(res.Stdout))
				got := ""
				if id, err := r.ResolveRef(name); err == nil {
					got = id.String()
				} else if id, err := r.ResolveRef("refs/tags/" + name); err == nil && !strings.HasPrefix(name, "refs/") {
					got = id.String()
				} else if id, err := r.ResolveRef("refs/heads/" + name); err == nil && !strings.HasPrefix(name, "refs/") {
					got = id.String()
				}
				if got != want {
					t.Errorf("%s %s: %s = %q, git %q", f, dir, name, got, want)
				}
			}
			var got strings.Builder
			if err := r.ForEachRef("refs/tags/t14", func(name string, id oid.ID) error {
				fmt.Fprintf(&got, "%s %s\n", id, name)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			want := testgit.Golden(t).Git(gitDir, f, "for-each-ref", "--format=%(objectname) %(refname)", "refs/tags/t14*")
			if got.String() != want {
				t.Errorf("%s %s: refs under refs/tags/t14:\n%s\ngit:\n%s", f, dir, got.String(), want)
			}
			r.Close()
		}
	}
}

// TestPackedRefsMappingReleased: the mapping of a large packed-refs
// file goes once its repository is unreachable, and stays while it is in
// use.
func TestPackedRefsMappingReleased(t *testing.T) {
	dir := t.TempDir()
	gitDir := filepath.Join(dir, ".git")
	for _, d := range []string{"objects/pack", "refs/heads"} {
		if err := os.MkdirAll(filepath.Join(gitDir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	id := strings.Repeat("ab", 20)
	var b strings.Builder
	b.WriteString("# pack-refs with: peeled fully-peeled sorted \n")
	for i := range 2000 {
		fmt.Fprintf(&b, "%s refs/tags/v%05d\n", id, i)
	}
	for name, data := range map[string]string{"HEAD": "ref: refs/heads/main\n", "config": "[core]\n\trepositoryformatversion = 0\n", "packed-refs": b.String()} {
		if err := os.WriteFile(filepath.Join(gitDir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	packed := filepath.Join(gitDir, "packed-refs")
	mapped := func() bool {
		maps, err := os.ReadFile("/proc/self/maps")
		if err != nil {
			t.Skip("no /proc/self/maps")
		}
		return strings.Contains(string(maps), packed)
	}
	if mapped() {
		t.Fatal("mapped before use")
	}
	func() {
		r, err := Discover(Env{Cwd: dir, Getenv: func(string) string { return "" }, LookupEnv: func(string) (string, bool) { return "", false }})
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ResolveRef("refs/tags/v01234")
		if err != nil || got.String() != id {
			t.Fatalf("ResolveRef = %v, %v", got, err)
		}
		if !mapped() {
			t.Fatal("a packed-refs file of 150 KB is not mapped")
		}
		runtime.GC()
		if !mapped() {
			t.Fatal("mapping released while its repository is in use")
		}
		runtime.KeepAlive(r)
	}()
	for i := 0; mapped(); i++ {
		if i == 100 {
			t.Fatal("mapping kept after its repository became unreachable")
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	// Small files are read.
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, isMapped, err := fsread.MapFile(small, 0, packedMapBytes); err != nil || isMapped || string(data) != "x\n" {
		t.Fatalf("MapFile(small) = %q, %v, %v", data, isMapped, err)
	}
}
