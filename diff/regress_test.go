package diff

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/txtar"
)

// Reproducers live in testdata/regress/*.txtar. The comment holds
// "key: value" lines: name, algorithm (myers, histogram, patience), flags
// (default, no-indent-heuristic, minimal, w, or a comma list of
// indent-heuristic, minimal, w), and noeol (a, b or "a b": which files lack
// their final newline, since txtar always ends a file with one). The
// files are "a", "b" and "want", the hunks git diff -U0 printed.

func writeReproducer(t testing.TB, p testPair, fs flagSet, want []Hunk) string {
	dir := filepath.Join("testdata", "regress")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("cannot write reproducer: %v", err)
		return ""
	}
	var noeol []string
	a, b := p.a, p.b
	if len(a) > 0 && a[len(a)-1] != '\n' {
		noeol = append(noeol, "a")
		a = append(a[:len(a):len(a)], '\n')
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		noeol = append(noeol, "b")
		b = append(b[:len(b):len(b)], '\n')
	}
	comment := fmt.Sprintf("name: %s\nalgorithm: %s\nflags: %s\nnoeol: %s\n",
		p.name, fs.opts.Algorithm, optsFlags(fs.opts), strings.Join(noeol, " "))
	ar := &txtar.Archive{
		Comment: []byte(comment),
		Files: []txtar.File{
			{Name: "a", Data: a},
			{Name: "b", Data: b},
			{Name: "want", Data: []byte(formatHunks(want))},
		},
	}
	name := strings.NewReplacer("/", "_", " ", "_").Replace(p.name) + "-" + fs.name + ".txtar"
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Logf("cannot write reproducer: %v", err)
	}
	return file
}

func optsFlags(o Options) string {
	var f []string
	if o.IndentHeuristic {
		f = append(f, "indent-heuristic")
	}
	if o.Minimal {
		f = append(f, "minimal")
	}
	if o.IgnoreWhitespace {
		f = append(f, "w")
	}
	if len(f) == 0 {
		return "none"
	}
	return strings.Join(f, ",")
}

func parseOptsFlags(s string) (Options, error) {
	var o Options
	switch s {
	case "default":
		return Options{IndentHeuristic: true}, nil
	case "no-indent-heuristic", "none":
		return o, nil
	}
	for _, f := range strings.Split(s, ",") {
		switch strings.TrimSpace(f) {
		case "indent-heuristic":
			o.IndentHeuristic = true
		case "minimal":
			o.Minimal = true
		case "w":
			o.IgnoreWhitespace = true
		default:
			return o, fmt.Errorf("unknown flag %q", f)
		}
	}
	return o, nil
}

// loadCase reads one txtar case.
func loadCase(file string) (a, b []byte, opts Options, want []Hunk, err error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return
	}
	ar := txtar.Parse(data)
	files := map[string][]byte{}
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	a, b = files["a"], files["b"]
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "algorithm":
			if opts.Algorithm, err = ParseAlgorithm(val); err != nil {
				return
			}
		case "flags":
			alg := opts.Algorithm
			if opts, err = parseOptsFlags(val); err != nil {
				return
			}
			opts.Algorithm = alg
		case "noeol":
			for _, w := range strings.Fields(val) {
				switch w {
				case "a":
					a = bytes.TrimSuffix(a, []byte("\n"))
				case "b":
					b = bytes.TrimSuffix(b, []byte("\n"))
				}
			}
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(files["want"])), "\n") {
		if line == "" {
			continue
		}
		var h Hunk
		if h, err = parseHunkHeader(line); err != nil {
			return
		}
		want = append(want, h)
	}
	return
}

// TestRegressions replays every kept reproducer and hand-written case;
// the expected hunks in each came from git diff --no-index -U0. It needs
// no git.
func TestRegressions(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no txtar cases found under testdata/")
	}
	d := NewDiffer()
	for _, file := range files {
		a, b, opts, want, err := loadCase(file)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		got := d.BlameDiff(nil, a, b, opts)
		if err := d.Err(); err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if !hunksEqual(got, want) {
			t.Errorf("%s:\ngot:\n%swant:\n%s", file, formatHunks(got), formatHunks(want))
		}
	}
}
