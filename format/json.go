package format

import (
	"bufio"
	_ "embed"
	"encoding/base64"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/jsontext"
	"github.com/goblame/goblame/oid"
)

// goblame's --json output: newline-delimited JSON, one record a line,
// written as blame finds entries (the order of --incremental) so that a
// consumer can act on each line as it comes:
//
//	{"type":"header", ...}   first: the version, the path, the final commit, the lines blamed
//	{"type":"commit", ...}   once per commit, before the first entry that names it
//	{"type":"entry", ...}    one per blame entry, as git --incremental prints them
//
// blame.schema.json (JSONSchema) is the schema of every record, and the
// README's "JSON output" section describes every field. Text fields are
// the library's bytes (names and summaries in the output encoding, paths
// as stored); JSON text is UTF-8, so where the bytes are not valid UTF-8
// the string has U+FFFD in place of the invalid bytes and a field named
// <field>Base64 carries the exact bytes.

// JSONVersion is the version of the --json records. It changes whenever
// a record changes (a field added, removed or redefined).
const JSONVersion = 1

//go:embed blame.schema.json
var jsonSchema string

// JSONSchema returns the JSON Schema (draft 2020-12) that every record
// of the --json output satisfies.
func JSONSchema() string { return jsonSchema }

// JSONHeader is what the first record says about the blame.
type JSONHeader struct {
	// Path is the blamed path, relative to the repository top.
	Path string
	// Commit is the commit whose version is blamed (in reverse mode the
	// start of the range); the null ID of the repository's format when
	// Uncommitted (the working-tree file or --contents).
	Commit      oid.ID
	Uncommitted bool
	// NumLines is the number of lines of the final image.
	NumLines int
	// Ranges are the lines blamed (0-based, half-open, sorted and
	// disjoint); nil for the whole file.
	Ranges []blamecore.LineRange
}

// JSON prints --json records as blame finds entries.
type JSON struct {
	w     *bufio.Writer
	shown map[*blamecore.Commit]bool
	buf   []byte
	err   error
}

// NewJSON returns a printer of --json output on w and prints the header
// record (flushed at once, before the walk starts).
func NewJSON(w io.Writer, h JSONHeader) *JSON {
	j := &JSON{w: bufio.NewWriterSize(w, 16<<10), shown: make(map[*blamecore.Commit]bool)}
	b := j.buf[:0]
	b = append(b, `{"type":"header","version":`...)
	b = strconv.AppendInt(b, JSONVersion, 10)
	b = append(b, `,"objectFormat":`...)
	b = jsontext.AppendString(b, h.Commit.Format().String())
	b = append(b, ',')
	b = appendText(b, "path", h.Path)
	b = append(b, `,"commit":"`...)
	b = h.Commit.AppendHex(b)
	b = append(b, `","uncommitted":`...)
	b = strconv.AppendBool(b, h.Uncommitted)
	b = append(b, `,"numLines":`...)
	b = strconv.AppendInt(b, int64(h.NumLines), 10)
	b = append(b, `,"ranges":[`...)
	ranges := h.Ranges
	if ranges == nil && h.NumLines > 0 {
		ranges = []blamecore.LineRange{{Start: 0, End: h.NumLines}}
	}
	for i, r := range ranges {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"finalLine":`...)
		b = strconv.AppendInt(b, int64(r.Start+1), 10)
		b = append(b, `,"numLines":`...)
		b = strconv.AppendInt(b, int64(r.End-r.Start), 10)
		b = append(b, '}')
	}
	b = append(b, "]}\n"...)
	j.buf = b
	j.w.Write(b)
	j.err = j.w.Flush()
	return j
}

// Entry prints the record of one entry, preceded by its commit's record
// the first time the commit appears, and flushes. It returns the first
// error met while printing (this one or an earlier one), for the caller
// to stop the blame with.
func (j *JSON) Entry(e blamecore.Entry) error {
	if j.err != nil {
		return j.err
	}
	c := e.Commit
	b := j.buf[:0]
	if !j.shown[c] {
		j.shown[c] = true
		var err error
		if b, err = appendCommitRecord(b, c); err != nil {
			j.err = err
			return err
		}
	}
	b = append(b, `{"type":"entry","commit":"`...)
	b = c.ID.AppendHex(b)
	b = append(b, `","finalLine":`...)
	b = strconv.AppendInt(b, int64(e.Lno+1), 10)
	b = append(b, `,"numLines":`...)
	b = strconv.AppendInt(b, int64(e.NumLines), 10)
	b = append(b, `,"sourceLine":`...)
	b = strconv.AppendInt(b, int64(e.SLno+1), 10)
	b = append(b, ',')
	b = appendText(b, "path", e.Path)
	b = append(b, `,"previous":`...)
	if e.Previous != nil {
		b = append(b, `{"commit":"`...)
		b = e.Previous.Commit.AppendHex(b)
		b = append(b, `",`...)
		b = appendText(b, "path", e.Previous.Path)
		b = append(b, '}')
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"boundary":`...)
	b = strconv.AppendBool(b, c.Boundary)
	b = append(b, `,"uncommitted":`...)
	b = strconv.AppendBool(b, c.Uncommitted)
	b = append(b, `,"ignored":`...)
	b = strconv.AppendBool(b, e.Ignored)
	b = append(b, `,"unblamable":`...)
	b = strconv.AppendBool(b, e.Unblamable)
	b = append(b, "}\n"...)
	j.buf = b
	j.w.Write(b)
	j.err = j.w.Flush()
	return j.err
}

// Err returns the first error met while printing.
func (j *JSON) Err() error {
	if j.err != nil {
		return j.err
	}
	return j.w.Flush()
}

// appendCommitRecord appends the commit record of c: what porcelain's
// commit block says, from the same records.
func appendCommitRecord(b []byte, c *blamecore.Commit) ([]byte, error) {
	info, err := c.Info()
	if err != nil {
		return b, err
	}
	b = append(b, `{"type":"commit","id":"`...)
	b = c.ID.AppendHex(b)
	b = append(b, `","author":`...)
	b = appendPerson(b, c.Author(), info.AuthorTime)
	b = append(b, `,"committer":`...)
	b = appendPerson(b, c.Committer(), info.CommitterTime)
	b = append(b, ',')
	b = appendText(b, "summary", c.Summary())
	return append(b, "}\n"...), nil
}

// appendPerson appends an author or committer: the mailmapped name and
// email, the time in seconds as recorded (seconds is the recorded value,
// which p.Time cannot always hold) and in ISO 8601, and the zone text.
func appendPerson(b []byte, p blamecore.Person, seconds uint64) []byte {
	b = append(b, '{')
	b = appendText(b, "name", p.Name)
	b = append(b, ',')
	b = appendText(b, "email", p.Email)
	b = append(b, `,"time":`...)
	b = strconv.AppendUint(b, seconds, 10)
	b = append(b, `,"iso":`...)
	b = appendISOTime(b, seconds, p.Zone)
	b = append(b, ',')
	b = appendText(b, "zone", p.Zone)
	return append(b, '}')
}

// maxISOSeconds is 9999-12-31T23:59:59Z: later times have no four-digit
// year (the offset of a zone moves the limit by at most a day).
const maxISOSeconds = 253402300799

// appendISOTime appends seconds as an RFC 3339 (ISO 8601) date-time in
// the recorded zone: "2005-04-07T15:13:13-07:00", "-00:00" for git's
// "-0000" (RFC 3339's "offset unknown"), and in UTC ("Z") when the zone
// is not one RFC 3339 can write (not ±hhmm, hours above 23 or minutes
// above 59); null when the year has more than four digits.
func appendISOTime(b []byte, seconds uint64, zone string) []byte {
	offset, ok := zoneOffset(zone)
	if seconds > maxISOSeconds+24*3600 {
		return append(b, "null"...)
	}
	t := time.Unix(int64(seconds), 0).In(time.FixedZone("", offset))
	if t.Year() > 9999 {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = t.AppendFormat(b, "2006-01-02T15:04:05")
	if ok {
		b = append(b, zone[0], zone[1], zone[2], ':', zone[3], zone[4])
	} else {
		b = append(b, 'Z')
	}
	return append(b, '"')
}

// zoneOffset reads a zone "+hhmm" or "-hhmm" that RFC 3339 can write
// (hh at most 23, mm at most 59) as seconds east of UTC.
func zoneOffset(zone string) (int, bool) {
	if len(zone) != 5 || zone[0] != '+' && zone[0] != '-' {
		return 0, false
	}
	for i := 1; i < 5; i++ {
		if zone[i] < '0' || zone[i] > '9' {
			return 0, false
		}
	}
	hh := int(zone[1]-'0')*10 + int(zone[2]-'0')
	mm := int(zone[3]-'0')*10 + int(zone[4]-'0')
	if hh > 23 || mm > 59 {
		return 0, false
	}
	offset := (hh*60 + mm) * 60
	if zone[0] == '-' {
		offset = -offset
	}
	return offset, true
}

// appendText appends the field "key": s, and "keyBase64": the bytes of s
// when they are not valid UTF-8 (JSON text cannot hold them: the string
// has U+FFFD in their place).
func appendText(b []byte, key, s string) []byte {
	b = append(b, '"')
	b = append(b, key...)
	b = append(b, `":`...)
	b = jsontext.AppendString(b, s)
	if !utf8.ValidString(s) {
		b = append(b, `,"`...)
		b = append(b, key...)
		b = append(b, `Base64":"`...)
		b = base64.StdEncoding.AppendEncode(b, []byte(s))
		b = append(b, '"')
	}
	return b
}
