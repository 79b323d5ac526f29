package odb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
)

// LookupError is a pack git cannot use, as git 2.39.5 reports it each
// time an object lookup tries the pack: its pack index fails
// check_packed_git_idx (every lookup that reaches the pack), or the pack
// fails open_packed_git (every lookup of an object its index lists).
// Line is git's "error: ..." line. A reader's error wraps it when the
// object was not found elsewhere.
type LookupError struct {
	Line string
	Err  error
}

func (e *LookupError) Error() string { return e.Err.Error() }
func (e *LookupError) Unwrap() error { return e.Err }

// LookupLines is what git prints before it gives up on an object that
// only an unusable pack could have held (err, a reader's error), for
// lookups failed lookups: each tries the pack twice (again after
// rescanning the pack directory). Nil when err is no such failure.
func LookupLines(err error, lookups int) []string {
	var le *LookupError
	if lookups <= 0 || !errors.As(err, &le) {
		return nil
	}
	lines := make([]string, 2*lookups)
	for i := range lines {
		lines[i] = le.Line
	}
	return lines
}

// gitIndexLine is the line git's check_packed_git_idx prints for the
// index file name (git's name for it) it cannot use, from its bytes
// (load_idx's checks, checkIndex); "" when git would use it.
func gitIndexLine(name string, data []byte, hashLen int) string {
	fault, version, _, _ := checkIndex(data, hashLen)
	return indexFaultLine(name, fault, version)
}

// indexFaultLine is gitIndexLine for the fault checkIndex found.
func indexFaultLine(name string, fault indexFault, version uint32) string {
	switch fault {
	case indexTooSmall:
		return "error: index file " + name + " is too small"
	case indexBadVersion:
		return fmt.Sprintf("error: index file %s is version %d and is not supported by this binary (try upgrading GIT to a newer version)", name, version)
	case indexNonMonotonic:
		return "error: non-monotonic index " + name
	case indexWrongV1Size:
		return "error: wrong index v1 file size in " + name
	case indexWrongV2Size:
		return "error: wrong index v2 file size in " + name
	}
	return ""
}

// gitPackLine is the line git's open_packed_git_1 prints for the pack
// file name (git's name for it) it cannot use, from its bytes and its
// index's object count and pack checksum; "" when git would use it.
func gitPackLine(name string, data []byte, count uint32, packHash []byte) string {
	if len(data) < 12 {
		return "error: file " + name + " is far too short to be a packfile"
	}
	if string(data[:4]) != "PACK" {
		return "error: file " + name + " is not a GIT packfile"
	}
	if v := binary.BigEndian.Uint32(data[4:]); v != 2 && v != 3 {
		return fmt.Sprintf("error: packfile %s is version %d and not supported (try upgrading GIT to a newer version)", name, v)
	}
	if n := binary.BigEndian.Uint32(data[8:]); n != count {
		return fmt.Sprintf("error: packfile %s claims to have %d objects while index indicates %d objects", name, n, count)
	}
	if len(data) < len(packHash) {
		return "error: packfile " + name + " signature is unavailable"
	}
	if !bytes.Equal(data[len(data)-len(packHash):], packHash) {
		return "error: packfile " + name + " does not match index"
	}
	return ""
}

// readSmall reads a file whose mapping failed for being empty.
func readSmall(path string) ([]byte, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() >= 4*256 {
		return nil, false
	}
	data, err := os.ReadFile(path)
	return data, err == nil
}
