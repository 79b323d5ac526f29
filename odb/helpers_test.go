package odb

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// gitObject is one object as git cat-file --batch prints it.
type gitObject struct {
	id      oid.ID
	typ     object.Type
	content []byte
}

// catFileAll returns every object of the repository in dir, as git
// cat-file --batch-all-objects --batch prints them (sorted by id). Any
// git will do, not only git 2.39.x: an object's bytes are named by their
// hash, which is checked for each, so every git gives the same answer.
func catFileAll(t testing.TB, dir string, format oid.Format, env ...string) []gitObject {
	t.Helper()
	res, err := testgit.Run(dir, format, nil, env, "git", "cat-file", "--batch-all-objects", "--batch")
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("git cat-file --batch-all-objects: %v %s", err, res)
	}
	objs := parseBatch(t, format, res.Stdout)
	for _, o := range objs {
		if oid.HashObject(format, o.typ.String(), o.content) != o.id {
			t.Fatalf("git cat-file gave %s bytes that do not hash to %s", o.typ, o.id)
		}
	}
	return objs
}

// catFile returns the objects named by ids as git 2.39.5's cat-file
// --batch prints them (from the goldens without git 2.39.x: with replace
// refs the bytes are not the names' own); missing objects have typ
// Invalid.
func catFile(t testing.TB, dir string, format oid.Format, ids []string) []gitObject {
	t.Helper()
	in := strings.Join(ids, "\n") + "\n"
	res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: format, Stdin: []byte(in), Args: []string{"cat-file", "--batch"}})
	if res.ExitCode != 0 {
		t.Fatalf("git cat-file --batch: %s", res)
	}
	return parseBatch(t, format, res.Stdout)
}

func parseBatch(t testing.TB, format oid.Format, out []byte) []gitObject {
	t.Helper()
	var objs []gitObject
	rd := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := rd.ReadString('\n')
		if line == "" && err != nil {
			break
		}
		f := strings.Fields(line)
		if len(f) == 2 && f[1] == "missing" {
			id, _ := oid.ParseHex(format, f[0])
			objs = append(objs, gitObject{id: id})
			continue
		}
		if len(f) != 3 {
			t.Fatalf("bad cat-file line %q", line)
		}
		id, err := oid.ParseHex(format, f[0])
		if err != nil {
			t.Fatalf("bad id in %q", line)
		}
		size, _ := strconv.Atoi(f[2])
		content := make([]byte, size+1)
		if _, err := ioReadFull(rd, content); err != nil {
			t.Fatalf("short cat-file output: %v", err)
		}
		objs = append(objs, gitObject{id: id, typ: object.ParseType([]byte(f[1])), content: content[:size]})
	}
	return objs
}

func ioReadFull(rd *bufio.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := rd.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// objectsDir asks git where the repository's objects directory is.
func objectsDir(t testing.TB, dir string, format oid.Format) string {
	t.Helper()
	p := strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", "--git-path", "objects"))
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return p
}

// compareAll reads every object git knows in dir through a DB and checks
// type, size and content, and that ForEachObject lists exactly git's set.
// It returns how many objects were compared.
func compareAll(t *testing.T, dir string, format oid.Format, opts Options, env ...string) int {
	t.Helper()
	want := catFileAll(t, dir, format, env...)
	if len(want) == 0 {
		t.Fatalf("fixture has no objects")
	}
	db, err := Open(objectsDir(t, dir, format), format, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	compareObjects(t, db, want)

	var listed []oid.ID
	if err := db.ForEachObject(func(id oid.ID) error {
		listed = append(listed, id)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(listed) != len(want) {
		t.Errorf("ForEachObject listed %d objects, git %d", len(listed), len(want))
	}
	for i := 0; i < len(listed) && i < len(want); i++ {
		if listed[i] != want[i].id {
			t.Errorf("ForEachObject #%d = %s, git %s", i, listed[i], want[i].id)
			break
		}
	}
	seen := map[oid.ID]bool{}
	if err := db.ForEachObjectUnordered(func(id oid.ID) error {
		if seen[id] {
			t.Errorf("ForEachObjectUnordered repeated %s", id)
		}
		seen[id] = true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(want) {
		t.Errorf("ForEachObjectUnordered listed %d objects, git %d", len(seen), len(want))
	}
	return len(want)
}

// compareObjects checks Read, ReadHeader, ReadCached and Has against git's
// objects, with a fresh reader per pass (in id order, then reversed, so
// that delta chains are met from both ends).
func compareObjects(t *testing.T, db *DB, want []gitObject) {
	t.Helper()
	r := db.NewReader()
	var buf []byte
	for _, w := range want {
		typ, data, err := r.Read(w.id, buf)
		if err != nil {
			t.Fatalf("Read %s: %v", w.id, err)
		}
		if typ != w.typ || !bytes.Equal(data, w.content) {
			t.Fatalf("Read %s: got %v (%d bytes), git %v (%d bytes)%s", w.id, typ, len(data), w.typ, len(w.content), firstDiff(data, w.content))
		}
		buf = data
		htyp, size, err := r.ReadHeader(w.id)
		if err != nil || htyp != w.typ || size != int64(len(w.content)) {
			t.Fatalf("ReadHeader %s: %v %d %v, git %v %d", w.id, htyp, size, err, w.typ, len(w.content))
		}
		if !r.Has(w.id) {
			t.Fatalf("Has %s = false", w.id)
		}
	}
	r2 := db.NewReader()
	for i := len(want) - 1; i >= 0; i-- {
		w := want[i]
		typ, data, err := r2.ReadCached(w.id)
		if err != nil || typ != w.typ || !bytes.Equal(data, w.content) {
			t.Fatalf("ReadCached %s: %v %d bytes %v, git %v %d", w.id, typ, len(data), err, w.typ, len(w.content))
		}
		htyp, size, err := r2.ReadHeader(w.id)
		if err != nil || htyp != w.typ || size != int64(len(w.content)) {
			t.Fatalf("ReadHeader (reverse) %s: %v %d %v, git %v %d", w.id, htyp, size, err, w.typ, len(w.content))
		}
	}
	// A reader with no caches at all must agree too (on a sample of large
	// repositories: without a cache every delta rebuilds its whole chain).
	r3 := db.newReader(-1, -1)
	step := max(1, len(want)/2000)
	for i := 0; i < len(want); i += step {
		w := want[i]
		typ, data, err := r3.Read(w.id, nil)
		if err != nil || typ != w.typ || !bytes.Equal(data, w.content) {
			t.Fatalf("Read without caches %s: %v %v", w.id, typ, err)
		}
	}
}

func firstDiff(a, b []byte) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return fmt.Sprintf(" (first difference at byte %d)", i)
		}
	}
	return ""
}

// packFiles lists the .pack files of an objects directory.
func packFiles(t testing.TB, objects string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(objects, "pack", "*.pack"))
	return m
}

// entryTypes counts the pack entry types of a pack with git verify-pack.
func entryTypes(t testing.TB, dir string, format oid.Format, packPath string) map[string]int {
	t.Helper()
	cmd := exec.Command("git", "verify-pack", "-v", strings.TrimSuffix(packPath, ".pack")+".idx")
	cmd.Dir = dir
	cmd.Env = testgit.Env(format)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("verify-pack: %v", err)
	}
	counts := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) >= 5 && len(f[0]) == format.HexSize() {
			counts[f[1]]++
			if len(f) >= 7 {
				counts["delta"]++
				d, _ := strconv.Atoi(f[5])
				if d > counts["maxdepth"] {
					counts["maxdepth"] = d
				}
			}
		}
	}
	return counts
}

func mustParse(t testing.TB, format oid.Format, s string) oid.ID {
	t.Helper()
	id, err := oid.ParseHex(format, s)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return id
}
