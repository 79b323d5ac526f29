package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestStartupDependencies keeps out of the goblame binary the packages
// whose initialisation every run would pay for without using them (see
// cli/doc.go, "Start-up").
func TestStartupDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	// A cgo build's dependencies, and those of make build's (no cgo).
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	list := exec.Command("go", "list", "-deps", "-tags", "goblame_fwdsig", ".")
	list.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err = list.Output(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go list: %v", err)
	}
	deps = append(deps, strings.Fields(string(out))...)
	unwanted := []string{
		"github.com/urfave/cli/v2", // the manual page generator's, not goblame's
		"github.com/russross/blackfriday/v2",
		"text/template",
		"encoding/json",
		"golang.org/x/text/encoding/ianaindex", // 54 KB of maps built at start-up (internal/charset instead)
		"net/url",
		"os/user", // getpwnam through the C library's NSS (internal/passwd instead): no static link
		"regexp",  // its initialisation builds Unicode tables (internal/posixre has an engine of its own)
	}
	for _, d := range deps {
		for _, u := range unwanted {
			if d == u {
				t.Errorf("goblame links %s", d)
			}
		}
	}
}

// TestStartupInitWork budgets what the goblame binary's package
// initialisation allocates before any command runs (GODEBUG=inittrace=1,
// which reports bytes and allocations per package, the same on every
// machine): every run pays it, and where page faults are dear a table
// built at start-up costs more than its bytes (the CRC-32C table the
// blame cache once built took 9 KB and 1.2 M instructions per process).
func TestStartupInitWork(t *testing.T) {
	if testing.Short() {
		t.Skip("builds goblame")
	}
	bin := filepath.Join(t.TempDir(), "goblame")
	if _, err := exec.LookPath("make"); err != nil {
		t.Skipf("skipping: no make to build goblame as make build does: %v", err)
	}
	if out, err := exec.Command("make", "-s", "build", "OUT="+bin).CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("goblame --version: %v\n%s", err, stderr.String())
	}
	type pkgInit struct {
		name          string
		bytes, allocs int
	}
	var inits []pkgInit
	var bytes, allocs int
	for _, line := range strings.Split(stderr.String(), "\n") {
		// init unicode @4.7 ms, 0.11 ms clock, 512 bytes, 4 allocs
		var p pkgInit
		var at, clock float64
		if _, err := fmt.Sscanf(line, "init %s @%f ms, %f ms clock, %d bytes, %d allocs", &p.name, &at, &clock, &p.bytes, &p.allocs); err != nil {
			continue
		}
		inits = append(inits, p)
		bytes += p.bytes
		allocs += p.allocs
	}
	if len(inits) == 0 {
		t.Fatalf("no inittrace lines in:\n%s", stderr.String())
	}
	// Measured at 8ef8965 (go1.26.8, linux/amd64): 39 packages,
	// 6,352 bytes, 56 allocations.
	const maxBytes, maxAllocs = 8 << 10, 80
	if bytes > maxBytes || allocs > maxAllocs {
		sort.Slice(inits, func(i, j int) bool { return inits[i].bytes > inits[j].bytes })
		var top []string
		for _, p := range inits[:min(5, len(inits))] {
			top = append(top, fmt.Sprintf("%s %d bytes %d allocs", p.name, p.bytes, p.allocs))
		}
		t.Errorf("package initialisation allocates %d bytes in %d allocations (budget %d, %d); the largest: %s", bytes, allocs, maxBytes, maxAllocs, strings.Join(top, "; "))
	}
}
