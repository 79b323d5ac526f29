// Differential tests of Approxidate against git rev-parse --since (which
// prints approxidate's answer) and git config --type=expiry-date (which
// fails when approxidate_careful flags an error), in four timezones and
// at pinned "now"s around daylight-saving changes, for a broad fixed set
// of inputs and for seeded random token strings (GOBLAME_SEED replays a
// run; GOBLAME_EXHAUSTIVE=1 runs 20000 strings in every zone and "now").

package gitdate

import (
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// approxidateInputs is a broad sample of what people pass to --since and
// of what git's approxidate grammar does with text it half understands.
var approxidateInputs = []string{
	// Relative to now.
	"now", "yesterday", "noon", "midnight", "tea", "tea time", "noon yesterday",
	"yesterday noon", "midnight yesterday", "today", "never", "last friday", "friday",
	"last monday", "monday", "sunday", "saturday 10am", "2 fridays ago", "next monday",
	"3 days ago", "3.days.ago", "3 days", "2.weeks", "2 weeks ago", "2 weeks 3 days ago",
	"12 month ago", "12 months ago", "1 month ago", "6 months ago", "13 months ago",
	"25 months ago", "0 months ago", "1 year ago", "2 years ago", "10 years ago",
	"100 years ago", "5 hours ago", "90 minutes ago", "30 seconds ago", "1.hour",
	"1.hour.ago", "one day ago", "ten weeks ago", "eleven days ago", "last week",
	"last month", "last year", "a week ago", "1 year 2 months 3 days ago",
	"10 days ago 3pm", "3pm last friday", "midnight 3 days ago", "10 PM yesterday",
	"yesterday 25:00", "0 days ago", "-1 days ago", "2147483647 seconds ago",
	"9999999999 days ago", "4294967296 weeks ago", "4294967297 weeks ago",
	"2147483648 months ago", "1e5 seconds", "5 secs ago", "5 sec ago", "5 mins ago",
	"5 min ago", "2 hrs ago", "2 hr ago", "3 dayz ago", "now -7 hours", "in 3 days",
	"Mondays", "mon", "mo", "thurs", "3 thu ago",
	// Absolute dates and times.
	"2005-04-07", "2005-04-07 22:13:13", "2005-04-07 22:13:13 +0200",
	"2005-04-07T22:13:13Z", "2005-04-07T22:13:13.123", "2005-04-07 22:13:13.5 -0700",
	"Thu, 07 Apr 2005 22:13:13 +0200", "Thu Apr 7 22:13:13 2005 -0700",
	"Thu Apr 7 22:13:13 2005", "Apr 7 2005", "7 Apr 2005", "April 7th, 2005",
	"Dec 6", "Dec 6, 1992", "6 Dec 92", "3 Dec 02", "Dec 0002", "Dec 02", "Dec 2",
	"12/25/2004", "25.12.2004", "12.25.2004", "2004/12/25", "04/07/05", "07.04.05",
	"20050407", "20050407 101010", "20050407T101010", "101010", "101010.5",
	"1112912053", "@1112912053", "@1112912053 +0200", "@1112912053 -0700",
	"@0 +0000", "@1112912053 +02", "@1112912053 +-700", "@12 +0100x",
	"1112912053 -0700", "99999999", "100000000", "18446744073709551615",
	"18446744073709551616", "9223372036854775808",
	"10:30", "10:30 pm", "10:30:45", "10pm", "10 pm", "10am", "12am", "12pm", "0:00",
	"24:00", "23:59:60", "23:60", "25:00", "3:30.5", "12:00:00 +0530", "+0530",
	"12:00 +05:30", "12:00 +05:3", "12:00 +0545", "12:00 -0930", "12:00 +2400",
	"12:00 +14", "12:00 +1", "12:00 +05: 30", "12:00 +05:-3",
	"EST", "2005-04-07 10:00 EST", "2005-04-07 10:00 CEST", "2005-04-07 10:00 Z",
	"2005-04-07 10:00 UTC", "2005-04-07 10:00 GMT+2", "2005-04-07 10:00 IDLW",
	"2005-04-07 10:00 NZDT", "2005-04-07 10:00 PM", "2005-04-07 10:00 ZULU",
	"1970", "2100-01-01", "2099-12-31 23:59:59", "1969-12-31", "1969-12-31 23:59:59",
	"1899-01-01", "1 jan 2038", "2038-01-19 03:14:08", "Feb 30 2005", "2005-02-30",
	"2005-02-29", "2004-02-29", "31 Apr", "2005-13-01", "2005-04-07 24:00",
	"noon 2005-04-07", "2005-04-07 noon", "2005-04-07 midnight", "2005-04-07 tea",
	"1400", "1401", "0700 2005-04-07", "2005-04-07 0700", "2005-04-07 1400",
	"10.30.2005", "5.4.3", "2005.04.07", "07.04.2005", "1.1.1", "1/2/3", "1-2-3",
	"99-12-31", "69-12-31", "70-01-01", "38-01-01", "37-12-31", "00-01-01",
	"12/25/2035", "12/25/35", "25.12.2035", "2035-12-25", "01/01/2000 10:00",
	"2005-04", "2005", "April", "April 2005", "Apr 31", "jan", "sept", "September 3",
	"3 September", "1st", "2nd Feb", "the 5th", "5/", "/5", "5-", "-5", "+5", "5..6",
	// Garbage and edge cases.
	"", " ", "garbage", "foo bar", "1", "31", "32", "99", "0", "00", "007", "0007",
	"12", "13", "70", "2005 10", "x1y2z3", "!@#$%", "\t3 days ago\n", "3\ndays ago",
	"2005-04-07\n22:13:13", "last", "last last friday", "one", "one two", "ten ten",
	"zero days ago", "yesterday yesterday", "never now", "now never", "am", "pm",
	"AM PM", "noonish", "midnightly", "teatime", "tomorrow", "in the future",
	"5 PM 3 days ago", "11 am yesterday", "1 pm", "13 pm", "noon pm", "12 noon",
	// Found by the random test: gmtime_r fails on a huge number but has
	// already set the time of day (and a truncated year).
	"IDLE1112912053100000000dec 2099", "99999999100000000teajunk20050407",
	"99999999999999999 2005-04-07", "9223372036854775807 Apr 7 2005",
}

var approxidateZones = []string{"UTC", "Europe/Berlin", "Asia/Kolkata", "America/Los_Angeles"}

// approxidateNows are GIT_TEST_DATE_NOW values: November and July days,
// the days Berlin's clocks go forward and back in 2024 (inside the
// changed hour), and a day in 2005.
var approxidateNows = []int64{1700000000, 1720000000, 1711848600, 1729989000, 1112998453}

// TestApproxidateAgainstGit compares Approxidate with git rev-parse
// --since=<s>, which prints --max-age=<approxidate(s)>.
// approxidateNoGoldens says why the approxidate tests have no goldens.
const approxidateNoGoldens = "git's approxidate also reads the wall clock (time(NULL), which GIT_TEST_DATE_NOW does not pin) to refuse mm/dd/yy dates ten days ahead, so its answers depend on the day they are recorded"

func TestApproxidateAgainstGit(t *testing.T) {
	testgit.RequireGitFor(t, approxidateNoGoldens)
	format := oid.SHA1
	dir := testgit.Fixture(t, "format-one-commit", format, "git init -q\ncommit_all one\n")
	args := []string{"rev-parse"}
	for _, in := range approxidateInputs {
		args = append(args, "--since="+in)
	}
	compared := 0
	for zi, zone := range approxidateZones {
		loc := loadZone(t, zone)
		for ni, nowSec := range approxidateNows {
			if !exhaustive() && (zi+ni)%2 != 0 {
				continue
			}
			res, err := testgit.Run(dir, format, nil, gitEnv(zone, nowSec), "git", args...)
			wall := time.Now()
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("git rev-parse: %v %s", err, res)
			}
			lines := strings.Split(strings.TrimSuffix(string(res.Stdout), "\n"), "\n")
			if len(lines) != len(approxidateInputs) {
				t.Fatalf("git printed %d lines for %d inputs", len(lines), len(approxidateInputs))
			}
			for i, in := range approxidateInputs {
				want, ok := strings.CutPrefix(lines[i], "--max-age=")
				if !ok {
					t.Fatalf("unexpected rev-parse line %q", lines[i])
				}
				got, _ := ApproxidateClock(in, time.Unix(nowSec, 0), wall, loc)
				compared++
				if strconv.FormatUint(got, 10) != want {
					t.Errorf("TZ=%s now=%d approxidate(%q) = %d, git %s", zone, nowSec, in, got, want)
				}
			}
		}
	}
	t.Logf("compared %d approxidate results with git rev-parse", compared)
}

// TestApproxidateErrorAgainstGit checks the error flag with git config
// --type=expiry-date, which fails when approxidate_careful flags an error.
func TestApproxidateErrorAgainstGit(t *testing.T) {
	testgit.RequireGitFor(t, approxidateNoGoldens)
	format := oid.SHA1
	dir := testgit.Fixture(t, "format-one-commit", format, "git init -q\ncommit_all one\n")
	zone, nowSec := "Europe/Berlin", int64(1720000000)
	loc := loadZone(t, zone)
	failures := 0
	for _, in := range approxidateInputs {
		switch in {
		case "never", "false", "all", "now": // parse_expiry_date's own words
			continue
		}
		if strings.ContainsAny(in, "\n") {
			continue // not a valid -c value
		}
		res, err := testgit.Run(dir, format, nil, gitEnv(zone, nowSec), "git", "-c", "t.d="+in, "config", "--type=expiry-date", "t.d")
		if err != nil {
			t.Fatal(err)
		}
		got, gotErr := ApproxidateClock(in, time.Unix(nowSec, 0), time.Now(), loc)
		if res.ExitCode != 0 {
			failures++
			if gotErr == nil || !errors.Is(gotErr, ErrApproxidate) {
				t.Errorf("%q: git config fails (%s); Approxidate = %d, %v", in, res.Stderr, got, gotErr)
			}
			continue
		}
		if gotErr != nil || strconv.FormatUint(got, 10)+"\n" != string(res.Stdout) {
			t.Errorf("%q: git config prints %q; Approxidate = %d, %v", in, res.Stdout, got, gotErr)
		}
	}
	if failures == 0 {
		t.Error("no input was rejected by git: the error comparison tested nothing")
	}
	t.Logf("%d inputs, %d rejected by git and by Approxidate", len(approxidateInputs), failures)
}

// TestMktimeDST exercises the glibc mktime emulation where tm_isdst
// disagrees with the date: a summer wall time asked for with isdst=0 is
// read with the standard offset, and the other way round.
func TestMktimeDST(t *testing.T) {
	berlin := loadZone(t, "Europe/Berlin")
	// 2024-07-01 12:00:00 wall time in Berlin.
	summer := cTm{year: 124, mon: 6, mday: 1, hour: 12, isdst: 1}
	if got := mktimeC(&summer, berlin); got != 1719828000 {
		t.Errorf("summer noon, isdst=1: %d, want 1719828000", got)
	}
	summer = cTm{year: 124, mon: 6, mday: 1, hour: 12, isdst: 0}
	if got := mktimeC(&summer, berlin); got != 1719828000+3600 {
		t.Errorf("summer noon, isdst=0: %d, want %d", got, 1719828000+3600)
	}
	if summer.hour != 13 || summer.isdst != 1 {
		t.Errorf("normalized to %d:00 isdst=%d, want 13:00 isdst=1", summer.hour, summer.isdst)
	}
	winter := cTm{year: 124, mon: 0, mday: 15, hour: 12, isdst: 1}
	if got := mktimeC(&winter, berlin); got != 1705316400-3600 {
		t.Errorf("winter noon, isdst=1: %d, want %d", got, 1705316400-3600)
	}
	// Out-of-range fields are normalized: 2024-02-30 is March 1st.
	feb30 := cTm{year: 124, mon: 1, mday: 30, hour: 0, isdst: -1}
	if got := mktimeC(&feb30, time.UTC); got != 1709251200 || feb30.mon != 2 || feb30.mday != 1 {
		t.Errorf("2024-02-30: %d (%d-%d), want 1709251200 (March 1)", got, feb30.mon+1, feb30.mday)
	}
}

func TestApproxidateKnown(t *testing.T) {
	now := time.Unix(1112998453, 0) // 2005-04-08 22:14:13 UTC
	for _, c := range []struct {
		in   string
		want uint64
		err  bool
	}{
		{"1112912053", 1112912053, false},
		{"@1112912053 +0200", 1112912053, false},
		{"2005-04-07 22:13:13 +0200", 1112904793, false},
		{"yesterday", 1112998453 - 86400, false},
		{"3 days ago", 1112998453 - 3*86400, false},
		{"garbage", 1112998453, true},
		{"", 1112998453, true},
	} {
		got, err := Approxidate(c.in, now, time.UTC)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("Approxidate(%q) = %d, %v; want %d (error %v)", c.in, got, err, c.want, c.err)
		}
	}
}

func BenchmarkApproxidateRelative(b *testing.B) {
	now := time.Unix(1700000000, 0)
	loc := loadZone(b, "Europe/Berlin")
	b.ReportAllocs()
	for b.Loop() {
		Approxidate("12 month ago", now, loc)
	}
}

// approxidateTokens are the pieces random inputs are made of: every word
// git's tables know, numbers of each length git treats differently, and
// the separators of its multi-number forms.
var approxidateTokens = []string{
	"0", "1", "2", "5", "7", "9", "10", "12", "13", "24", "25", "29", "30", "31", "32",
	"59", "60", "61", "69", "70", "71", "99", "100", "1400", "1401", "1969", "1970",
	"2005", "2038", "2099", "2100", "0700", "0007", "20050407", "101010",
	"99999999", "100000000", "1112912053", "4294967296",
	"-", "/", ".", ":", "+", " ", " ", " ", ",", "@",
	"jan", "February", "mar", "april", "Sept", "dec", "Mondays", "tue", "friday",
	"sat", "yesterday", "noon", "midnight", "tea", "PM", "am", "never", "now",
	"one", "two", "ten", "last", "second", "seconds", "minute", "minutes", "hour",
	"hours", "day", "days", "week", "weeks", "month", "months", "year", "years",
	"ago", "UTC", "EST", "CEST", "NZDT", "Z", "GMT", "IDLE", "junk", "T",
}

// beyondGlibcRules reports whether t lies where glibc's daylight-saving
// rules are garbage: it computes a rule year's start in C int days,
// (year - 1970) * 365 + leap days, which overflows after the year
// 5,885,000 or so (1.85e14 seconds). (Times before 1970, which wrap to
// huge unsigned values, use the zone's transition table: not exempt.)
func beyondGlibcRules(t uint64) bool {
	return int64(t) >= 185_000_000_000_000
}

// TestApproxidateRandomAgainstGit compares Approxidate with git on random
// token sequences. The seed is logged; GOBLAME_SEED=<n> replays a run.
func TestApproxidateRandomAgainstGit(t *testing.T) {
	testgit.RequireGitFor(t, approxidateNoGoldens)
	format := oid.SHA1
	dir := testgit.Fixture(t, "format-one-commit", format, "git init -q\ncommit_all one\n")
	seed := time.Now().UnixNano()
	if s := os.Getenv("GOBLAME_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	t.Logf("seed %d (GOBLAME_SEED=%d replays this run)", seed, seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	count := 2000
	if exhaustive() {
		count = 20000
	}
	inputs := make([]string, count)
	for i := range inputs {
		var b strings.Builder
		for n := 1 + rng.IntN(7); n > 0; n-- {
			b.WriteString(approxidateTokens[rng.IntN(len(approxidateTokens))])
			if rng.IntN(3) == 0 {
				b.WriteByte(' ')
			}
		}
		inputs[i] = b.String()
	}
	compared, farFuture := 0, 0
	defer func() {
		if farFuture > 0 {
			t.Logf("%d results beyond year 5,800,000 in DST zones differ from glibc's overflowing rule arithmetic (not compared)", farFuture)
		}
	}()
	for zi, zone := range approxidateZones {
		loc := loadZone(t, zone)
		for ni, nowSec := range approxidateNows {
			if !exhaustive() && (zi+ni)%3 != 0 {
				continue
			}
			for start := 0; start < len(inputs); start += 1000 {
				batch := inputs[start:min(start+1000, len(inputs))]
				args := []string{"rev-parse"}
				for _, in := range batch {
					args = append(args, "--since="+in)
				}
				res, err := testgit.Run(dir, format, nil, gitEnv(zone, nowSec), "git", args...)
				wall := time.Now()
				if err != nil || res.ExitCode != 0 {
					t.Fatalf("git rev-parse: %v %s", err, res)
				}
				lines := strings.Split(strings.TrimSuffix(string(res.Stdout), "\n"), "\n")
				if len(lines) != len(batch) {
					t.Fatalf("git printed %d lines for %d inputs", len(lines), len(batch))
				}
				for i, in := range batch {
					want := strings.TrimPrefix(lines[i], "--max-age=")
					got, _ := ApproxidateClock(in, time.Unix(nowSec, 0), wall, loc)
					compared++
					if strconv.FormatUint(got, 10) != want {
						if w, _ := strconv.ParseUint(want, 10, 64); zone != "UTC" && zone != "Asia/Kolkata" && beyondGlibcRules(got) && beyondGlibcRules(w) {
							farFuture++
							continue
						}
						t.Errorf("TZ=%s now=%d approxidate(%q) = %d, git %s", zone, nowSec, in, got, want)
					}
				}
			}
		}
	}
	t.Logf("compared %d random approxidate results with git rev-parse", compared)
}

// FuzzApproxidate: any text gives an answer (the same one twice), with
// an error only of the ErrApproxidate kind.
func FuzzApproxidate(f *testing.F) {
	for _, in := range approxidateInputs {
		f.Add(in, int64(1700000000))
	}
	zones := []*time.Location{time.UTC, loadZone(f, "Europe/Berlin"), loadZone(f, "America/Los_Angeles")}
	f.Fuzz(func(t *testing.T, s string, now int64) {
		now = now % (1 << 40)
		loc := zones[uint64(now)%uint64(len(zones))]
		a, errA := Approxidate(s, time.Unix(now, 0), loc)
		b, errB := Approxidate(s, time.Unix(now, 0), loc)
		if a != b || (errA == nil) != (errB == nil) {
			t.Fatalf("Approxidate(%q) not deterministic: %d %v / %d %v", s, a, errA, b, errB)
		}
		if errA != nil && !errors.Is(errA, ErrApproxidate) {
			t.Fatalf("Approxidate(%q): %v", s, errA)
		}
	})
}
