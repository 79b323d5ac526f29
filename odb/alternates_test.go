package odb

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// alternatesScript builds, next to the history repository w:
//   - shared: git clone --shared w (absolute alternates path), with its
//     own commits packed locally and some loose;
//   - nested: a repository whose hand-written info/alternates has a
//     comment, an empty line, a C-quoted relative path to shared, the same
//     path again unquoted (a duplicate), and a directory that does not
//     exist; shared in turn borrows from w.
const alternatesScript = `
cd ..
git clone -q --shared w shared
cd shared
# Fixtures are built in a temporary directory and moved into the cache, so
# the absolute path --shared wrote is made relative here; an absolute path
# is tested at run time (TestAlternatesAbsolute).
echo ../../../w/.git/objects > .git/objects/info/alternates
for i in $(seq 1 12); do echo "shared $i" >> shared.txt; seq $i 50 > numbers.txt; commit_all "shared $i"; done
git repack -dlq
echo "loose in shared" > loose.txt
commit_all "shared loose"
cd ..
git init -q nested
cd nested
printf '# a comment\n\n"../../../sh\\141red/.git/objects"\n../../../shared/.git/objects\n/nonexistent/objects\n' > .git/objects/info/alternates
git update-ref refs/heads/main $(git -C ../shared rev-parse HEAD)
git reset -q --hard
echo "nested" > nested.txt
commit_all "nested"
`

func TestAlternatesMatchGit(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			root := fixture(t, "alternates", format, alternatesScript)
			nested := filepath.Join(root, "..", "nested")
			db, err := Open(objectsDir(t, nested, format), format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			dirs := db.ObjectDirs()
			db.Close()
			real := func(p string) string {
				r, err := filepath.EvalSymlinks(p)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			wantDirs := []string{
				real(filepath.Join(root, "..", "shared", ".git", "objects")),
				real(filepath.Join(root, ".git", "objects")),
			}
			if !reflect.DeepEqual(dirs[1:], wantDirs) {
				t.Fatalf("ObjectDirs = %q, want main then %q", dirs, wantDirs)
			}
			n := compareAll(t, nested, format, Options{})
			t.Logf("%d objects (own, shared and w's) identical to git", n)
		})
	}
}

// TestAlternatesAbsolute makes a repository at run time whose alternates
// file names the nested fixture by absolute path: four object stores deep.
func TestAlternatesAbsolute(t *testing.T) {
	format := testgit.Formats[0]
	root := fixture(t, "alternates", format, alternatesScript)
	nestedObjects := objectsDir(t, filepath.Join(root, "..", "nested"), format)
	dir := t.TempDir()
	testgit.Git(t, dir, format, "init", "-q", "--bare", "top")
	top := filepath.Join(dir, "top")
	if err := os.WriteFile(filepath.Join(top, "objects", "info", "alternates"), []byte(nestedObjects+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := compareAll(t, top, format, Options{})
	t.Logf("%d objects identical to git", n)
}

// TestAlternatesDepthLimit builds a chain of nine bare repositories, each
// borrowing from the next through a relative path, with one object only in
// each, and checks that exactly the objects git finds from the first one
// are found.
func TestAlternatesDepthLimit(t *testing.T) {
	const script = `
mkdir chain && cd chain
for i in 0 1 2 3 4 5 6 7 8; do
	git init -q --bare r$i
	echo "only in r$i" | git --git-dir=r$i hash-object -w --stdin > id$i
done
for i in 0 1 2 3 4 5 6 7; do
	echo "../../r$((i + 1))/objects" > r$i/objects/info/alternates
done
`
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			goldens := testgit.Golden(t) // skips without git
			root := testgit.Fixture(t, "odb-alternates-chain", format, script)
			chain := filepath.Join(root, "chain")
			db, err := Open(filepath.Join(chain, "r0", "objects"), format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			r := db.NewReader()
			found := 0
			for i := 0; i <= 8; i++ {
				b, err := os.ReadFile(filepath.Join(chain, "id"+string(rune('0'+i))))
				if err != nil {
					t.Fatal(err)
				}
				id := mustParse(t, format, strings.TrimSpace(string(b)))
				res := goldens.Run(testgit.Case{Dir: filepath.Join(chain, "r0"), Format: format, Args: []string{"cat-file", "-e", id.String()}})
				gitHas := res.ExitCode == 0
				if got := r.Has(id); got != gitHas {
					t.Errorf("object only in r%d: Has = %v, git cat-file -e says %v", i, got, gitHas)
				}
				if gitHas {
					found++
				}
			}
			if found != 7 {
				t.Errorf("git found %d of the 9 objects; the fixture expects the main store plus 6 nested alternates", found)
			}
			if len(db.ObjectDirs()) != 7 {
				t.Errorf("ObjectDirs has %d entries, want 7", len(db.ObjectDirs()))
			}
		})
	}
}

// TestExtraAlternatesOrder checks that GIT_ALTERNATE_OBJECT_DIRECTORIES
// entries come before info/alternates entries, as git 2.39.5 links them:
// git reports broken nested alternates in the order it links directories.
func TestExtraAlternatesOrder(t *testing.T) {
	const script = `
mkdir order && cd order
git init -q --bare env
git init -q --bare info
git init -q --bare main
echo "/nonexistent-from-env" > env/objects/info/alternates
echo "/nonexistent-from-info" > info/objects/info/alternates
echo "../../info/objects" > main/objects/info/alternates
echo "env object" | git --git-dir=env hash-object -w --stdin > env-id
echo "info object" | git --git-dir=info hash-object -w --stdin > info-id
`
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			goldens := testgit.Golden(t) // skips without git
			root := testgit.Fixture(t, "odb-alternates-order", format, script)
			order := filepath.Join(root, "order")
			envDir := filepath.Join(order, "env", "objects")
			env := "GIT_ALTERNATE_OBJECT_DIRECTORIES=" + envDir
			envID, err := os.ReadFile(filepath.Join(order, "env-id"))
			if err != nil {
				t.Fatal(err)
			}
			res := goldens.Run(testgit.Case{Dir: filepath.Join(order, "main"), Format: format, Env: []string{env}, Args: []string{"cat-file", "-e", strings.TrimSpace(string(envID))}})
			stderr := string(res.Stderr)
			iEnv := strings.Index(stderr, "nonexistent-from-env")
			iInfo := strings.Index(stderr, "nonexistent-from-info")
			if iEnv < 0 || iInfo < 0 {
				t.Fatalf("git did not report both broken alternates:\n%s", stderr)
			}
			gitEnvFirst := iEnv < iInfo
			db, err := Open(filepath.Join(order, "main", "objects"), format, Options{ExtraAlternates: []string{envDir}})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			dirs := db.ObjectDirs()
			if len(dirs) != 3 {
				t.Fatalf("ObjectDirs = %q", dirs)
			}
			realEnv, err := filepath.EvalSymlinks(envDir)
			if err != nil {
				t.Fatal(err)
			}
			envFirst := dirs[1] == realEnv
			if envFirst != gitEnvFirst {
				t.Errorf("ObjectDirs = %q; git links the environment alternates first: %v", dirs, gitEnvFirst)
			}
			compareAll(t, filepath.Join(order, "main"), format, Options{ExtraAlternates: []string{envDir}}, env)
		})
	}
}

func TestParseAlternates(t *testing.T) {
	cases := []struct {
		in   string
		sep  byte
		want []string
	}{
		{"a\nb\n", '\n', []string{"a", "b"}},
		{"# c\n\n\"q\\tx\\101\"\nplain", '\n', []string{"q\txA", "plain"}},
		{"\"broken\nx", '\n', []string{"\"broken", "x"}},
		{"\"multi\nline\"\ny", '\n', []string{"multi\nline", "y"}},
		{"a:\"b:c\":d", ':', []string{"a", "b:c", "d"}},
		{"\"bad\\q\"\n", '\n', []string{"\"bad\\q\""}},
	}
	for _, c := range cases {
		got := parseAlternates([]byte(c.in), c.sep)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseAlternates(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
