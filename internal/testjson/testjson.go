// Package testjson reads goblame's --json output for tests: every record
// is validated against the committed schema (format.JSONSchema) with a
// JSON Schema validator (github.com/santhosh-tekuri/jsonschema, draft
// 2020-12, formats asserted), then decoded into Go values, text fields
// resolved to their exact bytes (the <field>Base64 siblings). Only tests
// import it: the validator stays out of the goblame binary.
//
// # Concurrency
//
// Schema compiles the schema once; the functions may run at once.
package testjson

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/goblame/goblame/format"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaURL is the schema's $id.
const SchemaURL = "https://github.com/goblame/goblame/format/blame.schema.json"

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// Schema returns the committed schema, compiled.
func Schema() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(format.JSONSchema()))
		if err != nil {
			schemaErr = fmt.Errorf("blame.schema.json: %w", err)
			return
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		c.AssertContent()
		if err := c.AddResource(SchemaURL, doc); err != nil {
			schemaErr = err
			return
		}
		schema, schemaErr = c.Compile(SchemaURL)
	})
	return schema, schemaErr
}

// Text is a text field: the string and, when present, its exact bytes.
type Text struct {
	String string
	Bytes  []byte // nil: String's bytes
}

// Raw returns the field's exact bytes.
func (t Text) Raw() string {
	if t.Bytes != nil {
		return string(t.Bytes)
	}
	return t.String
}

// Person is an author or committer.
type Person struct {
	Name, Email Text
	Time        uint64
	ISO         *string
	Zone        Text
}

// Previous is an entry's previous version.
type Previous struct {
	Commit string
	Path   Text
}

// Range is a header range.
type Range struct{ FinalLine, NumLines int }

// Record is one record of any type; the fields of the other types are
// zero.
type Record struct {
	Type string
	// header
	Version      int
	ObjectFormat string
	Path         Text // header and entry
	Commit       string
	Uncommitted  bool // header and entry
	NumLines     int  // header and entry
	Ranges       []Range
	// commit
	ID                string
	Author, Committer Person
	Summary           Text
	// entry
	FinalLine, SourceLine         int
	Previous                      *Previous
	Boundary, Ignored, Unblamable bool
}

// Decode validates every line of out against the schema and decodes it.
// Every line must end in a newline.
func Decode(out []byte) ([]Record, error) {
	sch, err := Schema()
	if err != nil {
		return nil, err
	}
	if len(out) > 0 && out[len(out)-1] != '\n' {
		return nil, fmt.Errorf("the output does not end in a newline")
	}
	var recs []Record
	for n, line := range bytes.SplitAfter(out, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if !utf8.Valid(line) {
			return nil, fmt.Errorf("record %d is not UTF-8: %q", n+1, line)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
		if err != nil {
			return nil, fmt.Errorf("record %d is not JSON: %v: %s", n+1, err, line)
		}
		if err := sch.Validate(inst); err != nil {
			return nil, fmt.Errorf("record %d does not satisfy the schema: %v\n%s", n+1, err, line)
		}
		r, err := decodeRecord(line)
		if err != nil {
			return nil, fmt.Errorf("record %d: %v: %s", n+1, err, line)
		}
		recs = append(recs, r)
	}
	return recs, nil
}

// decodeRecord decodes a record the schema accepted.
func decodeRecord(line []byte) (Record, error) {
	var m map[string]json.RawMessage
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		return Record{}, err
	}
	var r Record
	var err error
	get := func(key string, v any) {
		if raw, ok := m[key]; ok && err == nil {
			err = json.Unmarshal(raw, v)
		}
	}
	get("type", &r.Type)
	get("version", &r.Version)
	get("objectFormat", &r.ObjectFormat)
	get("commit", &r.Commit)
	get("uncommitted", &r.Uncommitted)
	get("numLines", &r.NumLines)
	get("ranges", &r.Ranges)
	get("id", &r.ID)
	get("finalLine", &r.FinalLine)
	get("sourceLine", &r.SourceLine)
	get("boundary", &r.Boundary)
	get("ignored", &r.Ignored)
	get("unblamable", &r.Unblamable)
	if err != nil {
		return r, err
	}
	if r.Path, err = text(m, "path"); err != nil {
		return r, err
	}
	if r.Summary, err = text(m, "summary"); err != nil {
		return r, err
	}
	for key, p := range map[string]*Person{"author": &r.Author, "committer": &r.Committer} {
		if raw, ok := m[key]; ok {
			if *p, err = person(raw); err != nil {
				return r, fmt.Errorf("%s: %v", key, err)
			}
		}
	}
	if raw, ok := m["previous"]; ok && string(raw) != "null" {
		var pm map[string]json.RawMessage
		if err := json.Unmarshal(raw, &pm); err != nil {
			return r, err
		}
		r.Previous = &Previous{}
		if err := json.Unmarshal(pm["commit"], &r.Previous.Commit); err != nil {
			return r, err
		}
		if r.Previous.Path, err = text(pm, "path"); err != nil {
			return r, err
		}
	}
	return r, nil
}

func person(raw json.RawMessage) (Person, error) {
	var m map[string]json.RawMessage
	var p Person
	if err := json.Unmarshal(raw, &m); err != nil {
		return p, err
	}
	var err error
	if p.Name, err = text(m, "name"); err != nil {
		return p, err
	}
	if p.Email, err = text(m, "email"); err != nil {
		return p, err
	}
	if p.Zone, err = text(m, "zone"); err != nil {
		return p, err
	}
	if err := json.Unmarshal(m["time"], &p.Time); err != nil {
		return p, err
	}
	if err := json.Unmarshal(m["iso"], &p.ISO); err != nil {
		return p, err
	}
	return p, nil
}

// text reads the text field key and its Base64 sibling, which must be
// there exactly when the bytes are not valid UTF-8, and must then be
// what the string shows (U+FFFD for each invalid byte sequence).
func text(m map[string]json.RawMessage, key string) (Text, error) {
	var t Text
	raw, ok := m[key]
	if !ok {
		return t, nil
	}
	if err := json.Unmarshal(raw, &t.String); err != nil {
		return t, err
	}
	if b64, ok := m[key+"Base64"]; ok {
		var s string
		if err := json.Unmarshal(b64, &s); err != nil {
			return t, err
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return t, fmt.Errorf("%sBase64: %v", key, err)
		}
		if utf8.Valid(b) {
			return t, fmt.Errorf("%sBase64 holds valid UTF-8 %q", key, b)
		}
		if shown := strings.ToValidUTF8(string(b), "\uFFFD"); !sameShown(shown, t.String) {
			return t, fmt.Errorf("%s is %q, but its bytes %q show as %q", key, t.String, b, shown)
		}
		t.Bytes = b
	}
	return t, nil
}

// sameShown compares the string of a text field with its bytes made
// valid: encoding/json (and goblame) replace each invalid byte by U+FFFD
// where strings.ToValidUTF8 replaces a run of them by one.
func sameShown(shown, s string) bool {
	collapse := func(s string) string {
		for strings.Contains(s, "\uFFFD\uFFFD") {
			s = strings.ReplaceAll(s, "\uFFFD\uFFFD", "\uFFFD")
		}
		return s
	}
	return collapse(shown) == collapse(s)
}
