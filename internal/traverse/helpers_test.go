package traverse

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// memReader is an ObjectReader over every object of a repository, loaded
// once with "git cat-file --batch-all-objects --batch". It keeps the
// tests of this package independent of the odb package.
type memReader struct {
	objs  map[oid.ID]memObject
	reads int
}

type memObject struct {
	typ  object.Type
	body []byte
}

func (r *memReader) Read(id oid.ID, dst []byte) (object.Type, []byte, error) {
	o, ok := r.objs[id]
	r.reads++
	if !ok {
		return 0, nil, fmt.Errorf("object %s: %w", id, errMissing)
	}
	return o.typ, append(dst[:0], o.body...), nil
}

var errMissing = fmt.Errorf("object not found")

var readerCache = map[string]*memReader{}

// loadObjects reads every object of the repository at dir.
func loadObjects(t testing.TB, dir string, format oid.Format) *memReader {
	t.Helper()
	if r := readerCache[dir]; r != nil {
		return &memReader{objs: r.objs}
	}
	cmd := exec.Command("git", "cat-file", "--batch-all-objects", "--batch")
	cmd.Dir = dir
	cmd.Env = testgit.Env(format)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &memReader{objs: map[oid.ID]memObject{}}
	br := bufio.NewReader(out)
	for {
		line, err := br.ReadString('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("cat-file: bad header %q", line)
		}
		id, err := oid.ParseHex(format, f[0])
		if err != nil {
			t.Fatal(err)
		}
		size, _ := strconv.Atoi(f[2])
		body := make([]byte, size+1)
		if _, err := io.ReadFull(br, body); err != nil {
			t.Fatal(err)
		}
		typ := object.ParseType([]byte(f[1]))
		// Any git gives these bytes: they are the ones the id names.
		if oid.HashObject(format, typ.String(), body[:size]) != id {
			t.Fatalf("cat-file gave %s bytes that do not hash to %s", typ, id)
		}
		r.objs[id] = memObject{typ: typ, body: body[:size]}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	readerCache[dir] = r
	return &memReader{objs: r.objs}
}

func objectsDir(dir string) string { return filepath.Join(dir, ".git", "objects") }

var (
	gitMu    sync.Mutex
	gitCache = map[string]string{}
)

// goldenFile names the golden file t's git answers are kept in (its
// top-level test): caches of those answers are per golden file, so that
// each test's goldens hold every answer it uses.
func goldenFile(t testing.TB) string {
	top, _, _ := strings.Cut(t.Name(), "/")
	return top
}

// gitMemo gives git 2.39.5's answer (git's own, or the goldens') once
// per (test, dir, args): fixtures never change once built, so repeated
// questions (many subtests ask for the same rev-parse or log) are
// answered from memory.
func gitMemo(t testing.TB, dir string, format oid.Format, args ...string) string {
	t.Helper()
	key := goldenFile(t) + "\x00" + dir + "\x00" + strings.Join(args, "\x00")
	gitMu.Lock()
	out, ok := gitCache[key]
	gitMu.Unlock()
	if ok {
		return out
	}
	out = testgit.Golden(t).Git(dir, format, args...)
	gitMu.Lock()
	gitCache[key] = out
	gitMu.Unlock()
	return out
}

// gitLines runs git and splits its stdout into lines (empty output gives
// no lines).
func gitLines(t testing.TB, dir string, format oid.Format, args ...string) []string {
	t.Helper()
	out := gitMemo(t, dir, format, args...)
	out = strings.TrimSuffix(out, "\n")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

func parseID(t testing.TB, format oid.Format, s string) oid.ID {
	t.Helper()
	id, err := oid.ParseHex(format, strings.TrimSpace(s))
	if err != nil {
		t.Fatalf("bad id %q: %v", s, err)
	}
	return id
}

func revParse(t testing.TB, dir string, format oid.Format, rev string) oid.ID {
	t.Helper()
	return parseID(t, format, gitMemo(t, dir, format, "rev-parse", rev))
}

// openGraph opens the fixture's commit-graph and fails on any warning.
func openGraph(t testing.TB, dir string, format oid.Format) *Graph {
	t.Helper()
	g, warnings, err := OpenGraph([]string{objectsDir(dir)}, format)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) > 0 {
		t.Fatalf("unexpected warnings: %q", warnings)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// splitNUL splits -z output.
func splitNUL(b []byte) [][]byte {
	b = bytes.TrimSuffix(b, []byte{0})
	if len(b) == 0 {
		return nil
	}
	return bytes.Split(b, []byte{0})
}

// gitRaw is git 2.39.5's standard output (git's own, or the goldens').
func gitRaw(t testing.TB, dir string, format oid.Format, args ...string) []byte {
	t.Helper()
	return []byte(testgit.Golden(t).Git(dir, format, args...))
}
