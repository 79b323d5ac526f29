//go:build cgo

package posixre

/*
#define _GNU_SOURCE
#include <locale.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

static regex_t *new_regex(void) { return calloc(1, sizeof(regex_t)); }

// ctype_locale loads the LC_CTYPE of the locale called name; (locale_t)0
// when it is not installed, as setlocale(LC_CTYPE, name) would fail.
static locale_t ctype_locale(const char *name) {
	return newlocale(LC_CTYPE_MASK, name, (locale_t)0);
}

// Each call below runs on one thread from start to end, so the thread's
// locale (uselocale) is loc for the C library's work and the thread's
// own again afterwards; loc 0 means the C locale every Go program's C
// library starts in.
static int do_comp(regex_t *re, const char *pat, int cflags, locale_t loc, char *err, size_t n) {
	locale_t old = loc ? uselocale(loc) : (locale_t)0;
	int rc = regcomp(re, pat, cflags);
	if (rc != 0)
		regerror(rc, re, err, n);
	if (loc)
		uselocale(old);
	return rc;
}

static int do_exec(regex_t *re, const char *s, int *so, int *eo, locale_t loc) {
	locale_t old = loc ? uselocale(loc) : (locale_t)0;
	regmatch_t m[1];
	int r = regexec(re, s, 1, m, 0);
	if (r == 0) { *so = (int)m[0].rm_so; *eo = (int)m[0].rm_eo; }
	if (loc)
		uselocale(old);
	return r;
}

// do_match searches s[0:n] whole, NUL bytes included (REG_STARTEND, as
// git's regexec_buf).
static int do_match(regex_t *re, const char *s, size_t n, locale_t loc) {
	locale_t old = loc ? uselocale(loc) : (locale_t)0;
	regmatch_t m[1];
	m[0].rm_so = 0;
	m[0].rm_eo = (regoff_t)n;
	int r = regexec(re, s, 1, m, REG_STARTEND);
	if (loc)
		uselocale(old);
	return r;
}
*/
import "C"

import (
	"errors"
	"sync"
	"unsafe"
)

// Regexp is a compiled POSIX regular expression.
type Regexp struct {
	re  *C.regex_t
	loc C.locale_t
}

// Flags for Compile.
const (
	Extended = 1 << iota // REG_EXTENDED
	ICase                // REG_ICASE
	Newline              // REG_NEWLINE
)

// locales holds the loaded LC_CTYPE locales by name, nil for names that
// are not installed; they are never freed (a process uses one or two).
var locales struct {
	sync.Mutex
	m map[string]C.locale_t
}

func ctypeLocale(name string) C.locale_t {
	if name == "" || name == "C" || name == "POSIX" {
		return nil
	}
	locales.Lock()
	defer locales.Unlock()
	if loc, ok := locales.m[name]; ok {
		return loc
	}
	cs := C.CString(name)
	loc := C.ctype_locale(cs)
	C.free(unsafe.Pointer(cs))
	if locales.m == nil {
		locales.m = make(map[string]C.locale_t)
	}
	locales.m[name] = loc
	return loc
}

// Compile compiles pattern in the LC_CTYPE locale called locale (see
// CtypeLocale; "" is the C locale). The error text is the C library's
// regerror.
func Compile(pattern string, flags int, locale string) (*Regexp, error) {
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
	loc := ctypeLocale(locale)
	re := C.new_regex()
	cs := C.CString(pattern)
	defer C.free(unsafe.Pointer(cs))
	var buf [1024]C.char
	if rc := C.do_comp(re, cs, cflags, loc, &buf[0], C.size_t(len(buf))); rc != 0 {
		C.free(unsafe.Pointer(re))
		return nil, errors.New(C.GoString(&buf[0]))
	}
	return &Regexp{re: re, loc: loc}, nil
}

// Find runs regexec on s (which, as a C string, ends at its first NUL
// byte) and returns the byte offsets of the first match.
func (r *Regexp) Find(s []byte) (start, end int, ok bool) {
	cs := C.CBytes(append(s[:len(s):len(s)], 0))
	defer C.free(cs)
	var so, eo C.int
	if C.do_exec(r.re, (*C.char)(cs), &so, &eo, r.loc) != 0 {
		return 0, 0, false
	}
	return int(so), int(eo), true
}

// Match reports whether s, all of it (NUL bytes included), has a match:
// regexec with REG_STARTEND, as git's regexec_buf runs funcname patterns.
func (r *Regexp) Match(s []byte) bool {
	cs := C.CBytes(append(s[:len(s):len(s)], 0))
	defer C.free(cs)
	return C.do_match(r.re, (*C.char)(cs), C.size_t(len(s)), r.loc) == 0
}

// Free releases the compiled expression.
func (r *Regexp) Free() {
	if r.re != nil {
		C.regfree(r.re)
		C.free(unsafe.Pointer(r.re))
		r.re = nil
	}
}
