// Dates as git 2.39.5 prints them.
//
// This file reproduces date.c's show_date() and parse_date_format(), and
// — for --date=format:... — git's strbuf_addftime() on top of glibc
// 2.36's strftime() in the C locale (the conversion set, flags "_-0^#",
// field widths and the E/O modifiers, including what glibc does with
// unknown conversions). Everything is computed without the C library:
// civil dates come from a days-to-civil conversion, local time from a
// *time.Location (the same tz database glibc reads), and mktime() is
// emulated in approxidate.go.
//
// The timezone a commit carries reaches show_date as the integer atoi()
// makes of its text: "-0700" is -700, "+0530" is 530, "-0000" is 0 and
// "+0060" is 60 (which git applies as sixty minutes and prints back as
// "+0060"). Dates are shown in that zone, except for the "-local" modes,
// which use the local zone.
//
// The reference is git 2.39.5 as installed here, linked against Debian
// 12's glibc 2.36, in the C locale (git's relative dates and %c would be
// translated in another locale; this machine has no other locale).
//
// The blame date column (builtin/blame.c's blame_date_width and
// format_time padding) is format's, in format/blamedate.go, which also
// measures what a date costs.

package gitdate

import (
	"errors"
	"strings"
	"time"
)

// DateModeType is git's enum date_mode_type.
type DateModeType uint8

// The date modes, in git's order.
const (
	DateNormal        DateModeType = iota // "default": Thu Apr 7 15:14:13 2005 -0700
	DateHuman                             // "human"
	DateRelative                          // "relative": 2 hours ago
	DateShort                             // "short": 2005-04-07
	DateISO8601                           // "iso", "iso8601": 2005-04-07 15:14:13 -0700 (blame's default)
	DateISO8601Strict                     // "iso-strict", "iso8601-strict": 2005-04-07T15:14:13-07:00
	DateRFC2822                           // "rfc", "rfc2822": Thu, 7 Apr 2005 15:14:13 -0700
	DateStrftime                          // "format:<strftime>"
	DateRaw                               // "raw": 1112912053 -0700
	DateUnix                              // "unix": 1112912053
)

// DateMode is git's struct date_mode: a type, the strftime format of
// DateStrftime, and the -local flag. The zero value is "default".
type DateMode struct {
	Type DateModeType
	// Format is the strftime format of DateStrftime (the text after
	// "format:"); ignored by the other types.
	Format string
	// Local shows dates in the local timezone instead of the commit's.
	Local bool
}

// ErrDateFormat is wrapped by every ParseDateMode error.
var ErrDateFormat = errors.New("invalid date format")

// ErrDateRange is wrapped by the ShowDate errors for timestamps git
// refuses to convert (where git dies): "Timestamp before Unix epoch",
// "Timestamp+tz too large", "Timestamp too large for this system".
var ErrDateRange = errors.New("timestamp out of range")

// DateError carries git's message for a date failure, without the
// "fatal: " prefix git's die() adds. It wraps ErrDateFormat or
// ErrDateRange.
type DateError struct {
	Msg  string
	kind error
}

func (e *DateError) Error() string { return e.Msg }
func (e *DateError) Unwrap() error { return e.kind }

// ParseDateMode parses a --date / blame.date value as git's
// parse_date_format() does, with standard output not a terminal (so
// "auto:<mode>" means "default"). Errors carry git's wording, e.g.
// "unknown date format bogus".
func ParseDateMode(s string) (DateMode, error) {
	return ParseDateModeAuto(s, false)
}

// ParseDateModeAuto is ParseDateMode for a caller that knows whether
// standard output is a terminal or a pager is in use: "auto:<mode>" is
// <mode> then, and "default" otherwise (without looking at <mode>).
func ParseDateModeAuto(s string, stdoutIsTTY bool) (DateMode, error) {
	format := CString(s)
	if rest, ok := cutPrefix(format, "auto:"); ok {
		if stdoutIsTTY {
			format = rest
		} else {
			format = "default"
		}
	}
	if format == "local" { // historical alias
		format = "default-local"
	}
	typ, p, ok := parseDateType(format)
	if !ok {
		return DateMode{}, &DateError{Msg: "unknown date format " + format, kind: ErrDateFormat}
	}
	mode := DateMode{Type: typ}
	if rest, ok := cutPrefix(p, "-local"); ok {
		mode.Local = true
		p = rest
	}
	if typ == DateStrftime {
		rest, ok := cutPrefix(p, ":")
		if !ok {
			return DateMode{}, &DateError{Msg: "date format missing colon separator: " + format, kind: ErrDateFormat}
		}
		mode.Format = rest
	} else if p != "" {
		return DateMode{}, &DateError{Msg: "unknown date format " + format, kind: ErrDateFormat}
	}
	return mode, nil
}

// parseDateType is date.c's parse_date_type: a prefix match in git's
// order, returning the rest of the string.
func parseDateType(format string) (DateModeType, string, bool) {
	for _, n := range dateTypeNames {
		if rest, ok := cutPrefix(format, n.name); ok {
			return n.typ, rest, true
		}
	}
	return 0, "", false
}

var dateTypeNames = [...]struct {
	name string
	typ  DateModeType
}{
	{"relative", DateRelative},
	{"iso8601-strict", DateISO8601Strict},
	{"iso-strict", DateISO8601Strict},
	{"iso8601", DateISO8601},
	{"iso", DateISO8601},
	{"rfc2822", DateRFC2822},
	{"rfc", DateRFC2822},
	{"short", DateShort},
	{"default", DateNormal},
	{"human", DateHuman},
	{"raw", DateRaw},
	{"unix", DateUnix},
	{"format", DateStrftime},
}

// String returns a --date value that parses back to m.
func (m DateMode) String() string {
	var name string
	switch m.Type {
	case DateNormal:
		name = "default"
	case DateHuman:
		name = "human"
	case DateRelative:
		name = "relative"
	case DateShort:
		name = "short"
	case DateISO8601:
		name = "iso"
	case DateISO8601Strict:
		name = "iso-strict"
	case DateRFC2822:
		name = "rfc"
	case DateStrftime:
		name = "format"
	case DateRaw:
		name = "raw"
	case DateUnix:
		name = "unix"
	default:
		name = "unknown"
	}
	if m.Local {
		name += "-local"
	}
	if m.Type == DateStrftime {
		name += ":" + m.Format
	}
	return name
}

// AtoiTZ is atoi() of a commit's timezone text: the tz git's blame hands
// to show_date ("-0700" -> -700, "+0530" -> 530, "(unknown)" -> 0).
func AtoiTZ(tz []byte) int {
	v, _ := CStrtol(tz, 0)
	return int(int32(v))
}

// ShowDate renders timestamp in the timezone tz as git's show_date() does
// for mode. tz is the integer atoi() makes of the commit's timezone text
// ("-0700" -> -700). now is the current time for "relative" and "human"
// (git's GIT_TEST_DATE_NOW or the clock); local is the local timezone for
// the -local modes, "human" and glibc's %s/%z/%Z under flags (nil means
// time.Local).
//
// Where git dies ("Timestamp before Unix epoch: 100 -700" for a time that
// the timezone moves before 1970, and the "too large" cases) ShowDate
// returns a *DateError wrapping ErrDateRange with git's message.
//
// ShowDate answers as git's first show_date call in a process does; a
// DateFormatter also carries the state git keeps between calls.
func ShowDate(mode DateMode, timestamp uint64, tz int, now time.Time, local *time.Location) (string, error) {
	var buf [64]byte
	b, err := AppendDate(buf[:0], mode, timestamp, tz, now, local)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendDate is ShowDate appending to dst. Apart from growing dst it
// does not allocate (a format:<strftime> longer than 128 bytes aside).
func AppendDate(dst []byte, mode DateMode, timestamp uint64, tz int, now time.Time, local *time.Location) ([]byte, error) {
	return appendDate(dst, mode, timestamp, tz, now, local, nil)
}

func appendDate(dst []byte, mode DateMode, timestamp uint64, tz int, now time.Time, local *time.Location, bufCap *int) ([]byte, error) {
	if local == nil {
		local = time.Local
	}
	if mode.Type == DateUnix {
		return appendUint(dst, timestamp), nil
	}
	nowSec := now.Unix()
	var humanTm cTm
	humanTz := -1
	if mode.Type == DateHuman {
		humanTz, humanTm = localTimeTzoffset(nowSec, local)
	}
	if mode.Local {
		var err error
		tz, err = localTzoffset(timestamp, local)
		if err != nil {
			return dst, err
		}
	}
	switch mode.Type {
	case DateRaw:
		dst = appendUint(dst, timestamp)
		dst = append(dst, ' ')
		return appendTZ(dst, tz), nil
	case DateRelative:
		return appendRelative(dst, timestamp, nowSec), nil
	}

	var tm cTm
	var ok bool
	if mode.Local {
		tm, ok = localtimeC(int64(timestamp), local)
	} else {
		t, err := gmTimeT(timestamp, tz)
		if err != nil {
			return dst, err
		}
		tm, ok = gmtimeC(t, local)
	}
	if !ok {
		tm, _ = gmtimeC(0, local)
		tz = 0
	}

	switch mode.Type {
	case DateShort:
		dst = appendZeroPad(dst, int64(tm.year+1900), 4)
		dst = append(dst, '-')
		dst = appendZeroPad(dst, int64(tm.mon+1), 2)
		dst = append(dst, '-')
		dst = appendZeroPad(dst, int64(tm.mday), 2)
	case DateISO8601:
		dst = appendZeroPad(dst, int64(tm.year+1900), 4)
		dst = append(dst, '-')
		dst = appendZeroPad(dst, int64(tm.mon+1), 2)
		dst = append(dst, '-')
		dst = appendZeroPad(dst, int64(tm.mday), 2)
		dst = append(dst, ' ')
		dst = appendClock(dst, &tm)
		dst = append(dst, ' ')
		dst = appendTZ(dst, tz)
	case DateISO8601Strict:
		sign := byte('+')
		if tz < 0 {
			sign = '-'
			tz = -tz
		}
		dst = appendZeroPad(dst, int64(tm.year+1900), 4)
		dst = append(dst, '-')
		dst = appendZeroPad(dst, int64(tm.mon+1), 2)
		dst = append(dst, '-')
		dst = appendZeroPad(dst, int64(tm.mday), 2)
		dst = append(dst, 'T')
		dst = appendClock(dst, &tm)
		dst = append(dst, sign)
		dst = appendZeroPad(dst, int64(tz/100), 2)
		dst = append(dst, ':')
		dst = appendZeroPad(dst, int64(tz%100), 2)
	case DateRFC2822:
		dst = append(dst, weekdayAbbrev(tm.wday)...)
		dst = append(dst, ", "...)
		dst = appendInt(dst, int64(tm.mday))
		dst = append(dst, ' ')
		dst = append(dst, monthAbbrev(tm.mon)...)
		dst = append(dst, ' ')
		dst = appendInt(dst, int64(tm.year+1900))
		dst = append(dst, ' ')
		dst = appendClock(dst, &tm)
		dst = append(dst, ' ')
		dst = appendTZ(dst, tz)
	case DateStrftime:
		return appendGitStrftime(dst, mode.Format, &tm, tz, !mode.Local, local, bufCap)
	default: // DateNormal, DateHuman
		dst = appendDateNormal(dst, timestamp, &tm, tz, &humanTm, humanTz, mode.Local, nowSec)
	}
	return dst, nil
}

// DateFormatter renders the dates of one git process: one mode, one
// "now", one local zone, and the one piece of state git's show_date keeps
// between calls — the capacity of its static output buffer. For
// format:<strftime> outputs of 129 bytes or more whose format ends in an
// unfinished conversion ("%250"), that capacity decides whether git pads
// the last field to its width or one column less (see appendGitStrftime).
// Everything else is the same as ShowDate.
//
// Use one DateFormatter per blame run, in git's call order: the column
// width first (format.BlameDateWidthWith: git formats epoch 0 to size the
// column), then the date of every output line, in output order. A DateFormatter is not safe for
// concurrent use.
type DateFormatter struct {
	Mode  DateMode
	Now   time.Time
	Local *time.Location // nil: time.Local

	bufCap int // capacity of show_date's static strbuf
}

// NewDateFormatter returns a DateFormatter in the state of a fresh git
// process.
func NewDateFormatter(mode DateMode, now time.Time, local *time.Location) *DateFormatter {
	return &DateFormatter{Mode: mode, Now: now, Local: local}
}

// AppendDate is AppendDate (show_date) with the formatter's state.
func (f *DateFormatter) AppendDate(dst []byte, timestamp uint64, tz int) ([]byte, error) {
	return appendDate(dst, f.Mode, timestamp, tz, f.Now, f.Local, &f.bufCap)
}

// ---------------------------------------------------------------------
// struct tm and the conversions git uses.

// cTm mirrors C's struct tm (with glibc's tm_gmtoff and tm_zone). Fields
// are C ints so that arithmetic on them wraps as git's does.
type cTm struct {
	sec, min, hour, mday, mon, year, wday, yday, isdst int32
	gmtoff                                             int64
	zone                                               string
}

var monthNames = [12]string{
	"January", "February", "March", "April", "May", "June",
	"July", "August", "September", "October", "November", "December",
}

// weekdayNames are date.c's (plural, for approxidate's "Mondays").
var weekdayNames = [7]string{
	"Sundays", "Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays",
}

func weekdayAbbrev(wday int32) string {
	if wday < 0 || wday > 6 {
		return "?"
	}
	return weekdayNames[wday][:3]
}

func monthAbbrev(mon int32) string {
	if mon < 0 || mon > 11 {
		return "?"
	}
	return monthNames[mon][:3]
}

// daysBeforeMonth[leap][m] is the day of the year month m starts on.
var daysBeforeMonth = [2][13]int64{
	{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365},
	{0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366},
}

func isLeap(year int64) bool {
	return year%4 == 0 && (year%100 != 0 || year%400 == 0)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// civilFromDays converts days since 1970-01-01 to a proleptic Gregorian
// year, month (1-12) and day.
func civilFromDays(z int64) (year, month, day int64) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	year = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		month = mp + 3
	} else {
		month = mp - 9
	}
	if month <= 2 {
		year++
	}
	return
}

// maxConvertible bounds the times localtimeC hands to package time: far
// beyond any year that fits a C int, and far from int64 overflow inside
// package time.
const maxConvertible = 1 << 60

// fillCivil sets the fields of tm from a time already shifted into the
// wanted zone, as glibc's __offtime does: the time of day and weekday
// first, then tm_year (truncated to a C int), and — only when the year
// fits — the day of the year, month and day. It reports whether the year
// fit; glibc's gmtime_r and localtime_r then fail, leaving the fields
// they had already set.
func fillCivil(tm *cTm, t int64) bool {
	days := floorDiv(t, 86400)
	rem := t - days*86400
	tm.hour = int32(rem / 3600)
	tm.min = int32(rem / 60 % 60)
	tm.sec = int32(rem % 60)
	tm.wday = int32((days%7 + 11) % 7) // 1970-01-01 was a Thursday
	y, m, d := civilFromDays(days)
	tm.year = int32(y - 1900)
	if int64(tm.year) != y-1900 {
		return false
	}
	leap := 0
	if isLeap(y) {
		leap = 1
	}
	tm.yday = int32(daysBeforeMonth[leap][m-1] + d - 1)
	tm.mon = int32(m - 1)
	tm.mday = int32(d)
	return true
}

// gmtimeR is gmtime_r(&t, tm), including what it leaves in tm when it
// fails.
//
// While the local zone loc has leap seconds (a "right/" zone), glibc
// takes them off the times gmtime converts too (__tz_convert), and
// shows a leap second as :60.
func gmtimeR(t int64, tm *cTm, loc *time.Location) bool {
	tm.isdst = 0
	tm.zone = "GMT"
	tm.gmtoff = 0
	correct, hit := leapCorrection(leapsOf(loc), t)
	if !fillCivil(tm, t-correct) {
		return false
	}
	tm.sec += hit
	return true
}

// gmtimeC is gmtime_r into a fresh struct tm, loc the local zone.
func gmtimeC(t int64, loc *time.Location) (cTm, bool) {
	var tm cTm
	ok := gmtimeR(t, &tm, loc)
	return tm, ok
}

// localtimeC is localtime_r in the zone loc.
// Times beyond maxConvertible, where glibc fails too, are refused before
// package time sees them (it would overflow).
func localtimeC(t int64, loc *time.Location) (cTm, bool) {
	if t > maxConvertible || t < -maxConvertible {
		return cTm{}, false
	}
	lt := time.Unix(t, 0).In(loc)
	name, off := lt.Zone()
	tm := cTm{gmtoff: int64(off), zone: name}
	correct, hit := leapCorrection(leapsOf(loc), t)
	if !fillCivil(&tm, t+int64(off)-correct) {
		return cTm{}, false
	}
	tm.sec += hit
	if lt.IsDST() {
		tm.isdst = 1
	}
	return tm, true
}

// gitTmToTimeT is date.c's tm_to_time_t: a timegm that only knows the
// years 1970-2099 and returns -1 outside them.
func gitTmToTimeT(tm *cTm) int64 {
	year := int64(tm.year) - 70
	month := int64(tm.mon)
	day := int64(tm.mday)
	if year < 0 || year > 129 {
		return -1
	}
	if month < 0 || month > 11 {
		return -1
	}
	if month < 2 || (year+2)%4 != 0 {
		day--
	}
	if tm.hour < 0 || tm.min < 0 || tm.sec < 0 {
		return -1
	}
	return (year*365+(year+1)/4+daysBeforeMonth[0][month]+day)*86400 +
		int64(tm.hour)*3600 + int64(tm.min)*60 + int64(tm.sec)
}

// dateOverflows is date.c's date_overflows for a 64-bit time_t.
func dateOverflows(t uint64) bool {
	return t >= 1<<63
}

// tzMinutes converts git's decimal tz (-700) to minutes east (-420).
func tzMinutes(tz int) int64 {
	m := int64(tz)
	if m < 0 {
		m = -m
	}
	m = m/100*60 + m%100
	if tz < 0 {
		m = -m
	}
	return m
}

// gmTimeT is date.c's gm_time_t: the time shifted by the timezone, with
// git's three fatal checks.
func gmTimeT(t uint64, tz int) (int64, error) {
	minutes := tzMinutes(tz)
	if minutes > 0 {
		if t+uint64(minutes*60) < t {
			return 0, rangeError("Timestamp+tz too large: ", t, " +", tz, true)
		}
	} else if t < uint64(-minutes*60) {
		return 0, rangeError("Timestamp before Unix epoch: ", t, " ", tz, true)
	}
	t += uint64(minutes * 60)
	if dateOverflows(t) {
		return 0, rangeError("Timestamp too large for this system: ", t, "", 0, false)
	}
	return int64(t), nil
}

// rangeError builds git's die() message: prefix, the timestamp, and
// optionally sep plus the tz with "%04d".
func rangeError(prefix string, t uint64, sep string, tz int, withTZ bool) error {
	b := append([]byte(prefix), appendUint(nil, t)...)
	if withTZ {
		b = append(b, sep...)
		b = appendZeroPad(b, int64(tz), 4)
	}
	return &DateError{Msg: string(b), kind: ErrDateRange}
}

// localTimeTzoffset is date.c's local_time_tzoffset: the local broken-down
// time of t and the local offset in git's decimal form (+0200 -> 200),
// which git computes as 0 outside the years its tm_to_time_t knows.
func localTimeTzoffset(t int64, loc *time.Location) (int, cTm) {
	tm, _ := localtimeC(t, loc)
	tLocal := gitTmToTimeT(&tm)
	if tLocal == -1 {
		return 0, tm
	}
	var offset int64
	eastwest := int64(1)
	if tLocal < t {
		eastwest = -1
		offset = t - tLocal
	} else {
		offset = tLocal - t
	}
	offset /= 60
	offset = offset%60 + offset/60*100
	return int(offset * eastwest), tm
}

// localTzoffset is date.c's local_tzoffset.
func localTzoffset(t uint64, loc *time.Location) (int, error) {
	if dateOverflows(t) {
		return 0, rangeError("Timestamp too large for this system: ", t, "", 0, false)
	}
	off, _ := localTimeTzoffset(int64(t), loc)
	return off, nil
}

// ---------------------------------------------------------------------
// The fixed formats.

func appendClock(dst []byte, tm *cTm) []byte {
	dst = appendZeroPad(dst, int64(tm.hour), 2)
	dst = append(dst, ':')
	dst = appendZeroPad(dst, int64(tm.min), 2)
	dst = append(dst, ':')
	return appendZeroPad(dst, int64(tm.sec), 2)
}

// appendTZ is printf("%+05d", tz).
func appendTZ(dst []byte, tz int) []byte {
	v := int64(tz)
	if v < 0 {
		dst = append(dst, '-')
		v = -v
	} else {
		dst = append(dst, '+')
	}
	return appendZeroPad(dst, v, 4)
}

const twoDigits = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// appendZeroPad is printf("%0*d", width, v): zeros after the sign up to
// width bytes in all.
func appendZeroPad(dst []byte, v int64, width int) []byte {
	switch {
	case width == 2 && v >= 0 && v < 100:
		return append(dst, twoDigits[2*v], twoDigits[2*v+1])
	case width == 4 && v >= 0 && v < 10000:
		hi, lo := v/100, v%100
		return append(dst, twoDigits[2*hi], twoDigits[2*hi+1], twoDigits[2*lo], twoDigits[2*lo+1])
	}
	var digits [24]byte
	i := len(digits)
	neg := v < 0
	u := uint64(v)
	if neg {
		u = -u
		width--
	}
	for {
		i--
		digits[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	if neg {
		dst = append(dst, '-')
	}
	for n := len(digits) - i; n < width; n++ {
		dst = append(dst, '0')
	}
	return append(dst, digits[i:]...)
}

func appendInt(dst []byte, v int64) []byte { return appendZeroPad(dst, v, 0) }

func appendUint(dst []byte, u uint64) []byte {
	var digits [20]byte
	i := len(digits)
	for {
		i--
		digits[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	return append(dst, digits[i:]...)
}

// appendRelative is date.c's show_date_relative in the C locale.
func appendRelative(dst []byte, t uint64, now int64) []byte {
	if uint64(now) < t {
		return append(dst, "in the future"...)
	}
	diff := uint64(now) - t
	plural := func(dst []byte, n uint64, one, many string) []byte {
		dst = appendUint(dst, n)
		if n == 1 {
			return append(dst, one...)
		}
		return append(dst, many...)
	}
	if diff < 90 {
		return plural(dst, diff, " second ago", " seconds ago")
	}
	diff = (diff + 30) / 60
	if diff < 90 {
		return plural(dst, diff, " minute ago", " minutes ago")
	}
	diff = (diff + 30) / 60
	if diff < 36 {
		return plural(dst, diff, " hour ago", " hours ago")
	}
	diff = (diff + 12) / 24
	if diff < 14 {
		return plural(dst, diff, " day ago", " days ago")
	}
	if diff < 70 {
		return plural(dst, (diff+3)/7, " week ago", " weeks ago")
	}
	if diff < 365 {
		return plural(dst, (diff+15)/30, " month ago", " months ago")
	}
	if diff < 1825 {
		totalMonths := (diff*12*2 + 365) / (365 * 2)
		years := totalMonths / 12
		months := totalMonths % 12
		if months != 0 {
			dst = plural(dst, years, " year", " years")
			dst = append(dst, ", "...)
			return plural(dst, months, " month ago", " months ago")
		}
		return plural(dst, years, " year ago", " years ago")
	}
	return plural(dst, (diff+183)/365, " year ago", " years ago")
}

// appendDateNormal is date.c's show_date_normal, shared by "default"
// (humanTm all zero, humanTz -1) and "human".
func appendDateNormal(dst []byte, t uint64, tm *cTm, tz int, humanTm *cTm, humanTz int, local bool, now int64) []byte {
	hideTZ := local || tz == humanTz
	hideYear := tm.year == humanTm.year
	var hideDate, hideWday, hideTime, hideSeconds bool
	if hideYear && tm.mon == humanTm.mon {
		switch {
		case tm.mday > humanTm.mday:
			// future date: think timezones
		case tm.mday == humanTm.mday:
			hideDate, hideWday = true, true
		case tm.mday+5 > humanTm.mday:
			hideDate = true
		}
	}
	if hideWday {
		return appendRelative(dst, t, now)
	}
	if humanTm.year != 0 {
		hideSeconds = true
		hideTZ = hideTZ || !hideDate
		hideWday = !hideYear
		hideTime = !hideYear
	}
	if !hideWday {
		dst = append(dst, weekdayAbbrev(tm.wday)...)
		dst = append(dst, ' ')
	}
	if !hideDate {
		dst = append(dst, monthAbbrev(tm.mon)...)
		dst = append(dst, ' ')
		dst = appendInt(dst, int64(tm.mday))
		dst = append(dst, ' ')
	}
	if !hideTime {
		dst = appendZeroPad(dst, int64(tm.hour), 2)
		dst = append(dst, ':')
		dst = appendZeroPad(dst, int64(tm.min), 2)
		if !hideSeconds {
			dst = append(dst, ':')
			dst = appendZeroPad(dst, int64(tm.sec), 2)
		}
	} else {
		for len(dst) > 0 && IsGitSpace(dst[len(dst)-1]) { // strbuf_rtrim
			dst = dst[:len(dst)-1]
		}
	}
	if !hideYear {
		dst = append(dst, ' ')
		dst = appendInt(dst, int64(tm.year+1900))
	}
	if !hideTZ {
		dst = append(dst, ' ')
		dst = appendTZ(dst, tz)
	}
	return dst
}

// ---------------------------------------------------------------------
// format:<strftime>

// maxStrftimeWidth caps glibc field widths. git has no cap: "%-%s" makes
// the timestamp a width and git prints a gigabyte of spaces; goblame
// returns an error instead.
const maxStrftimeWidth = 1 << 16

// errStrftimeWidth reports a field width over maxStrftimeWidth.
var errStrftimeWidth = &DateError{Msg: "strftime field width too large", kind: ErrDateRange}

// appendGitStrftime is strbuf_addftime: git substitutes %s, %z and (for
// non-local dates, where the struct tm describes UTC) %Z itself, then
// hands the rest to strftime. bufCap is the capacity of git's static
// show_date buffer (nil: a fresh one).
func appendGitStrftime(dst []byte, format string, tm *cTm, tz int, suppressTZName bool, loc *time.Location, bufCap *int) ([]byte, error) {
	format = CString(format)
	if format == "" {
		return dst, nil
	}
	var mungedBuf [128]byte
	munged := mungedBuf[:0]
	for i := 0; ; {
		j := i
		for j < len(format) && format[j] != '%' {
			j++
		}
		munged = append(munged, format[i:j]...)
		if j == len(format) {
			break
		}
		i = j + 1
		switch At(format, i) {
		case '%':
			munged = append(munged, "%%"...)
			i++
		case 's':
			s := uint64(gitTmToTimeT(tm)) - uint64(int64(3600*(tz/100))) - uint64(int64(60*(tz%100)))
			munged = appendUint(munged, s)
			i++
		case 'z':
			munged = appendTZ(munged, tz)
			i++
		case 'Z':
			if suppressTZName {
				i++
				break
			}
			munged = append(munged, '%')
		default:
			munged = append(munged, '%')
		}
	}
	// strftime must fit the buffer git hands it: the capacity of show_date's
	// static strbuf after strbuf_grow(sb, 128) (len is 0: show_date resets
	// it). glibc needs room for the NUL, so an output fits when it is
	// shorter than the capacity. An empty output counts as not fitting
	// (strftime returns 0 for both).
	var fresh int
	if bufCap == nil {
		bufCap = &fresh
	}
	growStrbuf(bufCap, 128+1)
	start := len(dst)
	dst, err := appendStrftime(dst, munged, tm, loc)
	if err != nil || (len(dst) > start && len(dst)-start < *bufCap) {
		return dst, err
	}
	// git retries with a space appended to the format, doubling its
	// growth hint until the output fits, and drops the space from the
	// result. That changes the output when the format ends in an
	// unfinished conversion ("%250"): the space completes it.
	dst = dst[:start]
	munged = append(munged, ' ')
	for hint := 256; ; hint *= 2 {
		growStrbuf(bufCap, hint+1)
		dst, err = appendStrftime(dst[:start], munged, tm, loc)
		if err != nil || len(dst)-start < *bufCap {
			break
		}
	}
	if err != nil {
		return dst, err
	}
	return dst[:len(dst)-1], nil
}

// growStrbuf is git's ALLOC_GROW on a strbuf's capacity.
func growStrbuf(capacity *int, need int) {
	if need > *capacity {
		if grown := (*capacity + 16) * 3 / 2; grown >= need {
			*capacity = grown
		} else {
			*capacity = need
		}
	}
}

// strftimeState is the per-conversion state of glibc's
// __strftime_internal.
type strftimeState struct {
	pad     byte // '_', '-', '0' or 0
	width   int
	upcase  bool
	lowcase bool
}

// addText is glibc's add()/cpy(): pad to the field width, then the bytes
// of s with the case conversion in effect.
func addText[S ~string | ~[]byte](st *strftimeState, dst []byte, s S) []byte {
	for delta := st.width - len(s); delta > 0; delta-- {
		if st.pad == '0' {
			dst = append(dst, '0')
		} else {
			dst = append(dst, ' ')
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case st.lowcase:
			c = ASCIILower(c)
		case st.upcase:
			c = asciiUpper(c)
		}
		dst = append(dst, c)
	}
	return dst
}

// number is glibc's do_number / do_number_sign_and_padding for a value
// whose decimal digits (and sign) are in digits.
func (st *strftimeState) number(dst []byte, minDigits int, v int64, spacePad bool) []byte {
	var buf [24]byte
	i := len(buf)
	neg := v < 0
	u := uint64(v)
	if neg {
		u = -u
	}
	for {
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	if spacePad && st.pad != '0' && st.pad != '-' {
		st.pad = '_'
	}
	want := minDigits // DO_NUMBER: digits = max(d, width)
	if st.width > want {
		want = st.width
	}
	return st.signAndPad(dst, want, buf[i:], neg)
}

// signAndPad is glibc's do_number_sign_and_padding: want is the number of
// digits to pad to (glibc's "digits").
func (st *strftimeState) signAndPad(dst []byte, want int, digits []byte, neg bool) []byte {
	var buf [26]byte
	s := buf[:0]
	if neg {
		s = append(s, '-')
	}
	s = append(s, digits...)
	if st.pad != '-' {
		if padding := want - len(s); padding > 0 {
			if st.pad == '_' {
				for k := 0; k < padding; k++ {
					dst = append(dst, ' ')
				}
				if st.width > padding {
					st.width -= padding
				} else {
					st.width = 0
				}
			} else {
				if neg {
					dst = append(dst, '-')
					s = s[1:]
				}
				for k := 0; k < padding; k++ {
					dst = append(dst, '0')
				}
				st.width = 0
			}
		}
	}
	return addText(st, dst, s)
}

// strftimeComposites are the conversions that expand to a format: %c,
// %x, %X and %r as the C locale defines them (D_T_FMT, D_FMT, T_FMT,
// T_FMT_AMPM), and glibc's fixed ones.
var strftimeComposites = [256]string{
	'c': "%a %b %e %H:%M:%S %Y",
	'x': "%m/%d/%y",
	'X': "%H:%M:%S",
	'r': "%I:%M:%S %p",
	'D': "%m/%d/%y",
	'F': "%Y-%m-%d",
	'R': "%H:%M",
	'T': "%H:%M:%S",
}

// appendStrftime is glibc 2.36's strftime in the C locale.
func appendStrftime[S ~string | ~[]byte](dst []byte, f S, tm *cTm, loc *time.Location) ([]byte, error) {
	hour12 := tm.hour
	if hour12 > 12 {
		hour12 -= 12
	} else if hour12 == 0 {
		hour12 = 12
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			dst = append(dst, f[i])
			continue
		}
		start := i
		st := strftimeState{width: -1}
		changeCase := false
	flags:
		for {
			i++
			switch At(f, i) {
			case '_', '-', '0':
				st.pad = f[i]
			case '^':
				st.upcase = true
			case '#':
				changeCase = true
			default:
				break flags
			}
		}
		if isDigit(At(f, i)) {
			st.width = 0
			for isDigit(At(f, i)) {
				d := int(f[i] - '0')
				if st.width > (1<<31-1)/10 || (st.width == (1<<31-1)/10 && d > (1<<31-1)%10) {
					st.width = 1<<31 - 1
				} else {
					st.width = st.width*10 + d
				}
				i++
			}
			if st.width > maxStrftimeWidth {
				return dst, errStrftimeWidth
			}
		}
		var modifier byte
		if c := At(f, i); c == 'E' || c == 'O' {
			modifier = c
			i++
		}
		c := At(f, i)
		if c == 0 { // '%' at the end of the format: print what there is
			i--
		}
		if c == 0 || modifier != 0 && strings.IndexByte(strftimeRejects[c], modifier) >= 0 {
			if changeCase && (c == 'b' || c == 'h') { // glibc sets it before the check
				st.upcase, st.lowcase = true, false
			}
			dst = badFormat(&st, dst, f, start, i)
			continue
		}
		var known bool
		var err error
		dst, known, err = st.convert(dst, c, changeCase, tm, hour12, loc)
		if err != nil {
			return dst, err
		}
		if !known {
			dst = badFormat(&st, dst, f, start, i)
		}
	}
	return dst, nil
}

// badFormat is glibc's bad_format: print the conversion ending at f[i]
// as it is, from the nearest '%' back (the conversion character itself
// in "%E%"), padded and case-converted like any field.
func badFormat[S ~string | ~[]byte](st *strftimeState, dst []byte, f S, start, i int) []byte {
	j := i
	for j > start && f[j] != '%' {
		j--
	}
	return addText(st, dst, f[j:i+1])
}

// strftimeRejects lists, per conversion character, the modifiers (E, O)
// glibc's strftime rejects, printing the conversion as it is instead.
// Characters glibc does not know at all are rejected in convert.
var strftimeRejects = [256]string{
	'%': "EO", 'a': "EO", 'A': "EO", 'D': "EO", 'F': "EO",
	'b': "E", 'h': "E", 'B': "E", 'd': "E", 'e': "E", 'H': "E", 'I': "E", 'k': "E",
	'l': "E", 'j': "E", 'M': "E", 'm': "E", 'S': "E", 'U': "E", 'V': "E", 'g': "E",
	'G': "E", 'W': "E", 'w': "E",
	'c': "O", 'x': "O", 'X': "O", 'Y': "O",
}

// convert is one conversion of glibc's strftime in the C locale (the E
// and O modifiers it accepts change nothing there: no eras, no
// alternative digits).
func (st *strftimeState) convert(dst []byte, c byte, changeCase bool, tm *cTm, hour12 int32, loc *time.Location) ([]byte, bool, error) {
	upper := func() { // '#' on a name: upper case
		if changeCase {
			st.upcase, st.lowcase = true, false
		}
	}
	if sub := strftimeComposites[c]; sub != "" {
		dst, err := st.subformat(dst, sub, tm, loc)
		return dst, true, err
	}
	switch c {
	case '%':
		return addText(st, dst, "%"), true, nil
	case 'a':
		upper()
		return addText(st, dst, weekdayAbbrev(tm.wday)), true, nil
	case 'A':
		upper()
		name := "?"
		if tm.wday >= 0 && tm.wday <= 6 {
			name = strings.TrimSuffix(weekdayNames[tm.wday], "s")
		}
		return addText(st, dst, name), true, nil
	case 'b', 'h':
		upper()
		return addText(st, dst, monthAbbrev(tm.mon)), true, nil
	case 'B':
		upper()
		name := "?"
		if tm.mon >= 0 && tm.mon <= 11 {
			name = monthNames[tm.mon]
		}
		return addText(st, dst, name), true, nil
	case 'C':
		year := tm.year + 1900 // C int arithmetic
		v := year / 100
		if year%100 < 0 {
			v--
		}
		return st.number(dst, 1, int64(v), false), true, nil
	case 'd':
		return st.number(dst, 2, int64(tm.mday), false), true, nil
	case 'e':
		return st.number(dst, 2, int64(tm.mday), true), true, nil
	case 'H':
		return st.number(dst, 2, int64(tm.hour), false), true, nil
	case 'I':
		return st.number(dst, 2, int64(hour12), false), true, nil
	case 'k':
		return st.number(dst, 2, int64(tm.hour), true), true, nil
	case 'l':
		return st.number(dst, 2, int64(hour12), true), true, nil
	case 'j':
		return st.number(dst, 3, int64(1+tm.yday), false), true, nil
	case 'M':
		return st.number(dst, 2, int64(tm.min), false), true, nil
	case 'm':
		return st.number(dst, 2, int64(tm.mon+1), false), true, nil
	case 'S':
		return st.number(dst, 2, int64(tm.sec), false), true, nil
	case 'u':
		return st.number(dst, 1, int64((tm.wday-1+7)%7+1), false), true, nil
	case 'U':
		return st.number(dst, 2, int64((tm.yday-tm.wday+7)/7), false), true, nil
	case 'W':
		return st.number(dst, 2, int64((tm.yday-(tm.wday-1+7)%7+7)/7), false), true, nil
	case 'w':
		return st.number(dst, 1, int64(tm.wday), false), true, nil
	case 'Y':
		return st.number(dst, 1, int64(tm.year+1900), false), true, nil
	case 'y':
		return st.number(dst, 2, int64((tm.year%100+100)%100), false), true, nil
	case 'V', 'g', 'G':
		year := tm.year + 1900
		days := isoWeekDays(tm.yday, tm.wday)
		if days < 0 { // the ISO week belongs to the previous year
			year--
			days = isoWeekDays(tm.yday+365+leapInt(year), tm.wday)
		} else if d := isoWeekDays(tm.yday-(365+leapInt(year)), tm.wday); d >= 0 {
			year++ // ... or to the next one
			days = d
		}
		switch c {
		case 'g':
			return st.number(dst, 2, int64((year%100+100)%100), false), true, nil
		case 'G':
			return st.number(dst, 1, int64(year), false), true, nil
		}
		return st.number(dst, 2, int64(days/7+1), false), true, nil
	case 'n':
		return addText(st, dst, "\n"), true, nil
	case 't':
		return addText(st, dst, "\t"), true, nil
	case 'P', 'p':
		if c == 'P' {
			st.lowcase = true
		}
		if changeCase {
			st.upcase, st.lowcase = false, true
		}
		if tm.hour > 11 {
			return addText(st, dst, "PM"), true, nil
		}
		return addText(st, dst, "AM"), true, nil
	case 's':
		// glibc's own %s (git replaced a bare one): mktime of the
		// broken-down time in the local zone; digits ignore the width.
		ltm := *tm
		t := mktimeC(&ltm, loc)
		var buf [24]byte
		u := uint64(t)
		if t < 0 {
			u = -u
		}
		return st.signAndPad(dst, 1, appendUint(buf[:0], u), t < 0), true, nil
	case 'Z':
		if changeCase {
			st.upcase, st.lowcase = false, true
		}
		return addText(st, dst, tm.zone), true, nil
	case 'z':
		if tm.isdst < 0 {
			return dst, true, nil
		}
		diff := tm.gmtoff
		if diff < 0 {
			dst = addText(st, dst, "-")
			diff = -diff
		} else {
			dst = addText(st, dst, "+")
		}
		diff /= 60
		return st.number(dst, 4, int64(int32(diff/60*100+diff%60)), false), true, nil
	}
	return dst, false, nil // unknown to glibc
}

// subformat expands a composite conversion (%c, %D, %F, %r, %R, %T, %x,
// %X) in place and pads and upper-cases the result as one field (glibc
// only upper-cases a subformat).
func (st *strftimeState) subformat(dst []byte, sub string, tm *cTm, loc *time.Location) ([]byte, error) {
	mark := len(dst)
	dst, err := appendStrftime(dst, sub, tm, loc)
	if err != nil {
		return dst, err
	}
	n := len(dst) - mark
	if padding := st.width - n; padding > 0 {
		for k := 0; k < padding; k++ {
			dst = append(dst, 0)
		}
		copy(dst[mark+padding:], dst[mark:mark+n])
		fill := byte(' ')
		if st.pad == '0' {
			fill = '0'
		}
		for k := mark; k < mark+padding; k++ {
			dst[k] = fill
		}
		mark += padding
	}
	if st.upcase {
		for k := mark; k < len(dst); k++ {
			dst[k] = asciiUpper(dst[k])
		}
	}
	return dst, nil
}

func leapInt(year int32) int32 {
	if isLeap(int64(year)) {
		return 1
	}
	return 0
}

// isoWeekDays is glibc's iso_week_days: days from the first day of the
// first ISO week of the year to yday (weekday wday).
func isoWeekDays(yday, wday int32) int32 {
	const bigEnoughMultipleOf7 = (366/7 + 2) * 7
	return yday - (yday-wday+4+bigEnoughMultipleOf7)%7 + 4 - 1
}

// DatestampOffset is the local zone's offset from UTC at now, in
// seconds, as git's datestamp computes it for an ident without a date
// (the "Not Committed Yet" lines): its localtime turned back by
// tm_to_time_t, less now, in whole minutes. It is the zone's offset but
// where glibc takes leap seconds off ("right/" zones: +0159 for +0200).
func DatestampOffset(now int64, loc *time.Location) int {
	if loc == nil {
		loc = time.Local
	}
	tm, _ := localtimeC(now, loc)
	return int((gitTmToTimeT(&tm) - now) / 60 * 60)
}
