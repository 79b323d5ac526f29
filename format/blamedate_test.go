// Tests of the blame date column: git blame --date=<mode> end to end over
// commits with a spread of author dates and timezones, in three timezones;
// the column widths; a date git refuses; allocations and benchmarks of
// AppendBlameDate. The dates themselves are tested against git log in
// package gitdate.

package format

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/gitdate"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// identDate is the date part of an ident line, as text.
type identDate struct{ ts, tz string }

// parseTimestamp reads an ident's timestamp text (the fixtures' are all
// decimal and fit in a uint64).
func parseTimestamp(t *testing.T, s string) uint64 {
	t.Helper()
	ts, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// loadZone loads a timezone, skipping the test where the tz database
// lacks it (also used by color_test.go).
func loadZone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Skipf("timezone %s not available: %v", name, err)
	}
	return loc
}

// gitEnv is the environment that gives git the zone and "now" of a test
// (also used by color_test.go).
func gitEnv(zone string, now int64) []string {
	return []string{"TZ=" + zone, "GIT_TEST_DATE_NOW=" + strconv.FormatInt(now, 10)}
}

// blameDates are the author dates of the blame fixture: none of them
// makes show_date die in any mode.
func blameDates() []identDate {
	var ds []identDate
	for _, ts := range []string{"1112912053", "1", "86399", "951782400", "1700000000", "2147483648", "4102444800", "253402300800"} {
		for _, tz := range []string{"+0000", "-0700", "+0530", "+1400", "-1200", "+0060", "-0000"} {
			if ts == "1" || ts == "86399" {
				if strings.HasPrefix(tz, "-") && tz != "-0000" {
					continue // before the epoch once shifted: git dies
				}
			}
			ds = append(ds, identDate{ts, tz})
		}
	}
	for _, d := range []int64{0, 30, 3600, 86400 * 2, 86400 * 6, 86400 * 40, 86400 * 800} {
		ds = append(ds, identDate{strconv.FormatInt(1700000000-d, 10), "+0100"})
	}
	return ds
}

// blameScript builds a file whose line i was added by a commit with
// author date dates[i] (commits made with hash-object --literally).
func blameScript(dates []identDate) string {
	var b strings.Builder
	b.WriteString("git init -q\nparent=\n: >file\n")
	for i, d := range dates {
		fmt.Fprintf(&b, "echo 'line %d' >>file\ngit add file\ntree=$(git write-tree)\n", i+1)
		fmt.Fprintf(&b, "c=$(printf 'tree %%s\\n%%sauthor A U Thor <author@example.com> %s %s\\ncommitter C O Mitter <committer@example.com> %s %s\\n\\nc%d\\n' \"$tree\" \"$parent\" | git hash-object -t commit -w --literally --stdin)\n",
			d.ts, d.tz, d.ts, d.tz, i+1)
		b.WriteString("parent=\"parent $c\n\"\n")
	}
	b.WriteString("git update-ref refs/heads/main $c\n")
	return b.String()
}

// TestBlameDateColumn is the end-to-end check: git blame --date=<mode>
// prints, between the author and the line number, the date padded to
// BlameDateWidth and then to ten bytes ("%10s").
//
// The golden file keeps the SHA-1 cases (5 KB each; the dates are the
// same in both object formats); the SHA-256 ones need git 2.39.x itself.
func TestBlameDateColumn(t *testing.T) {
	g := testgit.Golden(t) // skips without git
	dates := blameDates()
	modes := []string{"format:%Y", "format:%H:%M", "format:%s %z %Z", "format:%c", "format-local:%Z %z",
		"format:", "format:%e", "format:\xc3\xa9t\xc3\xa9 %Y",
		"format:%Y%130", "format:%c %100c%5"} // outputs past git's first buffer: strftime retried
	for _, m := range []string{
		"default", "relative", "short", "iso", "iso8601", "iso-strict",
		"iso8601-strict", "rfc", "rfc2822", "raw", "unix", "human",
	} {
		modes = append(modes, m, m+"-local")
	}
	compared := 0
	for _, format := range testgit.Formats {
		dir := testgit.Fixture(t, "format-blame-dates", format, blameScript(dates))
		for _, zone := range []string{"UTC", "Asia/Kolkata", "America/Los_Angeles"} {
			loc := loadZone(t, zone)
			nowSec := int64(1700000000)
			now := time.Unix(nowSec, 0)
			for _, modeText := range modes {
				mode, err := gitdate.ParseDateMode(modeText)
				if err != nil {
					t.Fatal(err)
				}
				c := testgit.Case{Dir: dir, Format: format, Env: gitEnv(zone, nowSec), Args: []string{"blame", "--date=" + modeText, "main", "--", "file"}}
				var res testgit.Result
				if format == oid.SHA1 {
					res = g.Run(c)
				} else {
					var live bool
					if res, live = g.Live(c); !live {
						continue
					}
				}
				if res.ExitCode != 0 {
					t.Fatalf("git blame --date=%q: %s", modeText, res)
				}
				lines := strings.Split(strings.TrimSuffix(string(res.Stdout), "\n"), "\n")
				if len(lines) != len(dates) {
					t.Fatalf("git blame printed %d lines, want %d", len(lines), len(dates))
				}
				f := gitdate.NewDateFormatter(mode, now, loc)
				width := BlameDateWidthWith(f)
				if width != BlameDateWidth(mode, now, loc) {
					t.Fatalf("--date=%q: BlameDateWidthWith %d, BlameDateWidth %d", modeText, width, BlameDateWidth(mode, now, loc))
				}
				numWidth := len(strconv.Itoa(len(dates)))
				for i, line := range lines {
					_, got, ok := strings.Cut(line, " (A U Thor ")
					if !ok {
						t.Fatalf("unexpected blame line %q", line)
					}
					ts := parseTimestamp(t, dates[i].ts)
					date, err := AppendBlameDateWith(nil, f, width, ts, gitdate.AtoiTZ([]byte(dates[i].tz)))
					if err != nil {
						t.Fatalf("AppendBlameDateWith %v: %v", dates[i], err)
					}
					want := fmt.Sprintf("%10s %*d) line %d", date, numWidth, i+1, i+1)
					compared++
					if got != want {
						t.Errorf("%s TZ=%s --date=%q line %d (%s %s):\n got %q\nwant %q", format, zone, modeText, i+1, dates[i].ts, dates[i].tz, got, want)
					}
				}
				if t.Failed() {
					return
				}
			}
		}
	}
	t.Logf("compared %d blame date columns", compared)
}

// TestBlameDiesBeforeEpoch: a commit whose time the timezone moves before
// 1970 makes blame die with git's message, which ShowDate returns.
func TestBlameDiesBeforeEpoch(t *testing.T) {
	g := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		for i, d := range []identDate{{"100", "-0700"}, {"0", "-0001"}, {"9223372036854775807", "+0100"}} {
			dir := testgit.Fixture(t, fmt.Sprintf("format-blame-dies-%d", i), format, blameScript([]identDate{d}))
			res := g.Run(testgit.Case{Dir: dir, Format: format, Args: []string{"blame", "main", "--", "file"}})
			ts := parseTimestamp(t, d.ts)
			_, ourErr := gitdate.ShowDate(gitdate.DateMode{Type: gitdate.DateISO8601}, ts, gitdate.AtoiTZ([]byte(d.tz)), time.Unix(0, 0), time.UTC)
			if ourErr == nil {
				t.Fatalf("%v: ShowDate did not fail; git: %s", d, res)
			}
			if res.ExitCode != 128 || !strings.HasSuffix(string(res.Stderr), "fatal: "+ourErr.Error()+"\n") {
				t.Errorf("%s %v: git %s; ShowDate %q", format, d, res, ourErr)
			}
		}
	}
}

func TestBlameDateWidth(t *testing.T) {
	utc := time.UTC
	for mode, want := range map[string]int{
		"iso": 25, "iso-strict": 25, "rfc": 31, "short": 10, "raw": 16, "unix": 10,
		"default": 30, "local": 30, "relative": 22, "human": 16, "format:%Y": 4,
		"format:%H:%M": 5, "format:": 0, "format:%c": 24, "format:%s %z %Z": 8,
	} {
		m, err := gitdate.ParseDateMode(mode)
		if err != nil {
			t.Fatal(err)
		}
		if got := BlameDateWidth(m, time.Unix(0, 0), utc); got != want {
			t.Errorf("BlameDateWidth(%s) = %d, want %d", mode, got, want)
		}
	}
	// format-local applies the format to epoch 0 in the local zone.
	m, _ := gitdate.ParseDateMode("format-local:%Z")
	if got := BlameDateWidth(m, time.Unix(0, 0), loadZone(t, "Asia/Kolkata")); got != 3 {
		t.Errorf("format-local:%%Z in Asia/Kolkata: %d, want 3 (IST)", got)
	}
}

func TestAppendDateAllocations(t *testing.T) {
	berlin := loadZone(t, "Europe/Berlin")
	now := time.Unix(1700000000, 0)
	buf := make([]byte, 0, 128)
	for _, mode := range []string{"iso", "default", "rfc", "short", "iso-strict", "relative", "raw", "human", "iso-local", "format:%Y-%m-%d %H:%M", "format:%c"} {
		m, _ := gitdate.ParseDateMode(mode)
		allocs := testing.AllocsPerRun(100, func() {
			var err error
			buf, err = AppendBlameDate(buf[:0], m, 25, 1112912053, -700, now, berlin)
			if err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("AppendBlameDate(%s) allocates %.1f times per call", mode, allocs)
		}
	}
}

func BenchmarkAppendDateISO(b *testing.B) {
	m := gitdate.DateMode{Type: gitdate.DateISO8601}
	now := time.Unix(1700000000, 0)
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	ts := uint64(1112912053)
	for b.Loop() {
		buf, _ = AppendBlameDate(buf[:0], m, 25, ts, -700, now, time.UTC)
		ts += 61
	}
}

func BenchmarkAppendDateISOLocal(b *testing.B) {
	m := gitdate.DateMode{Type: gitdate.DateISO8601, Local: true}
	loc := loadZone(b, "Europe/Berlin")
	now := time.Unix(1700000000, 0)
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	ts := uint64(1112912053)
	for b.Loop() {
		buf, _ = AppendBlameDate(buf[:0], m, 25, ts, -700, now, loc)
		ts += 61
	}
}

func BenchmarkAppendDateRelative(b *testing.B) {
	m := gitdate.DateMode{Type: gitdate.DateRelative}
	now := time.Unix(1700000000, 0)
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	ts := uint64(1600000000)
	for b.Loop() {
		buf, _ = AppendBlameDate(buf[:0], m, 22, ts, -700, now, time.UTC)
		ts += 61
	}
}

func BenchmarkAppendDateStrftime(b *testing.B) {
	m := gitdate.DateMode{Type: gitdate.DateStrftime, Format: "%Y-%m-%d %H:%M"}
	now := time.Unix(1700000000, 0)
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	ts := uint64(1112912053)
	for b.Loop() {
		buf, _ = AppendBlameDate(buf[:0], m, 16, ts, -700, now, time.UTC)
		ts += 61
	}
}
