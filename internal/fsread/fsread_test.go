package fsread

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	regular := filepath.Join(dir, "f")
	if err := os.WriteFile(regular, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(fifo, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO: error %v, want ErrNotRegular", err)
	}
	if _, err := ReadFile("/dev/zero", 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("/dev/zero: error %v, want ErrNotRegular", err)
	}
	if _, err := ReadFile(dir, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: error %v, want ErrNotRegular", err)
	}
	if b, err := ReadFile("/dev/null", 0); err != nil || len(b) != 0 {
		t.Errorf("/dev/null: %q, %v; want empty", b, err)
	}
	if b, err := ReadFile(regular, 0); err != nil || string(b) != "0123456789" {
		t.Errorf("regular file: %q, %v", b, err)
	}
	var tooLarge *TooLargeError
	if _, err := ReadFile(regular, 9); !errors.As(err, &tooLarge) {
		t.Errorf("10 bytes with limit 9: error %v, want TooLargeError", err)
	}
	if b, err := ReadFile(regular, 10); err != nil || len(b) != 10 {
		t.Errorf("10 bytes with limit 10: %q, %v", b, err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: error %v, want ErrNotExist", err)
	}
}
