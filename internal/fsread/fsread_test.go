package fsread

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
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

func TestFileReads(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("0123456789"), 0o640); err != nil {
		t.Fatal(err)
	}
	f, st, err := OpenStat(path, false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Name() != want.Name() || st.Size() != want.Size() || st.Mode() != want.Mode() || st.IsDir() || !st.ModTime().Equal(want.ModTime()) {
		t.Errorf("stat: name %q size %d mode %v mtime %v; os says %q %d %v %v",
			st.Name(), st.Size(), st.Mode(), st.ModTime(), want.Name(), want.Size(), want.Mode(), want.ModTime())
	}
	// The special bits and the type, as os reports them.
	if err := os.Chmod(path, 0o640|os.ModeSetuid|os.ModeSetgid|os.ModeSticky); err == nil {
		st2, _ := f.Stat()
		want2, _ := os.Stat(path)
		if st2.Mode() != want2.Mode() {
			t.Errorf("mode %v, os says %v", st2.Mode(), want2.Mode())
		}
	}
	buf := make([]byte, 4)
	if n, err := f.ReadAt(buf, 3); n != 4 || err != nil || string(buf) != "3456" {
		t.Errorf("ReadAt(4 at 3) = %d, %v, %q", n, err, buf[:n])
	}
	if n, err := f.ReadAt(buf, 8); n != 2 || err != io.EOF || string(buf[:n]) != "89" {
		t.Errorf("ReadAt(4 at 8) = %d, %v, %q; want 2, EOF", n, err, buf[:n])
	}
	// ReadAt leaves the offset Read uses alone.
	if n, err := f.Read(buf); n != 4 || err != nil || string(buf) != "0123" {
		t.Errorf("Read = %d, %v, %q", n, err, buf[:n])
	}
	rest, err := io.ReadAll(f)
	if err != nil || string(rest) != "456789" {
		t.Errorf("rest = %q, %v", rest, err)
	}
	if n, err := f.Read(buf); n != 0 || err != io.EOF {
		t.Errorf("Read at the end = %d, %v; want 0, EOF", n, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := f.Read(buf); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Read after Close: %v, want ErrClosed", err)
	}
	if _, err := f.ReadAt(buf, 0); !errors.Is(err, os.ErrClosed) {
		t.Errorf("ReadAt after Close: %v, want ErrClosed", err)
	}
	if _, err := f.Stat(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Stat after Close: %v, want ErrClosed", err)
	}
}

func TestNotRegularModes(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	for _, c := range []struct {
		path string
		want os.FileMode
	}{{fifo, os.ModeNamedPipe}, {"/dev/zero", os.ModeDevice | os.ModeCharDevice}, {dir, os.ModeDir}} {
		_, err := Open(c.path, false)
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Mode.Type() != c.want {
			t.Errorf("%s: %v, want a NotRegularError of type %v", c.path, err, c.want)
		}
	}
	if _, err := Open("/dev/null", false); err != nil {
		t.Errorf("/dev/null: %v", err)
	}
}

// TestReadFileOrPipe: what a user names is read as git reads it, pipes
// and FIFOs with a writer included, but a FIFO nobody writes to is an
// error at once where git would wait.
func TestReadFileOrPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	want := "0123456789\nabc\n"

	// An anonymous pipe, as "<(...)" gives: read to its writer's end,
	// the data arriving after the read started.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		w.Write([]byte(want[:5]))
		time.Sleep(20 * time.Millisecond)
		w.Write([]byte(want[5:]))
		w.Close()
	}()
	got, err := ReadFileOrPipe("/proc/self/fd/"+strconv.Itoa(int(r.Fd())), 0)
	if err != nil || string(got) != want {
		t.Errorf("pipe: %q, %v; want %q", got, err, want)
	}

	// A named FIFO with no writer: NotRegularError, at once.
	start := time.Now()
	if _, err := ReadFileOrPipe(fifo, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO without a writer: error %v, want ErrNotRegular", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("FIFO without a writer: took %v", d)
	}

	// A named FIFO with a writer that has opened it but writes late.
	opened := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for the reader
		opened <- err
		if err != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
		f.Write([]byte(want))
		f.Close()
	}()
	// The writer's open is under way (counted as a writer) once the
	// goroutine runs; give it a moment before reading.
	time.Sleep(50 * time.Millisecond)
	got, err = ReadFileOrPipe(fifo, 0)
	if err != nil || string(got) != want {
		t.Errorf("FIFO with a writer: %q, %v; want %q", got, err, want)
	}
	if err := <-opened; err != nil {
		t.Fatal(err)
	}

	// The limit holds for a pipe.
	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	go func() { w2.Write(make([]byte, 100)); w2.Close() }()
	var tooLarge *TooLargeError
	if _, err := ReadFileOrPipe("/proc/self/fd/"+strconv.Itoa(int(r2.Fd())), 10); !errors.As(err, &tooLarge) {
		t.Errorf("pipe over the limit: error %v, want TooLargeError", err)
	}

	// A regular file and a directory are ReadFile's.
	regular := filepath.Join(dir, "f")
	if err := os.WriteFile(regular, []byte(want), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFileOrPipe(regular, 0); err != nil || string(got) != want {
		t.Errorf("regular file: %q, %v", got, err)
	}
	if _, err := ReadFileOrPipe(dir, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: error %v, want ErrNotRegular", err)
	}
}
