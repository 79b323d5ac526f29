package blamecache

import (
	"os"
	"reflect"
	"testing"

	"github.com/goblame/goblame/oid"
)

// TestAbbrevsSaveLoad: lengths come back for their fingerprint only, and
// a damaged file is ignored and removed.
func TestAbbrevsSaveLoad(t *testing.T) {
	for _, f := range []oid.Format{oid.SHA1, oid.SHA256} {
		a := Open(t.TempDir(), 0).Area("/objects", f)
		fp := []byte("fingerprint one")
		lengths := map[oid.ID]int{testID(f, 1): 7, testID(f, 2): 12, testID(f, 9): 1}
		if got := a.LoadAbbrevs(fp); len(got) != 0 {
			t.Fatalf("%v: lengths before any were saved: %v", f, got)
		}
		if err := a.SaveAbbrevs(fp, lengths); err != nil {
			t.Fatal(err)
		}
		if got := a.LoadAbbrevs(fp); !reflect.DeepEqual(got, lengths) {
			t.Errorf("%v: loaded %v, saved %v", f, got, lengths)
		}
		if got := a.LoadAbbrevs([]byte("fingerprint two")); len(got) != 0 {
			t.Errorf("%v: another fingerprint's lengths: %v", f, got)
		}
		data, err := os.ReadFile(a.abbrevPath(fp))
		if err != nil {
			t.Fatal(err)
		}
		for i := range data {
			bad := append([]byte(nil), data...)
			bad[i] ^= 0x10
			if got, ok := decodeAbbrevs(bad, fp, f); ok {
				t.Fatalf("%v: byte %d flipped decodes to %v", f, i, got)
			}
			if got, ok := decodeAbbrevs(data[:i], fp, f); ok {
				t.Fatalf("%v: %d bytes decode to %v", f, i, got)
			}
		}
		if _, ok := decodeAbbrevs(data, fp, map[oid.Format]oid.Format{oid.SHA1: oid.SHA256, oid.SHA256: oid.SHA1}[f]); ok {
			t.Errorf("%v: decoded in the other format", f)
		}
		if err := os.WriteFile(a.abbrevPath(fp), data[:len(data)-1], 0o600); err != nil {
			t.Fatal(err)
		}
		if got := a.LoadAbbrevs(fp); len(got) != 0 {
			t.Errorf("%v: a truncated file gave %v", f, got)
		}
		if _, err := os.Stat(a.abbrevPath(fp)); !os.IsNotExist(err) {
			t.Errorf("%v: the truncated file was kept (%v)", f, err)
		}
	}
}
