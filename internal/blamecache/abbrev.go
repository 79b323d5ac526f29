package blamecache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/goblame/goblame/oid"
)

// An area also keeps the abbreviation lengths its blames printed: for a
// fingerprint of the object database (odb.AbbrevFingerprint), the
// shortest unique length of each commit abbreviated while the database
// had it. A blame printed from an entry abbreviates the same commits
// again, and computing each length costs a search of every pack index
// (a page fault or two each).
//
// The file, abbrev/<hash of the fingerprint>:
//
//	magic "goblame-abbrev\x00" version 1
//	fingerprint    length, bytes (the file answers only this one)
//	lengths        count, then per commit: raw ID, length (one byte)
//	checksum       SHA-256 of everything before it
const abbrevMagic = "goblame-abbrev\x00\x01"

func (a *Area) abbrevPath(fp []byte) string {
	sum := sha256.Sum256(fp)
	return filepath.Join(a.dir, "abbrev", hex.EncodeToString(sum[:16]))
}

// LoadAbbrevs returns the lengths kept for fingerprint fp; empty when
// there are none or the file cannot be trusted.
func (a *Area) LoadAbbrevs(fp []byte) map[oid.ID]int {
	name := a.abbrevPath(fp)
	data, err := readEntry(name)
	if err != nil {
		return nil
	}
	out, ok := decodeAbbrevs(data, fp, a.format)
	if !ok {
		os.Remove(name)
		return nil
	}
	now := time.Now()
	os.Chtimes(name, now, now) // used: the least recently used go first
	return out
}

// SaveAbbrevs writes lengths as the ones kept for fp, replacing the file
// atomically. Errors only cost the next blame its speed.
func (a *Area) SaveAbbrevs(fp []byte, lengths map[oid.ID]int) error {
	dir := filepath.Join(a.dir, "abbrev")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return a.s.writeFile(dir, a.abbrevPath(fp), encodeAbbrevs(fp, a.format, lengths))
}

func encodeAbbrevs(fp []byte, format oid.Format, lengths map[oid.ID]int) []byte {
	ids := make([]oid.ID, 0, len(lengths))
	for id, n := range lengths {
		if id.Format() == format && n > 0 && n < 256 {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, oid.ID.Compare)
	b := make([]byte, 0, len(abbrevMagic)+len(fp)+2*binary.MaxVarintLen64+len(ids)*(format.Size()+1)+sha256.Size)
	b = append(b, abbrevMagic...)
	b = binary.AppendUvarint(b, uint64(len(fp)))
	b = append(b, fp...)
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		b = append(b, id.Raw()...)
		b = append(b, byte(lengths[id]))
	}
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

func decodeAbbrevs(data, fp []byte, format oid.Format) (map[oid.ID]int, bool) {
	if len(data) < len(abbrevMagic)+sha256.Size || !bytes.HasPrefix(data, []byte(abbrevMagic)) {
		return nil, false
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if want := sha256.Sum256(body); !bytes.Equal(sum, want[:]) {
		return nil, false
	}
	d := &decoder{b: body[len(abbrevMagic):]}
	if !bytes.Equal(d.bytes(d.int(len(d.b)+1)), fp) {
		return nil, false
	}
	size := format.Size()
	n := d.count(size + 1)
	out := make(map[oid.ID]int, n)
	for range n {
		id := d.id(format)
		l := d.bytes(1)
		if d.err != nil || l[0] == 0 {
			return nil, false
		}
		out[id] = int(l[0])
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, false
	}
	return out, true
}
