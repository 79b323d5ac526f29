package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
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
		src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "runtime", name))
		if err != nil {
			t.Fatal(err)
		}
		out, _, skipped := patchFile(name, src)
		if len(skipped) != 0 {
			t.Fatalf("%s: %v", name, skipped)
		}
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
