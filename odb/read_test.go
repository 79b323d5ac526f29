package odb

import (
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

func TestReadEveryObjectMatchesGit(t *testing.T) {
	for _, fx := range layoutFixtures {
		for _, format := range testgit.Formats {
			t.Run(fx.name+"/"+format.String(), func(t *testing.T) {
				dir := fixture(t, fx.name, format, fx.script)
				if fx.dir != "" {
					dir = filepath.Join(dir, fx.dir)
				}
				db, err := Open(objectsDir(t, dir, format), format, Options{})
				if err != nil {
					t.Fatal(err)
				}
				l := describe(t, db)
				t.Logf("layout: %+v", l)
				fx.check(t, l)
				db.Close()
				n := compareAll(t, dir, format, Options{})
				t.Logf("%d objects identical to git cat-file --batch", n)
			})
		}
	}
}
