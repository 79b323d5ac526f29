package cli

import (
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// processChildStackStart calls growStack on a new goroutine (a 2 KiB
// stack) under the stack limit GOBLAME_TEST_MAX_STACK, in bytes.
func processChildStackStart() {
	limit, _ := strconv.Atoi(os.Getenv("GOBLAME_TEST_MAX_STACK"))
	debug.SetMaxStack(limit)
	done := make(chan struct{})
	go func() {
		growStack()
		close(done)
	}()
	<-done
	os.Stdout.WriteString("ok\n")
	os.Exit(0)
}

// TestGrowStackTakes32KiB checks that growStack's frame is what makes the
// stack grow, at once, to 32 KiB: under a 16 KiB limit the call
// overflows it (the compiler kept the frame), under 32 KiB it does not
// (one doubling past 16 KiB is enough).
func TestGrowStackTakes32KiB(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	run := func(limit int) (string, error) {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), processChildEnv+"=stack-start", "GOBLAME_TEST_MAX_STACK="+strconv.Itoa(limit))
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run(32 << 10); err != nil || strings.TrimSpace(out) != "ok" {
		t.Fatalf("under a 32 KiB limit: %v\n%s", err, out)
	}
	out, err := run(16 << 10)
	if err == nil || !strings.Contains(out, "stack exceeds 16384-byte limit") {
		t.Fatalf("under a 16 KiB limit growStack did not overflow the stack: %v\n%s", err, out)
	}
}
