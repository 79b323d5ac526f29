package cli

// A goroutine starts on a 2 KiB stack, which the runtime doubles each
// time a call would overflow it, copying the stack and walking every
// frame on it to adjust its pointers. The walk reads each function's
// tables in the binary's .gopclntab, and each page of the binary it
// touches first costs a fault that maps 64 KiB of the file into the
// resident set (the kernel's fault-around). A blame's goroutine grows
// to 32 KiB in four copies, the later ones at the depth of the walk or
// the object reader, whose tables are spread over the binary: grown
// once here, a go-git blame faults 18 times in .gopclntab instead of 24
// and peaks 0.3-0.6 MB lower (x/fdpool/pool.go 8.8 -> 8.5 MB, git's
// 6.8; repository.go 15.2 -> 14.6; perf record -e page-faults -d, and
// the peak's median over 6 runs; see benchmarks/blame/RESULTS.md,
// 2026-12-07).
//
// growStack makes the goroutine's stack that size in one copy, made
// where the run starts, two frames deep: its frame is stackStartFrame
// bytes, which the runtime rounds up to the next power of two with
// room for the frames below. Nothing is written to the frame (the
// array is declared in a branch never taken), so the stack's pages are
// touched only as the run's calls reach them, as before.
//
//go:noinline
func growStack() byte {
	if stackFrameIndex > 0 {
		var frame [stackStartFrame]byte
		frame[stackFrameIndex%stackStartFrame] = 1
		return frame[(stackFrameIndex*7)%stackStartFrame]
	}
	return 0
}

// stackStartFrame is growStack's frame: with the frames below it and
// the runtime's guard, a 32 KiB stack.
const stackStartFrame = 24 << 10

// stackFrameIndex is never set: the compiler cannot know that, so it
// keeps growStack's frame (and its branch, never taken, writes nothing).
var stackFrameIndex int
