//go:build !cgo

package posixre

import (
	"bytes"
	"os"
	"sync"
)

// Regexp is a compiled POSIX regular expression (the package's own
// engine: see doc.go).
type Regexp struct {
	e *engine
}

// Flags for Compile.
const (
	Extended = 1 << iota // REG_EXTENDED
	ICase                // REG_ICASE
	Newline              // REG_NEWLINE
)

// utf8Locales remembers, by name, whether a locale loads as a UTF-8 one.
var utf8Locales sync.Map

// isUTF8Locale reports whether the C library would load the LC_CTYPE
// locale called name as a UTF-8 one; one it would not load at all is
// the C locale, as it is for git.
func isUTF8Locale(name string) bool {
	if name == "" || name == "C" || name == "POSIX" {
		return false
	}
	if v, ok := utf8Locales.Load(name); ok {
		return v.(bool)
	}
	installed, utf8 := localeCharset(name, os.Getenv)
	ok := installed && utf8
	utf8Locales.Store(name, ok)
	return ok
}

// Compile compiles pattern in the LC_CTYPE locale called locale (see
// CtypeLocale; "" is the C locale). Errors have glibc's regerror
// wording.
func Compile(pattern string, flags int, locale string) (*Regexp, error) {
	e, err := compileEngine(pattern, flags, isUTF8Locale(locale))
	if err != nil {
		return nil, err
	}
	return &Regexp{e: e}, nil
}

// Find returns the byte offsets of the first (leftmost-longest) match in
// s, which, as the C string regexec is given, ends at its first NUL.
func (r *Regexp) Find(s []byte) (start, end int, ok bool) {
	if i := bytes.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return r.e.find(s)
}

// Free releases nothing; it exists for symmetry with the cgo version.
func (r *Regexp) Free() {}

// Match reports whether s, all of it (NUL bytes included), has a match:
// regexec with REG_STARTEND, as git's regexec_buf runs funcname patterns.
func (r *Regexp) Match(s []byte) bool { return r.e.match(s) }
