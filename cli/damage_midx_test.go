package cli

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// midxScript is a history in three packs under a multi-pack-index.
const midxScript = `git init -q r && cd r
for i in 1 2 3; do seq 1 $((i*4)) >f; commit_all c$i; git repack -q; done
git multi-pack-index write
`

// damageMidx rewrites one field of the multi-pack-index at path.
func damageMidx(t *testing.T, path, kind string) {
	t.Helper()
	rewriteChunked(t, path, 12, func(b []byte, chunks map[string]int) {
		switch kind {
		case "bad-signature":
			copy(b, "MIDY")
		case "bad-version":
			b[4] = 9
		case "unsorted-pack-names":
			names := bytes.SplitN(b[chunks["PNAM"]:], []byte{0}, 3)
			swapped := append(append(append(append([]byte{}, names[1]...), 0), names[0]...), 0)
			copy(b[chunks["PNAM"]:], swapped)
		case "bad-pack-id":
			for off := chunks["OOFF"]; off+8 <= len(b) && off < chunks["OOFF"]+8*3; off += 8 {
				binary.BigEndian.PutUint32(b[off:], 77)
			}
		default:
			t.Fatalf("unknown damage %s", kind)
		}
	})
}

// TestDamagedMultiPackIndex: with a multi-pack-index damaged in each of
// these ways (git 2.39.5 dies on each: "multi-pack-index signature ...
// does not match", "bad pack-int-id"), goblame prints what the repository
// gives without the multi-pack-index, one warning line that says so, and
// exits 0.
func TestDamagedMultiPackIndex(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		src := filepath.Join(testgit.Fixture(t, "cli-damaged-midx", f, midxScript), "r")
		compareDamaged(t, f, src, "multi-pack-index", nil, []string{"-c", "core.multiPackIndex=false"},
			[]string{"bad-signature", "bad-version", "unsorted-pack-names", "bad-pack-id"},
			func(dir, kind string) {
				damageMidx(t, filepath.Join(dir, ".git", "objects", "pack", "multi-pack-index"), kind)
			})
	}
}
