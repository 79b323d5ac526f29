package repo

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"
	"testing"

	"github.com/goblame/goblame/oid"
)

// The fuzz targets cover every parser of repository files that may be
// corrupt or hostile. Run one with, e.g.:
//
//	go test ./repo -run '^$' -fuzz FuzzParseConfig -fuzztime 1m

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"[core]\n\tbare = false\n",
		"[section.Sub]\nkey\n[a \"b\\\"c\"] k = \"x;y\" # c\n",
		"\xef\xbb\xbf[a]\r\nk = one \\\n two\n",
		"[a]\n\tk = \"unterminated\n",
		"[include]\n\tpath = x\n[includeIf \"gitdir:**\"]\n\tpath = y\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		err := parseConfig(data, configSource{name: "fuzz"}, func(key, value string, hasValue bool, line int) error {
			n++
			if key == "" || line < 1 {
				t.Fatalf("entry %q at line %d", key, line)
			}
			return nil
		})
		if err != nil && n > len(data) {
			t.Fatal("more entries than bytes")
		}
		_, _ = canonicalKey(string(data))
	})
}

func FuzzParseIndex(f *testing.F) {
	// A minimal v2 index with one entry and an optional extension.
	entry := make([]byte, 62)
	binary.BigEndian.PutUint32(entry[24:], 0o100644)
	binary.BigEndian.PutUint16(entry[60:], 1)
	hdr := []byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01")
	seed := append(append(append([]byte{}, hdr...), entry...), 'a', 0, 0, 0, 0, 0, 0, 0)
	seed = append(seed, make([]byte, 20)...)
	f.Add(seed, uint8(1))
	v4 := append([]byte{}, seed...)
	v4[7] = 4
	f.Add(v4, uint8(1))
	link := append(append([]byte{}, seed[:len(seed)-20]...), "link\x00\x00\x00\x14"...)
	link = append(link, make([]byte, 40)...)
	f.Add(link, uint8(1))
	f.Add([]byte("DIRC\x00\x00\x00\x03\xff\xff\xff\xff"), uint8(2))
	// Three entries, two of them attribute files (the attribute
	// files' pass keeps those two).
	attrs := []byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x03")
	for _, name := range []string{".gitattributes", "d/.gitattributes", "d/x.gitattributes"} {
		e := append([]byte{}, entry...)
		binary.BigEndian.PutUint16(e[60:], uint16(len(name)))
		e = append(e, name...)
		attrs = append(attrs, append(e, make([]byte, 8-len(e)%8)...)...)
	}
	f.Add(append(attrs, make([]byte, 20)...), uint8(1))

	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		format := oid.SHA1
		if which%2 == 0 {
			format = oid.SHA256
		}
		ix, link, err := parseIndex(data, "index", format)
		// Parsing for one path checks the same: the same error, and the
		// same entries of each path (and of one the index lacks).
		paths := []string{"a", "no such path"}
		if err == nil {
			for _, e := range ix.EntryList {
				paths = append(paths, e.Path)
			}
		}
		for _, p := range paths {
			one, oneLink, oneErr := parseIndexOf(data, "index", format, &indexFilter{paths: []string{p}})
			if (err == nil) != (oneErr == nil) || err != nil && err.Error() != oneErr.Error() {
				t.Fatalf("path %q: error %v, whole index %v", p, oneErr, err)
			}
			if err != nil {
				continue
			}
			// All of p's entries (Entries, a binary search, finds them
			// only in a sorted index, as every index git writes is).
			var all []IndexEntry
			for _, e := range ix.EntryList {
				if e.Path == p {
					all = append(all, e)
				}
			}
			if got, want := describeIndex(&Index{EntryList: one.EntryList}), describeIndex(&Index{EntryList: all}); got != want {
				t.Fatalf("path %q: entries\n%s\nwhole index\n%s", p, got, want)
			}
			if one.Sparse != ix.Sparse || (oneLink == nil) != (link == nil) || len(one.Messages) != len(ix.Messages) || one.Checksum != ix.Checksum {
				t.Fatalf("path %q: sparse %v link %v messages %q; whole index %v %v %q", p, one.Sparse, oneLink != nil, one.Messages, ix.Sparse, link != nil, ix.Messages)
			}
		}
		if err != nil {
			return
		}
		// Every second path (one the index lacks among them) in one pass:
		// the entries of those paths, in the file's order.
		var some, want []IndexEntry
		var picked []string
		for i := 1; i < len(paths); i += 2 {
			picked = append(picked, paths[i])
		}
		for _, e := range ix.EntryList {
			if slices.Contains(picked, e.Path) {
				want = append(want, e)
			}
		}
		if many, _, err := parseIndexOf(data, "index", format, &indexFilter{paths: picked}); err != nil {
			t.Fatalf("paths %q: %v", picked, err)
		} else {
			some = many.EntryList
		}
		if got, want := describeIndex(&Index{EntryList: some}), describeIndex(&Index{EntryList: want}); got != want {
			t.Fatalf("paths %q: entries\n%s\nwhole index\n%s", picked, got, want)
		}
		// The attribute files' pass: every .gitattributes entry, at the
		// top and in any directory, and nothing else.
		var attrs []IndexEntry
		for _, e := range ix.EntryList {
			if e.Path == ".gitattributes" || strings.HasSuffix(e.Path, "/.gitattributes") {
				attrs = append(attrs, e)
			}
		}
		if got, _, err := parseIndexOf(data, "index", format, &indexFilter{attrFiles: true}); err != nil {
			t.Fatalf("attribute files: %v", err)
		} else if g, w := describeIndex(&Index{EntryList: got.EntryList}), describeIndex(&Index{EntryList: attrs}); g != w {
			t.Fatalf("attribute files: entries\n%s\nwhole index\n%s", g, w)
		}
		if link != nil && link.hasBitmaps {
			base := &Index{EntryList: make([]IndexEntry, 3)}
			_, _ = mergeSplitIndex(ix, base, link)
		}
		for _, e := range ix.EntryList {
			_ = ix.Entries(e.Path)
		}
	})
}

func FuzzEWAH(f *testing.F) {
	var seed []byte
	seed = binary.BigEndian.AppendUint32(seed, 128)
	seed = binary.BigEndian.AppendUint32(seed, 2)
	seed = binary.BigEndian.AppendUint64(seed, 1<<1|1<<33)
	seed = binary.BigEndian.AppendUint64(seed, 9)
	seed = binary.BigEndian.AppendUint32(seed, 0)
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		bm, n, ok := readEWAH(data)
		if !ok {
			return
		}
		if n > len(data) {
			t.Fatalf("consumed %d of %d bytes", n, len(data))
		}
		count := 0
		last := int64(-1)
		bm.each(func(pos uint64) bool {
			if int64(pos) <= last {
				t.Fatalf("positions not increasing: %d after %d", pos, last)
			}
			last = int64(pos)
			count++
			return count < 10000
		})
	})
}

func FuzzPackedRefs(f *testing.F) {
	id := "82798a0cefa370d1a3b62dfe073a1aa33a5d90d0"
	f.Add([]byte("# pack-refs with: peeled fully-peeled sorted \n"+id+" refs/heads/main\n^"+id+"\n"), "refs/heads/main")
	f.Add([]byte(id+" refs/heads/z\n"+id+" refs/heads/a\n"), "refs/heads/a")
	f.Add([]byte("# pack-refs with: sorted\nshort\n"), "refs/")
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		s := &refStore{format: oid.SHA1, commonName: ".git", packedPath: ".git/packed-refs"}
		s.packedOnce.Do(func() {})
		s.packed, s.packedErr = s.parsePacked(data)
		if s.packedErr != nil {
			return
		}
		_, _ = s.readPacked(name)
		_ = s.forEachPacked("refs/", func(string, oid.ID) error { return nil })
	})
}

func FuzzLooseRef(f *testing.F) {
	f.Add([]byte("ref: refs/heads/main\n"))
	f.Add([]byte("82798a0cefa370d1a3b62dfe073a1aa33a5d90d0 extra\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := parseLooseRef(data, oid.SHA1)
		if r.symref && r.status != refOK {
			t.Fatal("broken symref")
		}
		_ = checkRefnameFormat(string(data), true)
	})
}

func FuzzMailmap(f *testing.F) {
	f.Add([]byte("Proper <p@x> Old <o@x>\n# c\n<a@x> <b@x>\nX <> <y@x>\n"), []byte("Old"), []byte("O@X"))
	f.Fuzz(func(t *testing.T, data, name, email []byte) {
		m := ParseMailmap(data)
		n, e := m.Map(name, email)
		if m.Empty() && (!bytes.Equal(n, name) || !bytes.Equal(e, email)) {
			t.Fatal("empty mailmap changed an identity")
		}
		file := &Mailmap{byEmail: map[string]*mailmapEntry{}}
		file.addText(data, true)
		file.Map(name, email)
		// The same lines one text each (a source of their own each):
		// the same answers, to the query and to each line's identities.
		lines := bytes.SplitAfter(data, []byte("\n"))
		each := &Mailmap{byEmail: map[string]*mailmapEntry{}}
		for _, l := range lines {
			each.addText(bytes.TrimSuffix(l, []byte("\n")), false)
		}
		queries := [][2][]byte{{name, email}}
		for _, l := range lines {
			if n, e, rest, ok := parseNameEmail(l, true); ok {
				queries = append(queries, [2][]byte{n, e})
				if n2, e2, _, ok := parseNameEmail(rest, true); ok {
					queries = append(queries, [2][]byte{n2, e2}, [2][]byte{bytes.ToUpper(n2), bytes.ToUpper(e2)})
				}
			}
		}
		for _, q := range queries {
			n1, e1 := m.Map(q[0], q[1])
			n2, e2 := each.Map(q[0], q[1])
			if !bytes.Equal(n1, n2) || !bytes.Equal(e1, e2) || (n1 == nil) != (n2 == nil) || (e1 == nil) != (e2 == nil) {
				t.Fatalf("Map(%q, %q): %q <%q> from the text, %q <%q> from its lines one by one", q[0], q[1], n1, e1, n2, e2)
			}
		}
	})
}

func FuzzAttributes(f *testing.F) {
	f.Add([]byte("[attr]m a -b !c\n*.c text eol=crlf m\n\"q\\tx\" y\ndir/ z\n!neg w\n"), "dir/x.c")
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		if len(data) > 4096 || len(path) > 256 {
			return
		}
		af := parseAttrText(data, "fuzz", true, nil, true)
		for _, l := range af.lines {
			if l.macro == "" {
				l.pattern.matches(path, lastSlash(path)+1, "", false)
				l.pattern.matches(path, lastSlash(path)+1, "", true)
			}
		}
	})
}

func FuzzWildmatch(f *testing.F) {
	f.Add("a/**/b*[!x-z][[:alpha:]]\\?", "a/c/d/bq1a?", uint8(2))
	f.Fuzz(func(t *testing.T, pattern, text string, flags uint8) {
		if len(pattern) > 48 || len(text) > 48 {
			return
		}
		wildmatch(pattern, text, int(flags)&(wmCasefold|wmPathname))
	})
}

func FuzzGrafts(f *testing.F) {
	id := "82798a0cefa370d1a3b62dfe073a1aa33a5d90d0"
	f.Add([]byte(id + " " + id + "\n# c\nbad\n" + id + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, _ := parseGrafts(data, oid.SHA1, true)
		for k := range g {
			if k.Format() != oid.SHA1 {
				t.Fatal("bad key")
			}
		}
	})
}

func FuzzConvert(f *testing.F) {
	f.Add([]byte("a\r\nb $Id: x $\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out := identToGit(data)
		if len(out) > len(data) {
			t.Fatalf("ident grew %d -> %d", len(data), len(out))
		}
		s := gatherStats(data)
		_ = s.isBinary()
		for _, enc := range []string{"UTF-16", "UTF-16LE", "UTF-32BE"} {
			decodeUTF(enc, data)
		}
	})
}
