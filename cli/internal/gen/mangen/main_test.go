package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/cli"
)

const root = "../../../.."

// TestManualUpToDate checks that the committed goblame.1 and its plain-text
// rendering cli/goblame.1.txt are what the option tables generate now (go
// generate ./cli rewrites them).
func TestManualUpToDate(t *testing.T) {
	m := newManual()
	for _, f := range []struct {
		path, want string
	}{
		{filepath.Join(root, "goblame.1"), roff(m)},
		{filepath.Join(root, "cli", "goblame.1.txt"), text(m)},
	} {
		got, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != f.want {
			t.Errorf("%s is out of date: run go generate ./cli", f.path)
		}
	}
	if cli.ManualText() != text(m) {
		t.Errorf("the manual goblame --help prints is not the generated one")
	}
}

// TestManualCoversOptions checks that every option of blame's table (git's
// and goblame's own) and every documented revision option has an entry,
// with its value as git's help writes it, and that every extra description
// belongs to an option.
func TestManualCoversOptions(t *testing.T) {
	page := text(newManual())
	keys := map[string]bool{}
	for _, o := range cli.OptionDocs() {
		if o.Hidden && !o.Goblame {
			continue
		}
		tag, key := optionTag(o)
		keys[key] = true
		if !strings.Contains(page, "\n       "+plain(tag)+"\n") {
			t.Errorf("the manual has no entry %q", plain(tag))
		}
	}
	for _, d := range cli.RevisionOptionDocs() {
		if !strings.Contains(page, "\n       "+d.Option+d.Value+"\n") {
			t.Errorf("the manual has no entry %q", d.Option+d.Value)
		}
	}
	for _, s := range []string{"\n       --help\n", "\n       --version\n", "\n       -h\n", "\nEXIT STATUS\n",
		"\nENVIRONMENT\n", "\nCONFIGURATION\n", "\nSEE ALSO\n", "\n       129\n", "\n       141\n"} {
		if !strings.Contains(page, s) {
			t.Errorf("the manual lacks %q", s)
		}
	}
	for key := range optionExtras {
		if !keys[key] {
			t.Errorf("optionExtras describes %s, which is not an option of the table", key)
		}
	}
}

// sourceText is the module's Go source outside tests and generators,
// lower-cased when lower is set.
func sourceText(t *testing.T, lower bool) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "benchmarks" || strings.HasSuffix(path, filepath.Join("internal", "gen"))) {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		b.Write(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if lower {
		return strings.ToLower(b.String())
	}
	return b.String()
}

// TestDocumentedKeysAreRead checks that goblame's code reads every
// configuration key the manual lists (a key with a <subsection> by its
// parts) and every environment variable it names, so that the page
// cannot promise what the code no longer does.
func TestDocumentedKeysAreRead(t *testing.T) {
	src := sourceText(t, true)
	for _, k := range configKeys {
		name := strings.ToLower(k.name)
		parts := []string{`"` + name + `"`}
		if i := strings.IndexByte(name, '<'); i >= 0 {
			j := strings.IndexByte(name, '>')
			parts = []string{`"` + name[:i] + `"`, `"` + name[j+1:] + `"`}
		}
		for _, p := range parts {
			if !strings.Contains(src, p) {
				t.Errorf("the manual lists %s, but no code reads %s", k.name, p)
			}
		}
	}
	src = sourceText(t, false)
	for _, v := range environment {
		for _, name := range v.names {
			name = strings.TrimSuffix(name, "<n>")
			if !strings.Contains(src, `"`+name) {
				t.Errorf("the manual lists %s, but no code reads it", name)
			}
		}
	}
}

// TestManRendersPage runs man -l on goblame.1 with groff's warnings on:
// the page renders without a warning, under its name.
func TestManRendersPage(t *testing.T) {
	man, err := exec.LookPath("man")
	if err != nil {
		t.Skip("man is not installed (.ci/run installs man-db)")
	}
	cmd := exec.Command(man, "--warnings", "-l", filepath.Join(root, "goblame.1"))
	cmd.Env = append(os.Environ(), "MANWIDTH=80", "MAN_KEEP_FORMATTING=", "LC_ALL=C.UTF-8")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() != 0 {
		t.Fatalf("man -l goblame.1: %v\n%s", err, stderr.String())
	}
	out := stdout.String()
	for _, s := range []string{"GOBLAME(1)", "--contents <file>", "-C[<score>]", "--abbrev[=<n>]", "Show original linenumber (Default: off).", "GOBLAME_TRACE_STATS"} {
		if !strings.Contains(out, s) {
			t.Errorf("man's rendering lacks %q", s)
		}
	}
}
