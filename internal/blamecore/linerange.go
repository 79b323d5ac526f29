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

// FuncLines gives the path's FuncLine, or git's death setting it up (a
// diff driver's funcname pattern that does not compile): git reads the
// driver where it parses each -L :<funcname>, after the values before
// it. Nil means git's default rule.
type FuncLines func() (FuncLine, error)

// ParseLineRanges turns -L values into sorted, merged 0-based ranges of
// the final image, as git blame does: each relative /regex/ or :funcname
// is searched from the line after the previous range, numbers are
// 1-based, a reversed range is swapped, and ranges that overlap or touch
// are merged. With no values it returns nil (the whole file). Errors
// carry git's messages; a malformed value wraps ErrRangeSyntax. Regular
// expressions are compiled in the LC_CTYPE locale called locale
// (posixre.CtypeLocale).
//
// Line numbers are C longs, as git's: a number too large for one is the
// largest, and what git computes from it wraps as its arithmetic does.
// Where git reads its line table out of bounds (the search of an end
// /regex/ after a start past the end of the file), it is taken to read
// 0, the start of the file, as git 2.39.5 with glibc's allocator does.
func ParseLineRanges(specs []string, final []byte, lineStarts []int, path string, funcLines FuncLines, locale string) ([]LineRange, error) {
	lines := int64(len(lineStarts) - 1)
	if len(specs) == 0 {
		return nil, nil
	}
	rp := &rangeParser{final: final, starts: lineStarts, lines: lines, funcLines: funcLines, locale: locale}
	var out []LineRange
	anchor := int64(1)
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
		out = append(out, LineRange{Start: int(bottom), End: int(top)})
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
	final     []byte
	starts    []int
	lines     int64
	funcLines FuncLines
	// isFunc is funcLines' answer once asked (funcAsked).
	isFunc    FuncLine
	funcAsked bool
	locale    string
}

// nthLine is the offset of line n (0-based) in the final image: git's
// nth_line, whose table ends at n == lines; past either end git reads
// out of its table's bounds, taken to read 0 (see ParseLineRanges).
func (rp *rangeParser) nthLine(n int64) int {
	if n < 0 || n > rp.lines {
		return 0
	}
	return rp.starts[n]
}

// parse is git's parse_range_arg: 1-based bottom and top, 0 meaning
// "not given".
func (rp *rangeParser) parse(arg string, anchor int64) (begin, end int64, err error) {
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
func (rp *rangeParser) loc(spec string, begin int64) (string, int64, error) {
	if begin >= 1 && len(spec) > 0 && (spec[0] == '+' || spec[0] == '-') {
		num, n := strtol(spec[1:])
		if n > 0 {
			if num == 0 {
				return "", 0, errors.New("-L invalid empty range")
			}
			if spec[0] == '-' {
				num = -num
			}
			var ret int64
			if num > 0 {
				ret = begin + num - 2
			} else if begin+num > 0 {
				ret = begin + num
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
		return spec[n:], num, nil
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
func (rp *rangeParser) funcname(arg string, anchor int64) (int64, int64, error) {
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
	// The path's diff driver is set up here, where git sets it up for
	// each -L :<funcname> (its errors after those of the values before;
	// once set up, it gives the same answer again).
	if !rp.funcAsked && rp.funcLines != nil {
		isFunc, err := rp.funcLines()
		if err != nil {
			return 0, 0, err
		}
		rp.isFunc, rp.funcAsked = isFunc, true
	}
	re, err := posixre.Compile(pattern, posixre.Newline, rp.locale)
	if err != nil {
		return 0, 0, fmt.Errorf("-L parameter '%s': %s", pattern, err)
	}
	defer re.Free()
	buf := rp.final
	// git searches a NUL-terminated string from start.
	limit := len(buf)
	for i := start; i < len(buf); i++ {
		if buf[i] == 0 {
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
		// The matched line, as find_funcname_matching_regexp takes
		// it: back to the newline before the match, and past a
		// newline at start itself (a match at the start of an empty
		// line tests the empty text after it).
		bol := start + s
		eol := start + e
		for bol > start && buf[bol-1] != '\n' {
			bol--
		}
		if bol == start && buf[bol] == '\n' {
			bol++
		}
		for eol < limit && buf[eol] != '\n' {
			eol++
		}
		if eol < limit && buf[eol] == '\n' {
			eol++
		}
		if rp.isFuncLine(buf[bol:max(bol, eol)]) {
			found = bol
			break
		}
		start = eol
	}
	if found < 0 {
		return 0, 0, fmt.Errorf("-L parameter '%s' starting at line %d: no match", pattern, anchor+1)
	}
	begin := int64(0)
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
