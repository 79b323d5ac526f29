package cli

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// wideTreeScript is a history of files in a directory of 260 entries (a
// tree of about 9 KB, larger than the prefix a lookup reads of it),
// packed with long delta chains: files near its start, middle and end
// and in a subdirectory change, entries come and go before them (dozens
// at once in one commit), a file moves within it, and the directory's
// files are edited on a branch that is merged.
const wideTreeScript = `git init -q r && cd r
mkdir -p wide/sub
for i in $(seq 100 359); do echo "file $i" > wide/m$i; done
printf 'early %s\n' 1 2 3 4 5 6 >wide/b-early
printf 'late %s\n' 1 2 3 4 5 6 >wide/z-late
printf 'sub %s\n' 1 2 3 4 5 6 >wide/sub/s
commit_all "wide"
for i in $(seq 1 36); do
	echo "change $i" >> wide/m$((100 + i * 7))
	sed -i "$((i % 6 + 1))s/\$/ $i/" wide/b-early
	test $((i % 3)) = 0 && sed -i "$((i % 5 + 1))s/\$/ $i/" wide/z-late
	test $((i % 4)) = 0 && sed -i "$((i % 6 + 1))s/\$/ $i/" wide/sub/s
	test $((i % 5)) = 0 && echo "added $i" > wide/a$i
	if test $i = 12; then rm -f wide/m10* wide/m11*; fi
	if test $i = 20; then git mv wide/m300 wide/c-moved; fi
	commit_all "wide $i"
	if test $i = 18; then git checkout -q -b side; echo "side line" >> wide/sub/s; echo side >> wide/m250; commit_all "side"; git checkout -q main; fi
	if test $i = 22; then git merge -q --no-edit side; fi
done
git repack -adfq --depth=50 --window=100
git commit-graph write --reachable --changed-paths
`

// TestWideTreesMatchGit blames files of a wide directory, whose trees
// the lookups read only the start of (odb.Reader.ReadPrefix), against
// git, and checks that they did.
func TestWideTreesMatchGit(t *testing.T) {
	dirs := fixtureDirs(t, "widetree", wideTreeScript)
	treeStats := regexp.MustCompile(`LookupMisses:(\d+) TreesRead:\d+ TreePrefixes:(\d+)`)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		for _, file := range []string{"wide/b-early", "wide/c-moved", "wide/sub/s", "wide/z-late", "wide/m149"} {
			for _, flags := range [][]string{nil, {"-p"}, {"--incremental"}, {"-M"}, {"-C"}, {"--first-parent"}} {
				compareWithGit(t, dir, format, nil, nil, append(append([]string{}, flags...), "HEAD", "--", file)...)
			}
		}
		// Half the lookups read a root tree (small: read whole), half
		// the wide directory: all of those but the first as prefixes.
		got := runGoblame(dir, format, nil, []string{"GOBLAME_TRACE_STATS=1"}, "HEAD", "--", "wide/b-early")
		m := treeStats.FindSubmatch(got.Stderr)
		if m == nil {
			t.Fatalf("%s: no tree counts in the stats: %q", format, got.Stderr)
		}
		misses, _ := strconv.Atoi(string(m[1]))
		prefixes, _ := strconv.Atoi(string(m[2]))
		if misses < 10 || prefixes < misses/2-1 {
			t.Errorf("%s: %d of %d trees read as prefixes for wide/b-early", format, prefixes, misses)
		}
	}
}
