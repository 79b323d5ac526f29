package cli

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// damageScript makes damaged copies of one small repository: a missing
// blob of an old version, a missing parent commit, a truncated pack, a
// flipped byte inside a packed object, an empty pack index, a corrupt
// loose object, a HEAD that names nothing, a multi-pack-index and a pack
// index that are directories (which git maps, and dies of), a truncated
// pack under a commit-graph and a pack index out of order.
const damageScript = `git init -q r && cd r
for i in 1 2 3 4 5; do seq 1 $((i*10)) >f; commit_all c$i; done
cd ..
cp -r r missing-blob
b=$(git -C r rev-parse HEAD~2:f); rm missing-blob/.git/objects/${b%${b#??}}/${b#??}
cp -r r missing-commit
c=$(git -C r rev-parse HEAD~3); rm missing-commit/.git/objects/${c%${c#??}}/${c#??}
cp -r r corrupt-loose
c=$(git -C r rev-parse HEAD~1); chmod u+w corrupt-loose/.git/objects/${c%${c#??}}/${c#??}; printf 'garbage' >corrupt-loose/.git/objects/${c%${c#??}}/${c#??}
cp -r r packed && git -C packed repack -qad
cp -r packed truncated-pack && p=$(ls truncated-pack/.git/objects/pack/*.pack) && chmod u+w $p && truncate -s 300 $p
cp -r packed flipped-byte && p=$(ls flipped-byte/.git/objects/pack/*.pack) && chmod u+w $p && printf '\377\377\377\377' | dd of=$p bs=1 seek=200 conv=notrunc 2>/dev/null
cp -r packed empty-idx && i=$(ls empty-idx/.git/objects/pack/*.idx) && chmod u+w $i && : >$i
cp -r r bad-head && echo 0123456789012345678901234567890123456789 >bad-head/.git/refs/heads/main
cp -r packed midx-dir && mkdir midx-dir/.git/objects/pack/multi-pack-index
cp -r packed idx-dir && i=$(ls idx-dir/.git/objects/pack/*.idx) && rm -f $i && mkdir $i
cp -r packed truncated-graph && git -C truncated-graph commit-graph write --reachable && p=$(ls truncated-graph/.git/objects/pack/*.pack) && chmod u+w $p && truncate -s -10 $p
cp -r packed unsorted-idx && i=$(ls unsorted-idx/.git/objects/pack/*.idx) && chmod u+w $i && printf '\377' | dd of=$i bs=1 seek=20 conv=notrunc 2>/dev/null
for d in midx-dir/.git/objects/pack/multi-pack-index idx-dir/.git/objects/pack/*.idx; do
	for i in $(seq 100); do : >$d/entry-$(printf '%04d' $i); done
done
`

// TestDamagedRepositories checks that goblame fails where git fails, with
// the same exit status, output and standard error (git's "error:" lines,
// as many times as git prints them, and its "fatal:" message) and no
// panic; where git reports and goes on (a missing parent), goblame says
// exactly what git says.
func TestDamagedRepositories(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage", format, damageScript)
		// git's messages name what it read at the damaged offsets, so
		// the goldens hold for packs with git 2.39.5's bytes only.
		goldens.RequireFiles(root, "packed/.git/objects/pack/*", "truncated-pack/.git/objects/pack/*", "flipped-byte/.git/objects/pack/*")
		for _, dir := range []string{"missing-blob", "missing-commit", "corrupt-loose", "truncated-pack", "flipped-byte", "empty-idx", "bad-head", "midx-dir", "idx-dir", "truncated-graph", "unsorted-idx"} {
			for _, args := range [][]string{{"f"}, {"-p", "HEAD", "--", "f"}, {"--incremental", "f"}} {
				path := filepath.Join(root, dir)
				want := goldens.Run(testgit.Case{Dir: path, Format: format, Args: append([]string{"blame"}, args...)})
				got := runGoblame(path, format, nil, nil, args...)
				if bytes.Contains(got.Stderr, []byte("panic")) || bytes.Contains(got.Stderr, []byte("goroutine")) {
					t.Fatalf("%s %v: goblame panicked:\n%s", dir, args, got.Stderr)
				}
				if got.ExitCode != want.ExitCode {
					t.Errorf("%s %v: exit %d, git %d\n%s\ngit:\n%s", dir, args, got.ExitCode, want.ExitCode, got.Stderr, want.Stderr)
					continue
				}
				if want.ExitCode == 0 || !strings.Contains(string(args[0]), "incremental") {
					if !bytes.Equal(got.Stdout, want.Stdout) {
						t.Errorf("%s %v: stdout differs:\n%s", dir, args, describeDiff(got, want))
					}
				}
				if !bytes.Equal(got.Stderr, want.Stderr) {
					t.Errorf("%s %v: stderr differs:\n%s", dir, args, describeDiff(got, want))
				}
				if want.ExitCode != 0 {
					last := strings.TrimSpace(string(got.Stderr))
					if i := strings.LastIndexByte(last, '\n'); i >= 0 {
						last = last[i+1:]
					}
					if !strings.HasPrefix(last, "fatal: ") {
						t.Errorf("%s %v: last stderr line %q is not a fatal error", dir, args, last)
					}
				}
			}
		}
	}
}

// damageIndexScript makes copies of a repository with its index cut
// short: git maps the index and reads
// its entries without a bound, into the checksum and the zeros that fill
// the mapping's last page, so such an index reads as garbage entries and
// the blame goes on.
const damageIndexScript = `git init -q r && cd r
mkdir -p d; for i in 1 2 3; do seq 1 $((i*4)) >f; echo x$i >d/g; echo y$i >h; commit_all c$i; done
# An index without the files' stat data (read-tree zeroes it), so that
# its bytes, and the copies cut from it, are the same on every machine.
rm .git/index && git read-tree HEAD
cd ..
size=$(wc -c <r/.git/index)
n=0
for cut in 40 100 $((size - 30)) $((size - 1)); do
	n=$((n+1)); cp -r r i$n; head -c $cut r/.git/index >i$n/.git/index
done
# i5: the last entry's (h's) name length 3,919, which runs its name
# past the mapping's page.
hashlen=$(( $(git -C r rev-parse HEAD | wc -c) / 2 ))
cp -r r i5
entry () { echo $(( (40 + hashlen + 2 + $1 + 8) / 8 * 8 )); }
printf '\017\117' | dd of=i5/.git/index bs=1 seek=$((12 + $(entry 3) + $(entry 1) + 40 + hashlen)) conv=notrunc 2>/dev/null
`

// TestDamagedIndexMatchesGit blames with each damaged index, as git
// reads it: garbage entries where git reads past the file's end (past
// the mapping's last page too, for a long name length), an extension
// cut short read no further, git's errors where it has them.
// (An index cut in the middle of its entries, or with bytes inserted, is
// left out: git's diff of HEAD with the garbage it reads, out of order,
// decides what a blame of the work tree shows, and can end in its
// "internal error in blame::find_origin (D)".)
func TestDamagedIndexMatchesGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-index", format, damageIndexScript)
		goldens.RequireFiles(root, "i*/.git/index")
		compareEachCopy(t, root, "i%d", 4, format, [][]string{{"f"}, {"-L", "2,3", "--", "h"}, {"HEAD", "--", "d/g"}})
		// (h's own blame would compare its name with bytes git reads
		// from whatever lies past the page.)
		for _, args := range [][]string{{"f"}, {"d/g"}, {"-p", "f"}} {
			compareWithGit(t, filepath.Join(root, "i5"), format, nil, nil, args...)
		}
	}
}

// compareEachCopy runs compareWithGit with each of argSets in the
// fixture's copies root/fmt.Sprintf(name, i), i from 1 to n.
func compareEachCopy(t *testing.T, root, name string, n int, format oid.Format, argSets [][]string) {
	t.Helper()
	for i := 1; i <= n; i++ {
		dir := filepath.Join(root, fmt.Sprintf(name, i))
		for _, args := range argSets {
			compareWithGit(t, dir, format, nil, nil, args...)
		}
	}
}

// damageExtScript makes copies of a repository whose index (read-tree's:
// no stat data, a TREE extension) has that extension renamed to one git
// does not know: an optional one (upper case), a required one (lower
// case), a required one whose size runs past the file, and an optional
// one of size 0 (two), whose data then reads as a required one; and copies
// whose pack index gives the HEAD commit the offset 0, which git takes
// for "not in this pack", one past the pack's end, or the offset of the
// final version of f.
const damageExtScript = `git init -q r && cd r
mkdir -p d; for i in 1 2 3; do seq 1 $((i*4)) >f; echo x$i >d/g; commit_all c$i; done
git repack -adq
rm .git/index && git read-tree HEAD
cd ..
ext=$(grep -boa TREE r/.git/index | tail -1 | cut -d: -f1)
cp -r r optional && printf 'DREE' | dd of=optional/.git/index bs=1 seek=$ext conv=notrunc 2>/dev/null
cp -r r required && printf 'tRE\001' | dd of=required/.git/index bs=1 seek=$ext conv=notrunc 2>/dev/null
cp -r r oversized && printf 'tRE\001\177\377\377\377' | dd of=oversized/.git/index bs=1 seek=$ext conv=notrunc 2>/dev/null
cp -r r two && printf 'TRE\000\000\000\000\000' | dd of=two/.git/index bs=1 seek=$ext conv=notrunc 2>/dev/null
cp -r r zero-offset && idx=$(ls zero-offset/.git/objects/pack/*.idx) && chmod u+w $idx
hashlen=$(( $(git -C r rev-parse HEAD | wc -c) / 2 ))
n=$(git -C r count-objects -v | sed -n 's/^in-pack: //p')
pos=$(git -C r show-index <$idx | sort -k2 | grep -n " $(git -C r rev-parse HEAD)" | cut -d: -f1)
printf '\000\000\000\000' | dd of=$idx bs=1 seek=$((8 + 1024 + n * (hashlen + 4) + (pos - 1) * 4)) conv=notrunc 2>/dev/null
cp -r r far-offset && idx=$(ls far-offset/.git/objects/pack/*.idx) && chmod u+w $idx
printf '\000\001\000\000' | dd of=$idx bs=1 seek=$((8 + 1024 + n * (hashlen + 4) + (pos - 1) * 4)) conv=notrunc 2>/dev/null
cp -r r other-object && idx=$(ls other-object/.git/objects/pack/*.idx) && chmod u+w $idx
blob=$(git -C r show-index <$idx | grep " $(git -C r rev-parse HEAD:f)" | cut -d' ' -f1)
printf "\\$(printf %o $((blob >> 24 & 255)))\\$(printf %o $((blob >> 16 & 255)))\\$(printf %o $((blob >> 8 & 255)))\\$(printf %o $((blob & 255)))" | dd of=$idx bs=1 seek=$((8 + 1024 + n * (hashlen + 4) + (pos - 1) * 4)) conv=notrunc 2>/dev/null
`

// TestDamagedIndexExtensionsMatchGit blames in the copies above: an
// optional extension git ignores, saying so at each of its two reads of
// the index in a working-tree blame; a required one, git's error line
// (control characters shown as '?') and "index file corrupt", whatever
// its size says; a commit whose pack index entry is 0, which git does
// not find ("no such commit", "bad object"); and one past the pack's
// end, where git's first read of it dies ("offset beyond end of
// packfile (truncated pack?)"); and one at another object's offset,
// which parse_object finds does not hash to the name ("hash mismatch")
// where it checks (lookup_commit_reference: the working tree's parent,
// the start of a "~N").
func TestDamagedIndexExtensionsMatchGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-ext", format, damageExtScript)
		// The messages name the pack, and the damage lands at offsets
		// of git 2.39.5's index and pack index.
		goldens.RequireFiles(root, "r/.git/index", "r/.git/objects/pack/*")
		for _, dir := range []string{"optional", "required", "oversized", "two", "zero-offset", "far-offset", "other-object"} {
			for _, args := range [][]string{{"f"}, {"--incremental", "--", "d/g"}, {"HEAD", "--", "f"}, {"HEAD~1", "--", "f"}} {
				compareWithGit(t, filepath.Join(root, dir), format, nil, nil, args...)
			}
		}
	}
}

// damageOnePackScript makes a repository of one pack whose index is cut
// short: every object is missing to git, after the line of each lookup.
const damageOnePackScript = `git init -q r && cd r
for i in 1 2 3; do seq 1 $i >f; commit_all c$i; done
git repack -adq && git prune-packed
for p in .git/objects/pack/*.idx; do chmod u+w $p && head -c $(($(wc -c <$p) - 30)) $p >t && mv t $p; done
`

// TestUnusableOnlyPackMatchesGit: a :/ search parses what each ref names
// (handle_one_ref), two lookups each, whose lines git prints before the
// bad revision; the blames without one die as git dies.
func TestUnusableOnlyPackMatchesGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-onepack", format, damageOnePackScript)
		goldens.RequireFiles(root, "r/.git/objects/pack/*")
		for _, args := range [][]string{{"-s", ":/c1", "--", "f"}, {"-s", "HEAD~1", "--", "f"}, {"HEAD", "--", "f"}} {
			compareWithGit(t, filepath.Join(root, "r"), format, nil, nil, args...)
		}
	}
}

// damageTwoPacksScript makes a repository of two packs, the older
// commits in one, the newer in the other, and a copy whose older pack's
// index is cut short: a pack git cannot use among packs it can.
const damageTwoPacksScript = `git init -q r && cd r
for i in $(seq 1 12); do seq 1 $i | sed "s/^/line /" >f; echo "v$i" >>g; commit_all c$i; done
git rev-list --objects HEAD~6 | git pack-objects -q .git/objects/pack/pack >/dev/null
git repack -dq && git prune-packed
cd ..
old=$(cd r && for p in .git/objects/pack/*.idx; do if git show-index <$p | grep -q $(git rev-parse HEAD~8); then echo $p; fi; done)
cp -r r cut
chmod u+w cut/$old && head -c 1500 r/$old >cut/$old
`

// TestUnusablePackAmongOthersMatchesGit blames where one of two packs
// has an index git cannot use: git reports the pack at its lookups and
// blames what the other pack holds, the commits only the unusable pack
// could hold taken as missing ("error: Could not read X"). Standard
// output and exit status are git's; the standard error has git's lines,
// not as many times (git repeats the pack's line at every lookup that
// reaches it, which depends on the order its packs were last used in).
func TestUnusablePackAmongOthersMatchesGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-twopacks", format, damageTwoPacksScript)
		goldens.RequireFiles(root, "r/.git/objects/pack/*")
		dir := filepath.Join(root, "cut")
		for _, args := range [][]string{{"f"}, {"HEAD", "--", "g"}, {"-p", "HEAD~2", "--", "f"}, {"--incremental", "HEAD~4..HEAD", "--", "g"}} {
			want := goldens.Run(testgit.Case{Dir: dir, Format: format, Args: append([]string{"blame"}, args...)})
			got := runGoblame(dir, format, nil, nil, args...)
			if got.ExitCode != want.ExitCode || !bytes.Equal(got.Stdout, want.Stdout) {
				t.Errorf("%s %v: exit %d, git %d; stdout equal %v\n%s", format, args, got.ExitCode, want.ExitCode, bytes.Equal(got.Stdout, want.Stdout), got.Stderr)
			}
			if lines := func(b []byte) map[string]bool {
				m := map[string]bool{}
				for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
					m[l] = true
				}
				return m
			}; !maps.Equal(lines(got.Stderr), lines(want.Stderr)) {
				t.Errorf("%s %v: stderr lines %q, git's %q", format, args, got.Stderr, want.Stderr)
			}
		}
	}
}

// damageMissingScript makes copies of a repository of loose objects with
// one object removed: HEAD's root tree, or a commit in the middle of the
// history.
const damageMissingScript = `git init -q r && cd r
for i in 1 2 3 4 5 6; do seq 1 $((i*3)) >f; echo "v$i" >>g; commit_all c$i; done
cd ..
cp -r r root-tree && t=$(git -C r rev-parse HEAD^{tree}) && rm -f root-tree/.git/objects/${t%${t#??}}/${t#??}
cp -r r middle-commit && c=$(git -C r rev-parse HEAD~3) && rm -f middle-commit/.git/objects/${c%${c#??}}/${c#??}
`

// TestMissingObjectsMatchGit blames where an object is missing as git
// does: a working-tree blame whose parent's tree is gone ends as git's
// diff with the index ends ("error: bad tree object X", status 128, no
// fatal line), and a "~N" through a missing commit is git's "error:
// Could not read X" before "bad revision", once.
func TestMissingObjectsMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-missing", format, damageMissingScript)
		for _, dir := range []string{"root-tree", "middle-commit"} {
			for _, args := range [][]string{{"f"}, {"HEAD", "--", "g"}, {"HEAD~4", "--", "f"}, {"--reverse", "HEAD~5..HEAD", "--", "g"}, {"HEAD^^^^", "--", "f"}} {
				compareWithGit(t, filepath.Join(root, dir), format, nil, nil, args...)
			}
		}
	}
}

// looseObjectPathSh defines obj, a fixture script's shell function that
// prints the path of the loose object named $1 under a repository.
const looseObjectPathSh = `obj() { echo .git/objects/$(echo $1 | cut -c1-2)/$(echo $1 | cut -c3-); }
`

// damageUnreadTreeScript makes copies of a history with a commit-graph
// and changed-path filters, f changed in c1-c3 and c4 only, with one
// root tree removed: c3's, which the walk reaches from o1 by the
// filter's "unchanged" and git's diff against c2 then reads, and o1's,
// which nothing reads.
const damageUnreadTreeScript = `git init -q r && cd r
for i in 1 2 3; do echo "v$i" >>f; commit_all c$i; done
echo x >other; commit_all o1
echo y >>other; commit_all o2
echo v4 >>f; commit_all c4
git commit-graph write --reachable --changed-paths
cd ..
cp -r r c3-tree && t=$(git -C r rev-parse HEAD~3^{tree}) && rm -f c3-tree/.git/objects/${t%${t#??}}/${t#??}
cp -r r o1-tree && t=$(git -C r rev-parse HEAD~2^{tree}) && rm -f o1-tree/.git/objects/${t%${t#??}}/${t#??}
`

// TestUnreadTreeMissingMatchesGit: git's find_origin diffs a commit's
// tree against its parent's wherever the changed-path filter does not
// pass the path, reading the commit's tree first; goblame knows the
// commit's version of the path from its child and looks it up in the
// parent's tree only, so a commit reached by the filter's "unchanged"
// has had its tree read by neither. Where the repository lacks that
// tree, git dies "unable to read tree X" at that pass: so does goblame
// (it used to blame). A tree nothing reads may be missing.
func TestUnreadTreeMissingMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-unread-tree", format, damageUnreadTreeScript)
		for _, dir := range []string{"c3-tree", "o1-tree"} {
			for _, args := range [][]string{{"f"}, {"HEAD", "--", "f"}, {"-p", "HEAD", "--", "f"}, {"--incremental", "HEAD", "--", "f"}} {
				compareWithGit(t, filepath.Join(root, dir), format, nil, nil, args...)
			}
		}
	}
}

// damageTreeTypeScript makes copies of a history of d/f and g whose trees
// hold other objects: c2's d/ a blob (git's diff dies "unable to read
// tree X"), HEAD's d/ a blob (git's lookup of the blamed path finds none)
// and c2's d/ a commit (git's tree reads take a commit for the tree it
// names, here c1's root tree).
const damageTreeTypeScript = `git init -q r && cd r
mkdir d
for i in 1 2 3 4; do echo "v$i" >>d/f; echo "w$i" >>g; commit_all c$i; done
cd ..
` + looseObjectPathSh + `swap() { rm -f "$1/$(obj $2)" && cp "r/$(obj $3)" "$1/$(obj $2)"; }
cp -r r c2-blob && swap c2-blob $(git -C r rev-parse HEAD~2:d) $(git -C r rev-parse HEAD:g)
cp -r r head-blob && swap head-blob $(git -C r rev-parse HEAD:d) $(git -C r rev-parse HEAD:g)
cp -r r c2-commit && swap c2-commit $(git -C r rev-parse HEAD~2:d) $(git -C r rev-parse HEAD~3)
`

// TestTreeOfAnotherTypeMatchesGit: a tree whose object is of another type
// is read as git's tree reads take it (read_object_with_reference): a
// commit or a tag stands for what its first line names, anything else is
// no tree, which git's diff dies of and its lookup of the blamed path
// finds no path in.
func TestTreeOfAnotherTypeMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-tree-type", format, damageTreeTypeScript)
		for _, dir := range []string{"c2-blob", "head-blob", "c2-commit"} {
			for _, args := range [][]string{{"d/f"}, {"HEAD", "--", "d/f"}, {"-p", "HEAD", "--", "d/f"}, {"--incremental", "HEAD", "--", "d/f"}, {"HEAD~1", "--", "d/f"}} {
				compareWithGit(t, filepath.Join(root, dir), format, nil, nil, args...)
			}
		}
	}
}

// damagePeelLoopScript makes a copy of a history whose c2 root tree's
// object holds c2 itself, which names that tree: git's tree read peels
// the commit to its tree for ever.
const damagePeelLoopScript = `git init -q r && cd r
for i in 1 2 3 4; do echo "v$i" >>f; commit_all c$i; done
cd ..
` + looseObjectPathSh + `cp -r r loop && t=$(git -C r rev-parse HEAD~2^{tree}) && rm -f "loop/$(obj $t)" && cp "r/$(obj $(git -C r rev-parse HEAD~2))" "loop/$(obj $t)"
`

// TestTreePeelLoopEnds: a tree whose object is a commit naming that same
// tree makes git's tree read (read_object_with_reference) peel for ever,
// in a diff and in the lookup of the blamed path alike; goblame stops
// peeling after maxPeels and answers as git answers a tree it cannot
// read: "unable to read tree X" in the walk, no path in the lookup.
func TestTreePeelLoopEnds(t *testing.T) {
	testgit.RequireGit(t)
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-peel-loop", format, damagePeelLoopScript)
		dir := filepath.Join(root, "loop")
		tree := strings.TrimSpace(testgit.Git(t, filepath.Join(root, "r"), format, "rev-parse", "HEAD~2^{tree}"))
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"HEAD", "--", "f"}, "fatal: unable to read tree " + tree + "\n"},
			{[]string{"--incremental", "HEAD", "--", "f"}, "fatal: unable to read tree " + tree + "\n"},
			{[]string{"HEAD~2", "--", "f"}, "fatal: no such path f in HEAD~2\n"},
		} {
			got := blameWithin(t, dir, format, 10*time.Second, c.args...)
			if got.ExitCode != 128 || string(got.Stderr) != c.want {
				t.Errorf("%s %v: exit %d, stderr %q; want 128, %q", format, c.args, got.ExitCode, got.Stderr, c.want)
			}
		}
	}
}

// damageCommitTypeScript makes a copy of a history of seven commits in
// which c2's object holds a blob.
const damageCommitTypeScript = `git init -q r && cd r
for i in 1 2 3 4 5 6 7; do echo "v$i" >>f; commit_all c$i; done
cd ..
` + looseObjectPathSh + `cp -r r c2-blob && c2=$(git -C r rev-parse HEAD~5) && rm -f "c2-blob/$(obj $c2)" && cp "r/$(obj $(git -C r rev-parse HEAD:f))" "c2-blob/$(obj $c2)"
`

// TestCommitOfAnotherTypeMatchesGit: a commit whose object is of another
// type is git's "error: Object X not a commit" wherever git parses it: a
// "~N" through it (then "bad revision"), the limiting walk of a range
// below its bottom (which goes on), the blame's walk.
func TestCommitOfAnotherTypeMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-damage-commit-type", format, damageCommitTypeScript), "c2-blob")
		for _, args := range [][]string{{"HEAD", "--", "f"}, {"HEAD~6", "--", "f"}, {"HEAD~3..HEAD", "--", "f"}, {"--incremental", "HEAD~4..HEAD", "--", "f"}, {"--reverse", "HEAD~3..HEAD", "--", "f"}, {"-p", "HEAD~2", "--", "f"}} {
			compareWithGit(t, dir, format, nil, nil, args...)
		}
	}
}

// damageCycleScript makes a history whose ancestry loops: c2's object
// holds c4's contents (tree and parent c3), so c3's parent leads back to
// c3.
const damageCycleScript = `git init -q r && cd r
for i in 1 2 3 4 5; do echo "v$i" >>f; commit_all c$i; done
cd ..
` + looseObjectPathSh + `cp -r r cycle && c2=$(git -C r rev-parse HEAD~3) && rm -f "cycle/$(obj $c2)" && cp "r/$(obj $(git -C r rev-parse HEAD~1))" "cycle/$(obj $c2)"
`

// TestHistoryCycleEnds: where a commit is its own ancestor (objects whose
// contents name commits that lead back to them), git blame passes the
// same lines around the loop for ever; goblame stops with one fatal line
// that says so (status 128), under each walk that meets the loop.
func TestHistoryCycleEnds(t *testing.T) {
	testgit.RequireGit(t)
	for _, format := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-damage-cycle", format, damageCycleScript), "cycle")
		for _, args := range [][]string{{"f"}, {"HEAD", "--", "f"}, {"-p", "HEAD", "--", "f"}, {"--incremental", "HEAD", "--", "f"}, {"-M", "-C", "HEAD", "--", "f"}, {"-L", "2,3", "HEAD", "--", "f"}, {"--first-parent", "HEAD", "--", "f"},
			// (git's merge simplification waits for the loop's parents
			// for ever too.)
			{"--simplify-by-decoration", "HEAD", "--", "f"}, {"--simplify-by-decoration", "--first-parent", "f"}} {
			got := blameWithin(t, dir, format, 10*time.Second, args...)
			stderr := string(got.Stderr)
			if got.ExitCode != 128 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "fatal: ") || !strings.Contains(stderr, "is its own ancestor") {
				t.Errorf("%s %v: exit %d, stderr %q: want 128 and one fatal line about the loop", format, args, got.ExitCode, stderr)
			}
		}
	}
}

// unsortedIndexScript commits a.txt, b.txt and z.txt in r, changes a.txt
// in the work tree, and renames z.txt to !.txt inside the index file (the
// same length; git does not check the index's checksum), so that the
// index's last entry sorts before the others. In m, m.txt and y.txt are
// added to the index only, and the committed q.txt is renamed 0.txt in
// the index, between them: a.txt m.txt 0.txt y.txt z.txt, where git's
// binary search for m.txt meets 0.txt, then y.txt, and misses it.
const unsortedIndexScript = `git init -q r && cd r
printf 'one\ntwo\n' >a.txt
printf 'b\n' >b.txt
printf 'z\n' >z.txt
commit_all c1
echo three >>a.txt
off=$(grep -boa 'z.txt' .git/index | head -1 | cut -d: -f1)
printf '!' | dd of=.git/index bs=1 seek=$off conv=notrunc 2>/dev/null
cd ..
git init -q m && cd m
for f in a q z; do echo $f >$f.txt; done
commit_all c1
for f in m y; do echo $f >$f.txt; done
git add m.txt y.txt
off=$(grep -boa 'q.txt' .git/index | head -1 | cut -d: -f1)
printf '0' | dd of=.git/index bs=1 seek=$off conv=notrunc 2>/dev/null
cd .. && cp -r m m-gone && rm m-gone/m.txt
git init -q d && cd d
for f in a b c; do echo $f >$f.txt; done
commit_all c1
echo c2 >>c.txt
off=$(grep -boa 'a.txt' .git/index | head -1 | cut -d: -f1)
printf '~' | dd of=.git/index bs=1 seek=$off conv=notrunc 2>/dev/null
`

// TestUnsortedIndexMatchesGit: git's working-tree blame adds the file's
// new version to its index with add_index_entry, which appends a name
// that sorts after the last entry without looking for it; in an index
// whose last entry sorts first the file is then there twice, and git's
// diff against HEAD says it was added: every line is "Not Committed
// Yet", even of a file that did not change (the damage fuzzer found such
// indexes, cut or with bytes inserted).
func TestUnsortedIndexMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "unsorted-index", unsortedIndexScript)
	for _, format := range testgit.Formats {
		for _, args := range [][]string{{"-s", "a.txt"}, {"-s", "b.txt"}, {"-s", "z.txt"}, {"-s", "-M", "--", "b.txt"}} {
			compareWithGit(t, dirs[format], format, nil, nil, args...)
		}
		compareWithGit(t, dirs[format], format, []byte("one\n"), nil, "-s", "--contents", "-", "--", "b.txt")
		// git's search misses m.txt, which is not in HEAD either: "no
		// such path", with the file there, missing, or given on
		// standard input; y.txt and a.txt it finds.
		m := filepath.Join(filepath.Dir(dirs[format]), "m")
		for _, args := range [][]string{{"-s", "m.txt"}, {"-s", "y.txt"}, {"-s", "a.txt"}, {"-s", "z.txt"}} {
			compareWithGit(t, m, format, nil, nil, args...)
		}
		compareWithGit(t, m, format, []byte("m\n"), nil, "-s", "--contents", "-", "--", "m.txt")
		compareWithGit(t, m+"-gone", format, nil, nil, "-s", "m.txt")
		// In d, git's diff against HEAD meets ~.txt at b.txt's and
		// c.txt's entries in HEAD's tree: a deletion, and git dies
		// "internal error in blame::find_origin (D)"; a.txt goes first
		// in the index, where the search for it ends.
		d := filepath.Join(filepath.Dir(dirs[format]), "d")
		for _, args := range [][]string{{"-s", "a.txt"}, {"-s", "b.txt"}, {"-s", "c.txt"}, {"--incremental", "c.txt"}, {"-s", "-M", "b.txt"}} {
			compareWithGit(t, d, format, nil, nil, args...)
		}
		compareWithGit(t, d, format, []byte("b\n"), nil, "-s", "--contents", "-", "--", "b.txt")
	}
}
