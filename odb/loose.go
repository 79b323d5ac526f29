package odb

import (
	"bytes"
	"encoding/hex"
	"github.com/goblame/goblame/internal/fsread"
	"io"
	"path/filepath"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// Loose objects: <objects>/<2 hex>/<rest of the hex>, one zlib stream that
// inflates to "<type> <decimal size>\0<content>".

// maxLooseHeader is git's MAX_HEADER_LEN: the header must appear within
// the first 32 inflated bytes.
const maxLooseHeader = 32

func loosePath(dir string, format oid.Format, raw []byte) string {
	var buf [2 * oid.MaxSize]byte
	h := buf[:2*format.Size()]
	hex.Encode(h, raw[:format.Size()])
	return filepath.Join(dir, string(h[:2]), string(h[2:]))
}

// parseLooseHeader parses "<type> <size>\0" (git's parse_loose_header):
// the size is decimal without leading zeros and must be followed by NUL.
// It returns the type, the size and the header length including the NUL.
func parseLooseHeader(hdr []byte) (object.Type, int64, int, string) {
	sp := bytes.IndexByte(hdr, ' ')
	nul := bytes.IndexByte(hdr, 0)
	if nul < 0 {
		return 0, 0, 0, "loose object header too long or unterminated"
	}
	if sp < 0 || sp > nul {
		return 0, 0, 0, "loose object header has no size"
	}
	typ := object.ParseType(hdr[:sp])
	if typ == object.Invalid {
		return 0, 0, 0, "invalid object type " + quoteBytes(hdr[:sp])
	}
	digits := hdr[sp+1 : nul]
	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) {
		return 0, 0, 0, "bad loose object size"
	}
	var size int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, 0, 0, "bad loose object size"
		}
		if size > (1<<62)/10 {
			return 0, 0, 0, "loose object size overflows"
		}
		size = size*10 + int64(c-'0')
	}
	return typ, size, nul + 1, ""
}

func quoteBytes(b []byte) string {
	if len(b) > 32 {
		b = b[:32]
	}
	return "\"" + string(bytes.ToValidUTF8(b, []byte("?"))) + "\""
}

// readLooseFile reads a whole loose file into the reader's reusable buffer.
func (r *Reader) readLooseFile(path string) ([]byte, error) {
	f, st, err := fsread.OpenStat(path, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n := st.Size()
	if int64(int(n)) != n {
		return nil, corrupt(path, -1, nil, "loose object file too large")
	}
	if int64(cap(r.looseBuf)) < n {
		r.looseBuf = make([]byte, n)
	}
	buf := r.looseBuf[:n]
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// looseHeader inflates the beginning of a loose object and parses its
// header. It returns the type, the size and the header length.
func (r *Reader) looseHeader(path string, file []byte) (object.Type, int64, int, error) {
	n, err := r.inflater.inflatePrefix(r.hdrBuf[:], file)
	if err != nil {
		return 0, 0, 0, corrupt(path, -1, err, "unable to unpack loose object header")
	}
	typ, size, hlen, msg := parseLooseHeader(r.hdrBuf[:n])
	if msg != "" {
		return 0, 0, 0, corrupt(path, 0, nil, "%s", msg)
	}
	return typ, size, hlen, nil
}

// readLoose reads the loose object raw from dir into dst.
func (r *Reader) readLoose(dir string, raw []byte, dst []byte) (object.Type, []byte, error) {
	path := loosePath(dir, r.db.format, raw)
	file, err := r.readLooseFile(path)
	if err != nil {
		return 0, nil, err
	}
	typ, size, hlen, err := r.looseHeader(path, file)
	if err == nil && uint64(size) > maxInflatedFrom(len(file)) {
		err = corrupt(path, 0, nil, "loose object claims %d bytes, more than its %d compressed bytes can hold", size, len(file))
	}
	if err == nil && uint64(size) > r.db.maxObject {
		return 0, nil, r.db.tooLarge(path, -1, uint64(size))
	}
	if err == nil {
		// Inflate header and content together into dst, then drop the
		// header.
		buf := grow(dst, hlen+int(size))
		var used int
		used, err = r.inflater.inflate(buf, file)
		if err != nil {
			err = corrupt(path, -1, err, "unable to unpack loose object contents")
		} else if used != len(file) {
			err = corrupt(path, int64(used), nil, "garbage at end of loose object")
		} else {
			copy(buf, buf[hlen:])
			r.stats.BytesInflated += size
			return typ, buf[:size], nil
		}
	}
	typ, _, data, err := r.looseAsGit(path, file, raw, true, err)
	return typ, data, err
}

// looseInfo returns the type and size of a loose object without inflating
// its content.
func (r *Reader) looseInfo(dir string, raw []byte) (object.Type, int64, error) {
	path := loosePath(dir, r.db.format, raw)
	file, err := r.readLooseFile(path)
	if err != nil {
		return 0, 0, err
	}
	typ, size, _, err := r.looseHeader(path, file)
	if err == nil {
		return typ, size, nil
	}
	typ, size, _, err = r.looseAsGit(path, file, raw, false, err)
	return typ, size, err
}

// looseAsGit reads a loose file the fast path refused with err as git
// reads it (replayLoose): the type, size and (withContent) content git
// reads after all, or err with git's failure attached.
func (r *Reader) looseAsGit(path string, file, raw []byte, withContent bool, err error) (object.Type, int64, []byte, error) {
	id := oid.FromBytes(r.db.format, raw)
	// git pads a stream that ends short of its declared size with what
	// it allocated; goblame pads with zeros, no further than the bound
	// every read has.
	rep := replayLoose(file, id.String(), r.db.gitName(path), withContent, min(r.db.maxObject, maxInflatedFrom(len(file))))
	if rep.fail != nil {
		ce, ok := err.(*CorruptError)
		if !ok {
			ce = corrupt(path, -1, err, "unreadable loose object")
		}
		ce.Git, ce.ID = rep.fail, id
		return 0, 0, nil, ce
	}
	if withContent && rep.content == nil {
		if uint64(rep.size) <= maxInflatedFrom(len(file)) {
			return 0, 0, nil, r.db.tooLarge(path, -1, uint64(rep.size))
		}
		return 0, 0, nil, err // padding git would allocate, refused
	}
	r.stats.BytesInflated += int64(len(rep.content))
	return rep.typ, rep.size, rep.content, nil
}

// grow returns dst resized to n bytes, reusing its storage when it can.
func grow(dst []byte, n int) []byte {
	if cap(dst) >= n {
		return dst[:n]
	}
	return make([]byte, n)
}
