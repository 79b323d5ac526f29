package traverse

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/odb"
)

// TestWithObjectDatabase runs the snapshot of corrupt_test.go through the
// real object database (loose objects, and a packed copy of the history
// with a graph) and checks it
// equals the snapshot through the in-memory reader: the walk works
// unchanged on odb.Reader, with and without a graph.
func TestWithObjectDatabase(t *testing.T) {
	for _, format := range testgit.Formats {
		for _, variant := range []string{"nograph", "split", "packed"} {
			t.Run(format.String()+"/"+variant, func(t *testing.T) {
				var dir string
				if variant == "packed" {
					testgit.Golden(t) // skips without git
					dir = testgit.Fixture(t, "traverse-packed", format, history+"git repack -adq\ngit commit-graph write --reachable --changed-paths\n")
				} else {
					dir = historyFixture(t, variant, format)
				}
				want, _ := snapshot(t, dir, format, loadObjects(t, dir, format), nil)
				db, err := odb.Open(objectsDir(dir), format, odb.Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				g, warnings, err := OpenGraph(db.ObjectDirs(), format)
				if err != nil || len(warnings) > 0 {
					t.Fatal(err, warnings)
				}
				defer g.Close()
				got, w := snapshot(t, dir, format, db.NewReader(), g)
				if got != want || len(w) > 0 {
					t.Errorf("odb walk differs (warnings %q)", w)
				}
			})
		}
	}
}
