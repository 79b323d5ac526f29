package charset

import (
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// utf16 is UTF-16 as glibc's iconv converts it: UTF-16LE and UTF-16BE
// without a byte order mark (a U+FEFF at the start is a character), and
// "UTF-16" (bom), which reads a mark if there is one, little-endian
// otherwise, and writes a little-endian mark. An unpaired surrogate, a
// truncated code unit or invalid UTF-8 to encode is an error (iconv's
// EILSEQ or EINVAL; git then keeps the text).
//
// goblame has its own rather than golang.org/x/text/encoding/unicode's,
// which replaces what is invalid and builds tables when the program
// starts.
//
// With always, the encoder writes the mark even for empty text, as git
// does for its UTF-16LE-BOM and UTF-16BE-BOM (a mark, then UTF-16LE or
// UTF-16BE); iconv's "UTF-16" writes one before the first character.
type utf16 struct {
	big    bool // big-endian (without a mark, or what bom writes)
	bom    bool
	always bool
}

func (u utf16) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: &utf16Decoder{conf: u}}
}

func (u utf16) NewEncoder() *encoding.Encoder {
	return &encoding.Encoder{Transformer: &utf16Encoder{conf: u}}
}

type utf16Decoder struct {
	conf    utf16
	started bool // the mark, if any, has been read
	big     bool
}

func (d *utf16Decoder) Reset() { d.started = false }

func (d *utf16Decoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	if !d.started {
		d.big = d.conf.big
		if d.conf.bom {
			if len(src) < 2 && !atEOF {
				return 0, 0, transform.ErrShortSrc
			}
			switch {
			case len(src) >= 2 && src[0] == 0xFE && src[1] == 0xFF:
				d.big, nSrc = true, 2
			case len(src) >= 2 && src[0] == 0xFF && src[1] == 0xFE:
				d.big, nSrc = false, 2
			default:
				d.big = false // glibc's default on a little-endian machine
			}
		}
		d.started = true
	}
	unit := func(b []byte) rune {
		if d.big {
			return rune(b[0])<<8 | rune(b[1])
		}
		return rune(b[1])<<8 | rune(b[0])
	}
	for nSrc < len(src) {
		if len(src)-nSrc < 2 {
			if atEOF {
				return nDst, nSrc, errInvalidUTF16
			}
			return nDst, nSrc, transform.ErrShortSrc
		}
		r, size := unit(src[nSrc:]), 2
		switch {
		case 0xD800 <= r && r < 0xDC00:
			if len(src)-nSrc < 4 {
				if atEOF {
					return nDst, nSrc, errInvalidUTF16
				}
				return nDst, nSrc, transform.ErrShortSrc
			}
			lo := unit(src[nSrc+2:])
			if lo < 0xDC00 || lo > 0xDFFF {
				return nDst, nSrc, errInvalidUTF16
			}
			r, size = 0x10000+(r-0xD800)<<10+(lo-0xDC00), 4
		case 0xDC00 <= r && r <= 0xDFFF:
			return nDst, nSrc, errInvalidUTF16
		}
		if len(dst)-nDst < utf8.RuneLen(r) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
		nSrc += size
	}
	return nDst, nSrc, nil
}

type utf16Encoder struct {
	conf    utf16
	started bool // the mark, if any, has been written
}

func (e *utf16Encoder) Reset() { e.started = false }

func (e *utf16Encoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	put := func(r rune) {
		if e.conf.big {
			dst[nDst], dst[nDst+1] = byte(r>>8), byte(r)
		} else {
			dst[nDst], dst[nDst+1] = byte(r), byte(r>>8)
		}
		nDst += 2
	}
	if !e.started && e.conf.bom && (e.conf.always || len(src) > 0) {
		if len(dst) < 2 {
			return 0, 0, transform.ErrShortDst
		}
		put(0xFEFF)
		e.started = true
	}
	for nSrc < len(src) {
		r, size := utf8.DecodeRune(src[nSrc:])
		if r == utf8.RuneError && size <= 1 {
			if !atEOF && !utf8.FullRune(src[nSrc:]) {
				return nDst, nSrc, transform.ErrShortSrc
			}
			return nDst, nSrc, errInvalidUTF8
		}
		need := 2
		if r > 0xFFFF {
			need = 4
		}
		if len(dst)-nDst < need {
			return nDst, nSrc, transform.ErrShortDst
		}
		if r > 0xFFFF {
			r -= 0x10000
			put(0xD800 + r>>10)
			put(0xDC00 + r&0x3FF)
		} else {
			put(r)
		}
		nSrc += size
	}
	return nDst, nSrc, nil
}

const (
	errInvalidUTF16 = charsetError("charset: invalid UTF-16")
	errInvalidUTF8  = charsetError("charset: invalid UTF-8")
)
