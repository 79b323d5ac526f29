package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// filtersScript commits f.up in upper case, as a clean filter that
// upper-cases would store it, and leaves it in lower case in the work
// tree: blamed through that filter, the work tree is HEAD's (every line
// a commit's, so git's output is a golden), blamed without it every line
// is uncommitted. plain.txt names a driver the configuration never
// defines, set.txt sets the attribute without a value.
const filtersScript = `git init -q r && cd r
printf 'f.up filter=up\nplain.txt filter=undefined\nset.txt filter\n' >.gitattributes
printf 'ONE\nTWO\n' >f.up
printf 'plain\n' >plain.txt
printf 'set\n' >set.txt
commit_all one
printf 'ONE\nTWO\nTHREE\n' >f.up
commit_all two
printf 'one\ntwo\nthree\n' >f.up
`

// buildFilterProcess builds internal/testgit/filterprocess next to the
// fixture's repository (whose directory the golden files name by a
// placeholder) and returns its path.
func buildFilterProcess(t *testing.T, dir string) string {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), "filterprocess")
	if out, err := exec.Command("go", "build", "-o", tmp, "github.com/goblame/goblame/internal/testgit/filterprocess").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	bin := filepath.Join(filepath.Dir(dir), "filterprocess")
	data, err := os.ReadFile(tmp)
	if err != nil {
		t.Fatal(err)
	}
	// Written aside and renamed: another test process may run it.
	if err := os.WriteFile(bin+".tmp", data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(bin+".tmp", bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestCleanFiltersMatchGit: a work-tree file, or a buffer on standard
// input, goes through the clean filter its filter attribute names before
// it is blamed, as git's convert_to_git does: a clean command (with %f),
// or a long-running filter process (the pkt-line protocol), which wins
// over a clean command. A filter that fails leaves the content as it
// was after git's error lines, unless the driver is required (fatal);
// bad filter configuration is fatal for a work-tree blame only.
func TestCleanFiltersMatchGit(t *testing.T) {
	dirs := fixtureDirs(t, "filters", filtersScript)
	lower := []byte("one\ntwo\nthree\n")
	cfg := func(kv ...string) []string {
		s := ""
		for i := 0; i+1 < len(kv); i += 2 {
			if s != "" {
				s += " "
			}
			if kv[i+1] == "" {
				s += "'" + kv[i] + "'" // no value
			} else {
				s += "'" + kv[i] + "'='" + kv[i+1] + "'"
			}
		}
		return []string{"GIT_CONFIG_PARAMETERS=" + s}
	}
	for _, format := range testgit.Formats {
		dir := dirs[format]
		abs := buildFilterProcess(t, dir)
		// A script without "#!" (git's child runs it again through
		// /bin/sh) that runs the filter process.
		if err := os.WriteFile(abs+"-noshebang", []byte("exec '"+abs+"' upper\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		// Both are named from the work tree, where filters run: a
		// temporary directory may hold a space, which would make the
		// absolute path a shell command line.
		proc := "../" + filepath.Base(abs)
		noShebang := proc + "-noshebang"
		upper := "tr a-z A-Z"
		// Filtered, the work tree is HEAD's: goldens.
		for _, c := range []struct {
			env   []string
			stdin []byte
			args  []string
		}{
			{cfg("filter.up.clean", upper), nil, []string{"f.up"}},
			{cfg("filter.up.clean", upper), nil, []string{"-p", "--", "f.up"}},
			{cfg("filter.up.clean", upper), lower, []string{"--contents", "-", "f.up"}},
			{cfg("filter.up.clean", upper), nil, []string{"--contents", "f.up", "HEAD~1", "--", "f.up"}},
			{cfg("filter.up.clean", upper, "filter.up.required", "true"), nil, []string{"--incremental", "f.up"}},
			{cfg("filter.up.clean", "echo %f %% %x >&2; tr a-z A-Z"), nil, []string{"f.up"}},
			// git's children get GIT_PREFIX ("" at the top).
			{cfg("filter.up.clean", "echo prefix=${GIT_PREFIX-unset} >&2; tr a-z A-Z"), nil, []string{"f.up"}},
			{cfg("filter.up.process", proc+" upper"), nil, []string{"f.up"}},
			{cfg("filter.up.process", proc+" upper"), lower, []string{"--contents", "-", "f.up"}},
			{cfg("filter.up.process", noShebang), nil, []string{"f.up"}},
			{cfg("filter.up.process", proc+" stderr", "filter.up.clean", "false"), nil, []string{"f.up"}},
			// Failures of a required driver, and bad configuration.
			{cfg("filter.up.clean", "exit 3", "filter.up.required", "true"), nil, []string{"f.up"}},
			{cfg("filter.up.clean", "nonexistent-filter", "filter.up.required", "yes"), nil, []string{"f.up"}},
			{cfg("filter.up.required", "true"), nil, []string{"f.up"}},
			{cfg("filter.up.clean", "", "filter.up.required", "true"), nil, []string{"f.up"}},
			{cfg("filter.up.required", "bogus"), nil, []string{"f.up"}},
			{cfg("filter.up.required", "bogus"), nil, []string{"HEAD", "--", "f.up"}},
			{cfg("filter.other.process", ""), nil, []string{"f.up"}},
			{cfg("filter.up.process", proc+" nocap", "filter.up.required", "true"), nil, []string{"f.up"}},
			{cfg("filter.up.process", proc+" error", "filter.up.required", "true"), nil, []string{"f.up"}},
			{cfg("filter.up.process", proc+" abort", "filter.up.required", "true"), nil, []string{"f.up"}},
			{cfg("filter.up.process", proc+" die", "filter.up.required", "true"), nil, []string{"f.up"}},
			{cfg("filter.up.process", proc+" badwelcome", "filter.up.required", "true"), nil, []string{"f.up"}},
			{cfg("filter.up.process", proc+" v3", "filter.up.required", "true"), nil, []string{"f.up"}},
			{cfg("filter.up.process", proc+" unknowncap"), nil, []string{"f.up"}},
			{cfg("filter.up.process", "nonexistent-filter", "filter.up.required", "true"), nil, []string{"f.up"}},
			// Commands named by a path that git's child cannot
			// execute: missing, a directory.
			{cfg("filter.up.clean", "/nonexistent/filter", "filter.up.required", "true"), nil, []string{"f.up"}},
			{cfg("filter.up.clean", "./no/such/filter", "filter.up.required", "true"), nil, []string{"f.up"}},
			{cfg("filter.up.clean", "/", "filter.up.required", "true"), nil, []string{"f.up"}},
			{cfg("filter.up.process", "/nonexistent/lfs", "filter.up.required", "true"), nil, []string{"f.up"}},
			{cfg("filter.up.process", "/", "filter.up.required", "true"), nil, []string{"f.up"}},
			// Drivers the attribute does not name, or names without a
			// configuration.
			{cfg("filter.up.clean", "false", "filter.up.required", "true"), nil, []string{"plain.txt"}},
			{cfg("filter.undefined.required", "true"), nil, []string{"set.txt"}},
		} {
			compareWithGit(t, dir, format, c.stdin, c.env, c.args...)
		}
		// Unfiltered (a failed filter, no filter): lines not committed
		// yet, dated now, compared with git itself.
		for _, c := range []struct {
			env  []string
			args []string
		}{
			{nil, []string{"f.up"}},
			{cfg("filter.up.clean", "exit 3"), []string{"f.up"}},
			{cfg("filter.up.clean", "nonexistent-filter"), []string{"f.up"}},
			{cfg("filter.up.clean", "cat; echo extra"), []string{"f.up"}},
			{cfg("filter.up.process", proc+" error"), []string{"f.up"}},
			{cfg("filter.up.process", proc+" badstatus"), []string{"f.up"}},
			{cfg("filter.up.process", proc+" v3"), []string{"f.up"}},
		} {
			compareWithLiveGit(t, dir, format, nil, c.env, c.args...)
		}
	}
}
