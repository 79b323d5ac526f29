package blame

import "testing"

// TestReadAheadCacheBytes: the read-ahead reader's cache is a quarter of
// the packs, within its bounds.
func TestReadAheadCacheBytes(t *testing.T) {
	for _, c := range []struct{ packs, want int64 }{
		{0, minReadAheadCacheBytes},                                // loose objects only
		{14 << 20, 14 << 20 / 4},                                   // go-git
		{4 * minReadAheadCacheBytes, minReadAheadCacheBytes},       // at the floor
		{4*maxReadAheadCacheBytes - 4, maxReadAheadCacheBytes - 1}, // just below the cap
		{200 << 20, maxReadAheadCacheBytes},                        // git/git
	} {
		if got := readAheadCacheBytes(c.packs); got != c.want {
			t.Errorf("readAheadCacheBytes(%d) = %d, want %d", c.packs, got, c.want)
		}
	}
}
