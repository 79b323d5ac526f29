//go:build cgo

package posixre

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The pieces random patterns are made of: every operator of both
// syntaxes, in and out of place, and characters of both kinds.
var patternPieces = []string{
	"a", "b", "A", "x", "_", "0", "9", " ", ",", "-", "é", "É", "ß", "ı", "ǅ", "€", "\n", "\t", "\x00"[:0],
	".", "*", "+", "?", `\+`, `\?`, `\|`, "|", "(", ")", `\(`, `\)`, "{", "}", `\{`, `\}`,
	"{1}", "{0,2}", "{2,}", "{,1}", "{0}", "{2,1}", "{x}", `\{1\}`, `\{0,2\}`, `\{1,\}`, `\{,2\}`,
	"[", "]", "[^", "[]", "[^]", "[a-z]", "[z-a]", "[a-]", "[-a]", "[]a]", "[^a]", "[^\n]", "[é-ü]", "[a-é]", "[[:alpha:]]", "[[:upper:]]",
	"[[:lower:]]", "[[:space:]]", "[[:punct:]]", "[[:digit:][:alpha:]]", "[[:foo:]]", "[[.a.]]", "[[=a=]]", "[[.-.]]", "[[.é.]]", "[[=é=]]",
	"[:alpha:]", "[[:alpha:]-z]", "[a-[.z.]]", "[[.a.]-z]", "[[:alpha:]",
	"^", "$", `\<`, `\>`, `\b`, `\B`, `\w`, `\W`, `\s`, `\S`, "\\`", `\'`,
	`\(a\)`, "(a*)", "(.)", `\(.\)`, "(a|ab)", `\(x*\)*`, "(b+)?",
	`\1`, `\2`, `\`, `\a`, `\.`, `\*`, `\é`, `\n`, "\xff", "\xc3", "\xa9",
}

var subjectPieces = []string{
	"a", "b", "A", "B", "x", "X", "_", "0", "9", " ", "\t", "\n", ",", "-", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "\\",
	"é", "É", "ß", "ẞ", "ı", "I", "ǅ", "€", "٣", "\u00a0", "\u3000", "\xff", "\xc3", "\xa9", "\x00", "ab", "aa", "abc",
}

func randomString(rng *rand.Rand, pieces []string, max int) string {
	var b strings.Builder
	for range rng.Intn(max + 1) {
		b.WriteString(pieces[rng.Intn(len(pieces))])
	}
	return b.String()
}

// TestEngineMatchesCLibrary compares the package's engine with the C
// library's regcomp and regexec on random patterns and subjects: the
// same errors, the same leftmost-longest matches (Find) and the same
// answers to Match, in the C and C.UTF-8 locales, for every flag
// combination git uses and more.
func TestEngineMatchesCLibrary(t *testing.T) {
	locales := []string{"C"}
	if ctypeLocale("C.UTF-8") != nil {
		locales = append(locales, "C.UTF-8")
	} else {
		t.Log("C.UTF-8 is not installed: the UTF-8 locale is not compared")
	}
	flagSets := []int{0, Newline, Extended, Extended | Newline, ICase, Extended | ICase, Newline | ICase}
	n := 4000
	if testing.Short() {
		n = 800
	}
	seed := int64(1)
	if v, err := strconv.ParseInt(os.Getenv("POSIXRE_SEED"), 10, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewSource(seed))
	var subjects []string
	for range 40 {
		subjects = append(subjects, randomString(rng, subjectPieces, 12))
	}
	failures, backrefDiffs, backrefPatterns := 0, 0, 0
	for _, loc := range locales {
		utf8Mode := loc != "C"
		for _, flags := range flagSets {
			for range n {
				pat := randomString(rng, patternPieces, 4+rng.Intn(6))
				if failures > 30 {
					t.Fatal("too many differences")
				}
				msg := compareOne(pat, flags, loc, utf8Mode, subjects)
				if e, err := compileEngine(pat, flags, utf8Mode); err == nil && e.backrefs {
					// glibc's own matching of back references is not
					// consistent (see doc.go): counted, not required.
					backrefPatterns++
					if msg != "" && !strings.HasPrefix(msg, "compile") {
						backrefDiffs++
						t.Logf("back reference: locale %s flags %d pattern %q: %s", loc, flags, pat, msg)
						continue
					}
				}
				if msg != "" {
					failures++
					t.Errorf("locale %s flags %d pattern %q: %s", loc, flags, pat, msg)
				}
			}
		}
	}
	t.Logf("%d patterns with back references, %d matched differently", backrefPatterns, backrefDiffs)
	if backrefDiffs*50 > backrefPatterns {
		t.Errorf("%d of %d patterns with back references matched differently from the C library", backrefDiffs, backrefPatterns)
	}
}

func compareOne(pat string, flags int, loc string, utf8Mode bool, subjects []string) string {
	if strings.IndexByte(pat, 0) >= 0 {
		return "" // a C string ends there
	}
	if utf8Mode && !utf8.ValidString(pat) {
		// glibc matches a stray byte of the pattern against the
		// subject's bytes, inside its characters too: not modelled.
		return ""
	}
	want, werr := Compile(pat, flags, loc)
	got, gerr := compileEngine(pat, flags, utf8Mode)
	if werr != nil || gerr != nil {
		if werr == nil || gerr == nil || werr.Error() != gerr.Error() {
			return fmt.Sprintf("compile: C library %v, engine %v", werr, gerr)
		}
		return ""
	}
	defer want.Free()
	for _, s := range subjects {
		ws, we, wok := want.Find([]byte(s))
		gs, ge, gok := got.find(cString([]byte(s)))
		if wok && gok && flags&ICase != 0 && utf8Mode && ws == we && gs == ge && gs == len(cString([]byte(s))) {
			// glibc misplaces an empty match at the end of a subject
			// whose case folding changes its length (\> after "ı").
			continue
		}
		if wok != gok || wok && (ws != gs || we != ge) {
			return fmt.Sprintf("Find(%q): C library %d,%d,%v engine %d,%d,%v", s, ws, we, wok, gs, ge, gok)
		}
		if w, g := want.Match([]byte(s)), got.match([]byte(s)); w != g {
			return fmt.Sprintf("Match(%q): C library %v engine %v", s, w, g)
		}
	}
	return ""
}

func cString(s []byte) []byte {
	if i := strings.IndexByte(string(s), 0); i >= 0 {
		return s[:i]
	}
	return s
}
