package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPatchChangesSysmonsFirstSleepOnly: the installed Go's proc.go
// (the Go this module is built and measured with, go1.26) holds
// sysmon's first sleep once, and the patch changes that line alone.
func TestPatchChangesSysmonsFirstSleepOnly(t *testing.T) {
	if !strings.HasPrefix(runtime.Version(), "go1.26") {
		t.Skipf("%s: the patch is checked on go1.26, which make build patches; on another Go make build says whether it applied", runtime.Version())
	}
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "runtime", "proc.go"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := patch(src)
	if err != nil {
		t.Fatalf("patch: %v", err)
	}
	a, b := strings.Split(string(src), "\n"), strings.Split(string(out), "\n")
	if len(a) != len(b) {
		t.Fatalf("the patch changed the number of lines: %d -> %d", len(a), len(b))
	}
	var changed []string
	for i := range a {
		if a[i] != b[i] {
			changed = append(changed, a[i]+" -> "+b[i])
		}
	}
	if want := "\t\t\tdelay = 20 -> \t\t\tdelay = 200 // goblame: tools/runtimepatch"; len(changed) != 1 || changed[0] != want {
		t.Errorf("changed lines %q, want [%q]", changed, want)
	}
}

// TestPatchRefusesOtherCode: code without the target, or with it twice,
// is not patched.
func TestPatchRefusesOtherCode(t *testing.T) {
	for _, src := range []string{"package runtime\n", "package runtime\n" + patchTarget + patchTarget} {
		if out, err := patch([]byte(src)); err == nil || out != nil {
			t.Errorf("patch(%q) = %q, %v; want an error", src, out, err)
		}
	}
	out, err := patch([]byte("package runtime\nfunc sysmon() {\n\tfor {\n" + patchTarget))
	if err != nil || !bytes.Contains(out, []byte("\t\t\tdelay = 200 // goblame")) || bytes.Contains(out, []byte("delay = 20\n")) {
		t.Errorf("patch of the target once: %q, %v", out, err)
	}
}
