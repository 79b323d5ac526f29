package blame

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/goblame/goblame/internal/testgit"
)

// TestReadContents reads buffers of sizes around the first capacity
// through a pipe-like reader (short reads) and from a regular file,
// whose size gives the buffer in one allocation.
func TestReadContents(t *testing.T) {
	for _, n := range []int{0, 1, 4095, 64<<10 - 1, 64 << 10, 64<<10 + 1, 300 << 10} {
		want := bytes.Repeat([]byte("0123456789abcdef\n"), n/17+1)[:n]
		got, err := readContents(iotest.HalfReader(bytes.NewReader(want)))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d bytes through short reads: got %d bytes, %v", n, len(got), err)
		}
		path := filepath.Join(t.TempDir(), "buf")
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(1, func() {
			f.Seek(0, io.SeekStart)
			got, err = readContents(f)
		})
		f.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d bytes from a file: got %d bytes, %v", n, len(got), err)
		}
		// The buffer, and what Stat allocates (not counted under -race,
		// whose instrumentation allocates too).
		if allocs > 4 && !testgit.RaceEnabled {
			t.Errorf("%d bytes from a file: %v allocations, want at most 4 (one buffer)", n, allocs)
		}
	}
	if _, err := readContents(iotest.ErrReader(io.ErrUnexpectedEOF)); err != io.ErrUnexpectedEOF {
		t.Errorf("a failing reader: %v, want its error", err)
	}
}
