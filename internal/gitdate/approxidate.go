// Approximate dates: git 2.39.5's approxidate_careful() from date.c, as
// --since/--after/--max-age and color.blame.highlightRecent use it.
//
// approxidate first tries parse_date_basic, the strict parser for dates
// such as "2005-04-07 22:13:13 +0200", "Thu, 07 Apr 2005 22:13:13 +0200",
// "@1112911993 +0000" or a bare number of seconds. When that fails it
// reads the text word by word relative to "now": "yesterday", "noon",
// "3 days ago", "last friday", "2.weeks", "12 month ago", "never", mixed
// with dates and times ("Dec 6", "10:30 pm"). Anything it does not
// understand is skipped; if nothing at all was understood git's careful
// variant reports an error, and the answer is "now".
//
// Much of this runs on the C library's local time: localtime_r, and
// mktime with its tm_isdst hint (a time computed in summer and moved into
// winter keeps summer's offset — glibc's mktime looks for a nearby time
// with the requested isdst and uses its UTC offset, else assumes a
// one-hour difference). mktimeC below follows glibc 2.36's algorithm (as
// Debian 12 ships it, with the release branch's fix) so that goblame lands on the same second as git
// in every zone; C int arithmetic (the numbers in "N days ago" are ints)
// wraps as it does in git.

package gitdate

import (
	"errors"
	"math"
	"time"
)

// ErrApproxidate is wrapped by the error Approxidate returns when nothing
// in the text was understood (git's approxidate_careful error flag).
var ErrApproxidate = errors.New("date not understood")

// Approxidate is git's approxidate_careful(s): the timestamp git computes
// for --since=s (and the thresholds of color.blame.highlightRecent). now
// is git's notion of the current time (GIT_TEST_DATE_NOW or the clock) and
// local the local timezone (nil means time.Local).
//
// The timestamp is always git's answer, even when err is non-nil: err
// (wrapping ErrApproxidate) reports that nothing in s was understood, the
// condition approxidate_careful flags. git's --since and
// color.blame.highlightRecent ignore that flag, so a blame front end
// should use the value and ignore the error.
func Approxidate(s string, now time.Time, local *time.Location) (uint64, error) {
	return ApproxidateClock(s, now, now, local)
}

// ApproxidateClock is Approxidate when git's two clocks differ: now is
// what get_time() returns (GIT_TEST_DATE_NOW when set) and wall is what
// time(NULL) returns, which git consults when it refuses dates more than
// ten days in the future while parsing "mm/dd/yy"-style dates. They only
// differ in tests that pin GIT_TEST_DATE_NOW.
func ApproxidateClock(s string, now, wall time.Time, local *time.Location) (uint64, error) {
	if local == nil {
		local = time.Local
	}
	c := dateClock{now: now.Unix(), wall: wall.Unix(), loc: local}
	s = CString(s)
	if ts, _, ok := c.parseDateBasic(s); ok {
		return ts, nil
	}
	ts, understood := c.approxidateStr(s)
	if !understood {
		return ts, &DateError{Msg: "date not understood: " + s, kind: ErrApproxidate}
	}
	return ts, nil
}

// dateClock is the environment of one approxidate call: the two clocks,
// the zone, and glibc's mktime offset guess (a static in glibc).
type dateClock struct {
	now, wall   int64
	loc         *time.Location
	mktimeGuess int64
}

// ---------------------------------------------------------------------
// parse_date_basic

// timezoneNames is date.c's table (offsets in hours; dst adds one).
var timezoneNames = [...]struct {
	name   string
	offset int32
	dst    int32
}{
	{"IDLW", -12, 0}, {"NT", -11, 0}, {"CAT", -10, 0}, {"HST", -10, 0}, {"HDT", -10, 1},
	{"YST", -9, 0}, {"YDT", -9, 1}, {"PST", -8, 0}, {"PDT", -8, 1}, {"MST", -7, 0},
	{"MDT", -7, 1}, {"CST", -6, 0}, {"CDT", -6, 1}, {"EST", -5, 0}, {"EDT", -5, 1},
	{"AST", -3, 0}, {"ADT", -3, 1}, {"WAT", -1, 0},
	{"GMT", 0, 0}, {"UTC", 0, 0}, {"Z", 0, 0},
	{"WET", 0, 0}, {"BST", 0, 1}, {"CET", +1, 0}, {"MET", +1, 0}, {"MEWT", +1, 0},
	{"MEST", +1, 1}, {"CEST", +1, 1}, {"MESZ", +1, 1}, {"FWT", +1, 0}, {"FST", +1, 1},
	{"EET", +2, 0}, {"EEST", +2, 1}, {"WAST", +7, 0}, {"WADT", +7, 1}, {"CCT", +8, 0},
	{"JST", +9, 0}, {"EAST", +10, 0}, {"EADT", +10, 1}, {"GST", +10, 0}, {"NZT", +12, 0},
	{"NZST", +12, 0}, {"NZDT", +12, 1}, {"IDLE", +12, 0},
}

// matchString is date.c's match_string: how many leading characters of
// date[i:] equal str case-insensitively, provided the match ends at a
// non-alphanumeric character (else 0).
func matchString(date string, i int, str string) int {
	n := 0
	for ; At(date, i+n) != 0; n++ {
		d, s := date[i+n], At(str, n)
		if d == s || asciiUpper(d) == asciiUpper(s) {
			continue
		}
		if !isAlnum(d) {
			break
		}
		return 0
	}
	return n
}

// matchAlpha is date.c's match_alpha: a month, weekday, zone name or
// AM/PM; returns how many bytes it consumed.
func matchAlpha(date string, i int, tm *cTm, offset *int32) int {
	for m, name := range monthNames {
		if n := matchString(date, i, name); n >= 3 {
			tm.mon = int32(m)
			return n
		}
	}
	for d, name := range weekdayNames {
		if n := matchString(date, i, name); n >= 3 {
			tm.wday = int32(d)
			return n
		}
	}
	for _, z := range timezoneNames {
		if n := matchString(date, i, z.name); n >= 3 || n == len(z.name) {
			if *offset == -1 {
				*offset = 60 * (z.offset + z.dst)
			}
			return n
		}
	}
	if matchString(date, i, "PM") == 2 {
		tm.hour = tm.hour%12 + 12
		return 2
	}
	if matchString(date, i, "AM") == 2 {
		tm.hour = tm.hour % 12
		return 2
	}
	n := 0
	for {
		n++
		if !isAlpha(At(date, i+n)) {
			return n
		}
	}
}

// setDate is date.c's set_date. With nowTm nil it writes straight into
// tm, even on the paths that then fail (as git does).
func setDate(year, month, day int32, nowTm *cTm, now int64, tm *cTm) int {
	if month > 0 && month < 13 && day > 0 && day < 32 {
		check := *tm
		r := tm
		if nowTm != nil {
			r = &check
		}
		r.mon = month - 1
		r.mday = day
		switch {
		case year == -1:
			if nowTm == nil {
				return 1
			}
			r.year = nowTm.year
		case year >= 1970 && year < 2100:
			r.year = year - 1900
		case year > 70 && year < 100:
			r.year = year
		case year < 38:
			r.year = year + 100
		default:
			return -1
		}
		if nowTm == nil {
			return 0
		}
		specified := gitTmToTimeT(r)
		// Not more than ten days into the future.
		if specified != -1 && now+10*24*3600 < specified {
			return -1
		}
		tm.mon = r.mon
		tm.mday = r.mday
		if year != -1 {
			tm.year = r.year
		}
		return 0
	}
	return -1
}

// setTime is date.c's set_time (a 61st second is accepted).
func setTime(hour, minute, second int64, tm *cTm) int {
	if 0 <= hour && hour <= 24 && 0 <= minute && minute < 60 && 0 <= second && second <= 60 {
		tm.hour = int32(hour)
		tm.min = int32(minute)
		tm.sec = int32(second)
		return 0
	}
	return -1
}

func isDateKnown(tm *cTm) bool {
	return tm.year != -1 && tm.mon != -1 && tm.mday != -1
}

// matchMultiNumber is date.c's match_multi_number: num, sep and more
// numbers — a time "hh:mm[:ss]" or a date in one of the orders git tries.
// start is where num began, end the separator's index. now == 0 means the
// wall clock.
func (c *dateClock) matchMultiNumber(num uint64, sep byte, date string, start, end int, tm *cTm, now int64) int {
	num2, end := CStrtol(date, end+1)
	num3 := int64(-1)
	if At(date, end) == sep && isDigit(At(date, end+1)) {
		num3, end = CStrtol(date, end+1)
	}
	switch sep {
	case ':':
		if num3 < 0 {
			num3 = 0
		}
		if setTime(int64(num), num2, num3, tm) != 0 {
			return 0
		}
		// A fractional second after a known date.
		if At(date, end) == '.' && isDigit(At(date, end+1)) && isDateKnown(tm) {
			_, end = CStrtol(date, end+1)
		}
	case '-', '/', '.':
		if now == 0 {
			now = c.wall
		}
		var refuseFuture *cTm
		if nowTm, ok := gmtimeC(now, c.loc); ok {
			refuseFuture = &nowTm
		}
		n1, n2, n3 := int32(num), int32(num2), int32(num3)
		switch {
		case num > 70 && setDate(n1, n2, n3, nil, now, tm) == 0: // yyyy-mm-dd
		case num > 70 && setDate(n1, n3, n2, nil, now, tm) == 0: // yyyy-dd-mm
		case sep != '.' && setDate(n3, n1, n2, refuseFuture, now, tm) == 0: // mm/dd/yy
		case setDate(n3, n2, n1, refuseFuture, now, tm) == 0: // dd.mm.yy
		case sep == '.' && setDate(n3, n1, n2, refuseFuture, now, tm) == 0: // mm.dd.yy
		default:
			return 0
		}
	}
	return end - start
}

// noDate is date.c's nodate: nothing of the date or time is set yet.
func noDate(tm *cTm) bool {
	return tm.year&tm.mon&tm.mday&tm.hour&tm.min&tm.sec < 0
}

// matchDigit is date.c's match_digit.
func (c *dateClock) matchDigit(date string, i int, tm *cTm, offset *int32, tmGMT *bool) int {
	num, end := cStrtoumax(date, i)

	// Seconds since 1970, for numbers of more than 8 digits.
	if num >= 100000000 && noDate(tm) {
		// gmtime_r writes into tm even when the year overflows.
		if gmtimeR(int64(num), tm, c.loc) {
			*tmGMT = true
			return end - i
		}
	}
	switch sep := At(date, end); sep {
	case ':', '.', '/', '-':
		if isDigit(At(date, end+1)) {
			if match := c.matchMultiNumber(num, sep, date, i, end, tm, 0); match != 0 {
				return match
			}
		}
	}
	n := 0
	for {
		n++
		if !isDigit(At(date, i+n)) {
			break
		}
	}
	// YYYYmmDD and HHMMSS.
	if n == 8 || n == 6 {
		num1 := uint32(num / 10000)
		num2 := uint32(num % 10000 / 100)
		num3 := uint32(num % 100)
		if n == 8 {
			setDate(int32(num1), int32(num2), int32(num3), nil, c.wall, tm)
		} else if setTime(int64(num1), int64(num2), int64(num3), tm) == 0 &&
			At(date, end) == '.' && isDigit(At(date, end+1)) {
			_, end = cStrtoul(date, end+1)
		}
		return end - i
	}
	// Four-digit year or a timezone?
	if n == 4 {
		if num <= 1400 && *offset == -1 {
			minutes := uint32(num % 100)
			hours := uint32(num / 100)
			*offset = int32(hours*60 + minutes)
		} else if num > 1900 && num < 2100 {
			tm.year = int32(num) - 1900
		}
		return n
	}
	if n > 2 {
		return n
	}
	// Day of month first, then a two-digit year, then the month.
	if num > 0 && num < 32 && tm.mday < 0 {
		tm.mday = int32(num)
		return n
	}
	if n == 2 && tm.year < 0 {
		if num < 10 && tm.mday >= 0 {
			tm.year = int32(num) + 100
			return n
		}
		if num >= 70 {
			tm.year = int32(num)
			return n
		}
	}
	if num > 0 && num < 13 && tm.mon < 0 {
		tm.mon = int32(num) - 1
	}
	return n
}

// matchTZ is date.c's match_tz: "+hhmm", "-hh", "+hh:mm".
func matchTZ(date string, i int, offp *int32) int {
	hourU, end := cStrtoul(date, i+1)
	hour := int32(hourU)
	n := end - (i + 1)
	minute := int32(0)
	if n == 4 {
		minute = hour % 100
		hour = hour / 100
	} else if n != 2 {
		minute = 99
	} else if At(date, end) == ':' {
		var m uint64
		m, end = cStrtoul(date, end+1)
		minute = int32(m)
		if end-(i+1) != 5 {
			minute = 99
		}
	}
	if minute < 60 && hour < 24 {
		offset := hour*60 + minute
		if date[i] == '-' {
			offset = -offset
		}
		*offp = offset
	}
	return end - i
}

// matchObjectHeaderDate parses "<seconds> <+|-><hhmm>" exactly (the form
// after '@').
func matchObjectHeaderDate(date string) (uint64, int32, bool) {
	if d := At(date, 0); d < '0' || d > '9' {
		return 0, 0, false
	}
	stamp, end := cStrtoumax(date, 0)
	if At(date, end) != ' ' || stamp == math.MaxUint64 || (At(date, end+1) != '+' && At(date, end+1) != '-') {
		return 0, 0, false
	}
	p := end + 2
	ofsL, end := CStrtol(date, p)
	if (At(date, end) != 0 && At(date, end) != '\n') || end != p+4 {
		return 0, 0, false
	}
	ofs := int32(ofsL)
	ofs = ofs/100*60 + ofs%100
	if date[p-1] == '-' {
		ofs = -ofs
	}
	return stamp, ofs, true
}

// parseDateBasic is date.c's parse_date_basic: the timestamp and the
// offset in minutes, or ok false.
func (c *dateClock) parseDateBasic(date string) (uint64, int32, bool) {
	tm := cTm{year: -1, mon: -1, mday: -1, isdst: -1, hour: -1, min: -1, sec: -1}
	offset := int32(-1)
	tmGMT := false

	if At(date, 0) == '@' {
		if ts, off, ok := matchObjectHeaderDate(date[1:]); ok {
			return ts, off, true
		}
	}
	for i := 0; ; {
		ch := At(date, i)
		if ch == 0 || ch == '\n' {
			break
		}
		match := 0
		switch {
		case isAlpha(ch):
			match = matchAlpha(date, i, &tm, &offset)
		case isDigit(ch):
			match = c.matchDigit(date, i, &tm, &offset, &tmGMT)
		case (ch == '-' || ch == '+') && isDigit(At(date, i+1)):
			match = matchTZ(date, i, &offset)
		}
		if match <= 0 {
			match = 1
		}
		i += match
	}

	t := gitTmToTimeT(&tm)
	if t == -1 {
		return 0, 0, false
	}
	ts := uint64(t)
	if offset == -1 {
		tm.isdst = -1
		temp := c.mktime(&tm)
		if t > temp {
			offset = int32((t - temp) / 60)
		} else {
			offset = -int32((temp - t) / 60)
		}
	}
	if !tmGMT {
		ts -= uint64(int64(offset * 60))
	}
	return ts, offset, true
}

// ---------------------------------------------------------------------
// approxidate_str

// updateTm is date.c's update_tm: fill in the unset date fields from now,
// go back sec seconds, and refresh tm from the result.
func (c *dateClock) updateTm(tm, now *cTm, sec int64) int64 {
	if tm.mday < 0 {
		tm.mday = now.mday
	}
	if tm.mon < 0 {
		tm.mon = now.mon
	}
	if tm.year < 0 {
		tm.year = now.year
		if tm.mon > now.mon {
			tm.year--
		}
	}
	n := c.mktime(tm) - sec
	if lt, ok := localtimeC(n, c.loc); ok {
		*tm = lt
	}
	return n
}

// pendingNumber is date.c's pending_number: a bare number becomes the day
// of the month, the month or the year, whichever is still unset.
func pendingNumber(tm *cTm, num *int32) {
	number := *num
	if number == 0 {
		return
	}
	*num = 0
	switch {
	case tm.mday < 0 && number < 32:
		tm.mday = number
	case tm.mon < 0 && number < 13:
		tm.mon = number - 1
	case tm.year < 0:
		switch {
		case number > 1969 && number < 2100:
			tm.year = number - 1900
		case number > 69 && number < 100:
			tm.year = number
		case number < 38:
			tm.year = 100 + number
		}
	}
}

func (c *dateClock) dateTime(tm, now *cTm, hour int32) {
	if tm.hour < hour {
		c.updateTm(tm, now, 24*60*60)
	}
	tm.hour = hour
	tm.min = 0
	tm.sec = 0
}

func ampm(tm *cTm, num *int32, add int32) {
	hour, n := tm.hour, *num
	*num = 0
	if n != 0 {
		hour = n
		tm.min = 0
		tm.sec = 0
	}
	tm.hour = hour%12 + add
}

// special applies date.c's special words; ok is false for other words.
func (c *dateClock) special(date string, i int, tm, now *cTm, num *int32) bool {
	switch {
	case matchString(date, i, "yesterday") == 9:
		*num = 0
		c.updateTm(tm, now, 24*60*60)
	case matchString(date, i, "noon") == 4:
		pendingNumber(tm, num)
		c.dateTime(tm, now, 12)
	case matchString(date, i, "midnight") == 8:
		pendingNumber(tm, num)
		c.dateTime(tm, now, 0)
	case matchString(date, i, "tea") == 3:
		pendingNumber(tm, num)
		c.dateTime(tm, now, 17)
	case matchString(date, i, "PM") == 2:
		ampm(tm, num, 12)
	case matchString(date, i, "AM") == 2:
		ampm(tm, num, 0)
	case matchString(date, i, "never") == 5:
		if lt, ok := localtimeC(0, c.loc); ok {
			*tm = lt
		}
		*num = 0
	case matchString(date, i, "now") == 3:
		*num = 0
		c.updateTm(tm, now, 0)
	default:
		return false
	}
	return true
}

var numberNames = [...]string{
	"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
}

var typeLengths = [...]struct {
	name   string
	length int32
}{
	{"seconds", 1},
	{"minutes", 60},
	{"hours", 60 * 60},
	{"days", 24 * 60 * 60},
	{"weeks", 7 * 24 * 60 * 60},
}

// approxidateAlpha is date.c's approxidate_alpha for the word at date[i];
// it returns the index after the word.
func (c *dateClock) approxidateAlpha(date string, i int, tm, now *cTm, num *int32, touched *bool) int {
	end := i
	for {
		end++
		if !isAlpha(At(date, end)) {
			break
		}
	}
	for m, name := range monthNames {
		if matchString(date, i, name) >= 3 {
			tm.mon = int32(m)
			*touched = true
			return end
		}
	}
	if c.special(date, i, tm, now, num) {
		*touched = true
		return end
	}
	if *num == 0 {
		for n := 1; n < len(numberNames); n++ {
			if matchString(date, i, numberNames[n]) == len(numberNames[n]) {
				*num = int32(n)
				*touched = true
				return end
			}
		}
		if matchString(date, i, "last") == 4 {
			*num = 1
			*touched = true
		}
		return end
	}
	for _, tl := range typeLengths {
		if matchString(date, i, tl.name) >= len(tl.name)-1 {
			c.updateTm(tm, now, int64(tl.length*(*num))) // C int product
			*num = 0
			*touched = true
			return end
		}
	}
	for d, name := range weekdayNames {
		if matchString(date, i, name) >= 3 {
			n := *num - 1
			*num = 0
			diff := tm.wday - int32(d)
			if diff <= 0 {
				n++
			}
			diff += 7 * n
			c.updateTm(tm, now, int64(diff*24*60*60)) // C int product
			*touched = true
			return end
		}
	}
	if matchString(date, i, "months") >= 5 {
		c.updateTm(tm, now, 0) // fill in the date fields
		n := tm.mon - *num
		*num = 0
		if n < 0 {
			// git adds 12 and decrements the year until n >= 0.
			k := (-int64(n) + 11) / 12
			n = int32(int64(n) + 12*k)
			tm.year -= int32(k)
		}
		tm.mon = n
		*touched = true
		return end
	}
	if matchString(date, i, "years") >= 4 {
		c.updateTm(tm, now, 0)
		tm.year -= *num
		*num = 0
		*touched = true
		return end
	}
	return end
}

// approxidateDigit is date.c's approxidate_digit.
func (c *dateClock) approxidateDigit(date string, i int, tm *cTm, num *int32) int {
	number, end := cStrtoumax(date, i)
	switch sep := At(date, end); sep {
	case ':', '.', '/', '-':
		if isDigit(At(date, end+1)) {
			if match := c.matchMultiNumber(number, sep, date, i, end, tm, c.now); match != 0 {
				return i + match
			}
		}
	}
	// Zero padding only for small numbers ("Dec 02", never "Dec 0002").
	if date[i] != '0' || end-i <= 2 {
		*num = int32(number)
	}
	return end
}

// approxidateStr is date.c's approxidate_str; understood is false when
// no word or number touched the result.
func (c *dateClock) approxidateStr(date string) (uint64, bool) {
	number := int32(0)
	touched := false
	tm, _ := localtimeC(c.now, c.loc)
	now := tm
	tm.year, tm.mon, tm.mday = -1, -1, -1
	for i := 0; i < len(date); {
		ch := date[i]
		i++
		if isDigit(ch) {
			pendingNumber(&tm, &number)
			i = c.approxidateDigit(date, i-1, &tm, &number)
			touched = true
			continue
		}
		if isAlpha(ch) {
			i = c.approxidateAlpha(date, i-1, &tm, &now, &number, &touched)
		}
	}
	pendingNumber(&tm, &number)
	return uint64(c.updateTm(&tm, &now, 0)), touched
}

// ---------------------------------------------------------------------
// glibc 2.36 mktime

func (c *dateClock) mktime(tm *cTm) int64 {
	return mktimeGuess(tm, c.loc, &c.mktimeGuess)
}

// mktimeC is mktime for one-off callers (strftime's own %s).
func mktimeC(tm *cTm, loc *time.Location) int64 {
	var guess int64
	return mktimeGuess(tm, loc, &guess)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// shr is an arithmetic shift right (division rounding to -inf).
func shr(a int64, b uint) int64 { return a >> b }

// ydhmsDiff is glibc's ydhms_diff: (year1-yday1 hour1:min1:sec1) minus
// (year0-yday0 hour0:min0:sec0) in seconds, years counted as tm_year.
func ydhmsDiff(year1, yday1, hour1, min1, sec1, year0, yday0, hour0, min0, sec0 int64) int64 {
	a4 := shr(year1, 2) + shr(1900, 2) - b2i(year1&3 == 0)
	b4 := shr(year0, 2) + shr(1900, 2) - b2i(year0&3 == 0)
	a100 := (a4+b2i(a4 < 0))/25 - b2i(a4 < 0)
	b100 := (b4+b2i(b4 < 0))/25 - b2i(b4 < 0)
	a400 := shr(a100, 2)
	b400 := shr(b100, 2)
	leapDays := (a4 - b4) - (a100 - b100) + (a400 - b400)
	days := 365*(year1-year0) + yday1 - yday0 + leapDays
	hours := 24*days + hour1 - hour0
	minutes := 60*hours + min1 - min0
	return 60*minutes + sec1 - sec0
}

func tmDiff(year, yday, hour, min, sec int64, tp *cTm) int64 {
	return ydhmsDiff(year, yday, hour, min, sec,
		int64(tp.year), int64(tp.yday), int64(tp.hour), int64(tp.min), int64(tp.sec))
}

// rangedConvert is glibc's ranged_convert: localtime of *t, or of the
// nearest convertible time (found by bisection towards 0).
func rangedConvert(t *int64, loc *time.Location) (cTm, bool) {
	if tm, ok := localtimeC(*t, loc); ok {
		return tm, true
	}
	bad, ok := *t, int64(0)
	var okTm cTm
	found := false
	for {
		mid := shr(ok, 1) + shr(bad, 1) + ((ok | bad) & 1)
		if mid == ok || mid == bad {
			break
		}
		if tm, good := localtimeC(mid, loc); good {
			ok, okTm, found = mid, tm, true
		} else {
			bad = mid
		}
	}
	if !found {
		return cTm{}, false
	}
	*t = ok
	return okTm, true
}

func isdstDiffer(a, b int32) bool {
	return (a == 0) != (b == 0) && a >= 0 && b >= 0
}

func addOverflows(a, b int64) bool {
	s := a + b
	return (s > a) != (b > 0)
}

// mktimeGuess is __mktime_internal as in glibc's release/2.36 branch
// (Debian 12's libc: 2.36 plus the "ca-1986 Indiana DST" fix, which falls
// back to a one-hour DST difference), with localtime in loc:
// it normalizes *tp and returns the time, or -1 leaving *tp alone. guess
// is glibc's static offset guess, carried between calls.
func mktimeGuess(tp *cTm, loc *time.Location, guess *int64) int64 {
	sec := int64(tp.sec)
	minute := int64(tp.min)
	hour := int64(tp.hour)
	mday := int64(tp.mday)
	mon := tp.mon
	isdst := tp.isdst

	monRem := mon % 12
	negRem := int32(0)
	if monRem < 0 {
		negRem = 1
	}
	monYears := mon/12 - negRem
	year := int64(tp.year) + int64(monYears)
	leap := 0
	if isLeap(year + 1900) {
		leap = 1
	}
	yday := daysBeforeMonth[leap][monRem+12*negRem] - 1 + mday

	secRequested := sec
	if sec < 0 {
		sec = 0
	}
	if sec > 59 {
		sec = 59
	}

	negGuess := -*guess
	t0 := ydhmsDiff(year, yday, hour, minute, sec, 70, 0, 0, 0, negGuess)
	t, t1, t2 := t0, t0, t0
	dst2 := false
	remaining := 6
	var tm cTm
	found := false
	for {
		var ok bool
		tm, ok = rangedConvert(&t, loc)
		if !ok {
			return -1
		}
		dt := tmDiff(year, yday, hour, minute, sec, &tm)
		if dt == 0 {
			break
		}
		if t == t1 && t != t2 {
			var oscillating bool
			if isdst < 0 {
				oscillating = b2i(dst2) <= b2i(tm.isdst != 0)
			} else {
				oscillating = (isdst != 0) != (tm.isdst != 0)
			}
			if tm.isdst < 0 || oscillating {
				// Inside a spring-forward gap: take the time dt away.
				found = true
				break
			}
		}
		remaining--
		if remaining == 0 {
			return -1
		}
		t1, t2, t, dst2 = t2, t, t+dt, tm.isdst != 0
	}

	if !found && isdstDiffer(isdst, tm.isdst) {
		// The wrong DST flag: use the UTC offset of the nearest time
		// that has the requested one, or else assume a one-hour DST.
		dstDifference := b2i(isdst == 0) - b2i(tm.isdst == 0)
		const stride = 601200
		const durationMax = 457243209
		const deltaBound = durationMax/2 + stride
	probe:
		for delta := int64(stride); delta < deltaBound; delta += stride {
			for direction := int64(-1); direction <= 1; direction += 2 {
				if addOverflows(t, delta*direction) {
					continue
				}
				ot := t + delta*direction
				otm, ok := rangedConvert(&ot, loc)
				if !ok {
					return -1
				}
				if isdstDiffer(isdst, otm.isdst) {
					continue
				}
				gt := ot + tmDiff(year, yday, hour, minute, sec, &otm)
				if gtm, ok := localtimeC(gt, loc); ok {
					t, tm = gt, gtm
					found = true
					break probe
				}
			}
		}
		if !found {
			t += 60 * 60 * dstDifference
			lt, ok := localtimeC(t, loc)
			if !ok {
				return -1
			}
			tm = lt
		}
	}

	*guess = t - t0 - negGuess

	if secRequested != int64(tm.sec) {
		adj := b2i(sec == 0 && tm.sec == 60) - sec + secRequested
		if addOverflows(t, adj) {
			return -1
		}
		t += adj
		lt, ok := localtimeC(t, loc)
		if !ok {
			return -1
		}
		tm = lt
	}
	*tp = tm
	return t
}
