package fsread

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestLeasedFileWaits: a file under a write lease makes a non-blocking
// open fail with EAGAIN; ReadFile then opens it blocking and waits for
// the lease to go, as git's open does, instead of failing.
func TestLeasedFileWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "leased")
	if err := os.WriteFile(path, []byte("text"), 0o600); err != nil {
		t.Fatal(err)
	}
	holder, err := syscall.Open(path, syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(holder)
	if _, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(holder), syscall.F_SETLEASE, syscall.F_WRLCK); e != 0 {
		t.Skip("no write lease here:", e)
	}
	if _, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK, 0); err != syscall.EAGAIN {
		t.Skipf("a non-blocking open under the lease: %v, not EAGAIN", err)
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		syscall.Syscall(syscall.SYS_FCNTL, uintptr(holder), syscall.F_SETLEASE, syscall.F_UNLCK)
	}()
	b, err := ReadFile(path, 0)
	if err != nil || string(b) != "text" {
		t.Errorf("ReadFile under a lease: %q, %v; want the text once the lease goes", b, err)
	}
}
