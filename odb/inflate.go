package odb

import (
	"bytes"
	"errors"
	"io"

	"github.com/klauspost/compress/zlib"
)

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

// inflater decompresses zlib streams held in memory (a slice of a mapped
// pack or of a loose file). One inflater belongs to one Reader and is reused
// for every object: after the first object it allocates nothing.
//
// It uses klauspost/compress's zlib reader, reset for each stream over a
// bytes.Reader (the decoder's fastest input path, and an io.ByteReader, so
// it never reads past the end of the stream). The zlib trailer's Adler-32
// checksum is verified, as zlib does for git.
type inflater struct {
	src bytes.Reader
	zr  io.ReadCloser
	one [1]byte
}

func (z *inflater) reset(src []byte) error {
	z.src.Reset(src)
	if z.zr == nil {
		zr, err := zlib.NewReader(&z.src)
		if err != nil {
			return err
		}
		z.zr = zr
		return nil
	}
	return z.zr.(zlib.Resetter).Reset(&z.src, nil)
}

// inflate decompresses the zlib stream at the start of src into out, which
// must have exactly the declared inflated length. The stream must produce
// exactly len(out) bytes and end there, with a valid checksum. It returns
// how many bytes of src the stream occupied.
func (z *inflater) inflate(out, src []byte) (consumed int, err error) {
	if err := z.reset(src); err != nil {
		return 0, err
	}
	if _, err := io.ReadFull(z.zr, out); err != nil {
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return 0, errShortStream
		}
		return 0, err
	}
	if err := z.finish(); err != nil {
		return 0, err
	}
	return len(src) - z.src.Len(), nil
}

// finish checks that the stream being read ends here (with its checksum).
func (z *inflater) finish() error {
	n, err := z.zr.Read(z.one[:])
	if n != 0 {
		return errLongStream
	}
	if err == io.EOF {
		return nil
	}
	if err == nil {
		// A reader may return (0, nil); ask once more.
		n, err = z.zr.Read(z.one[:])
		if n != 0 {
			return errLongStream
		}
		if err == io.EOF {
			return nil
		}
		if err == nil {
			return errLongStream
		}
	}
	if err == io.ErrUnexpectedEOF {
		return errShortStream
	}
	return err
}

// inflatePrefix decompresses at most len(buf) bytes of the stream at the
// start of src into buf and returns how many it got: fewer only if the
// stream ended (a stream that ends early is not checked further). It is how
// a delta's size header or a loose object's type header is read without
// inflating the whole object.
func (z *inflater) inflatePrefix(buf, src []byte) (int, error) {
	if err := z.reset(src); err != nil {
		return 0, err
	}
	n, err := io.ReadFull(z.zr, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return n, nil
	}
	return n, err
}

// readMore continues the stream started by inflatePrefix (or by a previous
// readMore), filling out completely, and when last is set checks that the
// stream ends exactly there.
func (z *inflater) readMore(out []byte, last bool) error {
	if _, err := io.ReadFull(z.zr, out); err != nil {
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return errShortStream
		}
		return err
	}
	if last {
		return z.finish()
	}
	return nil
}

// consumed reports how many bytes of the current source the stream has used.
func (z *inflater) consumed(srcLen int) int { return srcLen - z.src.Len() }
