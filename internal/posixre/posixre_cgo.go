//go:build cgo

package posixre

/*
#include <regex.h>
#include <stdlib.h>
#include <string.h>

static regex_t *new_regex(void) { return calloc(1, sizeof(regex_t)); }

static int do_exec(regex_t *re, const char *s, int *so, int *eo) {
	regmatch_t m[1];
	int r = regexec(re, s, 1, m, 0);
	if (r == 0) { *so = (int)m[0].rm_so; *eo = (int)m[0].rm_eo; }
	return r;
}

// do_match searches s[0:n] whole, NUL bytes included (REG_STARTEND, as
// git's regexec_buf).
static int do_match(regex_t *re, const char *s, size_t n) {
	regmatch_t m[1];
	m[0].rm_so = 0;
	m[0].rm_eo = (regoff_t)n;
	return regexec(re, s, 1, m, REG_STARTEND);
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Regexp is a compiled POSIX regular expression.
type Regexp struct {
	re *C.regex_t
}

// Flags for Compile.
const (
	Extended = 1 << iota // REG_EXTENDED
	ICase                // REG_ICASE
	Newline              // REG_NEWLINE
)

// Compile compiles pattern. The error text is the C library's regerror.
func Compile(pattern string, flags int) (*Regexp, error) {
	cflags := C.int(0)
	if flags&Extended != 0 {
		cflags |= C.REG_EXTENDED
	}
	if flags&ICase != 0 {
		cflags |= C.REG_ICASE
	}
	if flags&Newline != 0 {
		cflags |= C.REG_NEWLINE
	}
	re := C.new_regex()
	cs := C.CString(pattern)
	defer C.free(unsafe.Pointer(cs))
	if rc := C.regcomp(re, cs, cflags); rc != 0 {
		var buf [1024]C.char
		C.regerror(rc, re, &buf[0], C.size_t(len(buf)))
		C.free(unsafe.Pointer(re))
		return nil, errors.New(C.GoString(&buf[0]))
	}
	return &Regexp{re: re}, nil
}

// Find runs regexec on s (which, as a C string, ends at its first NUL
// byte) and returns the byte offsets of the first match.
func (r *Regexp) Find(s []byte) (start, end int, ok bool) {
	cs := C.CBytes(append(s[:len(s):len(s)], 0))
	defer C.free(cs)
	var so, eo C.int
	if C.do_exec(r.re, (*C.char)(cs), &so, &eo) != 0 {
		return 0, 0, false
	}
	return int(so), int(eo), true
}

// Match reports whether s, all of it (NUL bytes included), has a match:
// regexec with REG_STARTEND, as git's regexec_buf runs funcname patterns.
func (r *Regexp) Match(s []byte) bool {
	cs := C.CBytes(append(s[:len(s):len(s)], 0))
	defer C.free(cs)
	return C.do_match(r.re, (*C.char)(cs), C.size_t(len(s))) == 0
}

// Free releases the compiled expression.
func (r *Regexp) Free() {
	if r.re != nil {
		C.regfree(r.re)
		C.free(unsafe.Pointer(r.re))
		r.re = nil
	}
}
