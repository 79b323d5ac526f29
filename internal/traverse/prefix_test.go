package traverse

import (
	"fmt"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// wideTreeHistory is a history of a directory of 240 files (a tree of
// about 8 KB) in which files are added before, between and after the
// paths looked up, so that their entries move from one version to the
// next (by far where dozens go at once: a prefix that served the newer
// version is then too short), and the paths themselves change, vanish,
// come back and turn into directories; packed with long delta chains.
const wideTreeHistory = `
git init -q
mkdir -p wide
for i in $(seq 100 339); do echo "file $i" > wide/m$i; done
echo first > wide/b-early
echo middle > wide/m200x
echo last > wide/z-late
commit_all "wide"
for i in $(seq 1 45); do
	echo "change $i" >> wide/m$((100 + i * 5))
	case $((i % 6)) in
	0) echo "early $i" > wide/a$i ;;
	1) echo "edit $i" >> wide/b-early ;;
	2) echo "edit $i" >> wide/m200x ;;
	3) test -d wide/z-late || echo "edit $i" >> wide/z-late ;;
	4) git rm -q --ignore-unmatch wide/m$((100 + i)) ;;
	esac
	if test $i = 20; then git rm -qf wide/m200x; fi
	if test $i = 25; then git rm -qf wide/m10* wide/m11* wide/m12*; fi
	if test $i = 40; then git rm -qf wide/a*; fi
	if test $i = 30; then mkdir -p wide/m200x.d && echo sub > wide/m200x.d/f; echo back > wide/m200x; fi
	if test $i = 35; then git rm -qf wide/z-late; mkdir wide/z-late; echo dir > wide/z-late/f; fi
	commit_all "wide $i"
done
git repack -adfq --depth=50 --window=100
`

var earlyEntry = map[string]bool{"wide/b-early": true, "wide/a6": true, "wide/m150": true}

// prefixMem is memReader with ReadPrefix: exactly n bytes of any object
// larger than that, as odb.Reader gives at least them.
type prefixMem struct {
	*memReader
	prefixes int
}

func (r *prefixMem) ReadPrefix(id oid.ID, n int, dst []byte) (object.Type, []byte, bool, error) {
	typ, data, err := r.Read(id, dst)
	if err != nil || len(data) <= n {
		return typ, data, true, err
	}
	r.prefixes++
	return typ, data[:n], false, nil
}

// TestLookupWithPrefixes looks paths up in every version of a wide
// directory through readers that read trees' prefixes (one in memory
// that gives exactly what is asked, and odb's on the packed repository)
// and through one that reads whole trees: the answers must be the same,
// and most lookups must have read a prefix.
func TestLookupWithPrefixes(t *testing.T) {
	testgit.RequireAnyGit(t)
	paths := []string{"wide/b-early", "wide/m200x", "wide/m200x.d/f", "wide/z-late", "wide/z-late/f", "wide/m150", "wide/a6", "wide/nothing", "wide"}
	for _, format := range testgit.Formats {
		dir := testgit.Fixture(t, "traverse-widetree", format, wideTreeHistory)
		all := gitCommits(t, dir, format)
		db, err := odb.Open(objectsDir(dir), format, odb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		mem := &prefixMem{memReader: loadObjects(t, dir, format)}
		odbReader := db.NewReader()
		for _, path := range paths {
			ref := NewTrees(loadObjects(t, dir, format), format)
			readers := []struct {
				name  string
				trees *Trees
			}{{"memory", NewTrees(mem, format)}, {"odb", NewTrees(odbReader, format)}}
			for _, c := range all {
				mode, id, found, err := ref.Lookup(c.tree, []byte(path))
				if err != nil {
					t.Fatal(err)
				}
				want := fmt.Sprintf("%o %s %v", mode, id, found)
				for _, r := range readers {
					mode, id, found, err := r.trees.Lookup(c.tree, []byte(path))
					if got := fmt.Sprintf("%o %s %v", mode, id, found); got != want || err != nil {
						t.Errorf("%s %s: Lookup(%s) through %s prefixes = %s (%v), whole trees %s", format, path, c.tree, r.name, got, err, want)
					}
				}
			}
			// An entry in the first fifth of the directory: after the
			// first version, every one (half the trees read, the other
			// half being the small root trees) is read as a prefix from
			// memory. (odb's reader, whose cache holds whole trees from
			// the other paths' lookups, copies those whole.)
			// Where dozens of entries before it go at once, a prefix is
			// too short and the tree is read whole.
			if st := readers[0].trees.Stats(); earlyEntry[path] && st.TreePrefixes+st.PrefixMisses < st.LookupMisses/2-1 ||
				path == "wide/m150" && st.PrefixMisses == 0 {
				t.Errorf("%s %s: %d of %d trees read as prefixes, %d prefixes too short", format, path, st.TreePrefixes, st.LookupMisses, st.PrefixMisses)
			}
		}
		if mem.prefixes == 0 || odbReader.Stats().PrefixReads == 0 {
			t.Errorf("%s: prefix reads: %d in memory, %d from odb", format, mem.prefixes, odbReader.Stats().PrefixReads)
		}
		db.Close()
	}
}
