package blamecore_test

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// lineAttr is what --line-porcelain says about one line.
type lineAttr struct {
	commit     string
	sLno, lno  int
	groupStart bool
	groupLen   int
	boundary   bool
	previous   string
	filename   string
}

// parseLinePorcelain extracts the attribution skeleton of git blame
// --line-porcelain or --porcelain output (identities and summaries are
// checked by the format tests). --porcelain prints a commit's details
// (its "boundary") once, and its "previous" and "filename" lines only
// with them or when the commit has more than one path; a line without
// them has the ones last printed for its commit, as --line-porcelain
// would repeat them.
func parseLinePorcelain(t *testing.T, out []byte) []lineAttr {
	t.Helper()
	type details struct {
		boundary           bool
		previous, filename string
	}
	known := map[string]details{}
	var attrs []lineAttr
	var cur *lineAttr
	var sawAuthor, sawFilename bool
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "\t"):
			if cur == nil {
				t.Fatalf("porcelain output: content line %q without a header", line)
			}
			d := known[cur.commit]
			if sawAuthor {
				d.boundary = cur.boundary
			}
			if sawFilename {
				d.previous, d.filename = cur.previous, cur.filename
			}
			known[cur.commit] = d
			cur.boundary, cur.previous, cur.filename = d.boundary, d.previous, d.filename
			attrs = append(attrs, *cur)
			cur = nil
		case cur == nil:
			f := strings.Fields(line)
			if len(f) < 3 {
				t.Fatalf("porcelain output: header %q", line)
			}
			a := lineAttr{commit: f[0]}
			a.sLno, _ = strconv.Atoi(f[1])
			a.lno, _ = strconv.Atoi(f[2])
			if len(f) == 4 {
				a.groupStart = true
				a.groupLen, _ = strconv.Atoi(f[3])
			}
			cur = &a
			sawAuthor, sawFilename = false, false
		case strings.HasPrefix(line, "author "):
			sawAuthor = true
		case line == "boundary":
			cur.boundary = true
		case strings.HasPrefix(line, "previous "):
			cur.previous = line[len("previous "):]
		case strings.HasPrefix(line, "filename "):
			cur.filename = line[len("filename "):]
			sawFilename = true
		}
	}
	return attrs
}

// skeleton renders a blame result the same way.
func skeleton(res *blamecore.Result) []lineAttr {
	var attrs []lineAttr
	for _, e := range res.Entries {
		for k := 0; k < e.NumLines; k++ {
			a := lineAttr{commit: e.Commit.ID.String(), sLno: e.SLno + 1 + k, lno: e.Lno + 1 + k, boundary: e.Commit.Boundary, filename: e.Path}
			if k == 0 {
				a.groupStart = true
				a.groupLen = e.NumLines
			}
			if e.Previous != nil {
				a.previous = e.Previous.Commit.String() + " " + e.Previous.Path
			}
			attrs = append(attrs, a)
		}
	}
	return attrs
}

func diffAttrs(got, want []lineAttr) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d lines, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Sprintf("line %d:\n got %+v\nwant %+v", i+1, got[i], want[i])
		}
	}
	return ""
}

// TestAttributionMatchesGit blames every file at every commit of the
// fixture histories and compares the per-line attribution (commit,
// source and final line, groups, boundary, previous, filename) with git
// blame --porcelain.
//
// git's output is the same with and without the commit-graph (only the
// walk differs), so both variants compare with git's blame of the
// repository without one. The golden file keeps a part of the 980 cases
// (all of them would be 3 MB): every file and revision with the default
// options in both object formats, and every option on SHA-1 but for the
// file with a 20,000-byte line; the rest need git 2.39.x itself.
func TestAttributionMatchesGit(t *testing.T) {
	testgit.Golden(t)
	flagSets := [][]string{nil, {"-w"}, {"--minimal"}, {"--no-indent-heuristic"}, {"--root"}, {"--first-parent"}}
	// -M and -C depend on the order of commits with equal dates, which git
	// does not fix; the "dates" fixture has such commits.
	copyFlags := [][]string{{"-M"}, {"-C"}, {"-C", "-C"}, {"-C", "-C", "-C"}}
	for name, script := range fixtureScripts {
		for _, format := range testgit.Formats {
			for _, graph := range []bool{false, true} {
				variant := name + "/" + format.String()
				plain := "blame-" + strings.ReplaceAll(variant, "/", "-")
				plainScript := script
				script := script
				if graph {
					// The same history with a commit-graph and changed-path
					// Bloom filters: blame must give the same answers.
					variant += "/commit-graph"
					script += "\ngit commit-graph write --reachable --changed-paths\n"
				}
				t.Run(variant, func(t *testing.T) {
					t.Parallel()
					goldens := testgit.Golden(t)
					dir := filepath.Join(testgit.Fixture(t, "blame-"+strings.ReplaceAll(variant, "/", "-"), format, script), "r")
					refDir := filepath.Join(testgit.Fixture(t, plain, format, plainScript), "r")
					goldens.RequireFixture(dir)
					db, err := odb.Open(filepath.Join(dir, ".git", "objects"), format, odb.Options{})
					if err != nil {
						t.Fatal(err)
					}
					defer db.Close()
					g, _, err := traverse.OpenGraph(db.ObjectDirs(), format)
					if err != nil {
						t.Fatal(err)
					}
					if graph && (g == nil || !g.HasBloom()) {
						t.Fatal("fixture has no commit-graph with Bloom filters")
					}
					revs := strings.Fields(testgit.Git(t, dir, format, "rev-list", "--all"))
					for _, rev := range revs {
						files := strings.Split(strings.TrimSpace(testgit.Git(t, dir, format, "ls-tree", "-r", "--name-only", rev)), "\n")
						for _, file := range files {
							if file == "" {
								continue
							}
							sets := flagSets
							if name != "dates" {
								sets = append(append([][]string{}, flagSets...), copyFlags...)
							}
							for _, flags := range sets {
								c := testgit.Case{Dir: refDir, Format: format, Args: porcelainBlameArgs(rev, file, flags)}
								var res testgit.Result
								if len(flags) == 0 || format == oid.SHA1 && file != "long" {
									res = goldens.Run(c)
								} else {
									var live bool
									if res, live = goldens.Live(c); !live {
										continue
									}
								}
								if res.ExitCode != 0 {
									t.Fatalf("git blame: %s", res)
								}
								compareAttribution(t, db, g, format, rev, file, flags, variant, res.Stdout)
							}
						}
					}
				})
			}
		}
	}
}
