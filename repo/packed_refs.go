package repo

import (
	"bytes"
	"errors"
	"github.com/goblame/goblame/internal/fsread"
	"io/fs"
	"runtime"
	"sort"

	"github.com/goblame/goblame/oid"
)

// loadPacked reads packed-refs once: an optional "# pack-refs with:"
// header naming traits, then "<hex> SP <refname> LF" records, each
// optionally followed by a "^<hex> LF" peeled line. Files without the
// "sorted" trait are sorted in memory, as git does.
//
// A file above packedMapBytes is mapped rather than read, as git does: a
// lookup touches the few pages its binary search visits. The mapping
// lives as long as s (a cleanup unmaps it once s is unreachable), so the
// functions that search it keep s alive until they are done with it
// (runtime.KeepAlive); an unsorted file is copied when sorted and its
// mapping released at once.
func (s *refStore) loadPacked() ([]byte, error) {
	s.packedOnce.Do(func() {
		s.packedPath = s.commonName + "/packed-refs"
		data, mapped, err := fsread.MapFile(s.commonDir+"/packed-refs", 0, packedMapBytes)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				s.packedErr = &Error{Kind: ErrBadRef, Msg: "couldn't read " + s.packedPath + ": " + errnoText(err), Err: err}
			}
			return
		}
		s.packed, s.packedErr = s.parsePacked(data)
		if !mapped {
			return
		}
		if s.packedErr == nil && len(s.packed) > 0 && &s.packed[0] == &data[len(data)-len(s.packed)] {
			runtime.AddCleanup(s, fsread.Unmap, data)
			return
		}
		// An error message or a sorted copy holds none of the mapping.
		s.packed = bytes.Clone(s.packed)
		fsread.Unmap(data)
	})
	return s.packed, s.packedErr
}

// packedMapBytes is git's SMALL_FILE_SIZE: packed-refs files above it are
// mapped.
const packedMapBytes = 32 << 10

func (s *refStore) unterminated(p []byte) error {
	if len(p) < 80 {
		return newError(ErrBadRef, "unterminated line in %s: %s", s.packedPath, p)
	}
	return newError(ErrBadRef, "unterminated line in %s: %s...", s.packedPath, p[:75])
}

func (s *refStore) invalidLine(p []byte) error {
	eol := bytes.IndexByte(p, '\n')
	switch {
	case eol < 0:
		return s.unterminated(p)
	case eol < 80:
		return newError(ErrBadRef, "unexpected line in %s: %s", s.packedPath, p[:eol])
	}
	return newError(ErrBadRef, "unexpected line in %s: %s...", s.packedPath, p[:75])
}

// sortRecords sorts the records of an unsorted file by refname, keeping
// each peeled line with its record.
func (s *refStore) sortRecords(data []byte) ([]byte, error) {
	hexLen := s.format.HexSize()
	type record struct{ start, end int }
	var recs []record
	for pos := 0; pos < len(data); {
		eol := bytes.IndexByte(data[pos:], '\n')
		if eol < hexLen+1 {
			return nil, s.invalidLine(data[pos:])
		}
		end := pos + eol + 1
		if end < len(data) && data[end] == '^' {
			nl := bytes.IndexByte(data[end:], '\n')
			if nl < 0 {
				return nil, s.unterminated(data[end:])
			}
			end += nl + 1
		}
		recs = append(recs, record{pos, end})
		pos = end
	}
	name := func(r record) []byte {
		line := data[r.start:]
		return line[hexLen+1 : bytes.IndexByte(line, '\n')]
	}
	if sort.SliceIsSorted(recs, func(i, j int) bool { return bytes.Compare(name(recs[i]), name(recs[j])) < 0 }) {
		return data, nil
	}
	sort.SliceStable(recs, func(i, j int) bool { return bytes.Compare(name(recs[i]), name(recs[j])) < 0 })
	out := make([]byte, 0, len(data))
	for _, r := range recs {
		out = append(out, data[r.start:r.end]...)
	}
	return out, nil
}

// startOfRecord returns the start of the record containing data[pos]:
// the start of its line, or of the line before when that line is a
// peeled "^" line.
func startOfRecord(data []byte, pos int) int {
	for pos > 0 && data[pos-1] != '\n' {
		pos--
	}
	if pos > 0 && data[pos] == '^' {
		pos--
		for pos > 0 && data[pos-1] != '\n' {
			pos--
		}
	}
	return pos
}

// endOfRecord returns the start of the record after the one containing
// data[pos].
func endOfRecord(data []byte, pos int) int {
	nl := bytes.IndexByte(data[pos:], '\n')
	if nl < 0 {
		return len(data)
	}
	pos += nl + 1
	if pos < len(data) && data[pos] == '^' {
		nl = bytes.IndexByte(data[pos:], '\n')
		if nl < 0 {
			return len(data)
		}
		pos += nl + 1
	}
	return pos
}

// compareRecord compares the refname of the record at data[rec:] with
// name.
func compareRecord(data []byte, rec, hexLen int, name string) int {
	p := rec + hexLen + 1
	i := 0
	for {
		if p >= len(data) || data[p] == '\n' {
			if i < len(name) {
				return -1
			}
			return 0
		}
		if i >= len(name) {
			return 1
		}
		if data[p] != name[i] {
			if data[p] < name[i] {
				return -1
			}
			return 1
		}
		p++
		i++
	}
}

// readPacked looks name up in packed-refs by binary search over the
// record bytes.
func (s *refStore) readPacked(name string) (rawRef, error) {
	defer runtime.KeepAlive(s) // data may be s's mapping
	data, err := s.loadPacked()
	if err != nil {
		return rawRef{}, err
	}
	hexLen := s.format.HexSize()
	lo, hi := 0, len(data)
	for lo < hi {
		mid := lo + (hi-lo)/2
		rec := startOfRecord(data, mid)
		c := compareRecord(data, rec, hexLen, name)
		switch {
		case c < 0:
			lo = endOfRecord(data, mid)
		case c > 0:
			hi = rec
		default:
			if rec+hexLen > len(data) {
				return rawRef{}, s.invalidLine(data[rec:])
			}
			id, err := oid.ParseHexBytes(s.format, data[rec:rec+hexLen])
			if err != nil {
				return rawRef{}, s.invalidLine(data[rec:])
			}
			return rawRef{id: id, packed: true}, nil
		}
	}
	return rawRef{status: refMissing}, nil
}

// forEachPacked calls fn for every packed ref whose name starts with
// prefix, in name order. Like git it only looks at the records of that
// range (found by binary search).
func (s *refStore) forEachPacked(prefix string, fn func(name string, id oid.ID) error) error {
	defer runtime.KeepAlive(s) // data may be s's mapping
	data, err := s.loadPacked()
	if err != nil {
		return err
	}
	hexLen := s.format.HexSize()
	lo, hi := 0, len(data)
	for lo < hi {
		mid := lo + (hi-lo)/2
		rec := startOfRecord(data, mid)
		if compareRecord(data, rec, hexLen, prefix) < 0 {
			lo = endOfRecord(data, mid)
		} else {
			hi = rec
		}
	}
	for pos := lo; pos < len(data); {
		eol := bytes.IndexByte(data[pos:], '\n')
		if eol < 0 {
			return s.unterminated(data[pos:])
		}
		line := data[pos : pos+eol]
		rec := pos
		pos += eol + 1
		if len(line) > 0 && line[0] == '^' {
			continue
		}
		if len(line) < hexLen+2 || line[hexLen] != ' ' {
			return s.invalidLine(data[rec:])
		}
		name := line[hexLen+1:]
		if !bytes.HasPrefix(name, []byte(prefix)) {
			break
		}
		id, err := oid.ParseHexBytes(s.format, line[:hexLen])
		if err != nil {
			return s.invalidLine(data[rec:])
		}
		if err := fn(string(name), id); err != nil {
			return err
		}
	}
	return nil
}

// parsePacked checks a packed-refs file's header and last line and
// returns its records sorted by name.
func (s *refStore) parsePacked(data []byte) ([]byte, error) {
	sorted := false
	if len(data) > 0 && data[0] == '#' {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			return nil, s.unterminated(data)
		}
		traits, ok := bytes.CutPrefix(data[:nl], []byte("# pack-refs with:"))
		if !ok {
			return nil, s.invalidLine(data)
		}
		for _, t := range bytes.Split(traits, []byte(" ")) {
			if string(t) == "sorted" {
				sorted = true
			}
		}
		data = data[nl+1:]
	}
	hexLen := s.format.HexSize()
	if len(data) > 0 {
		last := startOfRecord(data, len(data)-1)
		if data[len(data)-1] != '\n' || len(data)-last < hexLen+2 {
			return nil, s.invalidLine(data[last:])
		}
	}
	if !sorted {
		return s.sortRecords(data)
	}
	return data, nil
}
