package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestPatchesChangeTheirLinesOnly: the installed Go's runtime (the Go
// this module is built and measured with, go1.26) holds each patch's
// code once, and each patch changes the lines it is for and no other.
func TestPatchesChangeTheirLinesOnly(t *testing.T) {
	if !strings.HasPrefix(runtime.Version(), "go1.26") {
		t.Skipf("%s: the patches are checked on go1.26, which make build patches; on another Go make build says whether they applied", runtime.Version())
	}
	want := map[string][]string{
		"proc.go": {
			"\tgcenable() -> \tif gomaxprocs == 1 { unlockOSThread(); gcenable(); lockOSThread() } else { gcenable() } // goblame: tools/runtimepatch",
			"\tdefaultGOMAXPROCSInit() -> \tif numCPUStartup > 2 { defaultGOMAXPROCSInit() } // goblame: tools/runtimepatch",
			"\t\tprocs = defaultGOMAXPROCS(numCPUStartup) -> \t\tprocs, sched.customGOMAXPROCS = 1, true // goblame: tools/runtimepatch",
			"\t\t\tdelay = 20 -> \t\t\tdelay = 200 // goblame: tools/runtimepatch",
		},
		"mem_linux.go": {
			"\tp, err := mmap(v, n, _PROT_READ|_PROT_WRITE, _MAP_ANON|_MAP_FIXED|_MAP_PRIVATE, -1, 0) -> \tp, err := v, 0; if _, e := mprotect(v, n, _PROT_READ|_PROT_WRITE); e != 0 { p, err = mmap(v, n, _PROT_READ|_PROT_WRITE, _MAP_ANON|_MAP_FIXED|_MAP_PRIVATE, -1, 0) } // goblame: tools/runtimepatch",
		},
		"mspanset.go": {
			"\tspanSetBlockEntries = 512 // 4KB on 64-bit -> \tspanSetBlockEntries = 64 // goblame: tools/runtimepatch",
			"\tspanSetInitSpineCap = 256 // Enough for 1GB heap on 64-bit -> \tspanSetInitSpineCap = 32 // goblame: tools/runtimepatch",
		},
	}
	files := patchedFiles()
	if len(files) != len(want) {
		t.Fatalf("patches of %d files, the test knows %d", len(files), len(want))
	}
	for _, name := range files {
		src, out := patchedRuntimeFile(t, name)
		a, b := strings.Split(string(src), "\n"), strings.Split(string(out), "\n")
		if len(a) != len(b) {
			t.Fatalf("%s: the patches changed the number of lines: %d -> %d", name, len(a), len(b))
		}
		var changed []string
		for i := range a {
			if a[i] != b[i] {
				changed = append(changed, a[i]+" -> "+b[i])
			}
		}
		if strings.Join(changed, "\n") != strings.Join(want[name], "\n") {
			t.Errorf("%s: changed lines %q, want %q", name, changed, want[name])
		}
	}
}

// patchedRuntimeFile returns the installed Go's runtime file name and
// that file with every patch made (each must apply).
func patchedRuntimeFile(t *testing.T, name string) (src, out []byte) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "runtime", name))
	if err != nil {
		t.Fatal(err)
	}
	out, _, skipped := patchFile(name, src)
	if len(skipped) != 0 {
		t.Fatalf("%s: %v", name, skipped)
	}
	return src, out
}

// TestPatchRefusesOtherCode: code without a patch's target, or with it
// twice, is not patched.
func TestPatchRefusesOtherCode(t *testing.T) {
	for _, p := range patches {
		for _, src := range []string{"package runtime\n", "package runtime\n" + p.target + p.target} {
			if out, err := p.apply([]byte(src)); err == nil || out != nil {
				t.Errorf("%s: apply(%q) = %q, %v; want an error", p.file, src, out, err)
			}
		}
		out, err := p.apply([]byte("package runtime\nfunc f() {\n" + p.target + "}\n"))
		if err != nil || !bytes.Contains(out, []byte(p.repl)) || bytes.Contains(out, []byte(p.target)) {
			t.Errorf("%s: apply of the target once: %q, %v", p.file, out, err)
		}
	}
}

// sysMapProgram advises MADV_HUGEPAGE on 8 MiB of the heap from the
// first 2 MiB boundary past its free tail, most of it memory the heap
// has reserved but not mapped yet, then writes 6 MiB of allocations
// there and prints the process's AnonHugePages in kB.
const sysMapProgram = `package main

import (
	"os"
	"strings"
	"syscall"
	"unsafe"
)

var sink [][]byte

func main() {
	const huge = 2 << 20
	probe := make([]byte, 256<<10)
	sink = append(sink, probe)
	t := uintptr(unsafe.Pointer(&probe[0])) + uintptr(len(probe))
	lo := (t + huge - 1) &^ (huge - 1)
	if gap := lo - t; gap > 0 {
		if gap < 256<<10 {
			gap += huge
			lo += huge
		}
		sink = append(sink, make([]byte, gap))
	}
	syscall.Syscall(syscall.SYS_MADVISE, lo, 8<<20, 14) // MADV_HUGEPAGE
	for i := 0; i < 6; i++ {
		b := make([]byte, 1<<20)
		for j := 0; j < len(b); j += 4096 {
			b[j] = 1
		}
		sink = append(sink, b)
	}
	data, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		os.Stdout.WriteString("none\n")
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "AnonHugePages:" {
			os.Stdout.WriteString(f[1] + "\n")
		}
	}
}
`

// TestSysMapKeepsAdvice: with the overlay, the heap maps the memory it
// had reserved with mprotect, which keeps a MADV_HUGEPAGE given before,
// so that 6 MiB written past the advice's start land on at least two
// huge pages (the runtime's own mmap drops the advice from what it maps
// later; cli's hugePageAhead relies on this).
func TestSysMapKeepsAdvice(t *testing.T) {
	if runtime.GOOS != "linux" || !strings.HasPrefix(runtime.Version(), "go1.26") {
		t.Skip("the patch is made and checked on Linux, Go 1.26")
	}
	thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !(strings.Contains(string(thp), "[madvise]") || strings.Contains(string(thp), "[always]")) {
		t.Skipf("transparent huge pages are off here (%q)", strings.TrimSpace(string(thp)))
	}
	defrag, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/defrag")
	if !strings.Contains(string(defrag), "madvise]") && !strings.Contains(string(defrag), "[always]") {
		t.Skipf("the kernel does not compact memory for advised regions here (%q)", strings.TrimSpace(string(defrag)))
	}
	dir := t.TempDir()
	files := map[string]string{"go.mod": "module sysmap\n\ngo 1.26\n", "main.go": sysMapProgram}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	overlayDir := t.TempDir()
	replace := map[string]string{}
	for _, name := range patchedFiles() {
		_, out := patchedRuntimeFile(t, name)
		file := filepath.Join(overlayDir, name)
		if err := os.WriteFile(file, out, 0o644); err != nil {
			t.Fatal(err)
		}
		replace[filepath.Join(runtime.GOROOT(), "src", "runtime", name)] = file
	}
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": replace})
	overlayFile := filepath.Join(overlayDir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "sysmap")
	build := exec.Command("go", "build", "-overlay", overlayFile, "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -overlay: %v\n%s", err, out)
	}
	// Where the heap lands is up to address-space randomisation, and the
	// kernel may have no free huge page at the moment: one run in three
	// with two huge pages shows the advice kept.
	var got []string
	for range 3 {
		out, err := exec.Command(bin).Output()
		if err != nil {
			t.Fatal(err)
		}
		s := strings.TrimSpace(string(out))
		if s == "none" {
			t.Skip("no /proc/self/smaps_rollup")
		}
		if kb, err := strconv.Atoi(s); err == nil && kb >= 4096 {
			return
		}
		got = append(got, s)
	}
	t.Errorf("AnonHugePages after 6 MiB written into advised memory the heap mapped later: %q kB, want at least 4096 in one run", got)
}
