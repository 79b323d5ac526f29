package walk

import (
	"fmt"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// TargetPath is the path the generated repository's benchmarks follow.
const TargetPath = "d3/e5/f7.txt"

// generatorScript builds, with git fast-import, a history of about
// commits commits over 1000 files (d0..d9/e0..e9/f0..f9.txt): each commit
// rewrites two files chosen by a fixed pseudo-random sequence, TargetPath
// changes in about one commit in twenty, and every fiftieth step a side
// branch of three commits is merged back. The result is repacked into one pack; with graph set,
// a commit-graph with changed-path Bloom filters is written too.
func generatorScript(commits int, graph bool) string {
	s := fmt.Sprintf(`git init -q .
awk -v N=%d -v TARGET=%q '
function rnd(n) { seed = (seed * 1103515245 + 12345) %% 2147483648; return int(seed / 65536) %% n }
function path(i) { return "d" int(i / 100) "/e" int(i / 10) %% 10 "/f" i %% 10 ".txt" }
function file(p) {
	print "M 100644 inline " p
	print "data <<EOD"
	print "version " mark " of " p
	print "line two " rnd(1000)
	print "EOD"
}
function header(ref, from, merge) {
	mark++
	t += 60
	print "commit " ref
	print "mark :" mark
	print "committer C O Mitter <committer@example.com> " t " +0000"
	print "data <<EOM"
	print "commit " mark
	print "EOM"
	if (from != "") print "from :" from
	if (merge != "") print "merge :" merge
}
function change(n,   k) {
	for (k = 0; k < n; k++) file(path(rnd(1000)))
	if (rnd(20) == 0) file(TARGET)
}
BEGIN {
	seed = 42; t = 1112911993; mark = 0
	header("refs/heads/main", "", "")
	for (i = 0; i < 1000; i++) file(path(i))
	main = mark
	for (n = 1; n < N; n++) {
		if (n %% 50 == 0) {
			side = main
			for (k = 0; k < 3; k++) { header("refs/heads/side", side, ""); change(2); side = mark; n++ }
			header("refs/heads/main", main, side); change(1); main = mark
		} else {
			header("refs/heads/main", main, ""); change(2); main = mark
		}
	}
}' | git fast-import --quiet
git checkout -q main
git repack -adq
`, commits, TargetPath)
	if graph {
		s += "git commit-graph write --reachable --changed-paths\n"
	}
	return s
}

// Generated builds (once per machine; cached by testgit) the generated
// repository and returns its work tree.
func Generated(commits int, graph bool) (string, error) {
	name := fmt.Sprintf("walk-generated-%d", commits)
	if graph {
		name += "-graph"
	}
	return testgit.BuildFixture(name, oid.SHA1, generatorScript(commits, graph))
}
