package cli

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// damageIdxOffsetScript makes copies of a packed repository whose pack
// index gives one object (a commit, an older commit, the root tree, a
// blob) a large offset, bit 31 of its 32-bit offset set: an index into
// the 64-bit table (empty in this small pack) far past the end of the
// file, one into the file's trailing checksums (git reads the pack's
// checksum as the offset), and one to its last 8 bytes.
const damageIdxOffsetScript = `git init -q r && cd r
for i in 1 2 3 4; do seq 1 $((i*5)) | sed "s/^/line /" >f; mkdir -p d; echo "x$i" >d/g; commit_all c$i; done
git repack -adq
cd ..
h=$(( $(git -C r rev-parse HEAD | wc -c) / 2 ))
cnt=$(git -C r show-index <r/.git/objects/pack/*.idx | wc -l)
n=0
for target in HEAD HEAD~2 HEAD^{tree} HEAD:f; do
	id=$(git -C r rev-parse "$target")
	i=$(git -C r show-index <r/.git/objects/pack/*.idx | awk -v id=$id '$2 == id {print NR-1}')
	for k in beyond trailer last; do
		n=$((n+1)); d=$(printf 'x%02d' $n); cp -r r $d
		x=$(ls $d/.git/objects/pack/*.idx); chmod u+w $x
		case $k in
		beyond) v='\377\377\377\377' ;;
		trailer) v='\200\000\000\000' ;;
		last) v="\\200\\000\\000\\$(printf %o $(( (2*h - 8) / 8 )))" ;;
		esac
		printf "$v" | dd of=$x bs=1 seek=$((8 + 1024 + cnt*h + cnt*4 + 4*i)) conv=notrunc 2>/dev/null
	done
done
`

// TestDamagedIndexOffsetsMatchGit blames through pack indexes whose
// offset entry of one object points into the 64-bit table past the end
// of the file, where git's nth_packed_object_offset dies "offset beyond
// end of pack index for P (truncated index?)" at the lookup, or into the
// file's trailer, whose bytes it reads as the offset.
func TestDamagedIndexOffsetsMatchGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-idx-offset", format, damageIdxOffsetScript)
		goldens.RequireFiles(root, "r/.git/objects/pack/*.pack")
		compareEachCopy(t, root, "x%02d", 12, format, [][]string{{"f"}, {"-p", "HEAD", "--", "f"}, {"HEAD~1", "--", "d/g"}, {"HEAD~3..HEAD", "--", "f"}})
	}
}
