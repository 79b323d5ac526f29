package fsread

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestReadDirNames: the names of a directory in the order readdir gives
// them (the order *os.File's Readdirnames gives), "." and ".." left out,
// across more than one read of the kernel's entries; a directory that
// does not exist, or a file, is an error naming it.
func TestReadDirNames(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 600 { // more than one 8 KiB read of entries
		name := fmt.Sprintf("entry-with-a-long-name-%04d", i)
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, name)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	want = append(want, "sub")
	got, err := ReadDirNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	inOrder, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, inOrder) {
		t.Errorf("ReadDirNames: %d names not in readdir's order (%d from Readdirnames)", len(got), len(inOrder))
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("ReadDirNames: %d names, want the %d made", len(got), len(want))
	}
	if names, err := ReadDirNames(filepath.Join(dir, "sub")); err != nil || len(names) != 0 {
		t.Errorf("ReadDirNames(empty) = %q, %v; want no names", names, err)
	}
	for _, bad := range []string{filepath.Join(dir, "missing"), filepath.Join(dir, "entry-with-a-long-name-0000")} {
		var pe *fs.PathError
		if names, err := ReadDirNames(bad); !errors.As(err, &pe) || pe.Path != bad || names != nil {
			t.Errorf("ReadDirNames(%s) = %q, %v; want a *fs.PathError naming it", bad, names, err)
		}
	}
}
