package cli

import (
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// The process settings change the Go runtime of the whole process, so
// their tests run in a child process (the test binary, re-executed).
const processChildEnv = "GOBLAME_TEST_PROCESS_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(processChildEnv) {
	case "gc":
		processChildGC(false)
	case "gc-hugepages":
		processChildGC(true)
	case "gc-large":
		processChildGCLargeHeap()
	case "gc-hugepages-late":
		processChildHugePagesLate()
	case "gc-hugepages-small":
		processChildHugePagesSmall()
	case "gc-copies":
		processChildGCCopies(false)
	case "gc-copies-late":
		processChildGCCopies(true)
	case "gc-largefile-late":
		processChildGCLargeFileLate()
	case "hugepages":
		processChildHugePages(8 << 20)
	case "hugepages-fresh":
		processChildHugePages(0)
	case "hugepages-ahead":
		processChildHugePagesAhead()
	case "blame-huge":
		processChildBlameHuge()
	case "blame-gc":
		processChildBlameGC()
	case "stack-start":
		processChildStackStart()
	}
	code := m.Run()
	removeShimInstall()
	os.Exit(code)
}

// processChildGC checks that the collector stays off below the first
// collection and is back at GOGC=100 once the heap has passed it; with
// huge, the collected huge-page start is made between: its collection
// runs tuneGC's cleanup, which must neither be undone for good (the
// collector off for the whole run) nor end tuneGC's wait (the collector
// on from the huge-page start, which is not the heap reaching the first
// collection).
func processChildGC(huge bool) {
	tuneGC(func(string) string { return "" })
	below := 64 // 256 KiB allocations: 16 MiB, well below the first collection
	if huge {
		hugePageHeap(8 << 20)
		// Give the cleanup of hugePageHeap's collection every chance
		// to run before checking that it changed nothing.
		for i := 0; i < 100; i++ {
			runtime.Gosched()
		}
		if p := gcPercent(); p == 100 {
			os.Stdout.WriteString("GOGC is 100 after the huge-page start's collection\n")
			os.Exit(1)
		}
		if runtime.GOOS == "linux" && pinnedStarts() != 1 {
			os.Stdout.WriteString("the huge-page start's pin is not held after its collection\n")
			os.Exit(1)
		}
		// Its 10 MiB, free now, count against the memory limit.
		below = 32
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	small := make([][]byte, 0, below)
	for i := 0; i < below; i++ {
		small = append(small, make([]byte, 256<<10))
	}
	var mid runtime.MemStats
	runtime.ReadMemStats(&mid)
	if mid.NumGC != before.NumGC {
		os.Stdout.WriteString("collected below the first collection\n")
		os.Exit(1)
	}
	runtime.KeepAlive(small)
	small = nil
	for i := 0; i < 4*firstCollectionBytes/(1<<20); i++ {
		_ = make([]byte, 1<<20)
	}
	runtime.GC() // let the cleanup run if the limit's collection raced it
	// The setting is read without being changed (SetGCPercent would set
	// what it then reports).
	for i := 0; i < 1000 && gcPercent() != 100; i++ {
		runtime.Gosched()
	}
	if p := gcPercent(); p != 100 {
		os.Stdout.WriteString("GOGC is " + strconv.Itoa(p) + " after the first collection, not 100\n")
		os.Exit(1)
	}
	// The first collection's cleanup lets the huge-page starts' pins go.
	if n := pinnedStarts(); n != 0 {
		os.Stdout.WriteString(strconv.Itoa(n) + " huge-page start allocations still pinned after the first collection\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("ok\n")
	os.Exit(0)
}

// processChildHugePagesLate makes the huge-page start the way a walk in
// a large repository does, with 12 MiB already live under tuneGC and a
// 16 MiB start: one collection (its own), not a second one from its
// allocation reaching tuneGC's memory limit, and the collector still off
// afterwards, with the memory limit raised by the start's memory.
func processChildHugePagesLate() {
	if runtime.GOOS != "linux" {
		os.Stdout.WriteString("ok\n") // no huge-page start elsewhere
		os.Exit(0)
	}
	tuneGC(func(string) string { return "" })
	live := make([][]byte, 0, 48)
	for i := 0; i < cap(live); i++ {
		live = append(live, make([]byte, 256<<10))
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	hugePageHeap(16 << 20)
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(live)
	if n := after.NumGC - before.NumGC; n != 1 {
		os.Stdout.WriteString(strconv.Itoa(int(n)) + " collections for the huge-page start, want its own one\n")
		os.Exit(1)
	}
	for i := 0; i < 100; i++ {
		runtime.Gosched()
	}
	if p := gcPercent(); p == 100 {
		os.Stdout.WriteString("GOGC is 100 after the huge-page start\n")
		os.Exit(1)
	}
	// The start's freed 18 MiB stay the runtime's and count against
	// the memory limit: it must be raised by them, or the first
	// collection comes that much sooner (git/git diff.c: at 22 MiB of
	// heap instead of 39).
	if limit, want := debug.SetMemoryLimit(-1), int64(firstCollectionBytes+16<<20+hugePageBytes); limit != want {
		os.Stdout.WriteString("memory limit " + strconv.FormatInt(limit, 10) + " after the huge-page start, want " + strconv.FormatInt(want, 10) + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("ok\n")
	os.Exit(0)
}

// processChildHugePagesSmall makes the huge-page start of a small
// repository's walk (a second fresh start) under tuneGC: no collection,
// the collector still off, and the memory limit raised by the memory the
// start keeps, at least 2 MiB.
func processChildHugePagesSmall() {
	if runtime.GOOS != "linux" {
		os.Stdout.WriteString("ok\n")
		os.Exit(0)
	}
	tuneGC(func(string) string { return "" })
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	hugePageHeap(hugeHeapFreshBytes)
	runtime.ReadMemStats(&after)
	if n := after.NumGC - before.NumGC; n != 0 {
		os.Stdout.WriteString(strconv.Itoa(int(n)) + " collections for a small huge-page start, want none\n")
		os.Exit(1)
	}
	if !gcTuned() || gcPercent() == 100 {
		os.Stdout.WriteString("the collector is on after a small huge-page start\n")
		os.Exit(1)
	}
	if limit := debug.SetMemoryLimit(-1); limit < firstCollectionBytes+hugePageBytes {
		os.Stdout.WriteString("memory limit " + strconv.FormatInt(limit, 10) + " after a small huge-page start, not raised by what it keeps\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("ok\n")
	os.Exit(0)
}

// gcPercent is the collector's GOGC setting, read from runtime/metrics.
// processChildGCLargeHeap checks that once a collection after the first
// leaves largeHeapBytes live, the collector runs at largeHeapGCPercent,
// and not before: 16 MiB kept live past the first collection leave it at
// 100 over several collections.
func processChildGCLargeHeap() {
	tuneGC(func(string) string { return "" })
	var kept [][]byte
	keep := func(mib int) {
		for i := 0; i < mib; i++ {
			kept = append(kept, make([]byte, 1<<20))
		}
	}
	keep(16)
	garbageUntilCollection(2 * firstCollectionBytes / (1 << 20))
	waitPercent := func(want int) bool {
		for i := 0; i < 20; i++ {
			runtime.GC()
			for j := 0; j < 100 && gcPercent() != want; j++ {
				runtime.Gosched()
			}
			if gcPercent() == want {
				return true
			}
		}
		return false
	}
	if !waitPercent(100) {
		os.Stdout.WriteString("GOGC is " + strconv.Itoa(gcPercent()) + " after the first collection, not 100\n")
		os.Exit(1)
	}
	for i := 0; i < 3; i++ {
		runtime.GC()
	}
	if p := gcPercent(); p != 100 {
		os.Stdout.WriteString("GOGC is " + strconv.Itoa(p) + " with 16 MiB live, not 100\n")
		os.Exit(1)
	}
	// A collection made with the collector off (as hugePageHeap's after
	// the first collection) has no goal for the watch to read: it must
	// neither set GOGC nor end the watch.
	debug.SetGCPercent(-1)
	runtime.GC()
	for i := 0; i < 1000; i++ {
		runtime.Gosched()
	}
	if p := debug.SetGCPercent(100); p != -1 {
		os.Stdout.WriteString("GOGC set to " + strconv.Itoa(p) + " after a collection with the collector off\n")
		os.Exit(1)
	}
	// A start's limit raise after the first collection changes nothing:
	// the collector stays on.
	raiseGCLimit(8 << 20)
	collected := garbageUntilCollection(4 * firstCollectionBytes / (1 << 20))
	if p, limit := gcPercent(), debug.SetMemoryLimit(-1); !collected || p != 100 || limit != math.MaxInt64 {
		os.Stdout.WriteString(fmt.Sprintf("raiseGCLimit after the first collection turned the collector off or set a limit: collected %v, GOGC %d, limit %d\n",
			collected, p, limit))
		os.Exit(1)
	}
	keep(largeHeapBytes/(1<<20) + 8 - 16)
	// Collections while a start has the collector paused leave the
	// setting to the pause, and the watch goes on after it.
	resume := pauseGC()
	for i := 0; i < 3; i++ {
		runtime.GC()
		for j := 0; j < 100; j++ {
			runtime.Gosched()
		}
	}
	if p := gcPercent(); p != -1 {
		os.Stdout.WriteString("GOGC set to " + strconv.Itoa(p) + " by collections while paused\n")
		os.Exit(1)
	}
	resume()
	if !waitPercent(largeHeapGCPercent) {
		os.Stdout.WriteString("GOGC is " + strconv.Itoa(gcPercent()) + " with largeHeapBytes live, not " + strconv.Itoa(largeHeapGCPercent) + "\n")
		os.Exit(1)
	}
	// A huge-page start's pause restores the watch's setting.
	resume = pauseGC()
	if p := gcPercent(); p != -1 {
		os.Stdout.WriteString("GOGC is " + strconv.Itoa(p) + " while paused, not off\n")
		os.Exit(1)
	}
	resume()
	if p := gcPercent(); p != largeHeapGCPercent {
		os.Stdout.WriteString("GOGC is " + strconv.Itoa(p) + " after a pause, not the watch's " + strconv.Itoa(largeHeapGCPercent) + "\n")
		os.Exit(1)
	}
	runtime.KeepAlive(kept)
	os.Stdout.WriteString("ok\n")
	os.Exit(0)
}

// processChildGCCopies checks tuneGCForCopies: nothing where tuneGC
// left the defaults (GOGC set); with the collector off, the first
// collection at copyFirstCollectionBytes (plus what a start pinned
// before) and copyGCPercent after it; late (after the first
// collection), copyGCPercent at once, which a huge-page start's
// pause restores.
func processChildGCCopies(late bool) {
	fail := func(format string, args ...any) {
		os.Stdout.WriteString(fmt.Sprintf(format, args...) + "\n")
		os.Exit(1)
	}
	tuneGC(func(name string) string {
		if name == "GOGC" {
			return "100"
		}
		return ""
	})
	tuneGCForCopies()
	if p, limit := gcPercent(), debug.SetMemoryLimit(-1); p != 100 || limit != math.MaxInt64 {
		fail("with GOGC set, tuneGCForCopies set GOGC %d and limit %d", p, limit)
	}
	tuneGC(func(string) string { return "" })
	// The first collection's cleanup runs on a goroutine of its own,
	// some time after the collection.
	waitPercent := func(want int) bool {
		for i := 0; i < 20 && gcPercent() != want; i++ {
			runtime.GC()
			for j := 0; j < 100 && gcPercent() != want; j++ {
				runtime.Gosched()
			}
		}
		return gcPercent() == want
	}
	if late {
		garbageUntilCollection(2 * firstCollectionBytes / (1 << 20))
		if !waitPercent(100) {
			fail("GOGC is %d after the first collection, not 100", gcPercent())
		}
		tuneGCForCopies()
		if p := gcPercent(); p != copyGCPercent {
			fail("GOGC is %d after tuneGCForCopies past the first collection, not %d", p, copyGCPercent)
		}
		resume := pauseGC()
		resume()
		if p := gcPercent(); p != copyGCPercent {
			fail("GOGC is %d after a pause, not %d", p, copyGCPercent)
		}
		os.Stdout.WriteString("ok\n")
		os.Exit(0)
	}
	const pinned = 3 << 20
	raiseGCLimit(pinned) // a start's pinned memory, as hugePageMore's
	tuneGCForCopies()
	if limit, want := debug.SetMemoryLimit(-1), int64(copyFirstCollectionBytes+pinned); limit != want {
		fail("memory limit %d after tuneGCForCopies, want %d", limit, want)
	}
	if p := gcPercent(); p != -1 {
		fail("GOGC is %d after tuneGCForCopies before the first collection, not off", p)
	}
	// The first collection comes well before firstCollectionBytes (the
	// heap holds less than 3 MiB when the garbage starts).
	if !garbageUntilCollection((copyFirstCollectionBytes + firstCollectionBytes) / 2 / (1 << 20)) {
		fail("no collection after %d MiB of garbage", (copyFirstCollectionBytes+firstCollectionBytes)/2/(1<<20))
	}
	if !waitPercent(copyGCPercent) {
		fail("GOGC is %d after a copy blame's first collection, not %d", gcPercent(), copyGCPercent)
	}
	if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 {
		fail("memory limit %d after the first collection", limit)
	}
	os.Stdout.WriteString("ok\n")
	os.Exit(0)
}

// processChildGCLargeFileLate checks tuneGCForLargeFile made after the
// first collection: largeFileGCPercent at once, kept by a huge-page
// start's pause and by the large-heap watch, which would have set
// largeHeapGCPercent once largeHeapBytes stay live.
func processChildGCLargeFileLate() {
	fail := func(format string, args ...any) {
		os.Stdout.WriteString(fmt.Sprintf(format, args...) + "\n")
		os.Exit(1)
	}
	tuneGC(func(string) string { return "" })
	garbageUntilCollection(2 * firstCollectionBytes / (1 << 20))
	for i := 0; i < 20 && gcPercent() != 100; i++ {
		runtime.GC()
		for j := 0; j < 100 && gcPercent() != 100; j++ {
			runtime.Gosched()
		}
	}
	if p := gcPercent(); p != 100 {
		fail("GOGC is %d after the first collection, not 100", p)
	}
	tuneGCForLargeFile(largeFileBytes - 1)
	if p := gcPercent(); p != 100 {
		fail("GOGC is %d after tuneGCForLargeFile of a file under largeFileBytes, not 100", p)
	}
	tuneGCForLargeFile(largeFileBytes)
	if p := gcPercent(); p != largeFileGCPercent {
		fail("GOGC is %d after tuneGCForLargeFile, not %d", p, largeFileGCPercent)
	}
	resume := pauseGC()
	resume()
	var kept [][]byte
	// The watch reads the goal as twice the live heap: at GOGC=10 that
	// is past largeHeapBytes with 2*largeHeapBytes/1.1 live.
	for range 2*largeHeapBytes/(1<<20) + 16 {
		kept = append(kept, make([]byte, 1<<20))
	}
	for range 5 {
		runtime.GC()
		for j := 0; j < 100; j++ {
			runtime.Gosched()
		}
	}
	if p := gcPercent(); p != largeFileGCPercent {
		fail("GOGC is %d with %d MiB live, not tuneGCForLargeFile's %d", p, len(kept), largeFileGCPercent)
	}
	runtime.KeepAlive(kept)
	os.Stdout.WriteString("ok\n")
	os.Exit(0)
}

// garbageUntilCollection allocates 1 MiB of garbage at a time, at most
// most MiB, until the collector runs (checked every 4 MiB), and reports
// whether it did. It stops at the first collection: a collection whose
// mark runs while the loop allocates counts what the loop allocated
// meanwhile as live, and on a loaded machine a few such collections in a
// row raised the goal past largeHeapBytes (the watch then chose GOGC=50
// with 16 MiB live).
func garbageUntilCollection(most int) (collected bool) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	start := ms.NumGC
	for i := 0; i < most; i++ {
		_ = make([]byte, 1<<20)
		if i%4 == 3 {
			runtime.ReadMemStats(&ms)
			if ms.NumGC != start {
				return true
			}
		}
	}
	return false
}

func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// processChildHugePages prints how much of the heap is on huge pages
// after hugePageHeap(n) (hugePageFresh for 0) and 3 MiB of small
// allocations written, and how many collections it ran.
func processChildHugePages(n int) {
	debug.SetGCPercent(-1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if n == 0 {
		hugePageFresh()
	} else {
		hugePageHeap(n)
	}
	runtime.ReadMemStats(&after)
	os.Stdout.WriteString("collections: " + strconv.Itoa(int(after.NumGC-before.NumGC)) + "\n")
	keep := make([][]byte, 0, 3<<10)
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	for i := 0; i < cap(keep); i++ {
		b := make([]byte, 1<<10)
		b[0] = 1
		keep = append(keep, b)
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	os.Stdout.WriteString("faults: " + strconv.FormatInt(ru1.Minflt-ru0.Minflt, 10) + "\n")
	data, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		os.Stdout.WriteString("no smaps\n")
		os.Exit(0)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "AnonHugePages:") {
			os.Stdout.WriteString(line + "\n")
		}
	}
	runtime.KeepAlive(keep)
	os.Exit(0)
}

// processChildHugePagesAhead checks the layout hugePageAhead relies on:
// with no collection, two allocations pinned (the probe and the pad up
// to a huge page's boundary), the heap's next large allocation starts on
// that boundary, where the advice starts.
func processChildHugePagesAhead() {
	debug.SetGCPercent(-1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	pinned := pinnedStarts()
	hugePageAhead(8 << 20)
	next := make([]byte, 1<<20)
	runtime.ReadMemStats(&after)
	switch p := uintptr(unsafe.Pointer(unsafe.SliceData(next))); {
	case after.NumGC != before.NumGC:
		os.Stdout.WriteString("collections: " + strconv.Itoa(int(after.NumGC-before.NumGC)) + "\n")
	case pinnedStarts() != pinned+2:
		os.Stdout.WriteString("pinned: " + strconv.Itoa(pinnedStarts()-pinned) + "\n")
	case p%hugePageBytes != 0:
		os.Stdout.WriteString("the next allocation at " + strconv.FormatUint(uint64(p), 16) + ", not on a huge page's boundary\n")
	default:
		os.Stdout.WriteString("ok\n")
	}
	runtime.KeepAlive(next)
	os.Exit(0)
}

func runProcessChild(t *testing.T, mode string, extraEnv ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(append(os.Environ(), processChildEnv+"="+mode, "GOGC=", "GOMEMLIMIT="), extraEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child %s: %v\n%s", mode, err, out)
	}
	return string(out)
}

func TestTuneGCCollectsOnceThenDefaults(t *testing.T) {
	for _, mode := range []string{"gc", "gc-hugepages", "gc-hugepages-late", "gc-hugepages-small", "gc-large", "gc-copies", "gc-copies-late", "gc-largefile-late"} {
		if out := runProcessChild(t, mode); strings.TrimSpace(out) != "ok" {
			t.Fatalf("child %s: %s", mode, out)
		}
	}
}

// TestHugePageHeap checks both ways of making the huge-page start: a
// small one advises fresh memory without a collection, a larger one frees
// its allocation with one.
func TestHugePageHeap(t *testing.T) {
	testgit.SkipUnderRace(t) // the race runtime lays its heap out otherwise
	t.Run("fresh", func(t *testing.T) { testHugePageHeap(t, "hugepages-fresh", 0) })
	t.Run("collected", func(t *testing.T) { testHugePageHeap(t, "hugepages", 1) })
}

func testHugePageHeap(t *testing.T, mode string, collections int) {
	if runtime.GOOS != "linux" {
		t.Skip("huge pages are advised on Linux only")
	}
	thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !(strings.Contains(string(thp), "[madvise]") || strings.Contains(string(thp), "[always]")) {
		t.Skipf("transparent huge pages are off here (%q)", strings.TrimSpace(string(thp)))
	}
	// Where the heap lands is up to address-space randomisation; a run
	// with huge pages in three shows the mechanism works, a regression
	// gives none in all three. (Before hugePageFresh's probe came from
	// the heap, one run in eight had none.) In every run that has them,
	// the child's 3 MiB of small allocations must fault in mostly huge
	// pages: below half of their 768 small pages (about 50-160 faults,
	// against up to 800 when the collected start's unaligned head was
	// handed out again, a random 0-512 pages).
	var out string
	hugeRun := false
	for attempt := 0; attempt < 3; attempt++ {
		o := runProcessChild(t, mode)
		lines := strings.Split(o, "\n")
		if len(lines) < 3 || !strings.HasPrefix(lines[1], "faults: ") {
			t.Fatalf("child: %q", o)
		}
		if lines[2] == "no smaps" || slices.Equal(strings.Fields(lines[2]), []string{"AnonHugePages:", "0", "kB"}) {
			if !hugeRun {
				out = o
			}
			continue
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(lines[1], "faults: ")); err != nil || n >= 384 {
			t.Errorf("child run %d: %q: the allocations after the huge-page start faulted in small pages", attempt+1, o)
		}
		if !hugeRun {
			out, hugeRun = o, true
		}
	}
	if want := "collections: " + strconv.Itoa(collections) + "\n"; !strings.HasPrefix(out, want) {
		t.Errorf("child: %q, want %q first", out, want)
	}
	if strings.Contains(out, "no smaps") {
		t.Skip("no /proc/self/smaps_rollup")
	}
	_, rest, _ := strings.Cut(out, "\n")
	_, smaps, _ := strings.Cut(rest, "\n")
	f := strings.Fields(smaps)
	if len(f) < 2 || f[0] != "AnonHugePages:" {
		t.Fatalf("child: %q", out)
	}
	// Where the kernel compacts memory for advised regions (defrag
	// "madvise", "defer+madvise" or "always") it gives them huge pages;
	// elsewhere it may fall back to small pages, which is correct, if
	// slower.
	defrag, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/defrag")
	compacts := strings.Contains(string(defrag), "[madvise]") || strings.Contains(string(defrag), "[defer+madvise]") || strings.Contains(string(defrag), "[always]")
	if f[1] == "0" && compacts {
		t.Errorf("no anonymous huge pages after hugePageHeap (defrag %q): %q", strings.TrimSpace(string(defrag)), out)
	}
}

// TestHugePageAheadLayout: hugePageAhead makes no collection and leaves
// the heap's free tail on a huge page's boundary (see
// processChildHugePagesAhead). Whether its advice reaches memory the
// heap maps later is the runtime's (tools/runtimepatch:
// TestSysMapKeepsAdvice).
func TestHugePageAheadLayout(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("huge pages are advised on Linux only")
	}
	testgit.SkipUnderRace(t) // the race runtime lays its heap out otherwise
	if out := runProcessChild(t, "hugepages-ahead"); strings.TrimSpace(out) != "ok" {
		t.Errorf("child: %s", out)
	}
}

// TestHugePageFreshAllocatesOnHeap checks that the fresh start's probe
// is a heap allocation: on the goroutine's stack (where the compiler puts
// a constant-size slice that does not escape) its address says nothing of
// the heap's free tail, and the advice lands off the next allocations.
func TestHugePageFreshAllocatesOnHeap(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("huge pages are advised on Linux only")
	}
	if n := testing.AllocsPerRun(2, func() { hugePageFresh() }); n != 2 {
		t.Errorf("hugePageFresh makes %v heap allocations, want 2 (the probe and the fresh block)", n)
	}
}

func TestHugeHeapBytes(t *testing.T) {
	for _, c := range []struct {
		packs int64
		want  int
	}{
		{0, 0},
		{1 << 20, 0},                       // smaller than a huge page
		{3 << 20, 2 << 20},                 // no more than the packs: one huge page
		{15 << 20, hugeHeapMinBytes},       // at least hugeHeapMinBytes
		{40 << 20, 4 << 20},                // an eighth: 5 MiB, 2 huge pages
		{1<<30 + 40<<20, hugeHeapMaxBytes}, // at most hugeHeapMaxBytes
	} {
		if got := hugeHeapBytes(c.packs); got != c.want {
			t.Errorf("%d bytes of packs: %d, want %d", c.packs, got, c.want)
		}
	}
}

// childBlame runs the blame GOBLAME_TEST_ARGS in GOBLAME_TEST_DIR as the
// goblame process does (Environ.Process), output discarded, and returns
// its exit status.
func childBlame() int {
	if err := os.Chdir(os.Getenv("GOBLAME_TEST_DIR")); err != nil {
		os.Stdout.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	env := OSEnviron()
	env.Stdout = io.Discard
	return Main(strings.Fields(os.Getenv("GOBLAME_TEST_ARGS")), env)
}

// processChildBlameHuge runs a blame as the goblame process does
// (Environ.Process), in GOBLAME_TEST_DIR with the arguments of
// GOBLAME_TEST_ARGS, and prints its exit code, the huge-page starts it
// made, the fresh starts' ranges still advised at the end and the fresh
// starts that advised any.
func processChildBlameHuge() {
	code := childBlame()
	os.Stdout.WriteString("code " + strconv.Itoa(code) + " huge " + strconv.Itoa(hugeStarts) + " advised " + strconv.Itoa(len(freshAdvised)) +
		" advices " + strconv.Itoa(freshAdvices) + "\n")
	os.Exit(0)
}

// processChildBlameGC runs the blame GOBLAME_TEST_ARGS as the goblame
// process does and prints the collector settings tuneGC left for the
// rest of the run: the first collection's heap size and the GOGC after it.
func processChildBlameGC() {
	code := childBlame()
	gcTuning.Lock()
	first, after := gcTuning.first, gcTuning.after
	gcTuning.Unlock()
	fmt.Printf("code %d first %d after %d\n", code, first, after)
	os.Exit(0)
}

// TestCopyBlameTunesGCForCopies: a blame that looks for copies (-C, in
// any of its spellings) collects first at copyFirstCollectionBytes and
// runs at copyGCPercent after it; -M and a plain blame keep
// tuneGC's first collection and GOGC=100; GOGC in the environment leaves
// both alone.
func TestCopyBlameTunesGCForCopies(t *testing.T) {
	checkBlameGC(t, testgit.Fixture(t, "cli-huge-small", oid.SHA1, hugeSmallScript), []blameGCCase{
		{"-C HEAD -- small.txt", "", copyFirstCollectionBytes, copyGCPercent},
		{"-C -C -C --porcelain HEAD -- small.txt", "", copyFirstCollectionBytes, copyGCPercent},
		{"--find-copies-harder HEAD -- small.txt", "", copyFirstCollectionBytes, copyGCPercent},
		{"-M HEAD -- small.txt", "", firstCollectionBytes, 0},
		{"HEAD -- small.txt", "", firstCollectionBytes, 0},
		{"-C HEAD -- small.txt", "100", 0, 0},
	})
}

// blameGCCase is a blame (args, with GOGC=gogc in its environment) and
// the collector settings tuneGC should leave for it: the first
// collection's heap size and the GOGC after it (0: none chosen).
type blameGCCase struct {
	args, gogc string
	first      int64
	after      int
}

// checkBlameGC runs each case's blame in dir as the goblame process does
// (processChildBlameGC) and checks the settings it leaves.
func checkBlameGC(t *testing.T, dir string, cases []blameGCCase) {
	t.Helper()
	for _, c := range cases {
		out := strings.TrimSpace(runProcessChild(t, "blame-gc", "GOBLAME_TEST_DIR="+dir, "GOBLAME_TEST_ARGS="+c.args, "GOBLAME_CACHE=off", "GOGC="+c.gogc))
		want := fmt.Sprintf("code 0 first %d after %d", c.first, c.after)
		if out != want {
			t.Errorf("%s (GOGC=%q): child %q, want %q", c.args, c.gogc, out, want)
		}
	}
}

// TestLargeFileBlameTunesGC: the blame of a file of largeFileBytes or
// more runs at largeFileGCPercent after its first collection, of
// hugeFileBytes or more at hugeFileGCPercent, but under -C (the copies'
// settings); a small file of the same repository keeps the defaults,
// and GOGC in the environment leaves them alone.
func TestLargeFileBlameTunesGC(t *testing.T) {
	checkBlameGC(t, testgit.Fixture(t, "cli-large-file", oid.SHA1, largeFileScript), []blameGCCase{
		{"HEAD -- large.txt", "", firstCollectionBytes, largeFileGCPercent},
		{"--incremental large.txt", "", firstCollectionBytes, largeFileGCPercent},
		{"-C HEAD -- large.txt", "", copyFirstCollectionBytes, copyGCPercent},
		{"-M HEAD -- large.txt", "", firstCollectionBytes, largeFileGCPercent},
		{"HEAD -- small.txt", "", firstCollectionBytes, 0},
		{"HEAD -- large.txt", "100", 0, 0},
		{"HEAD -- huge.txt", "", firstCollectionBytes, hugeFileGCPercent},
		{"-C HEAD -- huge.txt", "", copyFirstCollectionBytes, copyGCPercent},
	})
}

// TestSmallBlameMakesNoHugePageStart: in a small repository a blame of a
// file under smallBlameLines lines makes no huge-page start but the one
// at the start of the run, and withdraws its advice (whole 2 MiB pages
// counted resident made such a blame's peak memory larger than git's),
// whole-file or --incremental; a longer file keeps the advice, and
// makes its second start once its walk proves long (at its 33rd
// commit: walked.txt's 40; big.txt's two commits make none, whole-file
// or --incremental, where the second comes after the first entry of a
// walk that proved long).
func TestSmallBlameMakesNoHugePageStart(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("huge pages are advised on Linux only")
	}
	dir := testgit.Fixture(t, "cli-huge-small", oid.SHA1, hugeSmallScript)
	for _, c := range []struct {
		args   string
		small  bool
		starts int // for a longer file
	}{
		{"HEAD -- small.txt", true, 1},
		{"--incremental -w -L 1,3 HEAD -- small.txt", true, 0},
		{"--porcelain small.txt", true, 1},
		// grown.txt's work-tree copy (14 KB) makes the start once
		// the command is parsed; the version blamed (20 lines) then
		// withdraws its advice.
		{"--incremental HEAD -- grown.txt", true, 1},
		{"HEAD -- big.txt", false, 1},
		// Under --incremental a small work-tree copy delays the start
		// to Prepare, which finds the file long (big.txt: 2.5 KB, 650
		// lines); a large copy makes it once the command is parsed.
		{"--incremental HEAD -- big.txt", false, 1},
		{"--incremental HEAD -- long.txt", false, 1},
		{"HEAD -- walked.txt", false, 3}, // the run's start, hugePageHeap and the fresh start it makes in a small repository
	} {
		dir := dir
		if strings.HasSuffix(c.args, "walked.txt") {
			dir = testgit.Fixture(t, "cli-huge-walked", oid.SHA1, hugeWalkedScript)
		}
		out := strings.TrimSpace(runProcessChild(t, "blame-huge", "GOBLAME_TEST_DIR="+dir, "GOBLAME_TEST_ARGS="+c.args, "GOBLAME_CACHE=off"))
		f := strings.Fields(out)
		if len(f) != 8 || f[0] != "code" || f[1] != "0" || f[2] != "huge" || f[4] != "advised" || f[6] != "advices" {
			t.Fatalf("%s: child: %q", c.args, out)
		}
		n, _ := strconv.Atoi(f[3])
		advised, _ := strconv.Atoi(f[5])
		if c.small && c.starts == 0 {
			// Under --incremental a small file in a small
			// repository gets no start at all.
			if n != 0 {
				t.Errorf("%s: %d huge-page starts, want none", c.args, n)
			}
			continue
		}
		if c.small && n != 1 {
			t.Errorf("%s: %d huge-page starts; want the first start only", c.args, n)
		}
		if !c.small && n != c.starts {
			t.Errorf("%s: %d huge-page starts; want %d", c.args, n, c.starts)
		}
		if advices, _ := strconv.Atoi(f[7]); advices == 0 {
			// The heap's layout left the fresh start no room to
			// advise (its probe ended near the end of an arena):
			// nothing to withdraw or keep.
			t.Logf("%s: no fresh start advised memory", c.args)
			continue
		}
		if c.small && advised != 0 {
			t.Errorf("%s: %d ranges still advised; want the start's advice withdrawn", c.args, advised)
		}
		if !c.small && advised == 0 {
			t.Errorf("%s: no range still advised; want the start's advice kept", c.args)
		}
	}
}

// largeFileScript is a repository whose large.txt (629 KB) is over
// largeFileBytes and huge.txt (4.8 MB) over hugeFileBytes.
const largeFileScript = `
git init -q
seq 1 120000 > large.txt
seq 1 700000 > huge.txt
seq 1 20 > small.txt
commit_all one
echo more >> large.txt
commit_all two
`

const hugeSmallScript = `
git init -q
seq 1 20 > small.txt
seq 1 600 > big.txt
seq 100000 102000 > long.txt
commit_all one
seq 1 25 > small.txt
seq 1 650 > big.txt
seq 100000 103000 > long.txt
seq 1 20 > grown.txt
commit_all two
seq 100000 102000 > grown.txt
`

// hugeWalkedScript: a long file whose walk proves long (20 commits).
const hugeWalkedScript = `
git init -q
seq 1 500 > walked.txt
for i in $(seq 1 40); do echo "$i" >> walked.txt; commit_all "walk $i"; done
`

// TestHugeSchedule plays the orders in which a blame's events come and
// checks when it makes its huge-page starts and gives the second
// processor: never the collection (heap) once the second processor may
// be running the look-ahead, that is after procs in the same blame,
// except where the walk has not yet proved long (the look-ahead starts
// after beforeWalk); for a small blame in a small repository, no start
// but the run's, whose advice is withdrawn (undo); and under
// --incremental, for a small file in a small repository, the second
// processor from the lookAheadDelay timer only (timedProcs), whatever
// the order of its first entry and the walk proving long.
func TestHugeSchedule(t *testing.T) {
	const large, small = 12 << 20, 2 << 20
	for _, c := range []struct {
		name        string
		incremental bool
		heapBytes   int
		// p: prepared, a file of 10 lines; P: prepared, 1,000 lines;
		// w: beforeWalk; e: entry; t: the lookAheadDelay timer fires
		events string
		want   string
	}{
		{"whole-file blame", false, large, "Pw", "heap procs"},
		// A walk that ends before it proves long makes no start (git/git
		// compat/writev.c: 3 commits).
		{"whole-file blame, short walk", false, large, "P", ""},
		{"whole-file blame, short walk, small repository", false, small, "P", ""},
		{"small blame, large repository, short walk", false, large, "p", ""},
		{"small blame, small repository", false, small, "pw", "undo procs"},
		{"small blame, large repository", false, large, "pw", "heap procs"},
		{"whole-file blame, small repository", false, small, "Pw", "heap procs"},
		{"incremental, long walk, then entry", true, large, "Pwee", "more timer heap procs"},
		{"incremental, entry before the walk proves long", true, large, "Pewe", "heap procs"},
		{"incremental, timer before the first entry", true, large, "Pwtee", "more timer procs more"},
		{"incremental, small repository", true, small, "Pwe", "timer heap procs"},
		{"incremental, small repository, entry first", true, small, "Pewe", "heap procs"},
		{"incremental, small blame, large repository", true, large, "pewe", "heap procs"},
		{"incremental, small blame", true, small, "pwe", "undo timer"},
		{"incremental, small blame, entries", true, small, "pwee", "undo timer"},
		{"incremental, small blame, entry first", true, small, "pewe", "undo timer"},
		{"incremental, small blame, timer", true, small, "pwete", "undo timer procs"},
		{"incremental, small blame, entry first, timer", true, small, "pewte", "undo timer procs"},
		// a: parsed, the work tree's copy 100 bytes; b: 8 KiB; B: 8
		// KiB and one byte; A: 1 MiB; n: no copy
		{"incremental, small blame, small copy", true, small, "apwe", "timer"},
		{"incremental, small blame, 8 KiB copy", true, small, "bpwe", "timer"},
		{"incremental, small blame, larger copy", true, small, "Bpwe", "fresh undo timer"},
		{"incremental, long file, small copy", true, small, "aPwe", "fresh timer heap procs"},
		{"incremental, long file, large copy", true, small, "APwe", "fresh timer heap procs"},
		{"incremental, small blame, no copy", true, small, "npwe", "fresh undo timer"},
	} {
		var got []string
		var fire func()
		h := &hugeSchedule{
			incremental: c.incremental,
			heapBytes:   c.heapBytes,
			smallRepo:   c.heapBytes <= hugeHeapFreshBytes, // as run.go makes it
			heap:        func(n int) { got = append(got, "heap") },
			more:        func() { got = append(got, "more") },
			undo:        func() { got = append(got, "undo") },
			procs:       func() { got = append(got, "procs") },
			fresh:       func() { got = append(got, "fresh") },
			after: func(d time.Duration, f func()) {
				if d != lookAheadDelay {
					t.Errorf("%s: a delay of %v", c.name, d)
				}
				got = append(got, "timer")
				fire = f
			},
		}
		for _, ev := range c.events {
			switch ev {
			case 'a':
				h.parsed(100)
			case 'b':
				h.parsed(smallBlameBytes)
			case 'B':
				h.parsed(smallBlameBytes + 1)
			case 'A':
				h.parsed(1 << 20)
			case 'n':
				h.parsed(-1)
			case 'p':
				h.prepared(10)
			case 'P':
				h.prepared(1000)
			case 'w':
				h.beforeWalk()
			case 'e':
				h.entry()
			case 't':
				fire()
			}
		}
		if s := strings.Join(got, " "); s != c.want {
			t.Errorf("%s (%s): %q, want %q", c.name, c.events, s, c.want)
		}
	}
}

// TestHugeScheduleWithoutGraph: a walk that reads its commits from their
// objects makes a start of a small repository's size (hugeHeapFreshBytes)
// whatever the size of the packs, and a small blame's advice is withdrawn
// and no start made, as in a small repository.
func TestHugeScheduleWithoutGraph(t *testing.T) {
	for _, c := range []struct {
		name      string
		heapBytes int
		lines     int
		want      string
	}{
		{"large repository, long file", 16 << 20, 1000, "heap 4194304 procs"},
		{"large repository, small file", 16 << 20, 10, "undo procs"},
		{"small repository, long file", 4 << 20, 1000, "heap 4194304 procs"},
	} {
		var got []string
		h := &hugeSchedule{
			heapBytes: c.heapBytes,
			heap:      func(n int) { got = append(got, "heap", strconv.Itoa(n)) },
			more:      func() { got = append(got, "more") },
			undo:      func() { got = append(got, "undo") },
			procs:     func() { got = append(got, "procs") },
			fresh:     func() { got = append(got, "fresh") },
		}
		h.withoutGraph()
		h.prepared(c.lines)
		h.beforeWalk()
		if s := strings.Join(got, " "); s != c.want {
			t.Errorf("%s: %q, want %q", c.name, s, c.want)
		}
	}
}

func TestMayBeIncremental(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"--incremental", "f"}, true},
		{[]string{"-w", "-L", "1,60", "--incr", "HEAD", "--", "f"}, true},
		{[]string{"--inc", "f"}, true},
		{[]string{"--in", "f"}, true}, // git takes it for --incremental
		{[]string{"--i", "f"}, false}, // ambiguous
		{[]string{"--index", "f"}, false},
		{[]string{"--porcelain", "--", "--incremental"}, false}, // a file
		{nil, false},
	} {
		if got := mayBeIncremental(c.args); got != c.want {
			t.Errorf("mayBeIncremental(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

// gcTuned reports whether tuneGC's collector is still off, waiting for
// the first collection.
func gcTuned() bool {
	gcTuning.Lock()
	defer gcTuning.Unlock()
	return gcTuning.on
}
