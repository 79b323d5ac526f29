//go:build linux && cgo

// Command ctypegen writes internal/posixre's tables of the C library's
// wide-character classification in the C.UTF-8 locale
// (ctype_utf8_table.go), the classes and case mappings glibc's
// regcomp/regexec use for [[:alpha:]], [[:space:]], REG_ICASE and the
// rest when git runs under LC_CTYPE=C.UTF-8.
//
// The classification is observed, not read from glibc's locale sources:
// after setlocale(LC_CTYPE, "C.UTF-8"), ctypegen asks
// iswctype(c, wctype(name)) for every code point c from U+0000 to
// U+10FFFF and each of the twelve POSIX class names, in the order alpha,
// upper, lower, digit, xdigit, space, print, punct, graph, cntrl, blank,
// alnum, and towupper(c) and towlower(c). It writes, for each class, the
// sorted, maximal, inclusive ranges of code points the class accepts
// (utf8ClassRanges), and, for each case mapping, the maximal runs of
// consecutive code points that map to themselves plus the same delta,
// leaving out those that map to themselves (utf8UpperRanges,
// utf8LowerRanges).
//
// With -check, ctypegen writes nothing: it compares what it would write
// with the file on disk and exits with status 1, naming the first line
// that differs, if they are not the same bytes.
//
// Usage, from the repository root, on a machine with glibc and its
// C.UTF-8 locale (Debian: libc6, which installs /usr/lib/locale/C.utf8;
// the committed tables come from glibc 2.36):
//
//	go run ./internal/posixre/internal/gen/ctypegen
package main

/*
#include <gnu/libc-version.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <wctype.h>

static const char *set_ctype(const char *name) { return setlocale(LC_CTYPE, name); }

// classify sets in[c] to 1 if iswctype(c, class) for each code point c
// below limit, else to 0.
static void classify(wctype_t class, unsigned limit, unsigned char *in) {
	for (unsigned c = 0; c < limit; c++)
		in[c] = iswctype((wint_t)c, class) != 0;
}

// map_case sets upper[c] to towupper(c) and lower[c] to towlower(c) for
// each code point c below limit.
static void map_case(unsigned limit, unsigned *upper, unsigned *lower) {
	for (unsigned c = 0; c < limit; c++) {
		upper[c] = towupper((wint_t)c);
		lower[c] = towlower((wint_t)c);
	}
}
*/
import "C"

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"unsafe"
)

// classNames are the POSIX character classes, in the order of
// utf8ClassRanges.
var classNames = [12]string{"alpha", "upper", "lower", "digit", "xdigit", "space", "print", "punct", "graph", "cntrl", "blank", "alnum"}

// limit is one past the last code point probed.
const limit = 0x110000

func main() {
	out := flag.String("out", "internal/posixre/ctype_utf8_table.go", "file to write")
	check := flag.Bool("check", false, "compare with the file instead of writing it; exit status 1 if they differ")
	flag.Parse()
	log.SetFlags(0)

	locale := C.CString("C.UTF-8")
	defer C.free(unsafe.Pointer(locale))
	if C.set_ctype(locale) == nil {
		log.Fatal("ctypegen: setlocale(LC_CTYPE, \"C.UTF-8\") failed: is the C.UTF-8 locale installed (/usr/lib/locale/C.utf8)?")
	}
	if codeset := C.GoString(C.nl_langinfo(C.CODESET)); codeset != "UTF-8" {
		log.Fatalf("ctypegen: the C.UTF-8 locale's codeset is %q, not UTF-8", codeset)
	}

	var classes [len(classNames)][][2]rune
	in := make([]byte, limit)
	for i, name := range classNames {
		cname := C.CString(name)
		class := C.wctype(cname)
		C.free(unsafe.Pointer(cname))
		if class == 0 {
			log.Fatalf("ctypegen: wctype(%q) is 0: the locale has no such class", name)
		}
		C.classify(class, limit, (*C.uchar)(&in[0]))
		classes[i] = ranges(in)
	}
	upper := make([]uint32, limit)
	lower := make([]uint32, limit)
	C.map_case(limit, (*C.uint)(&upper[0]), (*C.uint)(&lower[0]))

	glibc := C.GoString(C.gnu_get_libc_version())
	src, err := format.Source(source(glibc, classes, caseRuns(upper), caseRuns(lower)))
	if err != nil {
		log.Fatalf("ctypegen: formatting %s: %v", *out, err)
	}
	if *check {
		onDisk, err := os.ReadFile(*out)
		if err != nil {
			log.Fatalf("ctypegen: %v", err)
		}
		if line, differ := firstDifference(onDisk, src); differ {
			log.Printf("ctypegen: %s differs from glibc %s's C.UTF-8 locale from line %d on; run go run ./internal/posixre/internal/gen/ctypegen", *out, glibc, line)
			os.Exit(1)
		}
		log.Printf("ctypegen: %s matches glibc %s's C.UTF-8 locale", *out, glibc)
		return
	}
	if err := os.WriteFile(*out, src, 0o666); err != nil {
		log.Fatalf("ctypegen: %v", err)
	}
	for i, name := range classNames {
		log.Printf("ctypegen: %-6s %5d ranges", name, len(classes[i]))
	}
	log.Printf("ctypegen: wrote %s (%d bytes, glibc %s)", *out, len(src), glibc)
}

// ranges returns the maximal runs of code points c with in[c] == 1, as
// inclusive {lo, hi} pairs in order.
func ranges(in []byte) [][2]rune {
	var rs [][2]rune
	for c := 0; c < len(in); c++ {
		if in[c] == 0 {
			continue
		}
		lo := c
		for c+1 < len(in) && in[c+1] != 0 {
			c++
		}
		rs = append(rs, [2]rune{rune(lo), rune(c)})
	}
	return rs
}

// caseRuns returns the maximal runs of consecutive code points c with
// mapped[c] != c and the same mapped[c] - c, as {lo, hi, delta}.
func caseRuns(mapped []uint32) [][3]rune {
	var runs [][3]rune
	for c := range mapped {
		delta := rune(mapped[c]) - rune(c)
		if delta == 0 {
			continue
		}
		if n := len(runs); n > 0 && runs[n-1][1] == rune(c)-1 && runs[n-1][2] == delta {
			runs[n-1][1] = rune(c)
			continue
		}
		runs = append(runs, [3]rune{rune(c), rune(c), delta})
	}
	return runs
}

// source is ctype_utf8_table.go before gofmt.
func source(glibc string, classes [len(classNames)][][2]rune, upper, lower [][3]rune) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by ctypegen from glibc's C.UTF-8 locale; DO NOT EDIT.\n\n")
	b.WriteString("package posixre\n\n")
	fmt.Fprintf(&b, "// utf8ClassRanges are, for each POSIX character class in the order\n")
	fmt.Fprintf(&b, "// alpha, upper, lower, digit, xdigit, space, print, punct, graph, cntrl,\n")
	fmt.Fprintf(&b, "// blank, alnum, the sorted, maximal, inclusive ranges {lo, hi} of the\n")
	fmt.Fprintf(&b, "// code points iswctype accepts in glibc %s's C.UTF-8 locale.\n", glibc)
	b.WriteString("var utf8ClassRanges = [12][][2]rune{\n")
	for i, rs := range classes {
		fmt.Fprintf(&b, "// %s\n{\n", classNames[i])
		for j, r := range rs {
			fmt.Fprintf(&b, "{0x%04X, 0x%04X},", r[0], r[1])
			if j%4 == 3 || j == len(rs)-1 {
				b.WriteString("\n")
			} else {
				b.WriteString(" ")
			}
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n\n")
	writeCase(&b, "utf8UpperRanges", "towupper", glibc, upper)
	writeCase(&b, "utf8LowerRanges", "towlower", glibc, lower)
	return b.Bytes()
}

func writeCase(b *bytes.Buffer, name, function, glibc string, runs [][3]rune) {
	fmt.Fprintf(b, "// %s are the sorted entries {lo, hi, delta} meaning that\n", name)
	fmt.Fprintf(b, "// %s(c) == c+delta for every code point c from lo to hi in glibc\n", function)
	fmt.Fprintf(b, "// %s's C.UTF-8 locale; %s maps every other code point to itself.\n", glibc, function)
	fmt.Fprintf(b, "var %s = [][3]rune{\n", name)
	for j, r := range runs {
		fmt.Fprintf(b, "{0x%04X, 0x%04X, %d},", r[0], r[1], r[2])
		if j%4 == 3 || j == len(runs)-1 {
			b.WriteString("\n")
		} else {
			b.WriteString(" ")
		}
	}
	b.WriteString("}\n")
}

// firstDifference reports whether a and b differ and, if so, the number
// (from 1) of the first line where they do.
func firstDifference(a, b []byte) (line int, differ bool) {
	if bytes.Equal(a, b) {
		return 0, false
	}
	al, bl := bytes.SplitAfter(a, []byte("\n")), bytes.SplitAfter(b, []byte("\n"))
	for i := 0; i < len(al) && i < len(bl); i++ {
		if !bytes.Equal(al[i], bl[i]) {
			return i + 1, true
		}
	}
	return min(len(al), len(bl)) + 1, true
}
