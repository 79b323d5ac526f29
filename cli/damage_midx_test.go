package cli

import (
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/testpack"
)

// TestDamagedMultiPackIndex: with a multi-pack-index damaged in each of
// these ways (git 2.39.5 dies on each: "multi-pack-index signature ...
// does not match", "bad pack-int-id"), goblame prints what the repository
// gives without the multi-pack-index, one warning line that says so, and
// exits 0.
func TestDamagedMultiPackIndex(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		src := filepath.Join(testgit.Fixture(t, "cli-damaged-midx", f, testpack.MultiPackIndexScript), "r")
		compareDamaged(t, f, src, "multi-pack-index", nil, []string{"-c", "core.multiPackIndex=false"},
			testpack.MultiPackIndexDamage,
			func(dir, kind string) {
				testpack.DamageMultiPackIndex(t, filepath.Join(dir, ".git", "objects", "pack", "multi-pack-index"), kind)
			})
	}
}
