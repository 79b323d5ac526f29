package cli

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// damageCopiesScript makes copies of a repository of two packs that both
// hold the final version of f: the whole history in one, and that blob
// alone in another. In each copy the blob's entry is damaged (its byte
// 12, deflate data) in the first pack, the second or both, and the packs
// are dated one second apart either way (git tries them newest first,
// the pack that found the last object before the others, and names the
// first bad one in its scan order when it dies). The older versions of
// f are deltas on the final one in the first pack.
const damageCopiesScript = `git init -q r && cd r
for i in 1 2 3 4 5 6; do seq 1 $((i*20)) | sed "s/^/line /" >f; commit_all c$i; done
git repack -adq
big=$(ls .git/objects/pack/*.pack)
small=.git/objects/pack/pack-$(git rev-parse HEAD:f | git pack-objects -q .git/objects/pack/pack).pack
cd ..
# corrupt REPO PACK: byte 12 of the final f's entry in PACK changed.
corrupt () {
	id=$(git -C $1 rev-parse HEAD:f)
	off=$(cd $1 && git show-index <${2%.pack}.idx | awk -v id=$id '$2 == id {print $1}')
	p=$1/$2; chmod u+w $p
	b=$(( ($(od -An -tu1 -j $((off+12)) -N1 $p) + 85) & 255 ))
	printf "\\$(printf %o $b)" | dd of=$p bs=1 seek=$((off+12)) conv=notrunc 2>/dev/null
}
n=0
for which in big small both; do
	for newer in big small; do
		n=$((n+1)); d=c$n; cp -r r $d
		case $which in big|both) corrupt $d $big;; esac
		case $which in small|both) corrupt $d $small;; esac
		if [ $newer = big ]; then touch -d @1577836801 $d/$big; touch -d @1577836800 $d/$small
		else touch -d @1577836800 $d/$big; touch -d @1577836801 $d/$small; fi
	done
done
# u1, u2: the whole history's pack cut short (git cannot open it: "does
# not match index"), tried before the other or after it.
for newer in big small; do
	n=$((n+1)); d=c$n; cp -r r $d
	p=$d/$big; chmod u+w $p; size=$(wc -c <$p); head -c $((size-7)) $p >$p.cut && mv $p.cut $p
	if [ $newer = big ]; then touch -d @1577836801 $d/$big; touch -d @1577836800 $d/$small
	else touch -d @1577836800 $d/$big; touch -d @1577836801 $d/$small; fi
done
# The final f's offset in the whole history's index past its pack's end,
# that pack tried first: git dies reading it, not reading the other copy.
n=$((n+1)); d=c$n; cp -r r $d
idx=$d/${big%.pack}.idx; chmod u+w $idx
id=$(git -C r rev-parse HEAD:f)
count=$(cd r && git show-index <${big%.pack}.idx | wc -l)
pos=$(cd r && git show-index <${big%.pack}.idx | awk '{print $2}' | sort | grep -n "^$id$" | cut -d: -f1)
hashlen=$(( ${#id} / 2 ))
at=$(( 8 + 1024 + count*hashlen + count*4 + (pos-1)*4 ))
printf '\000\377\000\000' | dd of=$idx bs=1 seek=$at conv=notrunc 2>/dev/null
touch -d @1577836801 $d/$big; touch -d @1577836800 $d/$small
# The blob's own index made non-monotonic (a fan-out entry zeroed),
# tried after the other pack and before it: git prints its line where a
# lookup tries it, and for each entry where it computes the automatic
# abbreviation (find_unique_abbrev opens every pack's index).
for newer in big small; do
	n=$((n+1)); d=c$n; cp -r r $d
	idx=$d/${small%.pack}.idx; chmod u+w $idx
	printf '\000\000\000\000' | dd of=$idx bs=1 seek=$((8 + 4*254)) conv=notrunc 2>/dev/null
	if [ $newer = big ]; then touch -d @1577836801 $d/$big; touch -d @1577836800 $d/$small
	else touch -d @1577836800 $d/$big; touch -d @1577836801 $d/$small; fi
done
`

// TestDamagedCopiesMatchGit blames through an object two packs hold, one
// or both copies damaged: git prints each failed copy's unpack_entry
// lines and goes on with another copy, reads a delta base that fails in
// its pack from the other pack instead ("failed to read delta base
// object", then read_object) and makes the delta on it, and where every
// copy fails dies naming the first bad pack in its scan order. Before,
// goblame printed nothing for a copy it read around, and died where git
// read a delta's base from another pack. c7 and c8: a pack git cannot
// open, whose line git prints at each lookup that passes it before the
// other pack finds the object, and whose trees no other pack holds
// ("unable to read tree"); c9: an offset past the pack's end, where
// git dies rather than read the other copy; c10, c11: an index git
// cannot use, whose line git prints where it computes each entry's
// abbreviation too.
func TestDamagedCopiesMatchGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-copies", format, damageCopiesScript)
		goldens.RequireFiles(root, "r/.git/objects/pack/*.pack")
		compareEachCopy(t, root, "c%d", 11, format, [][]string{
			{"-p", "HEAD", "--", "f"}, {"HEAD~3", "--", "f"}, {"--incremental", "f"}, {"-M", "HEAD~2", "--", "f"}, {"-s", "f"},
		})
	}
}
