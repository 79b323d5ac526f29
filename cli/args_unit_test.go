package cli

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// The C library's number parsing, as git's callbacks see it. The expected
// values are glibc's (x86-64: 64-bit long, 32-bit int and unsigned).
func TestCNumberParsing(t *testing.T) {
	for _, c := range []struct {
		in       string
		ul       uint64
		ulEnd    int
		l        int64
		lEnd     int
		score    uint32
		abbrev   int // -1: rejected
		strtolOK bool
	}{
		{"40", 40, 2, 40, 2, 40, 40, true},
		{"", 0, 0, 0, 0, 0, -1, false},
		{" 7", 7, 2, 7, 2, 7, 7, true},
		{"+7", 7, 2, 7, 2, 7, 7, true},
		{"-1", ^uint64(0), 2, -1, 2, 0xffffffff, 4, true},
		{"-5", ^uint64(0) - 4, 2, -5, 2, 0xfffffffb, 4, true},
		{"7x", 7, 1, 7, 1, 0, -1, false},
		{"x", 0, 0, 0, 0, 0, -1, false},
		{"-", 0, 0, 0, 0, 0, -1, false},
		{"0x10", 0, 1, 0, 1, 0, -1, false},
		{"4294967297", 4294967297, 10, 4294967297, 10, 1, 4, false},
		{"18446744073709551615", ^uint64(0), 20, 1<<63 - 1, 20, 0xffffffff, 4, false},
		{"18446744073709551616", ^uint64(0), 20, 1<<63 - 1, 20, 0xffffffff, 4, false},
		{"9223372036854775807", 1<<63 - 1, 19, 1<<63 - 1, 19, 0xffffffff, 4, false},
		{"9223372036854775808", 1 << 63, 19, 1<<63 - 1, 19, 0, 4, false},
		{"-9223372036854775808", 1 << 63, 20, -1 << 63, 20, 0, 0, false},
		{"-9223372036854775809", 1<<63 - 1, 20, -1 << 63, 20, 0xffffffff, 0, false},
		{"2147483647", 2147483647, 10, 2147483647, 10, 2147483647, 40, true},
		{"2147483648", 2147483648, 10, 2147483648, 10, 2147483648, 4, false},
		{"0", 0, 1, 0, 1, 0, 0, true},
	} {
		ul, ulEnd := strtoul(c.in)
		l, lEnd := strtol(c.in)
		if ul != c.ul || ulEnd != c.ulEnd {
			t.Errorf("strtoul(%q) = %d, %d; want %d, %d", c.in, ul, ulEnd, c.ul, c.ulEnd)
		}
		if l != c.l || lEnd != c.lEnd {
			t.Errorf("strtol(%q) = %d, %d; want %d, %d", c.in, l, lEnd, c.l, c.lEnd)
		}
		if got := parseScore(c.in); got != c.score {
			t.Errorf("parseScore(%q) = %d, want %d", c.in, got, c.score)
		}
		abbrev, ok := parseAbbrevValue(c.in, 40)
		if !ok {
			abbrev = -1
		}
		if abbrev != c.abbrev {
			t.Errorf("parseAbbrevValue(%q, 40) = %d, want %d", c.in, abbrev, c.abbrev)
		}
		if _, ok := strtolInt(c.in); ok != c.strtolOK {
			t.Errorf("strtolInt(%q) ok = %v", c.in, ok)
		}
	}
}

func TestParseConfigInt(t *testing.T) {
	for in, want := range map[string]int64{
		"0": 0, "12": 12, "1k": 1024, "2M": 2 << 20, "1g": 1 << 30, "0x10": 16, "010": 8,
		"-3": -3, "2147483647": 2147483647, "-2147483647": -2147483647,
	} {
		if got, ok := parseConfigInt(in); !ok || got != want {
			t.Errorf("parseConfigInt(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "x", "1x", "2g", "-2147483648", "2147483648", "99999999999999999999", "1kk"} {
		if got, ok := parseConfigInt(in); ok {
			t.Errorf("parseConfigInt(%q) = %d, want an error", in, got)
		}
	}
}

func TestReportLine(t *testing.T) {
	if got, want := reportLine("error: ", "a\x01b\tc\x7fd\né"), "error: a?b\tc?d\né\n"; got != want {
		t.Errorf("reportLine = %q, want %q", got, want)
	}
	long := reportLine("fatal: ", strings.Repeat("x", 5000))
	if len(long) != 4096 || !strings.HasSuffix(long, "x\n") {
		t.Errorf("a long message is %d bytes, want git's 4095 and a newline", len(long))
	}
}

func TestParseDateFormat(t *testing.T) {
	for spec, want := range map[string]string{
		"iso": "iso", "iso8601": "iso", "iso-strict": "iso-strict", "rfc2822": "rfc", "short": "short",
		"local": "default-local", "relative-local": "relative-local", "format:%c": "format:%c",
		"format-local:": "format-local:", "auto:short": "default", "unix": "unix", "human": "human",
		"raw-local": "raw-local",
	} {
		mode, err := ParseDateFormat(spec, false)
		if err != nil || mode.String() != want {
			t.Errorf("ParseDateFormat(%q) = %v, %v; want %s", spec, mode, err, want)
			continue
		}
		again, err := ParseDateFormat(mode.String(), false)
		if err != nil || again != mode {
			t.Errorf("ParseDateFormat(%q) does not round-trip: %v, %v", mode.String(), again, err)
		}
	}
	if mode, _ := ParseDateFormat("auto:short", true); mode.Type != DateShort {
		t.Errorf("auto:short on a terminal = %v", mode)
	}
	for spec, want := range map[string]string{
		"bogus":   "unknown date format bogus",
		"format":  "date format missing colon separator: format",
		"isox":    "unknown date format isox",
		"auto:xx": "",
	} {
		_, err := ParseDateFormat(spec, true)
		if want == "" {
			want = "unknown date format xx"
		}
		var fe *FatalError
		if !errors.As(err, &fe) || fe.Message != want {
			t.Errorf("ParseDateFormat(%q) error = %v, want %q", spec, err, want)
		}
	}
}

// ParseArgs must not change the defaults it is given.
func TestParseArgsLeavesDefaults(t *testing.T) {
	defaults := DefaultBlameArgs()
	defaults.IgnoreRevsFiles = []string{"b", "a", "b"}
	defaults.IgnoreRevs = []string{"x"}
	a, err := ParseArgs([]string{"--ignore-revs-file=c", "--ignore-rev=y", "-L1,2", "file"}, defaults, ParseContext{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(defaults.IgnoreRevsFiles, []string{"b", "a", "b"}) || !slices.Equal(defaults.IgnoreRevs, []string{"x"}) {
		t.Errorf("defaults changed: %v %v", defaults.IgnoreRevsFiles, defaults.IgnoreRevs)
	}
	if !slices.Equal(a.IgnoreRevsFiles, []string{"a", "b", "c"}) || !slices.Equal(a.IgnoreRevs, []string{"x", "y"}) {
		t.Errorf("parse: %v %v", a.IgnoreRevsFiles, a.IgnoreRevs)
	}
}

// The exit statuses git uses, by kind of answer.
func TestParseArgsErrorKinds(t *testing.T) {
	for _, c := range []struct {
		args   []string
		code   int
		stdout bool
	}{
		{[]string{"-h"}, 129, true},
		{[]string{"--git-completion-helper"}, 0, true},
		{[]string{"-Z"}, 129, false},
		{[]string{}, 129, false},
		{[]string{"--no-ignore-matching-lines", "f"}, 134, false},
	} {
		_, err := ParseArgs(c.args, DefaultBlameArgs(), ParseContext{})
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: %v, want a UsageError", c.args, err)
			continue
		}
		if ue.ExitCode != c.code || (ue.Stdout != "") != c.stdout {
			t.Errorf("%q: exit %d stdout %q", c.args, ue.ExitCode, ue.Stdout)
		}
	}
	_, err := ParseArgs([]string{"--date=bogus", "f"}, DefaultBlameArgs(), ParseContext{})
	var fe *FatalError
	if !errors.As(err, &fe) || fe.Stderr() != "fatal: unknown date format bogus\n" || fe.ExitCode() != 128 {
		t.Errorf("--date=bogus: %v", err)
	}
}

func FuzzParseArgs(f *testing.F) {
	for _, seed := range []string{
		"-fnl\x00file", "--porc\x00-C40\x00--\x00file\x00HEAD", "-L\x00\x00--date\x00",
		"--no-\x00-h", "-fWZ\x00--abbrev=x", "--output-indicator-new=\x00\x00file", "-I\x00[[:a",
		"--pretty=ref\x00--since\x00--\x00f", "---\x00--=\x00-",
	} {
		f.Add(seed, false)
	}
	f.Fuzz(func(t *testing.T, joined string, annotate bool) {
		args := strings.Split(joined, "\x00")
		ctx := ParseContext{
			Annotate: annotate,
			Resolve: func(name string) ResolvedName {
				switch name {
				case "HEAD", "v1":
					return ResolvedName{Kind: NameCommittish}
				case "blob":
					return ResolvedName{Kind: NameObject, PeeledHex: "00", PeeledType: "blob"}
				}
				return ResolvedName{}
			},
			PrettyFormats: []PrettyFormat{{"a", "b"}, {"b", "a"}},
		}
		a, err := ParseArgs(args, DefaultBlameArgs(), ctx)
		var ue *UsageError
		var fe *FatalError
		switch {
		case err == nil:
			if a == nil {
				t.Fatal("nil args without an error")
			}
			_ = a.CheckRevisionSetup(false, false)
		case errors.As(err, &ue):
			switch ue.ExitCode {
			case 0, 129, 134:
			default:
				t.Fatalf("usage error with exit %d", ue.ExitCode)
			}
			if ue.Stdout == "" && ue.Stderr == "" {
				t.Fatalf("usage error that prints nothing: %#v", ue)
			}
		case errors.As(err, &fe):
			if !strings.HasPrefix(fe.Stderr(), "fatal: ") {
				t.Fatalf("fatal error output %q", fe.Stderr())
			}
		default:
			t.Fatalf("unexpected error %T %v", err, err)
		}
	})
}
