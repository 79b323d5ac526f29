package repo

import (
	"fmt"
	"strings"
)

// configOriginKind says where configuration text came from; git names
// the origin in its "bad config line" messages.
type configOriginKind uint8

const (
	originFile configOriginKind = iota
	originBlob
	originCmdline
)

// configSource is one configuration text being parsed: a file, a blob
// or the command line.
type configSource struct {
	kind configOriginKind
	name string // path as git names it in messages (or blob name)
	path string // file path for resolving relative includes ("" if none)
}

// ConfigSyntaxError is a configuration text git refuses to parse. Its
// text is git's ("bad config line 3 in file .git/config").
type ConfigSyntaxError struct {
	Source string // the file path or blob name as git prints it
	Line   int
	kind   configOriginKind
}

func (e *ConfigSyntaxError) Error() string {
	switch e.kind {
	case originBlob:
		return fmt.Sprintf("bad config line %d in blob %s", e.Line, e.Source)
	case originCmdline:
		return fmt.Sprintf("bad config line %d in command line %s", e.Line, e.Source)
	}
	return fmt.Sprintf("bad config line %d in file %s", e.Line, e.Source)
}

// Is makes errors.Is(err, ErrBadConfig) true.
func (e *ConfigSyntaxError) Is(target error) bool { return target == ErrBadConfig }

// callbackFailure is returned by an entry callback that rejects a value
// the way git's config callbacks do (returning -1 after printing
// "error: ..." lines): the parser then reports the line as bad.
type callbackFailure struct{ before []string }

func (c *callbackFailure) Error() string { return strings.Join(c.before, "\n") }

// configScanner reads configuration text one character at a time the way
// git's parser does: CR LF reads as LF, the end of the text reads as a
// final LF, and the line counter advances on every LF.
type configScanner struct {
	text []byte
	pos  int
	line int
	eof  bool
}

func (s *configScanner) next() byte {
	if s.pos >= len(s.text) {
		s.eof = true
		s.line++
		return '\n'
	}
	c := s.text[s.pos]
	s.pos++
	if c == '\r' && s.pos < len(s.text) && s.text[s.pos] == '\n' {
		c = '\n'
		s.pos++
	}
	if c == '\n' {
		s.line++
	}
	return c
}

// isConfigSpace is git's isspace: space, tab, LF and CR.
func isConfigSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isKeyChar is git's iskeychar: ASCII letters, digits and '-'.
func isKeyChar(c byte) bool { return isAlpha(c) || isDigit(c) || c == '-' }

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// cString cuts s at its first NUL, as the C string git hands on would be.
func cString(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// parseConfig parses configuration text and calls emit for every entry
// in order, with the canonical key (section and name lowercased, the
// subsection as written), the value, and whether there was a value at
// all ("[blame] coloring" has none). It stops at the first syntax error,
// reporting it as git does, or at the first error emit returns.
func parseConfig(text []byte, src configSource, emit func(key, value string, hasValue bool, line int) error) error {
	s := &configScanner{text: text, line: 1}
	// A UTF-8 byte order mark at the very start is skipped; a partial one
	// is an error.
	if len(text) > 0 && text[0] == 0xEF {
		if len(text) < 3 || text[1] != 0xBB || text[2] != 0xBF {
			return &ConfigSyntaxError{Source: src.name, Line: 1, kind: src.kind}
		}
		s.pos = 3
	}
	var section []byte // "section." or "section.subsection."
	comment := false
	var name []byte
	var value []byte
	fail := func() error { return &ConfigSyntaxError{Source: src.name, Line: s.line, kind: src.kind} }
	for {
		c := s.next()
		if c == '\n' {
			if s.eof {
				return nil
			}
			comment = false
			continue
		}
		if comment || isConfigSpace(c) {
			continue
		}
		if c == '#' || c == ';' {
			comment = true
			continue
		}
		if c == '[' {
			var ok bool
			section, ok = parseSectionHeader(s, section[:0])
			if !ok || len(section) == 0 {
				return fail()
			}
			section = append(section, '.')
			continue
		}
		if !isAlpha(c) {
			return fail()
		}
		name = append(append(name[:0], section...), lowerASCII(c))
		for {
			c = s.next()
			if s.eof || !isKeyChar(c) {
				break
			}
			name = append(name, lowerASCII(c))
		}
		for c == ' ' || c == '\t' {
			c = s.next()
		}
		hasValue := false
		if c != '\n' {
			if c != '=' {
				return fail()
			}
			var ok bool
			value, ok = parseConfigValue(s, value[:0])
			if !ok {
				return fail()
			}
			hasValue = true
		}
		// The line counter already moved past this entry's newline.
		line := s.line - 1
		v := ""
		if hasValue {
			v = cString(string(value))
		}
		if err := emit(cString(string(name)), v, hasValue, line); err != nil {
			if cf, ok := err.(*callbackFailure); ok {
				// git reports a failed callback as a bad line, after
				// the callback's own "error:" lines.
				return &Error{Kind: ErrBadConfig, Msg: (&ConfigSyntaxError{Source: src.name, Line: line, kind: src.kind}).Error(), Before: cf.before}
			}
			return err
		}
	}
}

// parseSectionHeader reads what follows '[': a section name (letters,
// digits, '-' and the '.' of the legacy "[section.sub]" form, all
// lowercased) and optionally a quoted, case-sensitive subsection.
func parseSectionHeader(s *configScanner, dst []byte) ([]byte, bool) {
	for {
		c := s.next()
		if s.eof {
			return dst, false
		}
		if c == ']' {
			return dst, true
		}
		if isConfigSpace(c) {
			return parseSubsection(s, dst, c)
		}
		if !isKeyChar(c) && c != '.' {
			return dst, false
		}
		dst = append(dst, lowerASCII(c))
	}
}

func parseSubsection(s *configScanner, dst []byte, c byte) ([]byte, bool) {
	for {
		if c == '\n' {
			s.line--
			return dst, false
		}
		c = s.next()
		if !isConfigSpace(c) {
			break
		}
	}
	if c != '"' {
		return dst, false
	}
	dst = append(dst, '.')
	for {
		c := s.next()
		if c == '\n' {
			s.line--
			return dst, false
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			c = s.next()
			if c == '\n' {
				s.line--
				return dst, false
			}
		}
		dst = append(dst, c)
	}
	return dst, s.next() == ']'
}

// parseConfigValue reads a value after '=': surrounding whitespace is
// dropped, each inner whitespace character outside quotes becomes one
// space, '#' and ';' outside quotes start a comment, double quotes
// toggle quoting, and \n \t \b \\ \" and backslash-newline are the only
// escapes.
func parseConfigValue(s *configScanner, dst []byte) ([]byte, bool) {
	quote, comment := false, false
	spaces := 0
	for {
		c := s.next()
		if c == '\n' {
			if quote {
				s.line--
				return dst, false
			}
			return dst, true
		}
		if comment {
			continue
		}
		if isConfigSpace(c) && !quote {
			if len(dst) > 0 {
				spaces++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; spaces > 0; spaces-- {
			dst = append(dst, ' ')
		}
		if c == '\\' {
			c = s.next()
			switch c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return dst, false
			}
			dst = append(dst, c)
			continue
		}
		if c == '"' {
			quote = !quote
			continue
		}
		dst = append(dst, c)
	}
}

// canonicalKey validates a key of the form section[.subsection].name and
// lowercases its section and name, as git_config_parse_key does. The
// error texts are git's.
func canonicalKey(key string) (string, error) {
	last := strings.LastIndexByte(key, '.')
	if last <= 0 {
		return "", newError(ErrBadConfig, "key does not contain a section: %s", key)
	}
	if last == len(key)-1 {
		return "", newError(ErrBadConfig, "key does not contain variable name: %s", key)
	}
	b := []byte(key)
	dot := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '.' {
			dot = true
		}
		if !dot || i > last {
			if !isKeyChar(c) || (i == last+1 && !isAlpha(c)) {
				return "", newError(ErrBadConfig, "invalid key: %s", key)
			}
			b[i] = lowerASCII(c)
		} else if c == '\n' {
			return "", newError(ErrBadConfig, "invalid key (newline): %s", key)
		}
	}
	return string(b), nil
}
