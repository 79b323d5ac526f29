package testpack

import (
	"bytes"
	"encoding/binary"
	"os"
	"testing"
)

// RewriteChunked reads the chunked file at path (a commit-graph, whose
// chunk table is at byte 8, or a multi-pack-index, at byte 12; the chunk
// count is at byte 6 in both), lets edit change its bytes given each
// chunk's offset by its four-letter id, and writes it back.
func RewriteChunked(t testing.TB, path string, tableOff int, edit func(b []byte, chunks map[string]int)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	chunks := map[string]int{}
	for i := 0; i <= int(b[6]); i++ {
		off := tableOff + 12*i
		chunks[string(b[off:off+4])] = int(binary.BigEndian.Uint64(b[off+4 : off+12]))
	}
	edit(b, chunks)
	os.Chmod(path, 0o644)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// MultiPackIndexScript is a testgit fixture script: a history in three
// packs under a multi-pack-index, in r/, for DamageMultiPackIndex.
const MultiPackIndexScript = `git init -q r && cd r
for i in 1 2 3; do seq 1 $((i*4)) >f; commit_all c$i; git repack -q; done
git multi-pack-index write
`

// MultiPackIndexDamage lists the kinds of DamageMultiPackIndex: a bad
// signature or version and unsorted pack names (the file does not
// parse), and pack ids out of range in the first object offsets (found
// when an object is looked up).
var MultiPackIndexDamage = []string{"bad-signature", "bad-version", "unsorted-pack-names", "bad-pack-id"}

// DamageMultiPackIndex rewrites one field of the multi-pack-index at
// path, as kind (one of MultiPackIndexDamage) says.
func DamageMultiPackIndex(t testing.TB, path, kind string) {
	t.Helper()
	RewriteChunked(t, path, 12, func(b []byte, chunks map[string]int) {
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
