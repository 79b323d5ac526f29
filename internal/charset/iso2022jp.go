package charset

// iso2022jp is ISO-2022-JP (RFC 1468) as glibc's iconv converts it: ASCII,
// JIS X 0201 Roman (ESC ( J: ASCII with ¥ for the backslash and ‾ for the
// tilde) and JIS X 0208 (ESC $ B or ESC $ @, pairs of bytes 21-7E), each
// designated by its escape sequence.
//
// Decoding, an ESC is incomplete with fewer than two bytes after it and a
// character of the current set otherwise, unless it starts one of the
// four escape sequences; in JIS X 0208, bytes below 21 and 7F are
// themselves. Encoding, a character the current set has stays in it
// (JIS X 0201 Roman keeps only the graphic characters, not the controls
// and the space, and neither the backslash nor the tilde); any other
// switches to ASCII, JIS X 0201 Roman or JIS X 0208, the first that has
// it (glibc's ISO-2022-JP fails on the tag characters, which its other
// converters skip). Without the flush, git does not get
// the ESC ( B that would end text in another set.
type iso2022jp struct{}

const (
	modeASCII = iota
	modeRoman
	modeJIS
)

func (iso2022jp) decode(dst []rune, src []byte) ([]rune, bool) {
	jis := iso2022jpJIS.unpacked()
	if jis == nil {
		return dst, false
	}
	mode := modeASCII
	for i := 0; i < len(src); {
		c := src[i]
		if c == 0x1B {
			if len(src)-i < 3 {
				return dst, false
			}
			switch string(src[i+1 : i+3]) {
			case "(B":
				mode, i = modeASCII, i+3
				continue
			case "(J":
				mode, i = modeRoman, i+3
				continue
			case "$@", "$B":
				mode, i = modeJIS, i+3
				continue
			}
		}
		switch {
		case c >= 0x80:
			return dst, false
		case mode == modeRoman && c == 0x5C:
			dst = append(dst, 0xA5)
		case mode == modeRoman && c == 0x7E:
			dst = append(dst, 0x203E)
		case mode != modeJIS || c < 0x21 || c == 0x7F:
			dst = append(dst, rune(c))
		default:
			if i+1 == len(src) {
				return dst, false
			}
			v, _, ok := jis.dec.lookup(src[i : i+2])
			if !ok || v >= 0x110000 {
				return dst, false
			}
			dst = append(dst, rune(v))
			i += 2
			continue
		}
		i++
	}
	return dst, true
}

func (iso2022jp) encode(dst []byte, src []rune) ([]byte, bool) {
	jis := iso2022jpJIS.unpacked()
	if jis == nil {
		return dst, false
	}
	mode := modeASCII
	for _, r := range src {
		jisBytes, inJIS := jis.enc[r]
		if jisBytes == cannotEncode {
			inJIS = false
		}
		roman, inRoman := romanByte(r)
		switch {
		case mode == modeASCII && r < 0x80:
			dst = append(dst, byte(r))
		case mode == modeRoman && inRoman && roman > 0x20 && roman < 0x7F:
			dst = append(dst, roman)
		case mode == modeJIS && inJIS:
			dst = jisBytes.appendTo(dst)
		case r < 0x80:
			dst = append(dst, "\x1b(B"...)
			dst = append(dst, byte(r))
			mode = modeASCII
		case inRoman:
			dst = append(dst, "\x1b(J"...)
			dst = append(dst, roman)
			mode = modeRoman
		case inJIS:
			dst = append(dst, "\x1b$B"...)
			dst = jisBytes.appendTo(dst)
			mode = modeJIS
		default:
			return dst, false
		}
	}
	return dst, true
}

// romanByte is the JIS X 0201 Roman byte of r.
func romanByte(r rune) (byte, bool) {
	switch {
	case r == 0xA5:
		return 0x5C, true
	case r == 0x203E:
		return 0x7E, true
	case r < 0x80 && r != 0x5C && r != 0x7E:
		return byte(r), true
	}
	return 0, false
}
