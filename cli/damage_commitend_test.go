package cli

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// damageCommitEndScript makes copies of a packed repository without a
// commit-graph whose commits are long (a message of 40 lines after the
// header, about 1.8 KB, as signed commits are), with one byte of a
// commit's entry changed where a walk that reads only a commit's header
// lines would not look: the last byte of its zlib stream (the Adler-32),
// the 30th byte before it, and one three quarters into the entry. The
// commits are HEAD~2, which a blame of f passes through, and HEAD~4, the
// oldest version of f.
const damageCommitEndScript = `git init -q r && cd r
for i in 1 2 3 4 5 6 7; do
	seq 1 $((i*20)) | sed "s/^/line /" >f
	git add -A
	test_tick
	{ echo "c$i"; echo; for j in $(seq 1 40); do echo "$(echo "message $i $j" | git hash-object --stdin)"; done; } >.git/msg
	git commit -q -F .git/msg
done
git repack -adq
cd ..
# damage NAME TARGET: three copies of r (named by the printf format NAME
# and a running count) whose pack entry of TARGET has a byte changed
# near its end.
damage () {
	id=$(git -C r rev-parse "$2")
	offs=$(cd r && git show-index <.git/objects/pack/*.idx | awk '{print $1}' | sort -n)
	off=$(cd r && git show-index <.git/objects/pack/*.idx | awk -v id=$id '$2 == id {print $1}')
	end=$(echo "$offs" | awk -v off=$off '$1 > off {print; exit}')
	for at in $((end - 1)) $((end - 30)) $((off + (end - off) * 3 / 4)); do
		n=$((n+1)); d=$(printf "$1" $n); cp -r r $d
		p=$(ls $d/.git/objects/pack/*.pack); chmod u+w $p
		b=$(( ($(od -An -tu1 -j $at -N1 $p) + 85) & 255 ))
		printf "\\$(printf %o $b)" | dd of=$p bs=1 seek=$at conv=notrunc 2>/dev/null
	done
}
n=0
for target in HEAD~2 HEAD~4; do damage 'e%d' "$target"; done
`

// TestDamagedCommitEndsMatchGit blames through commits whose entries are
// damaged past their header lines and compares goblame with git byte for
// byte: a walk that reads only the start of each commit (the read-ahead
// and Parse, through odb.Reader.ReadCheckedPrefix) must still fail where
// git's whole read of the commit fails, with git's lines.
func TestDamagedCommitEndsMatchGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-commitend", format, damageCommitEndScript)
		goldens.RequireFiles(root, "r/.git/objects/pack/*.pack")
		compareEachCopy(t, root, "e%d", 6, format, [][]string{{"HEAD", "--", "f"}, {"--incremental", "HEAD", "--", "f"}, {"-L", "1,5", "HEAD", "--", "f"}})
	}
}
