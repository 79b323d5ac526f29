// Colours: git 2.39.5's colour grammar (color.c's color_parse_mem) and
// blame's colour-by-age (builtin/blame.c's parse_color_fields and
// determine_line_heat).
//
// A colour value is a list of words separated by whitespace:
//
//	[reset] [foreground [background]] [attribute]...
//
// in any order. A colour is "normal" (no change), "default" (SGR 39/49),
// one of black red green yellow blue magenta cyan white, optionally
// prefixed "bright" (SGR 90-97), a number 0-255 (0-7 and 8-15 are written
// as the basic and bright SGR codes, 16-255 as 38;5;n), -1 (normal) or
// "#rrggbb" (38;2;r;g;b). The first colour is the foreground, the second
// the background. Attributes are bold dim italic ul blink reverse strike,
// and "no" or "no-" before one turns it off. Colour names are
// case-insensitive, attributes are not. The escape sequence lists "reset"
// first (as an empty parameter), then the attributes by SGR number, then
// the foreground, then the background: "reset bold red blue" is
// ESC[;1;31;44m. An empty value is the empty sequence.

package format

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/goblame/goblame/internal/gitdate"
)

// ColorReset is git's GIT_COLOR_RESET, printed after a coloured blame
// line's metadata.
const ColorReset = "\x1b[m"

// DefaultRepeatedLinesColor is color.blame.repeatedLines' default (cyan).
const DefaultRepeatedLinesColor = "\x1b[36m"

// DefaultHighlightRecent is color.blame.highlightRecent's default.
const DefaultHighlightRecent = "blue,12 month ago,white,1 month ago,red"

// ErrColor is wrapped by every colour parsing error.
var ErrColor = errors.New("invalid color")

// ColorError carries git's message for a colour failure (without the
// "error: " or "fatal: " prefix). For "expecting a color: x", Cause is the
// ParseColor error git reports just before dying ("error: invalid color
// value: x").
type ColorError struct {
	Msg   string
	Cause error
}

func (e *ColorError) Error() string { return e.Msg }

func (e *ColorError) Unwrap() error {
	if e.Cause != nil {
		return e.Cause
	}
	return ErrColor
}

// ParseColor parses a colour value as git's color_parse does and returns
// the escape sequence git emits for it ("bold red" -> "\x1b[1;31m").
// A bad value returns a *ColorError with git's message, "invalid color
// value: <value>".
func ParseColor(s string) (string, error) {
	var buf [colorMaxLen]byte
	b, err := AppendColor(buf[:0], s)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// colorMaxLen is git's COLOR_MAXLEN; no sequence is longer.
const colorMaxLen = 75

// colorKind is the type of struct color in color.c.
type colorKind uint8

const (
	colorUnspecified colorKind = iota
	colorNormal
	colorANSI // value is the SGR foreground code (30-37, 39, 90-97)
	color256
	colorRGB
)

type termColor struct {
	kind             colorKind
	value            uint8
	red, green, blue uint8
}

func (c termColor) empty() bool { return c.kind <= colorNormal }

// AppendColor is ParseColor appending to dst.
func AppendColor(dst []byte, s string) ([]byte, error) {
	value := gitdate.CString(s)
	p := 0
	for p < len(value) && gitdate.IsGitSpace(value[p]) {
		p++
	}
	if p == len(value) {
		return dst, nil
	}
	var fg, bg termColor
	hasReset := false
	var attrs uint32
	for p < len(value) {
		start := p
		for p < len(value) && !gitdate.IsGitSpace(value[p]) {
			p++
		}
		word := value[start:p]
		for p < len(value) && gitdate.IsGitSpace(value[p]) {
			p++
		}
		if asciiEqualFold(word, "reset") {
			hasReset = true
			continue
		}
		if c, ok := parseColorWord(value, start, word); ok {
			switch {
			case fg.kind == colorUnspecified:
				fg = c
			case bg.kind == colorUnspecified:
				bg = c
			default:
				return dst, invalidColor(value)
			}
			continue
		}
		bit := parseAttr(word)
		if bit < 0 {
			return dst, invalidColor(value)
		}
		attrs |= 1 << uint(bit)
	}
	if !hasReset && attrs == 0 && fg.empty() && bg.empty() {
		return dst, nil
	}
	dst = append(dst, "\x1b["...)
	sep := 0
	if hasReset {
		sep++
	}
	for i := 0; attrs != 0; i++ {
		if attrs&(1<<uint(i)) == 0 {
			continue
		}
		attrs &^= 1 << uint(i)
		if sep > 0 {
			dst = append(dst, ';')
		}
		sep++
		dst = strconv.AppendInt(dst, int64(i), 10)
	}
	if !fg.empty() {
		if sep > 0 {
			dst = append(dst, ';')
		}
		sep++
		dst = fg.appendSGR(dst, 0)
	}
	if !bg.empty() {
		if sep > 0 {
			dst = append(dst, ';')
		}
		dst = bg.appendSGR(dst, 10)
	}
	return append(dst, 'm'), nil
}

func invalidColor(value string) error {
	return &ColorError{Msg: "invalid color value: " + value}
}

// appendSGR is color.c's color_output; offset is 10 for a background.
func (c termColor) appendSGR(dst []byte, offset int64) []byte {
	switch c.kind {
	case colorANSI:
		dst = strconv.AppendInt(dst, int64(c.value)+offset, 10)
	case color256:
		dst = strconv.AppendInt(dst, 38+offset, 10)
		dst = append(dst, ";5;"...)
		dst = strconv.AppendInt(dst, int64(c.value), 10)
	case colorRGB:
		dst = strconv.AppendInt(dst, 38+offset, 10)
		dst = append(dst, ";2;"...)
		dst = strconv.AppendInt(dst, int64(c.red), 10)
		dst = append(dst, ';')
		dst = strconv.AppendInt(dst, int64(c.green), 10)
		dst = append(dst, ';')
		dst = strconv.AppendInt(dst, int64(c.blue), 10)
	}
	return dst
}

var ansiColorNames = [...]string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}

// parseColorWord is color.c's parse_color for word, which starts at
// value[start].
func parseColorWord(value string, start int, word string) (termColor, bool) {
	n := len(word)
	if asciiEqualFold(word, "normal") {
		return termColor{kind: colorNormal}, true
	}
	if n == 7 && word[0] == '#' {
		r, ok1 := hexByte(word[1], word[2])
		g, ok2 := hexByte(word[3], word[4])
		b, ok3 := hexByte(word[5], word[6])
		if ok1 && ok2 && ok3 {
			return termColor{kind: colorRGB, red: r, green: g, blue: b}, true
		}
	}
	if asciiEqualFold(word, "default") {
		return termColor{kind: colorANSI, value: 39}, true
	}
	name, base := word, uint8(30)
	if len(name) >= 6 && asciiEqualFold(name[:6], "bright") {
		name, base = name[6:], 90
	}
	for i, c := range ansiColorNames {
		if asciiEqualFold(name, c) {
			return termColor{kind: colorANSI, value: base + uint8(i)}, true
		}
	}
	// A 256-colour number, read with strtol (which also skips leading
	// \v and \f, bytes git's own isspace leaves inside a word).
	val, end := gitdate.CStrtol(value, start)
	if end-start == n {
		switch {
		case val < -1:
		case val < 0:
			return termColor{kind: colorNormal}, true
		case val < 8:
			return termColor{kind: colorANSI, value: uint8(30 + val)}, true
		case val < 16:
			return termColor{kind: colorANSI, value: uint8(val - 8 + 90)}, true
		case val < 256:
			return termColor{kind: color256, value: uint8(val)}, true
		}
	}
	return termColor{}, false
}

// asciiEqualFold is strncasecmp equality in the C locale (ASCII only;
// strings.EqualFold would also fold "ſ" to "s").
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if gitdate.ASCIILower(a[i]) != gitdate.ASCIILower(b[i]) {
			return false
		}
	}
	return true
}

func hexByte(hi, lo byte) (uint8, bool) {
	h, ok1 := hexDigit(hi)
	l, ok2 := hexDigit(lo)
	return h<<4 | l, ok1 && ok2
}

func hexDigit(c byte) (uint8, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// parseAttr is color.c's parse_attr: the SGR number of an attribute
// (case-sensitive), or -1.
func parseAttr(word string) int {
	negate := false
	if rest, ok := strings.CutPrefix(word, "no"); ok {
		word = rest
		if rest, ok := strings.CutPrefix(word, "-"); ok {
			word = rest
		}
		negate = true
	}
	for _, a := range colorAttrs {
		if a.name == word {
			if negate {
				return a.neg
			}
			return a.val
		}
	}
	return -1
}

var colorAttrs = [...]struct {
	name     string
	val, neg int
}{
	{"bold", 1, 22},
	{"dim", 2, 22},
	{"italic", 3, 23},
	{"ul", 4, 24},
	{"blink", 5, 25},
	{"reverse", 7, 27},
	{"strike", 9, 29},
}

// HeatColors is a parsed color.blame.highlightRecent: colours and the
// author-time thresholds between them, for git blame --color-by-age.
// The zero value gives every line the empty colour.
type HeatColors struct {
	colors []string // one more than thresholds
	// thresholds[i] is the approxidate of the i-th date; a line whose
	// author time is past it gets a later colour.
	thresholds []uint64
}

// ParseHighlightRecent parses a color.blame.highlightRecent value — a
// comma-separated list alternating colour and date, starting and ending
// with a colour ("blue,12 month ago,white,1 month ago,red") — as git's
// parse_color_fields does. Dates are approxidate relative to now in the
// zone local (unparsable dates are taken as git takes them, silently).
// Errors are git's: "must end with a color", and "expecting a color: x"
// whose Cause is ParseColor's error (git prints it first as
// "error: invalid color value: x").
func ParseHighlightRecent(spec string, now time.Time, local *time.Location) (HeatColors, error) {
	spec = gitdate.CString(spec)
	var h HeatColors
	expectColor := true
	for item := range strings.SplitSeq(spec, ",") {
		if expectColor {
			c, err := ParseColor(item)
			if err != nil {
				return HeatColors{}, &ColorError{Msg: "expecting a color: " + item, Cause: err}
			}
			h.colors = append(h.colors, c)
		} else {
			t, _ := gitdate.Approxidate(item, now, local) // git uses approxidate(), ignoring its error flag
			h.thresholds = append(h.thresholds, t)
		}
		expectColor = !expectColor
	}
	if expectColor {
		return HeatColors{}, &ColorError{Msg: "must end with a color"}
	}
	return h, nil
}

// ColorFor is builtin/blame.c's determine_line_heat: the colour of a
// line whose commit has the given author time — the colour after the last
// threshold the time is past.
func (h HeatColors) ColorFor(authorTime uint64) string {
	i := 0
	for i < len(h.thresholds) && authorTime > h.thresholds[i] {
		i++
	}
	if i >= len(h.colors) {
		return ""
	}
	return h.colors[i]
}
