package odb

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

func TestReadEveryObjectMatchesGit(t *testing.T) {
	for _, fx := range layoutFixtures {
		for _, format := range testgit.Formats {
			t.Run(fx.name+"/"+format.String(), func(t *testing.T) {
				dir := fixture(t, fx.name, format, fx.script)
				n := compareAll(t, dir, format, Options{})
				t.Logf("%d objects identical to git cat-file --batch", n)
			})
		}
	}
}
