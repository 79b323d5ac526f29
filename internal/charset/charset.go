package charset

import (
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// Open returns the encodings git's reencode_string_len converts with from
// the encoding named from to the one named to: src decodes from to UTF-8,
// dst encodes UTF-8 to to. ok is false when git could not open the
// conversion, and then git leaves the text as it is.
func Open(to, from string) (dst, src encoding.Encoding, ok bool) {
	// "UTF-16LE-BOM" is the same as UTF-16 for reading; for writing,
	// UTF-16LE-BOM and UTF-16BE-BOM are a byte order mark and then
	// UTF-16LE or UTF-16BE.
	if sameUTFEncoding("UTF-16LE-BOM", from) {
		from = "UTF-16"
	}
	switch {
	case sameUTFEncoding("UTF-16LE-BOM", to):
		dst = utf16{bom: true, always: true}
	case sameUTFEncoding("UTF-16BE-BOM", to):
		dst = utf16{big: true, bom: true, always: true}
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
// it.
func Lookup(name string) encoding.Encoding {
	key, ok := normalize(name)
	if !ok {
		return nil
	}
	return byName(key)
}

// fallbackName is git's fallback_encoding: the official spelling of UTF-8
// and "ISO-8859-1" for "latin-1".
func fallbackName(name string) string {
	switch {
	case strings.EqualFold(name, "utf-8") || strings.EqualFold(name, "utf8"):
		return "UTF-8"
	case strings.EqualFold(name, "latin-1"):
		return "ISO-8859-1"
	}
	return name
}

// sameUTFEncoding is git's same_utf_encoding: both names start with
// "utf" (in any case) and are equal without case after it, with an
// optional "-" after "utf" in either.
func sameUTFEncoding(a, b string) bool {
	if len(a) < 3 || len(b) < 3 || !strings.EqualFold(a[:3], "utf") || !strings.EqualFold(b[:3], "utf") {
		return false
	}
	return strings.EqualFold(strings.TrimPrefix(a[3:], "-"), strings.TrimPrefix(b[3:], "-"))
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

// The converters built into glibc that x/text has no encoding for as iconv
// runs them: UTF-8 (and ASCII) fail on invalid input instead of replacing
// it (UTF-16 is in utf16.go).
var (
	utf8Strict encoding.Encoding = validating{utf8Validator{}}
	ascii      encoding.Encoding = validating{asciiValidator{}}
)

// validating is an encoding whose decoder and encoder copy their input and
// fail at the first byte that is not valid.
type validating struct{ validator transform.Transformer }

func (v validating) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: v.validator}
}

func (v validating) NewEncoder() *encoding.Encoder {
	return &encoding.Encoder{Transformer: v.validator}
}

// utf8Validator is x/text's UTF8Validator (held by type, not copied from
// x/text's variable, so that no initialisation code is needed).
type utf8Validator struct{ transform.NopResetter }

func (utf8Validator) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	return encoding.UTF8Validator.Transform(dst, src, atEOF)
}

// asciiValidator copies bytes below 0x80 and fails on any other.
type asciiValidator struct{ transform.NopResetter }

func (asciiValidator) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	n := min(len(dst), len(src))
	for i := 0; i < n; i++ {
		if src[i] >= 0x80 {
			return i, i, errNotASCII
		}
		dst[i] = src[i]
	}
	if n < len(src) {
		return n, n, transform.ErrShortDst
	}
	return n, n, nil
}

type charsetError string

func (e charsetError) Error() string { return string(e) }

const errNotASCII = charsetError("charset: byte not in ASCII")
