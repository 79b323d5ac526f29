package posixre

import (
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// tableClassNames are the classes of utf8ClassRanges, in its order.
var tableClassNames = [12]string{"alpha", "upper", "lower", "digit", "xdigit", "space", "print", "punct", "graph", "cntrl", "blank", "alnum"}

// tableClass reports whether class c (an index of utf8ClassRanges)
// accepts r, by binary search.
func tableClass(c int, r rune) bool {
	ranges := utf8ClassRanges[c]
	i := sort.Search(len(ranges), func(i int) bool { return ranges[i][1] >= r })
	return i < len(ranges) && ranges[i][0] <= r
}

// tableUpper is towupper(r) by the table.
func tableUpper(r rune) rune { return tableMapCase(utf8UpperRanges, r) }

// tableLower is towlower(r) by the table.
func tableLower(r rune) rune { return tableMapCase(utf8LowerRanges, r) }

func tableMapCase(entries [][3]rune, r rune) rune {
	i := sort.Search(len(entries), func(i int) bool { return entries[i][1] >= r })
	if i < len(entries) && entries[i][0] <= r {
		return r + entries[i][2]
	}
	return r
}

func TestUTF8ClassRangesWellFormed(t *testing.T) {
	for c, ranges := range utf8ClassRanges {
		name := tableClassNames[c]
		if len(ranges) == 0 {
			t.Errorf("%s: no ranges", name)
		}
		for i, r := range ranges {
			if r[0] < 0 || r[1] > unicode.MaxRune || r[0] > r[1] {
				t.Errorf("%s: range %d {%#x, %#x} is not within 0..0x10FFFF with lo <= hi", name, i, r[0], r[1])
			}
			// The next range starts after a gap: sorted, disjoint and
			// maximal (touching ranges would have been one).
			if i > 0 && r[0] <= ranges[i-1][1]+1 {
				t.Errorf("%s: range %d {%#x, %#x} does not start after a gap following {%#x, %#x}", name, i, r[0], r[1], ranges[i-1][0], ranges[i-1][1])
			}
		}
	}
}

func TestUTF8CaseRangesWellFormed(t *testing.T) {
	for _, table := range []struct {
		name    string
		entries [][3]rune
	}{{"utf8UpperRanges", utf8UpperRanges}, {"utf8LowerRanges", utf8LowerRanges}} {
		if len(table.entries) == 0 {
			t.Errorf("%s: no entries", table.name)
		}
		for i, e := range table.entries {
			lo, hi, delta := e[0], e[1], e[2]
			if lo < 0 || hi > unicode.MaxRune || lo > hi {
				t.Errorf("%s: entry %d {%#x, %#x, %d} is not within 0..0x10FFFF with lo <= hi", table.name, i, lo, hi, delta)
			}
			if delta == 0 {
				t.Errorf("%s: entry %d {%#x, %#x, %d} maps to itself", table.name, i, lo, hi, delta)
			}
			if lo+delta < 0 || hi+delta > unicode.MaxRune {
				t.Errorf("%s: entry %d {%#x, %#x, %d} maps outside 0..0x10FFFF", table.name, i, lo, hi, delta)
			}
			if i == 0 {
				continue
			}
			prev := table.entries[i-1]
			if lo <= prev[1] {
				t.Errorf("%s: entry %d {%#x, %#x, %d} overlaps or precedes {%#x, %#x, %d}", table.name, i, lo, hi, delta, prev[0], prev[1], prev[2])
			}
			if lo == prev[1]+1 && delta == prev[2] {
				t.Errorf("%s: entries %d and %d touch with the same delta %d: not merged", table.name, i-1, i, delta)
			}
		}
	}
}

// TestUTF8ClassFacts checks the classes and case mappings of chosen code
// points, each as glibc 2.36's iswctype, towupper and towlower give them
// under C.UTF-8 (observed with a C program, not assumed).
func TestUTF8ClassFacts(t *testing.T) {
	facts := []struct {
		r            rune
		upper, lower rune
		classes      string // every class iswctype accepts, in tableClassNames' order
	}{
		{'a', 'A', 'a', "alpha lower xdigit print graph alnum"},
		{'A', 'A', 'a', "alpha upper xdigit print graph alnum"},
		{'z', 'Z', 'z', "alpha lower print graph alnum"},
		{'0', '0', '0', "digit xdigit print graph alnum"},
		{'9', '9', '9', "digit xdigit print graph alnum"},
		{' ', ' ', ' ', "space print blank"},
		{'\t', '\t', '\t', "space cntrl blank"},
		{'\n', '\n', '\n', "space cntrl"},
		{'\v', '\v', '\v', "space cntrl"},
		{'\f', '\f', '\f', "space cntrl"},
		{'\r', '\r', '\r', "space cntrl"},
		{0x00, 0x00, 0x00, "cntrl"},
		{0x1F, 0x1F, 0x1F, "cntrl"},
		{0x7F, 0x7F, 0x7F, "cntrl"},
		{0x80, 0x80, 0x80, "cntrl"},
		{0x85, 0x85, 0x85, "cntrl"}, // NEL: not space
		{0x9F, 0x9F, 0x9F, "cntrl"},
		{0xA0, 0xA0, 0xA0, "print punct graph"}, // no-break space: not space, not blank
		{0xAD, 0xAD, 0xAD, "print punct graph"},
		{0xDF, 0xDF, 0xDF, "alpha lower print graph alnum"}, // ß has no one-character upper case
		{0xE9, 0xC9, 0xE9, "alpha lower print graph alnum"}, // é
		{0xC9, 0xC9, 0xE9, "alpha upper print graph alnum"}, // É
		{0xFF, 0x178, 0xFF, "alpha lower print graph alnum"},
		{0x178, 0x178, 0xFF, "alpha upper print graph alnum"},
		{0x130, 0x130, 'i', "alpha upper print graph alnum"},
		{0x131, 'I', 0x131, "alpha lower print graph alnum"},
		{0x17F, 'S', 0x17F, "alpha lower print graph alnum"},
		{0x1C4, 0x1C4, 0x1C6, "alpha upper print graph alnum"},
		{0x1C5, 0x1C4, 0x1C6, "alpha upper lower print graph alnum"}, // title case: both upper and lower
		{0x1C6, 0x1C4, 0x1C6, "alpha lower print graph alnum"},
		{0x378, 0x378, 0x378, ""},                        // unassigned
		{0x660, 0x660, 0x660, "alpha print graph alnum"}, // ARABIC-INDIC DIGIT ZERO: alpha, not digit
		{0x1680, 0x1680, 0x1680, "space print blank"},    // OGHAM SPACE MARK
		{0x2007, 0x2007, 0x2007, "print punct graph"},    // FIGURE SPACE: not space
		{0x2028, 0x2028, 0x2028, "space cntrl"},          // LINE SEPARATOR: not print
		{0x2029, 0x2029, 0x2029, "space cntrl"},          // PARAGRAPH SEPARATOR
		{0x202F, 0x202F, 0x202F, "print punct graph"},    // NARROW NO-BREAK SPACE: not space
		{0x3000, 0x3000, 0x3000, "space print blank"},    // IDEOGRAPHIC SPACE
		{0xD800, 0xD800, 0xD800, ""},                     // surrogate
		{0xDFFF, 0xDFFF, 0xDFFF, ""},                     // surrogate
		{0xE000, 0xE000, 0xE000, "print punct graph"},    // private use
		{0xFFFE, 0xFFFE, 0xFFFE, ""},                     // noncharacter
		{0xFFFF, 0xFFFF, 0xFFFF, ""},                     // noncharacter
		{0xFF21, 0xFF21, 0xFF41, "alpha upper print graph alnum"},
		{0xFF41, 0xFF21, 0xFF41, "alpha lower print graph alnum"},
		{0x2160, 0x2160, 0x2170, "alpha upper print graph alnum"}, // ROMAN NUMERAL ONE
		{0x2170, 0x2160, 0x2170, "alpha lower print graph alnum"},
		{0x1E900, 0x1E900, 0x1E922, "alpha upper print graph alnum"},
		{0x1E922, 0x1E900, 0x1E922, "alpha lower print graph alnum"},
		{0x10FFFD, 0x10FFFD, 0x10FFFD, "print punct graph"}, // private use, plane 16
		{0x10FFFF, 0x10FFFF, 0x10FFFF, ""},
	}
	for _, f := range facts {
		if got := tableClassesOf(f.r); got != f.classes {
			t.Errorf("U+%04X: classes %q, glibc's are %q", f.r, got, f.classes)
		}
		if got := tableUpper(f.r); got != f.upper {
			t.Errorf("towupper(U+%04X) = U+%04X by the table, glibc's is U+%04X", f.r, got, f.upper)
		}
		if got := tableLower(f.r); got != f.lower {
			t.Errorf("towlower(U+%04X) = U+%04X by the table, glibc's is U+%04X", f.r, got, f.lower)
		}
	}
}

// TestUTF8ASCIIIsCLocale checks that the tables classify and map ASCII
// as the POSIX locale does (glibc 2.36's C.UTF-8 does: compared with
// isalpha and the rest in the C locale).
func TestUTF8ASCIIIsCLocale(t *testing.T) {
	const punct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
	for r := rune(0); r < 0x80; r++ {
		upper := 'A' <= r && r <= 'Z'
		lower := 'a' <= r && r <= 'z'
		digit := '0' <= r && r <= '9'
		alpha := upper || lower
		want := map[string]bool{
			"alpha":  alpha,
			"upper":  upper,
			"lower":  lower,
			"digit":  digit,
			"xdigit": digit || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F',
			"space":  r == ' ' || '\t' <= r && r <= '\r',
			"print":  0x20 <= r && r < 0x7F,
			"punct":  strings.ContainsRune(punct, r),
			"graph":  0x20 < r && r < 0x7F,
			"cntrl":  r < 0x20 || r == 0x7F,
			"blank":  r == ' ' || r == '\t',
			"alnum":  alpha || digit,
		}
		for c, name := range tableClassNames {
			if got := tableClass(c, r); got != want[name] {
				t.Errorf("%s(%#x) = %v by the table, %v in the C locale", name, r, got, want[name])
			}
		}
		wantUpper, wantLower := r, r
		if lower {
			wantUpper = r - 'a' + 'A'
		}
		if upper {
			wantLower = r - 'A' + 'a'
		}
		if got := tableUpper(r); got != wantUpper {
			t.Errorf("towupper(%#x) = %#x by the table, want %#x", r, got, wantUpper)
		}
		if got := tableLower(r); got != wantLower {
			t.Errorf("towlower(%#x) = %#x by the table, want %#x", r, got, wantLower)
		}
	}
}

// TestUTF8ClassRelations checks relations between the classes that hold
// for every code point in glibc 2.36's C.UTF-8: alnum is alpha or digit,
// upper and lower are alpha, graph is print, print and not graph is blank
// and not tab, graph is alpha, digit or punct.
func TestUTF8ClassRelations(t *testing.T) {
	failures := 0
	for r := rune(0); r <= unicode.MaxRune && failures < 10; r++ {
		is := struct{ alpha, upper, lower, digit, xdigit, space, print, punct, graph, cntrl, blank, alnum bool }{
			tableClass(0, r), tableClass(1, r), tableClass(2, r), tableClass(3, r), tableClass(4, r), tableClass(5, r),
			tableClass(6, r), tableClass(7, r), tableClass(8, r), tableClass(9, r), tableClass(10, r), tableClass(11, r),
		}
		var broken []string
		if is.alnum != (is.alpha || is.digit) {
			broken = append(broken, "alnum == alpha || digit")
		}
		if (is.upper || is.lower) && !is.alpha {
			broken = append(broken, "upper || lower => alpha")
		}
		if is.graph && !is.print {
			broken = append(broken, "graph => print")
		}
		if (is.print && !is.graph) != (is.blank && r != '\t') {
			broken = append(broken, "print && !graph == blank && != tab")
		}
		if is.graph != (is.alpha || is.digit || is.punct) {
			broken = append(broken, "graph == alpha || digit || punct")
		}
		if is.xdigit && !is.alnum || is.blank && !is.space || is.cntrl && is.print {
			broken = append(broken, "xdigit => alnum, blank => space, cntrl => !print")
		}
		if len(broken) > 0 {
			t.Errorf("U+%04X (%s) breaks %s", r, tableClassesOf(r), strings.Join(broken, "; "))
			failures++
		}
	}
}

// TestUTF8TablesMatchCLibrary regenerates the tables from this machine's C
// library with ctypegen -check, which fails if ctype_utf8_table.go is not
// what it would write. Test files cannot call C, so the generator does.
// It needs the go command, cgo, glibc 2.36 (the tables' version) and its
// C.UTF-8 locale, and is skipped without them and in -short mode.
func TestUTF8TablesMatchCLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs ctypegen; skipped in -short mode")
	}
	if runtime.GOOS != "linux" {
		t.Skip("ctypegen asks glibc, on linux")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to run ctypegen with")
	}
	if out, err := exec.Command(goTool, "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("ctypegen needs cgo")
	}
	if out, err := exec.Command("getconf", "GNU_LIBC_VERSION").Output(); err != nil || strings.TrimSpace(string(out)) != "glibc 2.36" {
		t.Skipf("the tables come from glibc 2.36; this C library is %q", strings.TrimSpace(string(out)))
	}
	if _, err := os.Stat("/usr/lib/locale/C.utf8"); err != nil {
		t.Skipf("the C.UTF-8 locale is not installed: %v", err)
	}
	cmd := exec.Command(goTool, "run", "./internal/gen/ctypegen", "-check", "-out", "ctype_utf8_table.go")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ctypegen -check: %v\n%s", err, out)
	}
}

// tableClassesOf is the names of the classes the tables put r in, in
// tableClassNames' order, separated by spaces.
func tableClassesOf(r rune) string {
	var names []string
	for c, name := range tableClassNames {
		if tableClass(c, r) {
			names = append(names, name)
		}
	}
	return strings.Join(names, " ")
}
