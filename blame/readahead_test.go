package blame

import "testing"

// TestReadAheadCacheBytes: the read-ahead reader's cache is an eighth of
// the packs, within its bounds.
func TestReadAheadCacheBytes(t *testing.T) {
	for _, c := range []struct{ packs, want int64 }{
		{0, minReadAheadCacheBytes},         // loose objects only
		{14 << 20, minReadAheadCacheBytes},  // go-git
		{40 << 20, 5 << 20},                 // between the bounds
		{128<<20 - 8, 16<<20 - 1},           // just below the cap
		{200 << 20, maxReadAheadCacheBytes}, // git/git
	} {
		if got := readAheadCacheBytes(c.packs); got != c.want {
			t.Errorf("readAheadCacheBytes(%d) = %d, want %d", c.packs, got, c.want)
		}
	}
}
