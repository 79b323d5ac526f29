package charset

import (
	"strings"

	"golang.org/x/text/encoding"
)

// charset is a character set as glibc's iconv converts it, a whole text
// at a time from the initial state, in one call and without the flush
// that would write a character held back at the end (git's
// reencode_string_iconv makes no such call).
type charset interface {
	// decode appends the code points of src to dst; ok is false where
	// iconv fails (an invalid or incomplete sequence).
	decode(dst []rune, src []byte) (out []rune, ok bool)
	// encode appends the bytes of src to dst; ok is false where iconv
	// fails (a code point the character set does not have).
	encode(dst []byte, src []rune) (out []byte, ok bool)
}

// Reencode converts text from the encoding named from to the one named
// to as git's reencode_string_len does with glibc's iconv: "UTF-16LE-BOM"
// reads as UTF-16 and, as to, writes a byte order mark and then UTF-16LE
// ("UTF-16BE-BOM" likewise); names iconv does not know are tried again
// with git's fallback spellings; glibc's direct conversions (EUC-CN to
// BIG5, GBK to EUC-CN, ...) are made as glibc makes them, without going
// through Unicode. ok is false when git gets no result, because iconv
// cannot open the conversion or fails on the text; git then keeps the
// text as it is.
func Reencode(text []byte, to, from string) (out []byte, ok bool) {
	if sameUTFEncoding("UTF-16LE-BOM", from) {
		from = "UTF-16"
	}
	var bom string
	switch {
	case sameUTFEncoding("UTF-16LE-BOM", to):
		bom, to = "\xff\xfe", "UTF-16LE"
	case sameUTFEncoding("UTF-16BE-BOM", to):
		bom, to = "\xfe\xff", "UTF-16BE"
	}
	dst, src := lookup(to), lookup(from)
	if dst == nil || src == nil {
		// git retries iconv_open with its fallback spellings.
		dst, src = lookup(fallbackName(to)), lookup(fallbackName(from))
		if dst == nil || src == nil {
			return nil, false
		}
	}
	out = append(make([]byte, 0, len(bom)+len(text)), bom...)
	if d := directBetween(src, dst); d != nil {
		return d.convert(out, text)
	}
	rs, ok := src.decode(nil, text)
	if !ok {
		return nil, false
	}
	return dst.encode(out, rs)
}

// Open returns the encodings git converts with from the encoding named
// from to the one named to, through UTF-8: src decodes from to UTF-8 and
// dst encodes UTF-8 to to, each converting the whole text at its end, as
// iconv does for git. ok is false when git could not open the conversion,
// and then git leaves the text as it is. Open is for conversions to and
// from UTF-8; Reencode makes glibc's direct conversions between other
// character sets.
func Open(to, from string) (dst, src encoding.Encoding, ok bool) {
	// "UTF-16LE-BOM" is the same as UTF-16 for reading; for writing,
	// UTF-16LE-BOM and UTF-16BE-BOM are a byte order mark and then
	// UTF-16LE or UTF-16BE.
	if sameUTFEncoding("UTF-16LE-BOM", from) {
		from = "UTF-16"
	}
	switch {
	case sameUTFEncoding("UTF-16LE-BOM", to):
		dst = converter{utf16{bom: true, always: true}}
	case sameUTFEncoding("UTF-16BE-BOM", to):
		dst = converter{utf16{big: true, bom: true, always: true}}
	default:
		dst = Lookup(to)
	}
	src = Lookup(from)
	if dst == nil || src == nil {
		// git retries iconv_open with its fallback spellings.
		if dst == nil {
			dst = Lookup(fallbackName(to))
		}
		if src == nil {
			src = Lookup(fallbackName(from))
		}
	}
	return dst, src, dst != nil && src != nil
}

// Lookup returns the encoding glibc's iconv_open opens for name, or nil
// when iconv knows no such character set or goblame has no converter for
// it (a stateful one: ISO-2022-KR, UTF-7, the EBCDIC double-byte sets).
// The returned encoding's decoder and encoder convert to and from UTF-8.
func Lookup(name string) encoding.Encoding {
	c := lookup(name)
	if c == nil {
		return nil
	}
	return converter{c}
}

// lookup returns the character set iconv_open opens for name, or nil.
func lookup(name string) charset {
	key, ok := normalize(name)
	if !ok {
		return nil
	}
	return byName(key)
}

// SameEncoding is git's same_encoding: whether git converts nothing
// between encodings so named, both spellings of one UTF (sameUTFEncoding)
// or equal but for ASCII case.
func SameEncoding(a, b string) bool {
	return sameUTFEncoding(a, b) || equalFoldASCII(a, b)
}

// equalFoldASCII is strcasecmp(a, b) == 0 in the C locale.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		c, d := a[i], b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if 'A' <= d && d <= 'Z' {
			d += 'a' - 'A'
		}
		if c != d {
			return false
		}
	}
	return true
}

// fallbackName is git's fallback_encoding: the official spelling of UTF-8
// and "ISO-8859-1" for "latin-1".
func fallbackName(name string) string {
	switch {
	case sameUTFEncoding("utf-8", name):
		return "UTF-8"
	case equalFoldASCII(name, "latin-1"):
		return "ISO-8859-1"
	}
	return name
}

// sameUTFEncoding is git's same_utf_encoding: both names start with
// "utf" (in any case) and are equal without case after it, with an
// optional "-" after "utf" in either.
func sameUTFEncoding(a, b string) bool {
	if len(a) < 3 || len(b) < 3 || !equalFoldASCII(a[:3], "utf") || !equalFoldASCII(b[:3], "utf") {
		return false
	}
	return equalFoldASCII(strings.TrimPrefix(a[3:], "-"), strings.TrimPrefix(b[3:], "-"))
}

// normalize turns a name into the form glibc's gconv database is keyed by,
// as __gconv_create_spec does for iconv_open (gconv_charset.c): trailing
// white space, "/" and "," go, then suffixes ("//TRANSLIT", "/IGNORE",
// ",x") after the second "/"; what is left is upper-cased, keeping only
// letters, digits and "_-.,:" and at most two "/", and padded to two "/"
// ("ISO-8859-1//", "ISO-10646/UTF8/"). ok is false for an empty name,
// which iconv_open would take as the locale's character set.
//
// The suffixes only matter for the target of a conversion, and then only
// when something cannot be converted: goblame fails there as iconv without
// them does (git then keeps the text).
func normalize(name string) (string, bool) {
	code := name
	for {
		code = strings.TrimRight(code, " \t\n\v\f\r,/")
		if code == "" {
			return "", false
		}
		slashes, suffix := 0, -1
		for i := 0; i < len(code); i++ {
			switch code[i] {
			case '/':
				slashes++
				suffix = i
			case ',':
				suffix = i
			}
		}
		if slashes <= 1 {
			break
		}
		code = code[:suffix+1]
	}
	var b strings.Builder
	b.Grow(len(code) + 2)
	slashes := 0
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case 'a' <= c && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
		case 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-', c == '.', c == ',', c == ':':
			b.WriteByte(c)
		case c == '/':
			slashes++
			if slashes == 3 {
				i = len(code)
				continue
			}
			b.WriteByte('/')
		}
	}
	for ; slashes < 2; slashes++ {
		b.WriteByte('/')
	}
	return b.String(), true
}

type charsetError string

func (e charsetError) Error() string { return string(e) }
