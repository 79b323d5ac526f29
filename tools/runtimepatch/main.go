// Command runtimepatch writes the overlay make build compiles goblame
// with (go build -overlay): the Go runtime's proc.go with one constant
// changed, the first sleep of sysmon, the runtime's monitor thread.
//
// sysmon sleeps 20 us between its rounds for its first 50 rounds, and
// again after each time it takes a processor back from a system call
// (which, on the one processor a run starts with, is any call that
// lasts a round). In a blame of a few milliseconds it sleeps and wakes
// 60-110 times (perf stat on git/git odb/source-files.h: 105-122 context
// switches a run, git's 1), and the wake-ups cost the blame's thread:
// paired rounds of the same build
// with the first sleep at 200 us took 0.2-0.6 ms off go-git README.md,
// Magit's first entry and git/git's short walks, 1.1 ms off gitoxide
// README.md, and nothing measurable off blames of 15-80 ms (RESULTS.md,
// 2026-12-07). Nothing else changes: sysmon still backs off and wakes
// as before, only its fastest rate is a tenth of the runtime's.
//
// It prints the overlay's JSON file, or nothing (with a note on
// standard error) when the installed Go's proc.go does not hold the
// lines it patches exactly once: make build then builds without it, as
// go build and go install do.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// sysmonFirstSleep is the patched first sleep of sysmon, in microseconds.
const sysmonFirstSleep = 200

// patchTarget is the code patch replaces, sysmon's first sleep, as the
// runtime has long written it (checked on Go 1.26).
const patchTarget = "\t\tif idle == 0 { // start with 20us sleep...\n\t\t\tdelay = 20\n"

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "runtimepatch: %v; building with the Go runtime as it is\n", err)
	}
}

func run() error {
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	version, err := goEnv("GOVERSION")
	if err != nil {
		return err
	}
	orig := filepath.Join(goroot, "src", "runtime", "proc.go")
	src, err := os.ReadFile(orig)
	if err != nil {
		return err
	}
	patched, err := patch(src)
	if err != nil {
		return fmt.Errorf("%s (%s): %w", orig, version, err)
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("goblame-runtimepatch-%d-%s", os.Getuid(), version))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	procFile := filepath.Join(dir, "proc.go")
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {orig: procFile}})
	if err != nil {
		return err
	}
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := writeAtomically(procFile, patched); err != nil {
		return err
	}
	if err := writeAtomically(overlayFile, overlay); err != nil {
		return err
	}
	fmt.Println(overlayFile)
	return nil
}

// patch returns src with sysmon's first sleep at sysmonFirstSleep.
func patch(src []byte) ([]byte, error) {
	if n := bytes.Count(src, []byte(patchTarget)); n != 1 {
		return nil, fmt.Errorf("sysmon's first sleep found %d times, not once", n)
	}
	repl := strings.Replace(patchTarget, "delay = 20\n", fmt.Sprintf("delay = %d // goblame: tools/runtimepatch\n", sysmonFirstSleep), 1)
	return bytes.Replace(src, []byte(patchTarget), []byte(repl), 1), nil
}

func goEnv(name string) (string, error) {
	gocmd := os.Getenv("GO")
	if gocmd == "" {
		gocmd = "go"
	}
	out, err := exec.Command(gocmd, "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("%s env %s: %w", gocmd, name, err)
	}
	v := strings.TrimSpace(string(out))
	if v == "" {
		return "", errors.New("go env " + name + " is empty")
	}
	return v, nil
}

// writeAtomically writes data to path through a temporary file renamed
// over it, so that builds running at once never read half a file.
func writeAtomically(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}
