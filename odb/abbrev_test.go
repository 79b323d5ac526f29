package odb

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// abbrevScript makes ~16 400 objects: two packs of 8 000 blobs written by
// fast-import (the second also holds a commit), a few hundred loose blobs,
// and a multi-pack-index over the two packs. That is enough objects for
// 4-digit prefixes to collide constantly, and the object count sits just
// under 2^14, so git's MIDX double count (once it opens the pack holding
// HEAD) moves the automatic abbreviation from 7 to 8 digits.
const abbrevScript = `
git init -q
gen () {
	i=$1
	while test $i -le $2; do
		printf 'blob\ndata <<EOF\nblob number %d\nEOF\n' $i
		i=$((i + 1))
	done
}
gen 1 8000 | git fast-import --quiet
{
	gen 8001 16000
	printf 'commit refs/heads/main\ncommitter C O Mitter <committer@example.com> 1112911993 -0700\ndata <<EOF\nfast-import commit\nEOF\nM 100644 inline file.txt\ndata <<EOF\nhello\nEOF\n'
} | git fast-import --quiet
git multi-pack-index write
for i in $(seq 1 300); do echo "loose blob $i"; done > list
i=0; while read line; do i=$((i + 1)); echo "$line" > l$i; done < list
git hash-object -w l* > /dev/null
# A tree naming every 7th blob, plus names of objects that do not exist,
# so that git ls-tree --abbrev abbreviates thousands of ids in one run.
git cat-file --batch-all-objects --batch-check='%(objecttype) %(objectname)' |
	awk '$1 == "blob" && NR % 7 == 0 { printf "100644 blob %s\tf%s\n", $2, $2 }' > entries
git cat-file --batch-all-objects --batch-check='%(objectname)' | head -50 |
	sed 's/.$/0/; s/^\(.*\)$/100644 blob \1\tmissing-\1/' | sort -u -k4 >> entries
git mktree --missing < entries > abbrev-tree
`

func abbrevFixture(t *testing.T, format oid.Format) (string, []oid.ID) {
	t.Helper()
	testgit.Golden(t) // skips without git
	dir := testgit.Fixture(t, "odb-abbrev", format, abbrevScript)
	// The objects that exist: any git lists the same ones.
	lines := strings.Fields(testgit.Git(t, dir, format, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)"))
	var ids []oid.ID
	for _, l := range lines {
		ids = append(ids, mustParse(t, format, l))
	}
	if len(ids) < 16000 {
		t.Fatalf("fixture has %d objects", len(ids))
	}
	return dir, ids
}

// TestUniqueAbbrevLenMatchesGit compares UniqueAbbrevLen with the
// abbreviations git ls-tree --abbrev[=n] prints for a tree naming ~2 300
// packed and loose blobs and some objects that do not exist, with the
// multi-pack-index used and ignored, plus git rev-parse --short for HEAD.
func TestUniqueAbbrevLenMatchesGit(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			dir, _ := abbrevFixture(t, format)
			goldens := testgit.Golden(t)
			tree := strings.TrimSpace(readFile(t, filepath.Join(dir, "abbrev-tree")))
			// The tree's entries as the script gave them to mktree,
			// in tree order (by name): git's answers below are their
			// abbreviated ids only, in that order.
			var entries [][2]string // name, full id
			for _, line := range strings.Split(strings.TrimSpace(readFile(t, filepath.Join(dir, "entries"))), "\n") {
				tab := strings.IndexByte(line, '\t')
				entries = append(entries, [2]string{line[tab+1:], strings.Fields(line[:tab])[2]})
			}
			slices.SortFunc(entries, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
			entries = slices.CompactFunc(entries, func(a, b [2]string) bool { return a[0] == b[0] })
			compared, extended := 0, 0
			for _, midx := range []bool{true, false} {
				cfg := "core.multiPackIndex=" + map[bool]string{true: "true", false: "false"}[midx]
				for _, abbrev := range []string{"--abbrev", "--abbrev=4", "--abbrev=5", "--abbrev=9"} {
					out := goldens.Git(dir, format, "-c", cfg, "ls-tree", abbrev, "--format=%(objectname)", tree)
					minLen := -1
					if abbrev != "--abbrev" {
						minLen = atoi(strings.TrimPrefix(abbrev, "--abbrev="))
					}
					db, err := Open(objectsDir(t, dir, format), format, Options{DisableMultiPackIndex: !midx})
					if err != nil {
						t.Fatal(err)
					}
					lines := strings.Split(strings.TrimSpace(out), "\n")
					if len(lines) != len(entries) {
						t.Fatalf("git ls-tree printed %d entries, the tree has %d", len(lines), len(entries))
					}
					for i, short := range lines {
						full := entries[i][1]
						id := mustParse(t, format, full)
						if !strings.HasPrefix(full, short) {
							t.Fatalf("ls-tree line %d %q: not a prefix of %s", i, short, full)
						}
						n := db.UniqueAbbrevLen(id, minLen)
						if n != len(short) {
							t.Errorf("%s midx=%v %s: UniqueAbbrevLen = %d, git printed %q", abbrev, midx, full, n, short)
						}
						if minLen > 0 && n > minLen {
							extended++
						}
						compared++
					}
					db.Close()
				}
			}
			if extended == 0 {
				t.Error("no abbreviation needed extending; the fixture is too small")
			}
			head := strings.TrimSpace(goldens.Git(dir, format, "rev-parse", "HEAD"))
			for _, short := range []string{"--short", "--short=4", "--short=0", "--short=12"} {
				got := strings.TrimSpace(goldens.Git(dir, format, "rev-parse", short, head))
				minLen := -1
				if short != "--short" {
					minLen = max(atoi(strings.TrimPrefix(short, "--short=")), 4) // rev-parse's MINIMUM_ABBREV
				}
				db, err := Open(objectsDir(t, dir, format), format, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if n := db.UniqueAbbrevLen(mustParse(t, format, head), minLen); n != len(got) {
					t.Errorf("rev-parse %s: UniqueAbbrevLen = %d, git printed %q", short, n, got)
				}
				db.Close()
				compared++
			}
			t.Logf("%d abbreviations identical to git (%d extended past the minimum)", compared, extended)
		})
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestApproximateCountMidxQuirk reproduces git 2.39.5's double count: git
// log opens the pack holding HEAD through the MIDX before abbreviating, so
// %h gets one more digit than rev-parse --short.
func TestApproximateCountMidxQuirk(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			dir, _ := abbrevFixture(t, format)
			goldens := testgit.Golden(t)
			head := mustParse(t, format, strings.TrimSpace(goldens.Git(dir, format, "rev-parse", "HEAD")))
			for _, midx := range []bool{true, false} {
				cfg := "core.multiPackIndex=" + map[bool]string{true: "true", false: "false"}[midx]
				short := strings.TrimSpace(goldens.Git(dir, format, "-c", cfg, "rev-parse", "--short", "HEAD"))
				logged := strings.TrimSpace(goldens.Git(dir, format, "-c", cfg, "log", "-1", "--format=%h", "HEAD"))

				db, err := Open(objectsDir(t, dir, format), format, Options{DisableMultiPackIndex: !midx})
				if err != nil {
					t.Fatal(err)
				}
				before := db.ApproximateObjectCount()
				if n := db.UniqueAbbrevLen(head, -1); n != len(short) {
					t.Errorf("midx=%v: before reading, UniqueAbbrevLen = %d, git rev-parse --short printed %q", midx, n, short)
				}
				db.Close()

				db, err = Open(objectsDir(t, dir, format), format, Options{DisableMultiPackIndex: !midx})
				if err != nil {
					t.Fatal(err)
				}
				if _, _, err := db.NewReader().Read(head, nil); err != nil {
					t.Fatal(err)
				}
				after := db.ApproximateObjectCount()
				if n := db.UniqueAbbrevLen(head, -1); n != len(logged) {
					t.Errorf("midx=%v: after reading HEAD, UniqueAbbrevLen = %d, git log %%h printed %q", midx, n, logged)
				}
				db.Close()
				t.Logf("midx=%v: count %d before reading, %d after; rev-parse --short %q, log %%h %q", midx, before, after, short, logged)
				if midx && len(logged) != len(short)+1 {
					t.Errorf("fixture does not show the quirk: %q vs %q", short, logged)
				}
			}
		})
	}
}

// TestResolvePrefixMatchesGit compares ResolvePrefix with git rev-parse
// --disambiguate for prefixes of 4 to 6 digits (ambiguous ones included),
// prefixes matching nothing, and the empty tree (not stored here).
func TestResolvePrefixMatchesGit(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			dir, ids := abbrevFixture(t, format)
			db, err := Open(objectsDir(t, dir, format), format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			prefixes := []string{"0000", "ffff", oid.EmptyTree(format).String()[:6]}
			for i := 0; i < len(ids); i += 401 {
				h := ids[i].String()
				prefixes = append(prefixes, h[:4], strings.ToUpper(h[:5]), h[:6])
			}
			matches := 0
			for _, p := range prefixes {
				out := testgit.Golden(t).Git(dir, format, "rev-parse", "--disambiguate="+p)
				want := strings.Fields(out)
				got, err := db.ResolvePrefix(p, 0)
				if err != nil {
					t.Fatal(err)
				}
				var gotHex []string
				for _, id := range got {
					gotHex = append(gotHex, id.String())
				}
				if !slices.Equal(gotHex, want) {
					t.Errorf("ResolvePrefix(%s) = %v, git --disambiguate %v", p, gotHex, want)
				}
				matches += len(want)
				if len(want) > 1 {
					limited, _ := db.ResolvePrefix(p, 1)
					if len(limited) != 1 || limited[0].String() != want[0] {
						t.Errorf("ResolvePrefix(%s, 1) = %v", p, limited)
					}
				}
			}
			t.Logf("%d prefixes, %d matching objects identical to git", len(prefixes), matches)
			for _, bad := range []string{"", "xyz", strings.Repeat("a", format.HexSize()+1)} {
				if _, err := db.ResolvePrefix(bad, 0); err == nil {
					t.Errorf("ResolvePrefix(%q) accepted", bad)
				}
			}
		})
	}
}

// looseFewScript packs 3,000 blobs, so that their names start with every
// two-digit prefix, and leaves three blobs loose.
const looseFewScript = `
git init -q
i=1
while test $i -le 3000; do
	printf 'blob\ndata <<EOF\npacked blob %d\nEOF\n' $i
	i=$((i + 1))
done | git fast-import --quiet
for i in 1 2 3; do echo "loose blob $i" | git hash-object -w --stdin; done > loose
git cat-file --batch-all-objects --batch-check='%(objectname)' > all
`

// TestUniqueAbbrevLenListsFanoutOnce guards the cost of abbreviating in a
// packed repository: the objects directory is listed once, and only the
// fan-out directories that exist are read (git opens each one it needs,
// so abbreviating the commits of a blame in a packed repository cost up
// to 256 failed opens). The loose objects still extend abbreviations as
// in git.
func TestUniqueAbbrevLenListsFanoutOnce(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			goldens := testgit.Golden(t)
			dir := testgit.Fixture(t, "odb-loose-few", format, looseFewScript)
			all := strings.Fields(readFile(t, filepath.Join(dir, "all")))
			loose := strings.Fields(readFile(t, filepath.Join(dir, "loose")))
			if len(all) != 3003 || len(loose) != 3 {
				t.Fatalf("fixture has %d objects, %d loose", len(all), len(loose))
			}
			db, err := Open(objectsDir(t, dir, format), format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			prefixes := map[string]bool{}
			for _, h := range all {
				prefixes[h[:2]] = true
				db.UniqueAbbrevLen(mustParse(t, format, h), 4)
			}
			if len(prefixes) != 256 {
				t.Fatalf("the objects cover %d of the 256 fan-out directories", len(prefixes))
			}
			looseDirs := map[string]bool{}
			for _, h := range loose {
				looseDirs[h[:2]] = true
			}
			if got, want := db.looseDirReads.Load(), int64(1+len(looseDirs)); got != want {
				t.Errorf("%d directory reads abbreviating all %d objects, want %d (the objects directory and the loose objects' fan-out directories)", got, len(all), want)
			}
			// The abbreviations themselves, against git's, for the
			// loose objects and the first packed ones.
			for _, h := range append(append([]string{}, loose...), all[:10]...) {
				short := strings.TrimSpace(goldens.Git(dir, format, "rev-parse", "--short=4", h))
				if n := db.UniqueAbbrevLen(mustParse(t, format, h), 4); n != len(short) {
					t.Errorf("%s: UniqueAbbrevLen = %d, git printed %q", h, n, short)
				}
			}
		})
	}
}

// TestUniqueAbbrevLenFrom: every abbreviation UniqueAbbrevLen gives, for
// each minimum, follows from ShortestUniqueLen alone (what a cache keeps),
// on the fixture whose packed and loose objects collide on short prefixes.
func TestUniqueAbbrevLenFrom(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			dir, ids := abbrevFixture(t, format)
			for _, midx := range []bool{true, false} {
				db, err := Open(objectsDir(t, dir, format), format, Options{DisableMultiPackIndex: !midx})
				if err != nil {
					t.Fatal(err)
				}
				grown := 0
				for i, id := range ids {
					if i%3 != 0 {
						continue
					}
					shortest := db.ShortestUniqueLen(id)
					for _, minLen := range []int{-1, 0, 1, 4, 5, 7, 9, 12, format.HexSize() - 1, format.HexSize()} {
						want := db.UniqueAbbrevLen(id, minLen)
						if got := db.UniqueAbbrevLenFrom(shortest, minLen); got != want {
							t.Fatalf("midx=%v %s minLen %d: UniqueAbbrevLenFrom(%d) = %d, UniqueAbbrevLen = %d", midx, id, minLen, shortest, got, want)
						}
						if minLen > 0 && want > minLen {
							grown++
						}
					}
				}
				if grown == 0 {
					t.Error("no abbreviation grew past its minimum")
				}
				db.Close()
			}
		})
	}
}

// TestAbbrevFingerprint: the fingerprint changes with every change of the
// object names a database holds — a loose object in an existing fan-out
// directory or in a new one, a new pack — and is withheld while a fan-out
// directory is too new to tell a later change from it.
func TestAbbrevFingerprint(t *testing.T) {
	testgit.RequireAnyGit(t)
	format := oid.SHA1
	dir := testgit.Fixture(t, "odb-loose-few", format, looseFewScript)
	work := filepath.Join(t.TempDir(), "repo")
	if err := os.CopyFS(work, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	objects := objectsDir(t, work, format)
	// backdate stands for time passing: fan-out directories changed
	// within the racy window move an hour (and a second more at each
	// call, as the clock would have moved on) into the past.
	shift := time.Hour
	backdate := func() {
		shift += time.Second
		entries, err := os.ReadDir(objects)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			info, err := e.Info()
			if err != nil {
				t.Fatal(err)
			}
			if len(e.Name()) == 2 && time.Since(info.ModTime()) < time.Minute {
				old := info.ModTime().Add(-shift)
				if err := os.Chtimes(filepath.Join(objects, e.Name()), old, old); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	fingerprint := func() ([]byte, bool) {
		db, err := Open(objects, format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		return db.AbbrevFingerprint(time.Now())
	}
	if _, ok := fingerprint(); ok {
		t.Fatal("a fingerprint of fan-out directories written just now")
	}
	backdate()
	first, ok := fingerprint()
	if !ok {
		t.Fatal("no fingerprint of an old database")
	}
	if again, _ := fingerprint(); !bytes.Equal(first, again) {
		t.Fatal("the fingerprint of an unchanged database changed")
	}
	loose := strings.Fields(readFile(t, filepath.Join(work, "loose")))
	// A loose object in the fan-out directory of an existing one.
	sub := filepath.Join(objects, loose[0][:2])
	if err := os.WriteFile(filepath.Join(sub, strings.Repeat("0", 38)), []byte("x"), 0o444); err != nil {
		t.Fatal(err)
	}
	if _, ok := fingerprint(); ok {
		t.Error("a fingerprint right after a loose object was written")
	}
	backdate()
	second, ok := fingerprint()
	if !ok || bytes.Equal(first, second) {
		t.Errorf("fingerprint after a loose object was added: %v, the same as before: %v", ok, bytes.Equal(first, second))
	}
	// A new fan-out directory.
	free := ""
	for b := 0; b < 256 && free == ""; b++ {
		if _, err := os.Lstat(filepath.Join(objects, hex.EncodeToString([]byte{byte(b)}))); err != nil {
			free = hex.EncodeToString([]byte{byte(b)})
		}
	}
	if err := os.Mkdir(filepath.Join(objects, free), 0o755); err != nil {
		t.Fatal(err)
	}
	backdate()
	third, ok := fingerprint()
	if !ok || bytes.Equal(second, third) {
		t.Errorf("fingerprint after a new fan-out directory: %v, the same as before: %v", ok, bytes.Equal(second, third))
	}
	// A new pack (fast-import writes one).
	if _, err := testgit.Run(work, format, []byte("blob\ndata 4\nnew\n\n"), nil, "git", "fast-import", "--quiet"); err != nil {
		t.Fatal(err)
	}
	backdate()
	if fourth, ok := fingerprint(); !ok || bytes.Equal(third, fourth) {
		t.Errorf("fingerprint after a repack: %v, the same as before: %v", ok, bytes.Equal(third, fourth))
	}
}
