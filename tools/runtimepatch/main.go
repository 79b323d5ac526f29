// Command runtimepatch writes the overlay make build compiles goblame
// with (go build -overlay): three files of the Go runtime with six
// changes, each for a cost a blame of a few milliseconds pays and git
// does not.
//
// proc.go, the first sleep of sysmon, the runtime's monitor thread:
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
// proc.go, the number of processors the scheduler starts with: one,
// as with GOMAXPROCS=1 in the environment, where the runtime's default
// is the machine's (in a container, its CPU limit's) and never under
// two on a machine of several. A blame runs on one processor until it
// knows it has work for a second (cli/process.go: oneProc, useProcs,
// which takes the runtime's default back with
// runtime.SetDefaultGOMAXPROCS). Set by the program after the runtime's
// start, as before, one processor cost a thread the runtime started for
// its first goroutines (the sweeper's, the scavenger's) on the idle
// second processor, and a stop of the world to take that processor
// back: perf stat on git/git compat/writev.c, 24-25 context switches a
// run against 13; paired rounds took 0.4 ms off go-git README.md (4.1
// ms), 0.3 off Magit's -L 1,60 Makefile, 0.6-0.8 off go-git's
// repository.go with and without a commit-graph (RESULTS.md,
// 2026-12-07). GOMAXPROCS in the environment is read as before.
//
// proc.go, the cgroup's CPU limit: since Go 1.25 schedinit reads
// /proc/self/cgroup and /proc/self/mountinfo and opens the CPU
// controller's files at every start (defaultGOMAXPROCSInit), and
// runtime.SetDefaultGOMAXPROCS reads the limit again (perf record of
// go-git Magit's -L 1,60 Makefile: 3.2% of a run's samples between
// them). The default number of processors is the machine's CPUs
// lowered to the limit, but a limit under two counts as two, so on a
// machine of one or two CPUs the limit never changes it: there the
// runtime opens no cgroup (the default is the CPUs sched_getaffinity
// gives, as the runtime's own answer would be; only CPUs added to the
// process's affinity during a run would be counted past a limit).
// Paired rounds: goblame --version -0.09 ms (1.05), Magit's call -0.14
// (4.1), go-git README.md -0.12 (4.1) (RESULTS.md, 2026-12-07).
//
// proc.go, the start of the garbage collector's sweeper and scavenger:
// runtime.main starts their goroutines and waits for both to run while
// the main goroutine is locked to the main thread for the packages'
// inits, so that the main thread cannot run them itself: it hands its
// processor to a thread started for them and sleeps until they give it
// back (a clone and two wake-ups across threads, perf stat on goblame
// --version: 2 clones, 7 futex calls and 10 context switches a run;
// with the change 1, 0 and 4). On one processor (the start above) the
// main goroutine is unlocked for that wait and locked again after it,
// so that the main thread runs the two goroutines; with more the
// runtime's code runs as it is. Paired rounds took 0.27 ms off goblame
// --version (1.36 ms; a C program's 1.08), 0.26 off Magit's first
// entry on go-git (-L 1,60 Makefile), 0.2 off go-git README.md and
// 0.3-0.36 off GitLens' and gitsigns' calls on it (RESULTS.md,
// 2026-12-07). No package's init runs before the lock is back.
//
// mspanset.go, the blocks of the heap's span sets: each size class of
// the heap keeps its spans in four sets (partly or wholly used, swept
// or not), and a set's first span takes a block of 512 entries (4 KiB)
// and a spine of 256 (2 KiB) from the runtime's off-heap memory, fresh
// pages each. The first collection and each change of the number of
// processors move every cached span into the sets of the next sweep:
// about 190 page faults of a 640 in a short blame (perf record -e
// page-faults, tmux regress/screen-redraw-results/cross-spaces.result,
// a 349-commit walk), each a page of which the run writes a few words.
// With blocks of 64 entries and spines of 32 (a spine grows by doubling
// as before; a block still goes back to the pool once its entries are
// popped) they take 43 faults, and paired rounds of the same build took
// 0.40 ms off that blame (3.63 ms), 0.1-0.4 off go-git README.md,
// git/git compat/writev.c and redis src/cluster.c, 0.7 off a 31 ms
// one, nothing measurable off longer ones (RESULTS.md, 2026-12-07).
//
// mem_linux.go, how the heap maps the memory it reserved: with
// mprotect instead of a new mmap over it (the mmap is still made where
// mprotect fails), so that a madvise(MADV_HUGEPAGE) on reserved memory
// outlives its mapping. A long walk's huge-page start in a large
// repository then advises the heap's next megabytes where they will be
// (cli's hugePageAhead, under the goblame_sysmap tag make build adds
// with this change) instead of allocating them, advising them and
// freeing them with a collection, 0.3-0.6 ms of a walk whose heap holds
// a few hundred objects: paired rounds took 0.50 ms off tmux
// regress/screen-redraw-results/cross-spaces.result (3.3 ms), 0.63 off
// redis JetBrains src/cluster.c, 0.57-0.59 off gitoxide README.md and
// gix/src/lib.rs (RESULTS.md, 2026-12-07). The memory the kernel gives
// is the same zero pages either way.
//
// It prints the overlay's JSON file, or nothing (with a note on
// standard error) when the installed Go's runtime holds none of the
// code it patches exactly once; a file whose code differs is left as
// it is, with a note, and the others are patched. Builds that do not
// use the overlay (go build, go install) get the runtime as it is.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// A runtimePatch is one change to a file of the runtime's source: the
// code it replaces, which the file must hold exactly once.
type runtimePatch struct {
	file   string // in GOROOT/src/runtime
	what   string // what it changes, for the notes
	target string
	repl   string
}

// patches are the changes the overlay makes, with the code as the
// runtime has long written it (checked on Go 1.26).
var patches = []runtimePatch{{
	file:   "proc.go",
	what:   "sysmon's first sleep",
	target: "\t\tif idle == 0 { // start with 20us sleep...\n\t\t\tdelay = 20\n",
	repl:   "\t\tif idle == 0 { // start with 20us sleep...\n\t\t\tdelay = 200 // goblame: tools/runtimepatch\n",
}, {
	file:   "proc.go",
	what:   "the number of processors the scheduler starts with",
	target: "\t\tprocs = defaultGOMAXPROCS(numCPUStartup)\n\t}\n",
	repl:   "\t\tprocs, sched.customGOMAXPROCS = 1, true // goblame: tools/runtimepatch\n\t}\n",
}, {
	file:   "proc.go",
	what:   "the cgroup's CPU limit, read on machines of more than two CPUs only",
	target: "\tdefaultGOMAXPROCSInit()\n",
	repl:   "\tif numCPUStartup > 2 { defaultGOMAXPROCSInit() } // goblame: tools/runtimepatch\n",
}, {
	file:   "proc.go",
	what:   "the start of the sweeper and the scavenger",
	target: "\tgcenable()\n\tdefaultGOMAXPROCSUpdateEnable()",
	repl:   "\tif gomaxprocs == 1 { unlockOSThread(); gcenable(); lockOSThread() } else { gcenable() } // goblame: tools/runtimepatch\n\tdefaultGOMAXPROCSUpdateEnable()",
}, {
	file:   "mem_linux.go",
	what:   "the heap's mapping of reserved memory, by mprotect",
	target: "\tp, err := mmap(v, n, _PROT_READ|_PROT_WRITE, _MAP_ANON|_MAP_FIXED|_MAP_PRIVATE, -1, 0)\n\tif err == _ENOMEM {\n\t\tthrow(\"runtime: out of memory\")",
	repl:   "\tp, err := v, 0; if _, e := mprotect(v, n, _PROT_READ|_PROT_WRITE); e != 0 { p, err = mmap(v, n, _PROT_READ|_PROT_WRITE, _MAP_ANON|_MAP_FIXED|_MAP_PRIVATE, -1, 0) } // goblame: tools/runtimepatch\n\tif err == _ENOMEM {\n\t\tthrow(\"runtime: out of memory\")",
}, {
	file:   "mspanset.go",
	what:   "the span sets' block and spine sizes",
	target: "\tspanSetBlockEntries = 512 // 4KB on 64-bit\n\tspanSetInitSpineCap = 256 // Enough for 1GB heap on 64-bit\n",
	repl:   "\tspanSetBlockEntries = 64 // goblame: tools/runtimepatch\n\tspanSetInitSpineCap = 32 // goblame: tools/runtimepatch\n",
}}

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
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("goblame-runtimepatch-%d-%s", os.Getuid(), version))
	replace := map[string]string{}
	for _, name := range patchedFiles() {
		orig := filepath.Join(goroot, "src", "runtime", name)
		src, err := os.ReadFile(orig)
		if err != nil {
			fmt.Fprintf(os.Stderr, "runtimepatch: %v; %s stays as it is\n", err, name)
			continue
		}
		src, applied, skipped := patchFile(name, src)
		for _, err := range skipped {
			fmt.Fprintf(os.Stderr, "runtimepatch: %s (%s): %v\n", orig, version, err)
		}
		if applied == 0 {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		file := filepath.Join(dir, name)
		if err := writeAtomically(file, src); err != nil {
			return err
		}
		replace[orig] = file
	}
	if len(replace) == 0 {
		return errors.New("nothing to patch")
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err != nil {
		return err
	}
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := writeAtomically(overlayFile, overlay); err != nil {
		return err
	}
	fmt.Println(overlayFile)
	return nil
}

// patchedFiles are the files the patches change, each once, in the
// order the patches name them.
func patchedFiles() []string {
	var files []string
	for _, p := range patches {
		if !slices.Contains(files, p.file) {
			files = append(files, p.file)
		}
	}
	return files
}

// patchFile makes the patches of the runtime's file name in its source
// src, in order, and counts them; a patch whose code src does not hold
// once is left out, with the reason in skipped.
func patchFile(name string, src []byte) (out []byte, applied int, skipped []error) {
	for _, p := range patches {
		if p.file != name {
			continue
		}
		next, err := p.apply(src)
		if err != nil {
			skipped = append(skipped, fmt.Errorf("%v; %s stays as it is", err, p.what))
			continue
		}
		src = next
		applied++
	}
	return src, applied, skipped
}

// apply returns src with p's change made.
func (p runtimePatch) apply(src []byte) ([]byte, error) {
	if n := bytes.Count(src, []byte(p.target)); n != 1 {
		return nil, fmt.Errorf("%s found %d times, not once", p.what, n)
	}
	return bytes.Replace(src, []byte(p.target), []byte(p.repl), 1), nil
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
