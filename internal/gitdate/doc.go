// Package gitdate is git 2.39.5's date.c, computed without the C library
// and byte-identical to what git prints and parses.
//
// Showing a date: show_date and its modes (ShowDate, AppendDate). The
// --date / blame.date grammar of parse_date_format (ParseDateMode,
// ParseDateModeAuto) yields a DateMode: default, relative, short, iso,
// iso-strict, rfc, raw, unix, human, format:<strftime>, each with its
// -local variant. format:<strftime> runs git's strbuf_addftime over an
// emulation of glibc 2.36's strftime in the C locale; DateFormatter keeps
// the one piece of state show_date carries between calls. A commit's
// timezone reaches show_date as atoi() of its text (AtoiTZ).
//
// Reading a date: approxidate_careful (Approxidate, ApproxidateClock), the
// parser behind --since/--after/--max-age and the thresholds of
// color.blame.highlightRecent: first parse_date_basic's strict formats,
// then approxidate's word-by-word reading relative to "now" ("3 days ago",
// "last friday", "noon", "never"). ErrApproxidate reports text it did not
// understand at all.
//
// Both run on an emulation of C's struct tm (cTm, with glibc's tm_gmtoff
// and tm_zone, and C int arithmetic that wraps as git's does): gmtime_r,
// localtime_r over a *time.Location (the tz database glibc reads) and
// glibc's mktime with its tm_isdst hint. Dates git refuses (before the
// epoch once shifted, or too large) are errors wrapping ErrDateRange with
// git's message; an invalid --date is ErrDateFormat. cstring.go holds
// the C string semantics all of this reads text with (a NUL ends a
// string, git's isspace, strtol), exported for format's color.c and
// utf8.c code so that there is one copy.
//
// The blame date column (blame_date_width and format_time's padding) is
// not here but in package format, which renders blame output.
//
// # Concurrency
//
// Everything is a pure function of its arguments ("now" and the local zone
// are passed in; a nil zone means time.Local) and safe for concurrent use,
// except a DateFormatter, which carries show_date's buffer state and
// belongs to one goroutine, as it belongs to one git process.
package gitdate
