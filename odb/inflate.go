package odb

import "errors"

// maxDeflateRatio bounds how many bytes one byte of a deflate stream can
// inflate to (a 2-bit code can stand for a 258-byte match: 1032:1). Declared
// sizes beyond what the remaining compressed bytes could produce are
// rejected before anything is allocated.
const maxDeflateRatio = 1032

// maxInflatedFrom returns the largest size that n compressed bytes can
// inflate to.
func maxInflatedFrom(n int) uint64 { return uint64(n)*maxDeflateRatio + 1024 }

// errShortStream and errLongStream describe a zlib stream whose inflated
// length disagrees with the size its header declared.
var (
	errShortStream = errors.New("zlib stream ends before the declared size")
	errLongStream  = errors.New("zlib stream continues past the declared size")
)

// inflater is a Reader's zlib decoder: the whole-buffer decoder of
// flate.go, whose tables (about 60 KiB) are allocated on first use and
// reused for every object, so that steady-state reads allocate nothing.
type inflater struct {
	d *flateDecoder
}

func (z *inflater) decoder() *flateDecoder {
	if z.d == nil {
		z.d = new(flateDecoder)
	}
	return z.d
}

// inflate decompresses the zlib stream at the start of src into out, which
// must have exactly the declared inflated length. The stream must produce
// exactly len(out) bytes and end there, with a valid checksum. It returns
// how many bytes of src the stream occupied.
func (z *inflater) inflate(out, src []byte) (consumed int, err error) {
	_, consumed, err = z.decoder().inflateZlib(out, src, false, false)
	return consumed, err
}

// inflateSpare is inflate into a buffer of the reader's own, whose
// capacity past len(out) the decoder may overwrite: with fastSpare bytes
// of it, small streams decode faster (see inflateZlib).
func (z *inflater) inflateSpare(out, src []byte) (consumed int, err error) {
	_, consumed, err = z.decoder().inflateZlib(out, src, false, true)
	return consumed, err
}

// growSpare returns buf resized to n bytes with fastSpare bytes of
// capacity after them, reallocating when buf is too small.
func growSpare(buf []byte, n int) []byte {
	if cap(buf)-fastSpare >= n {
		return buf[:n]
	}
	return make([]byte, n, n+fastSpare)
}

// inflatePrefix decompresses the first len(buf) bytes of the stream at the
// start of src (fewer if the stream ends first) and returns how many it
// got. It is how a delta's size header or a loose object's type header is
// read without inflating the whole object.
func (z *inflater) inflatePrefix(buf, src []byte) (int, error) {
	n, _, err := z.decoder().inflateZlib(buf, src, true, false)
	return n, err
}

// inflatePrefixSpare is inflatePrefix into a buffer of the reader's own
// (its capacity past len(buf) is the decoder's to overwrite: see
// inflateSpare) that also returns how many bytes of src the decoder read
// (rounded up to whole bytes): where the stream goes on past buf, it
// goes on past them.
func (z *inflater) inflatePrefixSpare(buf, src []byte) (n, consumed int, err error) {
	return z.decoder().inflateZlib(buf, src, true, true)
}
