package blamecore

import (
	"errors"
	"fmt"
	"sort"

	"github.com/goblame/goblame/internal/cnum"
	"github.com/goblame/goblame/internal/posixre"
)

// ErrRangeSyntax reports a malformed -L value; git answers it with its
// one-line usage message and exit code 129.
var ErrRangeSyntax = errors.New("malformed -L range")

// FuncLine reports whether a line (newline included) is a "function
// line" for -L :<funcname>; nil means git's default rule (the line starts
// with a letter, '_' or '$').
type FuncLine func(line []byte) bool

// ParseLineRanges turns -L values into sorted, merged 0-based ranges of
// the final image, as git blame does: each relative /regex/ or :funcname
// is searched from the line after the previous range, numbers are
// 1-based, a reversed range is swapped, and ranges that overlap or touch
// are merged. With no values it returns nil (the whole file). Errors
// carry git's messages; a malformed value wraps ErrRangeSyntax. Regular
// expressions are compiled in the LC_CTYPE locale called locale
// (posixre.CtypeLocale).
func ParseLineRanges(specs []string, final []byte, lineStarts []int, path string, isFunc FuncLine, locale string) ([]LineRange, error) {
	lines := len(lineStarts) - 1
	if len(specs) == 0 {
		return nil, nil
	}
	rp := &rangeParser{final: final, starts: lineStarts, lines: lines, isFunc: isFunc, locale: locale}
	var out []LineRange
	anchor := 1
	for _, spec := range specs {
		bottom, top, err := rp.parse(spec, anchor)
		if err != nil {
			return nil, err
		}
		if (lines == 0 && (top != 0 || bottom != 0)) || lines < bottom {
			noun := "lines"
			if lines == 1 {
				noun = "line"
			}
			return nil, fmt.Errorf("file %s has only %d %s", path, lines, noun)
		}
		if bottom < 1 {
			bottom = 1
		}
		if top < 1 || lines < top {
			top = lines
		}
		bottom--
		out = append(out, LineRange{Start: bottom, End: top})
		anchor = top + 1
	}
	return MergeRanges(out), nil
}

// MergeRanges sorts ranges and merges those that overlap or touch (git's
// sort_and_merge_range_set). Empty ranges are dropped.
func MergeRanges(rs []LineRange) []LineRange {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Start < rs[j].Start })
	var out []LineRange
	for _, r := range rs {
		if r.Start == r.End {
			continue
		}
		if n := len(out); n > 0 && out[n-1].End >= r.Start {
			if r.End > out[n-1].End {
				out[n-1].End = r.End
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

type rangeParser struct {
	final  []byte
	starts []int
	lines  int
	isFunc FuncLine
	locale string
}

// nthLine returns the rest of the final image from line n (clamped).
func (rp *rangeParser) nthLine(n int) int {
	if n < 0 {
		n = 0
	}
	if n > rp.lines {
		n = rp.lines
	}
	return rp.starts[n]
}

// parse is git's parse_range_arg: 1-based bottom and top, 0 meaning
// "not given".
func (rp *rangeParser) parse(arg string, anchor int) (begin, end int, err error) {
	if anchor < 1 {
		anchor = 1
	}
	if anchor > rp.lines {
		anchor = rp.lines + 1
	}
	if len(arg) > 0 && (arg[0] == ':' || (arg[0] == '^' && len(arg) > 1 && arg[1] == ':')) {
		return rp.funcname(arg, anchor)
	}
	rest, begin, err := rp.loc(arg, -anchor)
	if err != nil {
		return 0, 0, err
	}
	if len(rest) > 0 && rest[0] == ',' {
		rest, end, err = rp.loc(rest[1:], begin+1)
		if err != nil {
			return 0, 0, err
		}
	}
	if rest != "" {
		return 0, 0, ErrRangeSyntax
	}
	if begin != 0 && end != 0 && end < begin {
		begin, end = end, begin
	}
	return begin, end, nil
}

// strtol is C's strtol in base 10 (cnum.Strtol): the value and the
// number of bytes consumed (0 when no digits were found).
func strtol(s string) (int64, int) {
	v, end, _ := cnum.Strtol(s, 10)
	return v, end
}

// loc is git's parse_loc. begin < 0 parses a range start (relative
// anchors start at -begin); begin >= 1 parses an end after line begin-1.
func (rp *rangeParser) loc(spec string, begin int) (string, int, error) {
	if begin >= 1 && len(spec) > 0 && (spec[0] == '+' || spec[0] == '-') {
		num, n := strtol(spec[1:])
		if n > 0 {
			if num == 0 {
				return "", 0, errors.New("-L invalid empty range")
			}
			if spec[0] == '-' {
				num = -num
			}
			var ret int
			if num > 0 {
				ret = begin + int(num) - 2
			} else if int64(begin)+num > 0 {
				ret = begin + int(num)
			} else {
				ret = 1
			}
			return spec[1+n:], ret, nil
		}
		return spec, 0, nil
	}
	if num, n := strtol(spec); n > 0 {
		if num <= 0 {
			return "", 0, fmt.Errorf("-L invalid line number: %d", num)
		}
		if num > 1<<40 {
			num = 1 << 40
		}
		return spec[n:], int(num), nil
	}
	if begin < 0 {
		if len(spec) == 0 || spec[0] != '^' {
			begin = -begin
		} else {
			begin = 1
			spec = spec[1:]
		}
	}
	if len(spec) == 0 || spec[0] != '/' {
		return spec, 0, nil
	}
	term := 1
	for term < len(spec) && spec[term] != '/' {
		if spec[term] == '\\' {
			term++
		}
		term++
	}
	if term >= len(spec) {
		return spec, 0, nil
	}
	pattern := spec[1:term]
	begin--
	from := rp.nthLine(begin)
	re, err := posixre.Compile(pattern, posixre.Newline, rp.locale)
	if err != nil {
		return "", 0, fmt.Errorf("-L parameter '%s' starting at line %d: %s", pattern, begin+1, err)
	}
	defer re.Free()
	s, _, ok := re.Find(rp.final[from:])
	if !ok {
		return "", 0, fmt.Errorf("-L parameter '%s' starting at line %d: No match", pattern, begin+1)
	}
	cp := from + s
	line := from
	for {
		if begin >= rp.lines {
			begin++
			break
		}
		begin++
		next := rp.nthLine(begin)
		if line <= cp && cp < next {
			break
		}
		line = next
	}
	return spec[term+1:], begin, nil
}

func (rp *rangeParser) isFuncLine(line []byte) bool {
	if rp.isFunc != nil {
		return rp.isFunc(line)
	}
	if len(line) == 0 {
		return false
	}
	c := line[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

// funcname is git's parse_range_funcname for "[^]:<regex>".
func (rp *rangeParser) funcname(arg string, anchor int) (int, int, error) {
	if arg[0] == '^' {
		anchor = 1
		arg = arg[1:]
	}
	term := 1
	for term < len(arg) && arg[term] != ':' {
		if arg[term] == '\\' && term+1 < len(arg) {
			term++
		}
		term++
	}
	if term == 1 {
		return 0, 0, ErrRangeSyntax
	}
	pattern := arg[1:term]
	// Something after the closing ':' is a syntax error, but git looks
	// for the function first (its errors come first).
	trailing := term < len(arg)
	anchor--
	start := rp.nthLine(anchor)
	re, err := posixre.Compile(pattern, posixre.Newline, rp.locale)
	if err != nil {
		return 0, 0, fmt.Errorf("-L parameter '%s': %s", pattern, err)
	}
	defer re.Free()
	buf := rp.final
	// git searches a NUL-terminated string.
	limit := len(buf)
	for i, c := range buf {
		if c == 0 {
			limit = i
			break
		}
	}
	found := -1
	for start < limit {
		s, e, ok := re.Find(buf[start:limit])
		if !ok {
			break
		}
		bol := start + s
		eol := start + e
		for bol > start && buf[bol-1] != '\n' {
			bol--
		}
		for eol < limit && buf[eol] != '\n' {
			eol++
		}
		if eol < limit && buf[eol] == '\n' {
			eol++
		}
		if rp.isFuncLine(buf[bol:eol]) {
			found = bol
			break
		}
		if eol == start+e && eol == start {
			eol++ // an empty match at an empty line: step past it
		}
		start = eol
	}
	if found < 0 {
		return 0, 0, fmt.Errorf("-L parameter '%s' starting at line %d: no match", pattern, anchor+1)
	}
	begin := 0
	for found > rp.starts[begin] {
		begin++
	}
	if begin >= rp.lines {
		return 0, 0, fmt.Errorf("-L parameter '%s' matches at EOF", pattern)
	}
	end := begin + 1
	for end < rp.lines {
		if rp.isFuncLine(rp.final[rp.starts[end]:rp.starts[end+1]]) {
			break
		}
		end++
	}
	if trailing {
		return 0, 0, ErrRangeSyntax
	}
	return begin + 1, end, nil
}
