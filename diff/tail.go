package diff

import "bytes"

// tailBlock is the block size of git's trim_common_tail.
const tailBlock = 1024

// TrimCommonTail is git's trim_common_tail (xdiff-interface.c), which
// every diff with zero context lines (blame's, and git diff -U0's) runs
// before xdiff: it drops the longest run of whole 1 KiB blocks that both
// buffers end with, then gives back the start of that run up to and
// including its first newline, so that both kept parts end right after a
// newline. If the dropped run holds no newline, nothing is dropped.
//
// The two results are prefixes of a and b; the removed tails are the same
// bytes and the same lines in both.
func TrimCommonTail(a, b []byte) ([]byte, []byte) {
	n := trimmedTail(a, b)
	return a[:len(a)-n], b[:len(b)-n]
}

// trimmedTail returns how many bytes TrimCommonTail removes from each side.
func trimmedTail(a, b []byte) int {
	smaller := min(len(a), len(b))
	trimmed := 0
	for trimmed+tailBlock <= smaller &&
		bytes.Equal(a[len(a)-trimmed-tailBlock:len(a)-trimmed], b[len(b)-trimmed-tailBlock:len(b)-trimmed]) {
		trimmed += tailBlock
	}
	if trimmed == 0 {
		return 0
	}
	region := a[len(a)-trimmed:]
	recovered := trimmed
	if i := bytes.IndexByte(region, '\n'); i >= 0 {
		recovered = i + 1
	}
	return trimmed - recovered
}
