package charset

// The Unicode encodings, as glibc's iconv converts them: strict (an
// unpaired surrogate, a truncated code unit, a value beyond what the form
// holds is an error, never a replacement character), with glibc's choices
// where the forms leave one: UTF-8 of up to six bytes (values to
// 0x7FFFFFFF, which UCS-4 carries), little-endian byte order where the
// form names none (this is a little-endian machine's iconv), a byte order
// mark read and written only by "UTF-16", "UTF-32" and "UNICODE".
//
// goblame has its own rather than golang.org/x/text/encoding/unicode's,
// which replaces what is invalid and builds tables when the program
// starts.

// utf8Charset is UTF-8 as glibc reads and writes it: sequences of one to
// six bytes, none longer than needed, no surrogates.
type utf8Charset struct{}

func (utf8Charset) decode(dst []rune, src []byte) ([]rune, bool) {
	for i := 0; i < len(src); {
		c := src[i]
		if c < 0x80 {
			dst = append(dst, rune(c))
			i++
			continue
		}
		var n int
		var r, min rune
		switch {
		case c >= 0xC2 && c <= 0xDF:
			n, r, min = 2, rune(c&0x1F), 0x80
		case c >= 0xE0 && c <= 0xEF:
			n, r, min = 3, rune(c&0x0F), 0x800
		case c >= 0xF0 && c <= 0xF7:
			n, r, min = 4, rune(c&0x07), 0x10000
		case c >= 0xF8 && c <= 0xFB:
			n, r, min = 5, rune(c&0x03), 0x200000
		case c >= 0xFC && c <= 0xFD:
			n, r, min = 6, rune(c&0x01), 0x4000000
		default:
			return dst, false
		}
		if len(src)-i < n {
			return dst, false
		}
		for _, t := range src[i+1 : i+n] {
			if t&0xC0 != 0x80 {
				return dst, false
			}
			r = r<<6 | rune(t&0x3F)
		}
		if r < min || isSurrogate(r) {
			return dst, false
		}
		dst = append(dst, r)
		i += n
	}
	return dst, true
}

func (utf8Charset) encode(dst []byte, src []rune) ([]byte, bool) {
	for _, r := range src {
		switch {
		case r < 0 || isSurrogate(r):
			return dst, false
		case r < 0x80:
			dst = append(dst, byte(r))
		case r < 0x800:
			dst = append(dst, 0xC0|byte(r>>6), 0x80|byte(r&0x3F))
		case r < 0x10000:
			dst = append(dst, 0xE0|byte(r>>12), 0x80|byte(r>>6&0x3F), 0x80|byte(r&0x3F))
		case r < 0x200000:
			dst = append(dst, 0xF0|byte(r>>18), 0x80|byte(r>>12&0x3F), 0x80|byte(r>>6&0x3F), 0x80|byte(r&0x3F))
		case r < 0x4000000:
			dst = append(dst, 0xF8|byte(r>>24), 0x80|byte(r>>18&0x3F), 0x80|byte(r>>12&0x3F), 0x80|byte(r>>6&0x3F), 0x80|byte(r&0x3F))
		default:
			dst = append(dst, 0xFC|byte(r>>30), 0x80|byte(r>>24&0x3F), 0x80|byte(r>>18&0x3F), 0x80|byte(r>>12&0x3F), 0x80|byte(r>>6&0x3F), 0x80|byte(r&0x3F))
		}
	}
	return dst, true
}

func isSurrogate(r rune) bool { return 0xD800 <= r && r <= 0xDFFF }

// isTag reports the Unicode tag characters, which glibc's converters to
// character sets without them skip.
func isTag(r rune) bool { return 0xE0000 <= r && r <= 0xE007F }

// utf16 is UTF-16: UTF-16LE and UTF-16BE without a byte order mark (a
// U+FEFF at the start is a character), and "UTF-16" (bom), which reads a
// mark if there is one, little-endian otherwise, and writes a
// little-endian mark before the first character.
//
// With always, the encoder writes the mark even for empty text, in its
// own byte order, as git does for its UTF-16LE-BOM and UTF-16BE-BOM (a
// mark, then UTF-16LE or UTF-16BE).
type utf16 struct {
	big    bool // big-endian (without a mark, or what bom writes)
	bom    bool
	always bool
}

func (u utf16) decode(dst []rune, src []byte) ([]rune, bool) {
	big := u.big
	if u.bom && len(src) >= 2 {
		switch {
		case src[0] == 0xFE && src[1] == 0xFF:
			big, src = true, src[2:]
		case src[0] == 0xFF && src[1] == 0xFE:
			big, src = false, src[2:]
		default:
			big = false
		}
	}
	if len(src)%2 != 0 {
		return dst, false
	}
	for i := 0; i < len(src); i += 2 {
		r := unit16(src[i:], big)
		switch {
		case 0xD800 <= r && r < 0xDC00:
			if i+4 > len(src) {
				return dst, false
			}
			lo := unit16(src[i+2:], big)
			if lo < 0xDC00 || lo > 0xDFFF {
				return dst, false
			}
			r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
			i += 2
		case 0xDC00 <= r && r <= 0xDFFF:
			return dst, false
		}
		dst = append(dst, r)
	}
	return dst, true
}

func (u utf16) encode(dst []byte, src []rune) ([]byte, bool) {
	if u.bom && (u.always || len(src) > 0) {
		dst = put16(dst, 0xFEFF, u.big)
	}
	for _, r := range src {
		switch {
		case r < 0 || r > 0x10FFFF || isSurrogate(r):
			return dst, false
		case r > 0xFFFF:
			r -= 0x10000
			dst = put16(dst, 0xD800+r>>10, u.big)
			dst = put16(dst, 0xDC00+r&0x3FF, u.big)
		default:
			dst = put16(dst, r, u.big)
		}
	}
	return dst, true
}

// ucs is a form of fixed-width code units: UCS-2 (width 2, max 0xFFFF),
// UCS-4 (width 4, max 0x7FFFFFFF), UTF-32 (width 4, max 0x10FFFF). With
// bom ("UNICODE", "UTF-32"), the decoder reads a mark if there is one
// (little-endian otherwise) and the encoder writes a little-endian mark
// before the first character. Surrogates are errors; UCS-2, which cannot
// hold the tag characters, skips them as glibc does.
type ucs struct {
	width int
	big   bool
	bom   bool
	max   rune
}

func (u ucs) decode(dst []rune, src []byte) ([]rune, bool) {
	big := u.big
	if u.bom && len(src) >= u.width {
		switch v := u.unit(src, true); {
		case v == 0xFEFF:
			big, src = true, src[u.width:]
		case u.unit(src, false) == 0xFEFF:
			big, src = false, src[u.width:]
		default:
			big = false
		}
	}
	if len(src)%u.width != 0 {
		return dst, false
	}
	for i := 0; i < len(src); i += u.width {
		v := u.unit(src[i:], big)
		if v > uint32(u.max) || isSurrogate(rune(v)) {
			return dst, false
		}
		dst = append(dst, rune(v))
	}
	return dst, true
}

func (u ucs) unit(b []byte, big bool) uint32 {
	if u.width == 2 {
		return uint32(unit16(b, big))
	}
	if big {
		return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	}
	return uint32(b[3])<<24 | uint32(b[2])<<16 | uint32(b[1])<<8 | uint32(b[0])
}

func (u ucs) encode(dst []byte, src []rune) ([]byte, bool) {
	big := u.big
	if u.bom && len(src) > 0 {
		big = false
		dst = u.put(dst, 0xFEFF, big)
	}
	for _, r := range src {
		switch {
		case u.width == 2 && isTag(r):
		case r < 0 || r > u.max || isSurrogate(r):
			return dst, false
		default:
			dst = u.put(dst, r, big)
		}
	}
	return dst, true
}

func (u ucs) put(dst []byte, r rune, big bool) []byte {
	if u.width == 2 {
		return put16(dst, r, big)
	}
	if big {
		return append(dst, byte(r>>24), byte(r>>16), byte(r>>8), byte(r))
	}
	return append(dst, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
}

func unit16(b []byte, big bool) rune {
	if big {
		return rune(b[0])<<8 | rune(b[1])
	}
	return rune(b[1])<<8 | rune(b[0])
}

func put16(dst []byte, r rune, big bool) []byte {
	if big {
		return append(dst, byte(r>>8), byte(r))
	}
	return append(dst, byte(r), byte(r>>8))
}
