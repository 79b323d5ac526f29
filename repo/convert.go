package repo

import (
	"bytes"
	"strings"

	"unicode/utf8"

	"golang.org/x/text/encoding"

	"github.com/goblame/goblame/internal/charset"
	"github.com/goblame/goblame/object"
)

// crlfAction is git's convert_crlf_action: what end-of-line conversion
// a path gets.
type crlfAction uint8

const (
	crlfUndefined crlfAction = iota
	crlfBinary
	crlfText
	crlfTextInput
	crlfTextCRLF
	crlfAuto
	crlfAutoInput
	crlfAutoCRLF
)

// autoCRLF is core.autocrlf.
type autoCRLF uint8

const (
	autoCRLFFalse autoCRLF = iota
	autoCRLFTrue
	autoCRLFInput
)

// convAttrs are the attributes that decide a conversion.
type convAttrs struct {
	crlf     crlfAction
	ident    bool
	filter   string
	encoding string
}

func crlfFromAttr(v string) crlfAction {
	switch v {
	case "set":
		return crlfText
	case "unset":
		return crlfBinary
	case "unspecified":
		return crlfUndefined
	case "input":
		return crlfTextInput
	case "auto":
		return crlfAuto
	}
	return crlfUndefined
}

// eolSettings reads core.autocrlf and core.eol as git does.
func (r *Repository) eolSettings() (autoCRLF, string, error) {
	ac := autoCRLFFalse
	if e, ok := r.Config.Entry("core.autocrlf"); ok {
		if e.HasValue && strings.EqualFold(e.Value, "input") {
			ac = autoCRLFInput
		} else {
			b, valid := parseBoolValue(e.Value, e.HasValue)
			if !valid {
				return 0, "", newError(ErrBadConfig, "bad boolean config value '%s' for '%s'", e.Value, e.Key)
			}
			if b {
				ac = autoCRLFTrue
			}
		}
	}
	eol := ""
	if e, ok := r.Config.Entry("core.eol"); ok && e.HasValue {
		switch strings.ToLower(e.Value) {
		case "lf", "crlf", "native":
			eol = strings.ToLower(e.Value)
		}
	}
	return ac, eol, nil
}

// textEOLIsCRLF is text_eol_is_crlf (native line endings are LF here).
func textEOLIsCRLF(ac autoCRLF, eol string) bool {
	switch ac {
	case autoCRLFTrue:
		return true
	case autoCRLFInput:
		return false
	}
	return eol == "crlf"
}

// convertAttrs is convert_attrs: text (else crlf), eol, ident, filter
// and working-tree-encoding, then core.autocrlf and core.eol.
func (r *Repository) convertAttrs(path string) (convAttrs, error) {
	a := r.Attributes(path, "crlf", "ident", "filter", "eol", "text", "working-tree-encoding")
	var ca convAttrs
	if err := r.AttributesErr(); err != nil {
		return ca, err
	}
	ca.crlf = crlfFromAttr(a["text"])
	if ca.crlf == crlfUndefined {
		ca.crlf = crlfFromAttr(a["crlf"])
	}
	ca.ident = a["ident"] == "set"
	if v := a["filter"]; v != "set" && v != "unset" && v != "unspecified" {
		ca.filter = v
	}
	if ca.crlf != crlfBinary {
		switch a["eol"] {
		case "lf":
			if ca.crlf == crlfAuto {
				ca.crlf = crlfAutoInput
			} else {
				ca.crlf = crlfTextInput
			}
		case "crlf":
			if ca.crlf == crlfAuto {
				ca.crlf = crlfAutoCRLF
			} else {
				ca.crlf = crlfTextCRLF
			}
		}
	}
	switch enc := a["working-tree-encoding"]; enc {
	case "unspecified", "":
	case "set", "unset":
		return ca, newError(ErrBadConfig, "true/false are no valid working-tree-encodings")
	default:
		if !sameEncoding(enc, "UTF-8") {
			ca.encoding = enc
		}
	}
	ac, eol, err := r.eolSettings()
	if err != nil {
		return ca, err
	}
	if ca.crlf == crlfText {
		if textEOLIsCRLF(ac, eol) {
			ca.crlf = crlfTextCRLF
		} else {
			ca.crlf = crlfTextInput
		}
	}
	if ca.crlf == crlfUndefined {
		switch ac {
		case autoCRLFFalse:
			ca.crlf = crlfBinary
		case autoCRLFTrue:
			ca.crlf = crlfAutoCRLF
		case autoCRLFInput:
			ca.crlf = crlfAutoInput
		}
	}
	return ca, nil
}

// ConvertToGit converts work-tree content of path to what "git add"
// would store (git's convert_to_git as blame applies it to the
// work-tree file, with no safecrlf checks): working-tree-encoding
// re-encoded to UTF-8, CRLF to LF by the text/eol/crlf attributes and
// core.autocrlf/core.eol (the "auto" modes leave binary content and
// paths whose index copy already has CRLF alone), and "$Id: ...$"
// collapsed to "$Id$" under the ident attribute.
//
// Clean filters are not run here (see ConvertToGitFiltered): the
// content passes through unfiltered. Messages git prints for a bad
// working-tree-encoding go to the repository's warning handler.
func (r *Repository) ConvertToGit(path string, data []byte) ([]byte, error) {
	return r.ConvertToGitFiltered(path, data, nil)
}

// ConvertToGitFiltered is ConvertToGit that first hands the content to
// clean, with the driver name the path's filter attribute gives (git's
// apply_filter with the clean capability, which convert_to_git runs
// before the other conversions, once the attributes are read); clean is
// not called for a path without one, or with "filter" set or unset.
func (r *Repository) ConvertToGitFiltered(path string, data []byte, clean func(driver string, data []byte) ([]byte, error)) ([]byte, error) {
	ca, err := r.convertAttrs(path)
	if err != nil {
		return nil, err
	}
	if ca.filter != "" && clean != nil {
		if data, err = clean(ca.filter, data); err != nil {
			return nil, err
		}
	}
	if ca.encoding != "" {
		data = r.encodeToGit(path, data, ca.encoding)
	}
	data = r.crlfToGit(path, data, ca.crlf)
	if ca.ident {
		data = identToGit(data)
	}
	return data, nil
}

// textStats counts what gather_stats counts.
type textStats struct {
	nul, loneCR, loneLF, crlf int
	printable, nonprintable   int
}

func gatherStats(buf []byte) textStats {
	var s textStats
	for i := 0; i < len(buf); i++ {
		c := buf[i]
		if c == '\r' {
			if i+1 < len(buf) && buf[i+1] == '\n' {
				s.crlf++
				i++
			} else {
				s.loneCR++
			}
			continue
		}
		if c == '\n' {
			s.loneLF++
			continue
		}
		switch {
		case c == 127:
			s.nonprintable++
		case c < 32:
			switch c {
			case '\b', '\t', 033, 014:
				s.printable++
			case 0:
				s.nul++
				s.nonprintable++
			default:
				s.nonprintable++
			}
		default:
			s.printable++
		}
	}
	if len(buf) > 0 && buf[len(buf)-1] == 032 {
		s.nonprintable--
	}
	return s
}

// isBinary is convert_is_binary: a lone CR, a NUL, or too many
// non-printable bytes.
func (s textStats) isBinary() bool {
	return s.loneCR > 0 || s.nul > 0 || (s.printable>>7) < s.nonprintable
}

func isAuto(a crlfAction) bool {
	return a == crlfAuto || a == crlfAutoInput || a == crlfAutoCRLF
}

// crlfToGit is crlf_to_git without the round-trip checks.
func (r *Repository) crlfToGit(path string, src []byte, action crlfAction) []byte {
	if action == crlfBinary || len(src) == 0 {
		return src
	}
	stats := gatherStats(src)
	convert := stats.crlf > 0
	if isAuto(action) {
		if stats.isBinary() {
			return src
		}
		if convert && r.hasCRLFInIndex(path) {
			convert = false
		}
	}
	if !convert {
		return src
	}
	dst := make([]byte, 0, len(src))
	if isAuto(action) {
		for _, c := range src {
			if c != '\r' {
				dst = append(dst, c)
			}
		}
		return dst
	}
	for i, c := range src {
		if c == '\r' && i+1 < len(src) && src[i+1] == '\n' {
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// hasCRLFInIndex reports whether the index copy of path (stage 0, or 2
// during a merge) is text with CRLF line endings.
func (r *Repository) hasCRLFInIndex(path string) bool {
	ix, err := r.ReadIndexSparse()
	if err != nil {
		return false
	}
	id, ok := indexBlobForAttr(ix, path)
	if !ok {
		return false
	}
	typ, data, err := r.Objects.NewReader().Read(id, nil)
	if err != nil || typ != object.Blob || bytes.IndexByte(data, '\r') < 0 {
		return false
	}
	s := gatherStats(data)
	return !s.isBinary() && s.crlf > 0
}

// identToGit collapses "$Id: anything $" (not spanning lines) to "$Id$".
func identToGit(src []byte) []byte {
	if countIdent(src) == 0 {
		return src
	}
	dst := make([]byte, 0, len(src))
	for {
		d := bytes.IndexByte(src, '$')
		if d < 0 {
			break
		}
		dst = append(dst, src[:d+1]...)
		src = src[d+1:]
		if len(src) > 3 && bytes.HasPrefix(src, []byte("Id:")) {
			e := bytes.IndexByte(src[3:], '$')
			if e < 0 {
				break
			}
			if bytes.IndexByte(src[3:3+e], '\n') >= 0 {
				continue
			}
			dst = append(dst, "Id$"...)
			src = src[3+e+1:]
		}
	}
	return append(dst, src...)
}

// countIdent is count_ident: "$Id$" and "$Id: ... $" occurrences.
func countIdent(cp []byte) int {
	n := 0
	for len(cp) > 0 {
		ch := cp[0]
		cp = cp[1:]
		if ch != '$' {
			continue
		}
		if len(cp) < 3 {
			break
		}
		if cp[0] != 'I' || cp[1] != 'd' {
			continue
		}
		ch = cp[2]
		cp = cp[3:]
		if ch == '$' {
			n++
		}
		if ch != ':' {
			continue
		}
		for len(cp) > 0 {
			ch = cp[0]
			cp = cp[1:]
			if ch == '$' {
				n++
				break
			}
			if ch == '\n' {
				break
			}
		}
	}
	return n
}

// sameUTFEncoding compares "UTF-16" with "utf16" and the like.
func sameUTFEncoding(a, b string) bool {
	if len(a) < 3 || len(b) < 3 || !strings.EqualFold(a[:3], "UTF") || !strings.EqualFold(b[:3], "UTF") {
		return false
	}
	a, b = strings.TrimPrefix(a[3:], "-"), strings.TrimPrefix(b[3:], "-")
	return strings.EqualFold(a, b)
}

func sameEncoding(a, b string) bool {
	return sameUTFEncoding(a, b) || strings.EqualFold(a, b)
}

var (
	bomUTF16BE = []byte{0xFE, 0xFF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF32BE = []byte{0, 0, 0xFE, 0xFF}
	bomUTF32LE = []byte{0xFF, 0xFE, 0, 0}
)

// encodeToGit re-encodes content in enc to UTF-8 as encode_to_git does
// when not writing an object: content git cannot convert is kept as is
// (after git's error and hint lines).
func (r *Repository) encodeToGit(path string, src []byte, enc string) []byte {
	if len(src) == 0 {
		return src
	}
	if len(enc) >= 3 && strings.EqualFold(enc[:3], "UTF") {
		stripped := strings.TrimPrefix(enc[3:], "-")
		has16 := bytes.HasPrefix(src, bomUTF16BE) || bytes.HasPrefix(src, bomUTF16LE)
		has32 := bytes.HasPrefix(src, bomUTF32BE) || bytes.HasPrefix(src, bomUTF32LE)
		prohibited := ((sameUTFEncoding("UTF-16BE", enc) || sameUTFEncoding("UTF-16LE", enc)) && has16) ||
			((sameUTFEncoding("UTF-32BE", enc) || sameUTFEncoding("UTF-32LE", enc)) && has32)
		missing := (sameUTFEncoding(enc, "UTF-16") && !has16) || (sameUTFEncoding(enc, "UTF-32") && !has32)
		switch {
		case prohibited:
			r.warn("hint: The file '" + path + "' contains a byte order mark (BOM). Please use UTF-" + stripped[:len(stripped)-2] + " as working-tree-encoding.")
			r.warn("error: BOM is prohibited in '" + path + "' if encoded as " + enc)
			return src
		case missing:
			r.warn("hint: The file '" + path + "' is missing a byte order mark (BOM). Please use UTF-" + stripped + "BE or UTF-" + stripped + "LE (depending on the byte order) as working-tree-encoding.")
			r.warn("error: BOM is required in '" + path + "' if encoded as " + enc)
			return src
		}
	}
	fail := func() []byte {
		r.warn("error: failed to encode '" + path + "' from " + enc + " to UTF-8")
		return src
	}
	if out, handled, ok := decodeUTF(enc, src); handled {
		if !ok {
			return fail()
		}
		return out
	}
	dec := decoderFor(enc)
	if dec == nil {
		return fail()
	}
	out, err := dec.NewDecoder().Bytes(src)
	if err != nil {
		return fail()
	}
	return out
}

// decodeUTF converts UTF-16 and UTF-32 text to UTF-8 strictly, as iconv
// does: a truncated code unit, an unpaired surrogate or a value beyond
// U+10FFFF is an error. handled is false for other encodings.
func decodeUTF(enc string, src []byte) (out []byte, handled, ok bool) {
	var width int
	var big bool
	switch {
	case sameUTFEncoding(enc, "UTF-16"):
		width, big = 2, true
		if bytes.HasPrefix(src, bomUTF16LE) {
			big = false
		}
		if bytes.HasPrefix(src, bomUTF16LE) || bytes.HasPrefix(src, bomUTF16BE) {
			src = src[2:]
		}
	case sameUTFEncoding(enc, "UTF-16BE"):
		width, big = 2, true
	case sameUTFEncoding(enc, "UTF-16LE"):
		width, big = 2, false
	case sameUTFEncoding(enc, "UTF-32"):
		width, big = 4, true
		if bytes.HasPrefix(src, bomUTF32LE) {
			big = false
		}
		if bytes.HasPrefix(src, bomUTF32LE) || bytes.HasPrefix(src, bomUTF32BE) {
			src = src[4:]
		}
	case sameUTFEncoding(enc, "UTF-32BE"):
		width, big = 4, true
	case sameUTFEncoding(enc, "UTF-32LE"):
		width, big = 4, false
	default:
		return nil, false, false
	}
	if len(src)%width != 0 {
		return nil, true, false
	}
	unit := func(b []byte) uint32 {
		var v uint32
		for i := 0; i < width; i++ {
			if big {
				v = v<<8 | uint32(b[i])
			} else {
				v |= uint32(b[i]) << (8 * i)
			}
		}
		return v
	}
	out = make([]byte, 0, len(src))
	for i := 0; i < len(src); i += width {
		v := unit(src[i:])
		if width == 2 && v >= 0xD800 && v < 0xDC00 {
			if i+2 >= len(src) {
				return nil, true, false
			}
			lo := unit(src[i+2:])
			if lo < 0xDC00 || lo > 0xDFFF {
				return nil, true, false
			}
			v = 0x10000 + (v-0xD800)<<10 + (lo - 0xDC00)
			i += 2
		} else if v >= 0xD800 && v <= 0xDFFF || v > 0x10FFFF {
			return nil, true, false
		}
		out = utf8.AppendRune(out, rune(v))
	}
	return out, true, true
}

// decoderFor finds the decoder git's iconv converts enc to UTF-8 with (nil
// when it cannot).
func decoderFor(enc string) encoding.Encoding {
	_, src, ok := charset.Open("UTF-8", enc)
	if !ok {
		return nil
	}
	return src
}
