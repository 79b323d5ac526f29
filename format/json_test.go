package format_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/blame"
	"github.com/goblame/goblame/format"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/testjson"
)

// jsonEdgesScript writes commits by hand with what the --json records
// must still carry exactly: the zones RFC 3339 cannot write, a year past
// 9999, a commit without an author line, a name and a path that are not
// UTF-8, and a summary with quotes, backslashes and control characters.
const jsonEdgesScript = `git init -q r && cd r
p=$(printf 'caf\351\tx')
printf '1\n2\n3\n4\n5\n6\n7\n8\n9\n' >"$p"
printf 'a\n' >plain
commit_all initial
# raw LINE AUTHOR-LINE ZONE TIME SUMMARY: change LINE, commit with these
# details (printf formats).
raw () {
	sed -i "s/^$1\$/$1 changed/" "$p"
	git add -A
	{
		printf 'tree %s\nparent %s\n' "$(git write-tree)" "$(git rev-parse HEAD)"
		if test -n "$2"; then printf "author $2 $4 $3\n"; fi
		printf "committer C O Mitter <c@example.com> $4 $3\n\n$5\n"
	} | git hash-object -t commit -w --literally --stdin >../id
	git update-ref HEAD "$(cat ../id)"
}
raw 1 'Zero Zone <z@example.com>' -0000 1112912000 'zone -0000'
raw 2 'J\366rg <j@example.com>' +0530 1112913000 'latin-1 name'
raw 3 'Hours <h@example.com>' +2500 1112914000 'zone +2500'
raw 4 'Minutes <m@example.com>' +0099 1112915000 'zone +0099'
raw 5 'Future <f@example.com>' +0100 300000000000 'year 11476'
raw 6 '' +0000 1112916000 'no author'
raw 7 'Quote <q@example.com>' -0700 1112917000 'say \042hi\042 \\\\ back\001slash'
raw 8 'Max <x@example.com>' +2359 1112918000 'zone +2359'
`

// TestJSONRecordsCarryEverything blames the hand-written history and
// checks, on records the schema accepts, what each commit's record says.
func TestJSONRecordsCarryEverything(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "format-json-edges", f, jsonEdgesScript), "r")
		r, err := blame.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		path := "caf\xe9\tx"
		recs := blameJSON(t, r, path, blame.Options{})
		h := recs[0]
		if h.Type != "header" || h.Path.Raw() != path || h.Path.String != "caf\uFFFD\tx" || h.Uncommitted || h.NumLines != 9 ||
			len(h.Ranges) != 1 || h.Ranges[0] != (testjson.Range{FinalLine: 1, NumLines: 9}) || h.ObjectFormat != f.String() {
			t.Errorf("%s: header %+v", f, h)
		}
		bySummary := map[string]testjson.Record{}
		for _, rec := range recs {
			if rec.Type == "commit" {
				bySummary[rec.Summary.Raw()] = rec
			}
			if rec.Type == "entry" && (rec.Path.Raw() != path || rec.Previous != nil && rec.Previous.Path.Raw() != path) {
				t.Errorf("%s: entry %+v: the path's bytes are lost", f, rec)
			}
		}
		iso := func(summary string) string {
			c, ok := bySummary[summary]
			if !ok {
				t.Fatalf("%s: no commit record with summary %q", f, summary)
			}
			if c.Author.ISO == nil {
				return "null"
			}
			return *c.Author.ISO
		}
		for summary, want := range map[string]string{
			"zone -0000":   "2005-04-07T22:13:20-00:00", // RFC 3339's unknown offset
			"latin-1 name": "2005-04-08T04:00:00+05:30",
			"zone +2500":   "2005-04-07T22:46:40Z", // hours RFC 3339 cannot write: UTC
			"zone +0099":   "2005-04-07T23:03:20Z",
			"year 11476":   "null",
			"zone +2359":   "2005-04-08T23:52:20+23:59",
		} {
			if got := iso(summary); got != want {
				t.Errorf("%s: %q: iso %s, want %s", f, summary, got, want)
			}
		}
		if c := bySummary["latin-1 name"]; c.Author.Name.Raw() != "J\xf6rg" || c.Author.Name.String != "J\uFFFDrg" || c.Author.Email.Raw() != "j@example.com" || c.Author.Zone.Raw() != "+0530" {
			t.Errorf("%s: latin-1 author %+v", f, c.Author)
		}
		if c := bySummary["year 11476"]; c.Author.Time != 300000000000 {
			t.Errorf("%s: time %d, want 300000000000", f, c.Author.Time)
		}
		if c := bySummary["no author"]; c.Author.Name.Raw() != "(unknown)" || c.Author.Email.Raw() != "(unknown)" || c.Author.Zone.Raw() != "(unknown)" ||
			c.Author.Time != 0 || c.Author.ISO == nil || *c.Author.ISO != "1970-01-01T00:00:00Z" || c.Committer.Name.Raw() != "C O Mitter" {
			t.Errorf("%s: commit without an author line: %+v / %+v", f, c.Author, c.Committer)
		}
		if _, ok := bySummary["say \"hi\" \\\\ back\x01slash"]; !ok {
			t.Errorf("%s: the summary with quotes and control characters is not carried exactly: %v", f, keys(bySummary))
		}

		// Ranges and an empty file: the header says which lines come.
		recs = blameJSON(t, r, path, blame.Options{Ranges: []string{"7,8", "2,2"}})
		if h := recs[0]; len(h.Ranges) != 2 || h.Ranges[0] != (testjson.Range{FinalLine: 2, NumLines: 1}) || h.Ranges[1] != (testjson.Range{FinalLine: 7, NumLines: 2}) {
			t.Errorf("%s: -L 7,8 -L 2,2: header ranges %+v", f, h.Ranges)
		}
		recs = blameJSON(t, r, "plain", blame.Options{Contents: strings.NewReader("")})
		if h := recs[0]; !h.Uncommitted || h.Commit != strings.Repeat("0", f.HexSize()) || h.NumLines != 0 || len(h.Ranges) != 0 || len(recs) != 1 {
			t.Errorf("%s: an empty buffer: %+v", f, recs)
		}
		r.Close()
	}
}

func keys(m map[string]testjson.Record) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// blameJSON blames path as of HEAD (or opts.Contents) and returns its
// --json records, validated against the schema.
func blameJSON(t *testing.T, r *blame.Repository, path string, opts blame.Options) []testjson.Record {
	t.Helper()
	rev := "HEAD"
	if opts.Contents != nil {
		rev = ""
	}
	p, err := r.Prepare(context.Background(), rev, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	id, uncommitted := p.Final()
	j := format.NewJSON(&out, format.JSONHeader{Path: p.Path(), Commit: id, Uncommitted: uncommitted, NumLines: p.NumLines(), Ranges: p.Ranges()})
	if _, err := p.Run(j.Entry); err != nil {
		t.Fatal(err)
	}
	if err := j.Err(); err != nil {
		t.Fatal(err)
	}
	recs, err := testjson.Decode(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// failingWriter accepts n bytes, then fails.
type failingWriter struct{ n int }

var errWrite = errors.New("write failed")

func (w *failingWriter) Write(b []byte) (int, error) {
	if len(b) > w.n {
		k := w.n
		w.n = 0
		return k, errWrite
	}
	w.n -= len(b)
	return len(b), nil
}

// TestJSONWriteErrorStopsTheBlame: a write error (a reader that went
// away) is returned by Entry, which stops the blame with it.
func TestJSONWriteErrorStopsTheBlame(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "format-json-edges", f, jsonEdgesScript), "r")
		r, err := blame.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		// Failing in the header, in the first records, later.
		for _, limit := range []int{0, 300, 1500} {
			p, err := r.Prepare(context.Background(), "HEAD", "caf\xe9\tx", blame.Options{})
			if err != nil {
				t.Fatal(err)
			}
			id, uncommitted := p.Final()
			j := format.NewJSON(&failingWriter{n: limit}, format.JSONHeader{Path: p.Path(), Commit: id, Uncommitted: uncommitted, NumLines: p.NumLines()})
			failed, after := false, 0
			_, err = p.Run(func(e blame.Entry) error {
				if failed {
					after++
				}
				err := j.Entry(e)
				failed = failed || err != nil
				return err
			})
			if !errors.Is(err, errWrite) || !errors.Is(j.Err(), errWrite) || after > 0 {
				t.Errorf("%s: writer failing after %d bytes: Run returned %v, Err %v, %d entries after the error", f, limit, err, j.Err(), after)
			}
		}
		r.Close()
	}
}

// TestJSONSchemaIsValid compiles the schema JSONSchema returns (the
// committed file) with the validator, as a draft 2020-12 schema.
func TestJSONSchemaIsValid(t *testing.T) {
	if _, err := testjson.Schema(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(format.JSONSchema(), `"$id": "`+testjson.SchemaURL+`"`) {
		t.Errorf("the schema's $id is not %s", testjson.SchemaURL)
	}
}
