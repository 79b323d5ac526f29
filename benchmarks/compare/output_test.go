package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func outcomeOf(t *testing.T, text string) outcome {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out")
	if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	return outcome{stdout: path, size: int64(len(text))}
}

func TestOutputComparisons(t *testing.T) {
	long := strings.Repeat("abc\n", 40000) // several of sameOutput's blocks
	for _, c := range []struct {
		a, b  string
		same  bool
		first int
	}{
		{"x\ny\n", "x\ny\n", true, 0},
		{"x\ny\n", "x\nz\n", false, 2},
		{"x\ny\n", "x\ny\nz\n", false, 3},
		{"x\ny\nz\n", "x\ny\n", false, 3},
		{"x\ny", "x\ny\n", false, 2},
		{long + "a\n", long + "b\n", false, 40001},
		{long, long, true, 0},
	} {
		a, b := outcomeOf(t, c.a), outcomeOf(t, c.b)
		same, err := sameOutput(a, b)
		if err != nil || same != c.same {
			t.Errorf("%.20q vs %.20q: same %v %v, want %v", c.a, c.b, same, err, c.same)
		}
		if c.same {
			continue
		}
		if n, err := firstDifferentLine(a, b); err != nil || n != c.first {
			t.Errorf("%.20q vs %.20q: first different line %d %v, want %d", c.a, c.b, n, err, c.first)
		}
		if d := describeDiff(a, b, false); !strings.Contains(d, "from line "+strconv.Itoa(c.first)+" ") {
			t.Errorf("%.20q vs %.20q: %q", c.a, c.b, d)
		}
	}
}

func TestUncommittedLines(t *testing.T) {
	for text, want := range map[string]bool{
		"1234567 (A U Thor 2020-01-01 1) x\n":                                        false,
		"0000000 (Not Committed Yet 2026-12-06 1) x\n":                               true,
		"abc\n^000000 (A 1) x\n":                                                     true,
		"0000000000000000000000000000000000000000 1 1 1\nauthor Not Committed Yet\n": true,
		"a line that mentions 0000000 in the middle\n":                               false,
	} {
		if got := uncommittedLines(outcomeOf(t, text)); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}

// TestOnceKeepsOutputOutOfMemory: the identity check's run of a side
// leaves its output in a file, so that the harness's peak memory, which
// the kernel counts in the peak of every child it starts afterwards,
// does not grow with the outputs (50 MB here).
func TestOnceKeepsOutputOutOfMemory(t *testing.T) {
	hwm := func() int {
		data, err := os.ReadFile("/proc/self/status")
		if err != nil {
			t.Skip("no /proc/self/status")
		}
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
				n, _ := strconv.Atoi(f[1])
				return n
			}
		}
		t.Skip("no VmHWM")
		return 0
	}
	before := hwm()
	var rn runner
	o, err := rn.once(side{Argv: []string{"head", "-c", "50000000", "/dev/zero"}}, workload{Dir: t.TempDir()}, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	defer o.remove()
	if o.size != 50000000 || o.exit != 0 {
		t.Fatalf("output %d bytes, exit %d", o.size, o.exit)
	}
	if grew := hwm() - before; grew > 10<<10 {
		t.Fatalf("peak memory grew by %d KB running a side that prints 50 MB", grew)
	}
}
