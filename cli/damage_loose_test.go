package cli

import (
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// damageLooseScript makes copies of a repository of loose objects (no
// pack, no commit-graph) with one object file damaged in each of the ways
// git's loose-object reader tells apart: a stream cut inside the first 32
// bytes it inflates (the header) or after them, a byte changed early or
// late in the stream, a wrong checksum, a byte after the stream, an empty
// file, an object of an unknown type, and a zlib stream longer than the
// size its header declares (both written here as a stored block: newer
// gits refuse hash-object --literally of an unknown type). Each damages
// one object: the HEAD commit, an older commit, a tree, the final
// version of f, an older one, a blob of three bytes. (A stream shorter
// than its declared size is not among them: git pads it with whatever
// its allocation held.)
const damageLooseScript = `git init -q r && cd r
for i in 1 2 3 4; do seq 1 $((i*5)) | sed "s/^/line $i /" >f; mkdir -p d; echo "x$i" >d/g; commit_all c$i; done
cd ..
# zstored: the zlib stream of stdin in one stored block.
zstored () {
	od -An -v -tu1 | tr -s ' \n' '\n\n' | grep . >bytes.txt || : >bytes.txt
	n=$(wc -l <bytes.txt)
	printf '\170\001\001'
	printf "\\$(printf %o $((n & 255)))\\$(printf %o $((n >> 8)))"
	printf "\\$(printf %o $((~n & 255)))\\$(printf %o $((~n >> 8 & 255)))"
	while read -r b; do printf "\\$(printf %o $b)"; done <bytes.txt
	awk 'BEGIN{a=1; b=0} {a=(a+$1)%65521; b=(b+a)%65521} END{print int(b/256), b%256, int(a/256), a%256}' bytes.txt |
	while read -r x y z w; do printf "\\$(printf %o $x)\\$(printf %o $y)\\$(printf %o $z)\\$(printf %o $w)"; done
	rm -f bytes.txt
}
n=0
for target in HEAD HEAD~2 HEAD^{tree} HEAD:f HEAD~2:f HEAD~1:d/g; do
	for how in cut-header cut-content flip-early flip-late checksum garbage empty unknown-type long; do
		n=$((n+1)); d=$(printf 'd%02d' $n); cp -r r $d
		echo "$d $target $how" >>cases.txt
		id=$(git -C r rev-parse "$target"); p=$d/.git/objects/${id%${id#??}}/${id#??}
		chmod u+w $p; size=$(wc -c <$p)
		case $how in
		cut-header) head -c 6 $p >t; mv t $p ;;
		cut-content) head -c $((size - 6)) $p >t; mv t $p ;;
		flip-early) printf '\377' | dd of=$p bs=1 seek=4 conv=notrunc 2>/dev/null ;;
		flip-late) printf '\125' | dd of=$p bs=1 seek=$((size - 7)) conv=notrunc 2>/dev/null ;;
		checksum) b=$(tail -c 1 $p | od -An -tu1 | tr -d ' '); printf "\\$(printf %o $(((b + 1) & 255)))" | dd of=$p bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null ;;
		garbage) printf x >>$p ;;
		empty) : >$p ;;
		unknown-type) printf 'blub 4\000abc\n' | zstored >$p ;;
		long) { git -C r cat-file -t $id | tr -d '\n'; printf ' 2\000'; git -C r cat-file $(git -C r cat-file -t $id) $id; } | zstored >$p ;;
		esac
	done
done
`

// TestDamagedLooseObjectsMatchGit blames through each damaged loose
// object and compares goblame with git byte for byte: the lines git's
// read prints (zlib's message, "unable to unpack X header", "corrupt
// loose object 'X'", ...), what it dies with ("loose object X (stored in
// P) is corrupt", "invalid object type"), the object it reads after all
// (a long stream within the 32 bytes git inflates first, cut), and, for a commit named on the command line, the first
// read of parse_object (type and size) before the whole one, the
// uninteresting end of a range included (but a parent named with ^!,
// which git reads whole first).
func TestDamagedLooseObjectsMatchGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-loose", format, damageLooseScript)
		// Where a byte lands in a stream depends on git's zlib.
		goldens.RequireFiles(root, "d*/.git/objects/??/*")
		compareEachCopy(t, root, "d%02d", 54, format, [][]string{{"f"}, {"-p", "HEAD", "--", "f"}, {"HEAD~1", "--", "d/g"}, {"--reverse", "HEAD~2..", "--", "f"}, {"HEAD~2..HEAD", "--", "f"},
			// A parent ^! excludes, taken for a commit unread: git's
			// first read of it is prepare_revision_walk's whole read.
			{"HEAD~1^!", "--", "f"},
			// --reverse ONE: ONE..HEAD, ONE read first.
			{"--reverse", "HEAD~2", "--", "f"}})
	}
}

// damageHeadGraphScript makes a loose repository with a commit-graph
// whose HEAD commit's file has bytes inserted in its middle: its type
// still reads, its content does not.
const damageHeadGraphScript = `git init -q r && cd r
for i in 1 2 3; do seq 1 $((i*5)) >f; commit_all c$i; done
git commit-graph write --reachable --changed-paths
id=$(git rev-parse HEAD)
p=.git/objects/${id%${id#??}}/${id#??}; chmod u+w $p
size=$(wc -c <$p); half=$((size / 2))
{ head -c $half $p; printf 'xyz'; tail -c +$((half + 1)) $p; } >$p.new && mv $p.new $p
`

// TestDamagedHeadUnderGraphMatchesGit: a working-tree blame parses HEAD
// from its object (lookup_commit_reference's parse_object) and dies of
// its damage, where a blame of HEAD named takes it from the commit-graph
// and never reads it; goblame read only its type, and went on.
func TestDamagedHeadUnderGraphMatchesGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-damage-head-graph", format, damageHeadGraphScript), "r")
		goldens.RequireFiles(dir, ".git/objects/info/commit-graph")
		for _, args := range [][]string{{"f"}, {"--incremental", "f"}, {"HEAD", "--", "f"}, {"HEAD~1", "--", "f"}} {
			compareWithGit(t, dir, format, nil, nil, args...)
		}
	}
}

// damageExcludedGraphScript makes a loose repository with a commit-graph
// and a lightweight tag on a side commit whose file has bytes inserted
// in its middle (its type still reads, its content does not).
const damageExcludedGraphScript = `git init -q r && cd r
for i in 1 2 3; do seq 1 $((i*5)) >f; commit_all c$i; done
git checkout -q -b side HEAD~1
echo side >g; commit_all s1; git tag lt
git checkout -q main
git commit-graph write --reachable --changed-paths
# damage FILE: bytes inserted in its middle
damage () { chmod u+w $1; size=$(wc -c <$1); half=$((size / 2)); { head -c $half $1; printf 'xyz'; tail -c +$((half + 1)) $1; } >$1.new && mv $1.new $1; }
obj () { id=$(git rev-parse "$1") && echo .git/objects/${id%${id#??}}/${id#??}; }
cd .. && cp -r r annotated && cd annotated
git tag -d lt >/dev/null && git tag -a -m at at side
damage $(obj at^{commit})
cd ../r && damage $(obj lt)
`

// TestDamagedExcludedCommitMatchesGit: an excluded commit git takes from
// the commit-graph (get_reference's lookup_commit_in_graph) is never
// read, so its damage does not matter to git; goblame read each tip's
// object whole, and died. (Not reading them is also what makes vim's
// --all --not --all 1.4x faster: 16,400 commits of lightweight tags.)
// The commit of an excluded annotated tag git reads whole once
// (handle_commit's parse_object), and dies of its damage there: goblame
// reads it in the walk only (annotated).
func TestDamagedExcludedCommitMatchesGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-excluded-graph", format, damageExcludedGraphScript)
		for _, d := range []string{"r", "annotated"} {
			dir := filepath.Join(root, d)
			goldens.RequireFiles(dir, ".git/objects/info/commit-graph")
			for _, args := range [][]string{
				{"HEAD", "--not", "--tags", "--", "f"}, {"HEAD", "^lt", "--", "f"}, {"--all", "--not", "--tags", "--", "f"},
				{"--not", "--tags", "--", "f"}, {"lt", "--", "g"}, {"HEAD", "lt", "--", "f"},
				{"HEAD", "^at", "--", "f"}, {"HEAD", "--not", "at", "--", "f"}, {"HEAD", "^at^{commit}", "--", "f"}, {"at", "--", "g"},
			} {
				compareWithGit(t, dir, format, nil, nil, args...)
			}
		}
	}
}
