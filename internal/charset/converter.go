package charset

import (
	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// converter presents a charset as an x/text encoding: its decoder
// converts to UTF-8 and its encoder from UTF-8 (glibc's UTF-8, which
// carries the values beyond U+10FFFF that UCS-4 can hold in sequences of
// up to six bytes). Both convert the whole text once they have it all,
// as iconv does for git in one call.
type converter struct{ c charset }

func (e converter) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: &wholeText{convert: e.toUTF8}}
}

func (e converter) NewEncoder() *encoding.Encoder {
	return &encoding.Encoder{Transformer: &wholeText{convert: e.fromUTF8}}
}

func (e converter) toUTF8(dst, src []byte) ([]byte, bool) {
	rs, ok := e.c.decode(nil, src)
	if !ok {
		return nil, false
	}
	return utf8Charset{}.encode(dst, rs)
}

func (e converter) fromUTF8(dst, src []byte) ([]byte, bool) {
	rs, ok := utf8Charset{}.decode(nil, src)
	if !ok {
		return nil, false
	}
	return e.c.encode(dst, rs)
}

// wholeText is a transformer that takes its input up to the end and then
// writes the conversion of all of it.
type wholeText struct {
	convert func(dst, src []byte) ([]byte, bool)
	in      []byte
	out     []byte
	done    bool
	written int
}

func (w *wholeText) Reset() {
	w.in, w.out, w.done, w.written = w.in[:0], w.out[:0], false, 0
}

func (w *wholeText) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	if !w.done {
		if !atEOF {
			w.in = append(w.in, src...)
			return 0, len(src), nil
		}
		text := src
		if len(w.in) > 0 {
			text = append(w.in, src...)
		}
		out, ok := w.convert(w.out[:0], text)
		if !ok {
			return 0, 0, errNotConverted
		}
		w.out, w.done, nSrc = out, true, len(src)
	}
	nDst = copy(dst, w.out[w.written:])
	w.written += nDst
	if w.written < len(w.out) {
		return nDst, nSrc, transform.ErrShortDst
	}
	return nDst, nSrc, nil
}

const errNotConverted = charsetError("charset: iconv cannot convert the text")
