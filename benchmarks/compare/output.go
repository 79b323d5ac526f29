package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

// outcome is one run of one side, for the identity check. Its standard
// output is in a file, never in the harness's memory: the kernel counts
// the harness's own peak memory in the peak of every child it starts
// after (os/exec starts children with vfork, and exec records the
// parent's high-water mark as the child's), so two blames' outputs held
// at once (30 MB each for a 10 MB file) made every later workload's peak
// RSS read 166 MiB, git's and goblame's alike.
type outcome struct {
	stdout string // the file holding it
	size   int64
	stderr []byte
	exit   int
}

// remove deletes the file holding the outcome's output.
func (o outcome) remove() {
	if o.stdout != "" {
		os.Remove(o.stdout)
	}
}

// sameOutput reports whether two outcomes' outputs are the same bytes,
// reading them a block at a time.
func sameOutput(a, b outcome) (bool, error) {
	if a.size != b.size {
		return false, nil
	}
	fa, err := os.Open(a.stdout)
	if err != nil {
		return false, err
	}
	defer fa.Close()
	fb, err := os.Open(b.stdout)
	if err != nil {
		return false, err
	}
	defer fb.Close()
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, erra := io.ReadFull(fa, ba)
		nb, errb := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false, nil
		}
		if erra == io.EOF || erra == io.ErrUnexpectedEOF {
			return errb == erra, nil
		}
		if erra != nil {
			return false, erra
		}
		if errb != nil {
			return false, errb
		}
	}
}

// eachLine calls fn with each line of the file at path (its newline
// included) until fn returns false.
func eachLine(path string, fn func(line []byte) bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && !fn(line) {
			return nil
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// uncommittedLines reports whether a blame output has lines of the
// pseudo-commit (the working tree or --contents), whose time is "now".
func uncommittedLines(o outcome) bool {
	found := false
	eachLine(o.stdout, func(line []byte) bool {
		found = bytes.Contains(line, []byte("Not Committed Yet")) ||
			bytes.HasPrefix(line, []byte("0000000")) || bytes.HasPrefix(line, []byte("^000000"))
		return !found
	})
	return found
}

// firstDifferentLine returns the 1-based number of the first line where
// two outputs differ.
func firstDifferentLine(a, b outcome) (int, error) {
	fb, err := os.Open(b.stdout)
	if err != nil {
		return 0, err
	}
	defer fb.Close()
	rb := bufio.NewReaderSize(fb, 64<<10)
	n, differs := 0, false
	err = eachLine(a.stdout, func(line []byte) bool {
		n++
		other, _ := rb.ReadBytes('\n')
		differs = !bytes.Equal(line, other)
		return !differs
	})
	if !differs {
		n++ // a is a prefix of b: b's next line
	}
	return n, err
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}

// describeDiff says how two outcomes differ; same is whether their
// outputs are the same bytes (sameOutput).
func describeDiff(g, b outcome, same bool) string {
	var parts []string
	if g.exit != b.exit {
		parts = append(parts, fmt.Sprintf("exit %d vs %d", g.exit, b.exit))
	}
	if !same {
		line, _ := firstDifferentLine(g, b)
		parts = append(parts, fmt.Sprintf("stdout differs from line %d (%d vs %d bytes)", line, g.size, b.size))
	}
	if g.exit != 0 || b.exit != 0 {
		parts = append(parts, fmt.Sprintf("git: %q, goblame: %q", firstLine(g.stderr), firstLine(b.stderr)))
	}
	return strings.Join(parts, "; ")
}

// writeTo writes the output to the file at dst (moving the check's file
// there, or copying it where it cannot be moved).
func (d diagnosis) writeTo(dst string) error {
	if d.path == "" {
		return os.WriteFile(dst, d.data, 0o666)
	}
	if os.Rename(d.path, dst) == nil {
		return nil
	}
	src, err := os.Open(d.path)
	if err != nil {
		return err
	}
	defer src.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, src); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Remove(d.path)
}
