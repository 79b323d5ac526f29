package cli

import (
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// damagePackedScript makes copies of a packed repository (one pack, no
// commit-graph) with bytes of one entry overwritten in place (the pack
// keeps its size and trailer, so git opens it): the entry's type and size
// byte (an unknown type 0), and bytes 2, 4, 7 and 12 into it (the size
// varint, a delta's base reference, the zlib header, the deflate data).
// The entries are those of the HEAD commit, the root tree, the final
// version of f, an older one (a delta on it in this pack) and a blob of
// three bytes.
const damagePackedScript = `git init -q r && cd r
for i in 1 2 3 4 5 6; do seq 1 $((i*20)) | sed "s/^/line /" >f; mkdir -p d; echo "x$i" >d/g; commit_all c$i; done
git repack -adq
cd ..
# damage SRC NAME TARGET: five copies of SRC (named by the printf
# format NAME and a running count) whose pack entry of TARGET has its
# byte 0 zeroed, or byte 2, 4, 7 or 12 changed.
damage () {
	id=$(git -C r rev-parse "$3")
	off=$(cd r && git show-index <.git/objects/pack/*.idx | awk -v id=$id '$2 == id {print $1}')
	for at in 0 2 4 7 12; do
		n=$((n+1)); d=$(printf "$2" $n); cp -r $1 $d
		p=$(ls $d/.git/objects/pack/*.pack); chmod u+w $p
		if [ $at = 0 ]; then b=0; else b=$(( ($(od -An -tu1 -j $((off+at)) -N1 $p) + 85) & 255 )); fi
		printf "\\$(printf %o $b)" | dd of=$p bs=1 seek=$((off+at)) conv=notrunc 2>/dev/null
	done
}
n=0
for target in HEAD HEAD^{tree} HEAD:f HEAD~3:f HEAD~1:d/g; do damage r 'p%02d' "$target"; done
# The same damage to an older commit's entry, under a commit-graph.
cp -r r rg && git -C rg commit-graph write --reachable
n=0
damage rg 'g%d' HEAD~3
`

// TestDamagedPackEntriesMatchGit blames through each damaged pack entry
// and compares goblame with git byte for byte: the lines git's
// unpack_entry prints on its way down the delta chain and back up
// (zlib's message, "unknown object type", "failed to validate delta base
// reference", "failed to read delta base object", "bad offset for
// revindex", "failed to unpack compressed delta", patch_delta's and
// "failed to apply delta"), and "packed object X (stored in P) is
// corrupt" or the death on the way.
func TestDamagedPackEntriesMatchGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-packed", format, damagePackedScript)
		goldens.RequireFiles(root, "r/.git/objects/pack/*.pack")
		// A commit the graph holds is not read when it is named
		// (get_reference): git dies in its first whole read, with
		// unpack_entry's lines, not parse_object's type read's.
		compareEachCopy(t, root, "g%d", 5, format, [][]string{{"HEAD~3", "--", "f"}, {"-p", "HEAD~3", "--", "f"}, {"HEAD~2", "--", "f"}, {"f"}})
		compareEachCopy(t, root, "p%02d", 25, format, [][]string{{"-p", "HEAD", "--", "f"}, {"HEAD~1", "--", "d/g"}, {"-M", "HEAD~2", "--", "f"}, {"HEAD~3", "--", "f"}})
	}
}

// packEntryHelpers are shell functions for the scripts below: entry_off
// REV, the offset of REV's entry in r's pack; put_byte FILE OFFSET VALUE;
// bump_byte FILE OFFSET, the byte there changed (85 added).
const packEntryHelpers = `entry_off () {
	id=$(git -C r rev-parse "$1")
	(cd r && git show-index <$(ls .git/objects/pack/*.idx) | awk -v id=$id '$2 == id {print $1}')
}
put_byte () { printf "\\$(printf %o $3)" | dd of=$1 bs=1 seek=$2 conv=notrunc 2>/dev/null; }
bump_byte () { put_byte $1 $2 $(( ($(od -An -tu1 -j $2 -N1 $1) + 85) & 255 )); }
`

// damageSizeScript makes copies of a packed repository whose largest
// blob's entry claims more bytes than its stream could ever inflate to
// (its four-byte size raised to 2^25-1), with its deflate data intact
// (size) and damaged (size-data): git allocates what the header says
// and inflates into it, printing zlib's message where the data fails.
const damageSizeScript = packEntryHelpers + `git init -q r && cd r
yes "line of a large file that deflates well" | head -c 300000 >big; commit_all c1
echo x >>big; commit_all c2
git repack -adq
cd ..
off=$(entry_off HEAD:big)
for d in size size-data; do
	cp -r r $d; p=$(ls $d/.git/objects/pack/*.pack); chmod u+w $p
	put_byte $p $off $(( 128 | ($(od -An -tu1 -j $off -N1 $p) & 112) | 15 ))
	put_byte $p $((off+1)) 255; put_byte $p $((off+2)) 255; put_byte $p $((off+3)) 127
done
bump_byte $(ls size-data/.git/objects/pack/*.pack) $((off+12))
`

// TestDamagedPackSizeMatchesGit: an entry whose header claims more than
// its stream could hold is inflated as git inflates it (git allocates
// the claimed size first), so that zlib's message for damaged data is
// printed as git prints it; before, goblame skipped the inflation.
func TestDamagedPackSizeMatchesGit(t *testing.T) {
	compareNamedCopies(t, "cli-damage-size", damageSizeScript, []string{"size", "size-data"},
		[][]string{{"HEAD", "--", "big"}, {"-p", "HEAD~1", "--", "big"}, {"--incremental", "big"}})
}

// damageTypeScript makes copies of a packed repository (no commit-graph)
// whose HEAD~3 commit entry says it is a tag (its type bits changed),
// its data intact (tag-type) and damaged too (tag-type-data).
const damageTypeScript = packEntryHelpers + `git init -q r && cd r
for i in 1 2 3 4 5 6; do seq 1 $((i*20)) | sed "s/^/line /" >f; commit_all c$i; done
git repack -adq
cd ..
off=$(entry_off HEAD~3)
for d in tag-type tag-type-data; do
	cp -r r $d; p=$(ls $d/.git/objects/pack/*.pack); chmod u+w $p
	put_byte $p $off $(( ($(od -An -tu1 -j $off -N1 $p) & 143) | 64 ))
done
bump_byte $(ls tag-type-data/.git/objects/pack/*.pack) $((off+12))
`

// TestDamagedCommitTypeMatchesGit: a commit reached as a parent (a ~N)
// whose pack entry says it is a tag is read whole by get_reference's
// parse_object, which has made a commit of it already and so reads no
// type first: damaged data is git's death there ("packed object X is
// corrupt"), not the type's conflict (before, goblame read the type
// alone and said "object X is a commit, not a tag").
func TestDamagedCommitTypeMatchesGit(t *testing.T) {
	compareNamedCopies(t, "cli-damage-type", damageTypeScript, []string{"tag-type", "tag-type-data"},
		[][]string{{"HEAD~3", "--", "f"}, {"-p", "HEAD~3", "--", "f"}, {"HEAD~2", "--", "f"}, {"HEAD~4..HEAD~3", "--", "f"}})
}

// compareNamedCopies makes the fixture name with script, in both
// formats, and compares goblame with git in each of its copies dirs
// with each of argSets.
func compareNamedCopies(t *testing.T, name, script string, dirs []string, argSets [][]string) {
	t.Helper()
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, name, format, script)
		goldens.RequireFiles(root, "r/.git/objects/pack/*.pack")
		for _, dir := range dirs {
			for _, args := range argSets {
				compareWithGit(t, filepath.Join(root, dir), format, nil, nil, args...)
			}
		}
	}
}
