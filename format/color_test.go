// Tests of the colour grammar against git config --get-color (and its
// error messages), and of color.blame.highlightRecent against git blame
// --color-by-age.

package format

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

var colorSpecs = []string{
	"", " ", "\t", "normal", "NORMAL", "Normal", "red", "Red", "RED", "bold red",
	"red bold", "bold red blue", "red blue green", "reset", "RESET", "reset red",
	"red reset", "reset reset", "brightred", "BrightRed", "brightRED", "bright",
	"bright red", "brightdefault", "brightnormal", "brightblack", "brightwhite",
	"default", "Default", "default default", "red default", "default red",
	"black", "green", "yellow", "blue", "magenta", "cyan", "white", "purple",
	"-2", "-1", "0", "1", "7", "8", "9", "15", "16", "17", "100", "231", "255",
	"256", "1000", "+5", "+0", "007", "0x1", "1e2", "99999999999999999999",
	"-99999999999999999999", "- 1", "5 6", "5 6 7",
	"#ff0000", "#FF00aa", "#000000", "#ffffff", "#ff000", "#ff00000", "#gg0000",
	"#12345g", "#-10000", "#", "# ff0000",
	"bold", "dim", "italic", "ul", "blink", "reverse", "strike",
	"nobold", "no-bold", "nodim", "no-dim", "noitalic", "no-italic", "noul", "no-ul",
	"noblink", "no-blink", "noreverse", "no-reverse", "nostrike", "no-strike",
	"no", "no-", "no--bold", "nonobold", "bOld", "BOLD", "Bold", "underline", "ul-",
	"bold nobold", "bold dim italic ul blink reverse strike",
	"nobold nodim noitalic noul noblink noreverse nostrike",
	"strike reverse blink ul italic dim bold",
	"normal red", "red normal", "normal normal", "normal normal normal", "-1 red",
	"\tred\t", "  red  ", "red\n", "\nred", "red\rblue", "red\vblue", "\v5", "\f5",
	"5\v", "re\u017fet", "\u212aed", "red,blue", "red;blue", "1;31", "\x1b[31m",
	"reset bold dim italic ul blink reverse strike #ffffff #000000",
	"reset bold red #010203 ul", "blue ul reverse #010203 strike",
	"bright blue", "brightblue brightred", "brightcyan bold", "9 10", "0 255",
	"#00ff00 #0000ff", "#00ff00 #0000ff #ff0000", "red x", "x red",
}

// TestParseColorAgainstGit compares ParseColor with git config
// --get-color (which parses its default value with color_parse) and its
// error message.
func TestParseColorAgainstGit(t *testing.T) {
	g := testgit.Golden(t) // skips without git
	format := oid.SHA1
	dir := testgit.Fixture(t, "format-one-commit", format, "git init -q\ncommit_all one\n")
	bad := 0
	for _, spec := range colorSpecs {
		res := g.Run(testgit.Case{Dir: dir, Format: format, Args: []string{"config", "--get-color", "no.such-key", spec}})
		got, perr := ParseColor(spec)
		if res.ExitCode != 0 {
			bad++
			want := "error: " + gitReportSanitize("invalid color value: "+spec) + "\nfatal: unable to parse default color value\n"
			if perr == nil || string(res.Stderr) != want || "error: "+gitReportSanitize(perr.Error())+"\nfatal: unable to parse default color value\n" != want || !errors.Is(perr, ErrColor) {
				t.Errorf("%q: git %s; ParseColor %q, %v", spec, res, got, perr)
			}
			continue
		}
		if perr != nil || got != string(res.Stdout) {
			t.Errorf("%q: git prints %q; ParseColor %q, %v", spec, res.Stdout, got, perr)
		}
	}
	if bad == 0 {
		t.Error("git rejected no colour: the error comparison tested nothing")
	}
	t.Logf("compared %d colours (%d rejected) with git config --get-color", len(colorSpecs), bad)
}

// gitReportSanitize is what git's error() and die() do to a message
// (usage.c's vreportf): control characters other than tab and newline
// become '?'.
func gitReportSanitize(msg string) string {
	b := []byte(msg)
	for i, c := range b {
		if (c < 0x20 || c == 0x7f) && c != '\t' && c != '\n' {
			b[i] = '?'
		}
	}
	return string(b)
}

func TestParseColorKnown(t *testing.T) {
	for spec, want := range map[string]string{
		"bold red":         "\x1b[1;31m",
		"yellow":           "\x1b[33m",
		"reset":            "\x1b[m",
		"reset red":        "\x1b[;31m",
		"red blue":         "\x1b[31;44m",
		"brightred":        "\x1b[91m",
		"196":              "\x1b[38;5;196m",
		"#ff0000 #00ff00":  "\x1b[38;2;255;0;0;48;2;0;255;0m",
		"nobold ul":        "\x1b[4;22m",
		"normal":           "",
		"":                 "",
		"default default":  "\x1b[39;49m",
		"12":               "\x1b[94m",
		"3 bright":         "",
		"reverse 0":        "\x1b[7;30m",
		"normal brightred": "\x1b[101m",
	} {
		got, err := ParseColor(spec)
		if spec == "3 bright" {
			if err == nil {
				t.Errorf("ParseColor(%q) = %q, want an error", spec, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("ParseColor(%q) = %q, %v; want %q", spec, got, err, want)
		}
	}
}

// heatDays are the ages, in days before heatNow, of the commits in the
// colour-by-age fixture.
var heatDays = []int64{0, 1, 2, 6, 8, 20, 29, 30, 31, 32, 45, 200, 364, 365, 366, 400, 1000}

const heatNow = 1700000000

func heatScript() string {
	var b strings.Builder
	b.WriteString("git init -q\n: >file\n")
	for i, d := range heatDays {
		ts := heatNow - d*86400 - 3600
		fmt.Fprintf(&b, "echo 'line %d' >>file\nGIT_AUTHOR_DATE='%d +0100' GIT_COMMITTER_DATE='%d +0100' git commit -q -a --allow-empty -m c%d\n", i, ts, ts, i)
		if i == 0 {
			b.WriteString("git add file && git commit -q --amend --no-edit\n")
		}
	}
	return b.String()
}

var highlightSpecs = []string{
	"", // no config: git's default
	"blue,12 month ago,white,1 month ago,red",
	"yellow,1 month ago, cyan",
	"red",
	"bold red,2023-01-01,#00ff00,yesterday,normal",
	",1 day ago,",
	"red,garbage,blue",
	"red,,blue",
	"green,3 days ago,yellow,1 week ago,red",
	"blue,1 year ago,white,6 months ago,red,2 weeks ago,bold ul magenta,1 day ago,reverse",
	// errors
	"red,1 day ago",
	"bogus",
	"red,1 day ago,bogus",
	"red,1 day ago,blue,",
	"red blue green,1 day ago,red",
}

// TestHighlightRecentAgainstGit compares ParseHighlightRecent and
// ColorFor with git blame --color-by-age: the colour each line starts
// with, and git's errors.
func TestHighlightRecentAgainstGit(t *testing.T) {
	g := testgit.Golden(t) // skips without git
	zone := "Europe/Berlin"
	loc := loadZone(t, zone)
	now := time.Unix(heatNow, 0)
	compared := 0
	for _, format := range testgit.Formats {
		dir := testgit.Fixture(t, "format-heat", format, heatScript())
		log := g.Run(testgit.Case{Dir: dir, Format: format, Args: []string{"log", "--reverse", "--format=%at"}})
		authorTimes := strings.Fields(string(log.Stdout))
		if len(authorTimes) != len(heatDays) {
			t.Fatalf("fixture has %d commits, want %d", len(authorTimes), len(heatDays))
		}
		for _, spec := range highlightSpecs {
			args := []string{"blame", "--color-by-age", "main", "--", "file"}
			if spec != "" {
				args = append([]string{"-c", "color.blame.highlightRecent=" + spec}, args...)
			}
			res := g.Run(testgit.Case{Dir: dir, Format: format, Env: gitEnv(zone, heatNow), Args: args})
			effective := spec
			if spec == "" {
				effective = DefaultHighlightRecent
			}
			heat, herr := ParseHighlightRecent(effective, now, loc)
			if res.ExitCode != 0 {
				var ce *ColorError
				want := ""
				if herr != nil && errors.As(herr, &ce) {
					if ce.Cause != nil {
						want = "error: " + ce.Cause.Error() + "\n"
					}
					want += "fatal: " + ce.Msg + "\n"
				}
				if string(res.Stderr) != want || res.ExitCode != 128 {
					t.Errorf("%s %q: git %s; ParseHighlightRecent error %v", format, spec, res, herr)
				}
				compared++
				continue
			}
			if herr != nil {
				t.Errorf("%s %q: git accepts it; ParseHighlightRecent: %v", format, spec, herr)
				continue
			}
			lines := strings.Split(strings.TrimSuffix(string(res.Stdout), "\n"), "\n")
			if len(lines) != len(heatDays) {
				t.Fatalf("%d blame lines, want %d", len(lines), len(heatDays))
			}
			for i, line := range lines {
				at, _ := strconv.ParseUint(authorTimes[i], 10, 64)
				color := heat.ColorFor(at)
				rest, ok := strings.CutPrefix(line, color)
				compared++
				if !ok || strings.HasPrefix(rest, "\x1b") {
					t.Errorf("%s %q line %d (author time %d): git %q, want colour %q", format, spec, i+1, at, line, color)
				}
				if !strings.Contains(rest, ") "+ColorReset+"line ") {
					t.Errorf("%s %q line %d: no reset before the content: %q", format, spec, i+1, line)
				}
			}
		}
	}
	t.Logf("compared %d coloured lines and errors with git blame --color-by-age", compared)
}

func TestHeatColorsDefault(t *testing.T) {
	now := time.Unix(heatNow, 0)
	h, err := ParseHighlightRecent(DefaultHighlightRecent, now, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	for age, want := range map[int64]string{0: "\x1b[31m", 20: "\x1b[31m", 40: "\x1b[37m", 300: "\x1b[37m", 400: "\x1b[34m"} {
		if got := h.ColorFor(uint64(heatNow - age*86400)); got != want {
			t.Errorf("age %d days: %q, want %q", age, got, want)
		}
	}
	if got := (HeatColors{}).ColorFor(5); got != "" {
		t.Errorf("zero HeatColors: %q", got)
	}
	if _, err := ParseHighlightRecent("red,1 day ago", now, time.UTC); err == nil || err.Error() != "must end with a color" {
		t.Errorf("trailing date: %v", err)
	}
	_, err = ParseHighlightRecent("red,1 day ago,bogus", now, time.UTC)
	var ce *ColorError
	if !errors.As(err, &ce) || ce.Msg != "expecting a color: bogus" || ce.Cause == nil || ce.Cause.Error() != "invalid color value: bogus" || !errors.Is(err, ErrColor) {
		t.Errorf("bad colour: %v", err)
	}
}

// FuzzParseColor: any value parses to an SGR sequence no longer than
// git's COLOR_MAXLEN or fails with ErrColor; highlightRecent lists never
// panic.
func FuzzParseColor(f *testing.F) {
	for _, spec := range colorSpecs {
		f.Add(spec)
	}
	for _, spec := range highlightSpecs {
		f.Add(spec)
	}
	now := time.Unix(heatNow, 0)
	f.Fuzz(func(t *testing.T, spec string) {
		c, err := ParseColor(spec)
		switch {
		case err != nil:
			if !errors.Is(err, ErrColor) {
				t.Fatalf("ParseColor(%q): %v", spec, err)
			}
		case c != "" && (!strings.HasPrefix(c, "\x1b[") || !strings.HasSuffix(c, "m") || len(c) >= colorMaxLen):
			t.Fatalf("ParseColor(%q) = %q", spec, c)
		}
		h, err := ParseHighlightRecent(spec, now, time.UTC)
		if err == nil {
			h.ColorFor(0)
			h.ColorFor(math.MaxUint64)
		} else if !errors.Is(err, ErrColor) {
			t.Fatalf("ParseHighlightRecent(%q): %v", spec, err)
		}
	})
}
