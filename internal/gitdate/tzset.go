package gitdate

import (
	"encoding/binary"
	"os"
	"strings"
	"sync"
	"time"
)

// TZ is the local time zone glibc's tzset makes of the TZ variable's
// value tz (set; unset is time.Local): empty is UTC; after an optional
// leading ':', a zone file (an absolute path, or a name under the zone
// directory); failing that a POSIX rule string, "std offset [dst
// [offset] [,rules]]" ("JST-9", "EST5EDT,M3.2.0,M11.1.0",
// "<+0545>-5:45"), of which glibc keeps what parses: a standard name
// without an offset (TZ=utc, TZ=Nowhere/Bogus) is that name at UTC's
// offset. The leap seconds of a zone file ("right/" zones) apply to the
// dates shown while it is the local zone, as glibc applies them. Not
// modelled: a DST name without rules, which glibc gives the posixrules
// file's.
func TZ(tz string) *time.Location {
	if tz == "" {
		return time.UTC
	}
	name := strings.TrimPrefix(tz, ":")
	if name == "" {
		return time.UTC // (glibc's default when nothing is named)
	}
	if strings.HasPrefix(name, "/") {
		if data, err := os.ReadFile(name); err == nil {
			if loc, err := time.LoadLocationFromTZData(name, data); err == nil {
				registerLeaps(loc, data)
				return loc
			}
		}
	} else if loc, err := time.LoadLocation(name); err == nil {
		// (The leap seconds, which the time package does not keep,
		// from the file glibc reads.)
		if data, err := os.ReadFile(zoneDir + "/" + name); err == nil {
			registerLeaps(loc, data)
		}
		return loc
	}
	return posixTZ(name)
}

// zoneDir is glibc's TZDEFAULT directory of zone files.
const zoneDir = "/usr/share/zoneinfo"

// LocalLeaps gives time.Local the leap seconds of /etc/localtime, the
// zone glibc reads where TZ is unset: a "right/" zone there makes git
// print every date 27 seconds early. Where the process's TZ is set,
// glibc reads that zone instead, and so does time.Local: nothing is
// read here. The first date converted with time.Local's leap seconds
// calls it (leapsOf; glibc's gmtime applies them too, so every date of
// git's human format does), so that a blame that converts none (an
// --incremental or porcelain one prints raw times) does not read the
// file (1% of go-git's Magit call, -L 1,60 Makefile, in perf samples);
// callers may call it sooner.
func LocalLeaps() {
	localLeapsOnce.Do(func() {
		if _, set := os.LookupEnv("TZ"); set {
			return
		}
		if data, err := os.ReadFile(localtimePath); err == nil {
			registerLeaps(time.Local, data)
		}
	})
}

var localLeapsOnce sync.Once

// localtimePath is the zone file glibc reads where TZ is unset (a
// variable for the tests).
var localtimePath = "/etc/localtime"

// posixTZ is glibc's __tzset_parse_tz of s: the standard time's name and
// offset as far as they parse, and the rest of the string, where there is
// more, given to the time package as a TZif footer (which reads the DST
// part and its rules).
func posixTZ(s string) *time.Location {
	std, rest, ok := tzName(s)
	if !ok {
		return time.FixedZone("", 0)
	}
	offset, rest, ok := tzOffset(rest)
	if !ok {
		return time.FixedZone(std, 0)
	}
	zone := time.FixedZone(std, offset)
	if rest == "" {
		return zone
	}
	if loc, err := time.LoadLocationFromTZData(s, tzifWithFooter(std, offset, s)); err == nil {
		return loc
	}
	return zone
}

// tzName is glibc's parse_tzname: three or more letters, or a name in
// angle brackets of letters, digits, '+' and '-'.
func tzName(s string) (name, rest string, ok bool) {
	if strings.HasPrefix(s, "<") {
		i := 1
		for i < len(s) && (isAlnum(s[i]) || s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] != '>' || i-1 < 3 {
			return "", s, false
		}
		return s[1:i], s[i+1:], true
	}
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	if i < 3 {
		return "", s, false
	}
	return s[:i], s[i:], true
}

// tzOffset is glibc's parse_offset: [+-]hh[:mm[:ss]], hours west of UTC
// (so that "-9" is nine hours east), as seconds east of UTC.
func tzOffset(s string) (offset int, rest string, ok bool) {
	if s == "" || s[0] != '+' && s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return 0, s, false
	}
	west := 1
	if s[0] == '+' || s[0] == '-' {
		if s[0] == '-' {
			west = -1
		}
		s = s[1:]
	}
	var parts [3]int
	n := 0
	for n < 3 {
		i := 0
		v := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			v = v*10 + int(s[i]-'0')
			if v > 1<<16 {
				return 0, s, false
			}
			i++
		}
		if i == 0 {
			if n == 0 {
				return 0, s, false
			}
			// "hh:" without minutes: the colon stays unread.
			s = ":" + s
			break
		}
		parts[n] = v
		n++
		s = s[i:]
		if n < 3 && strings.HasPrefix(s, ":") {
			s = s[1:]
			continue
		}
		break
	}
	secs := min(parts[0], 24)*3600 + min(parts[1], 59)*60 + min(parts[2], 59)
	return -west * secs, s, true
}

// tzifWithFooter is a TZif file of one zone (std at offset), in force
// from long before any date a blame prints, whose footer is the POSIX
// rule string rules, which the time package reads for every date after
// that transition.
func tzifWithFooter(std string, offset int, rules string) []byte {
	var b []byte
	header := func(version byte, timecnt, typecnt, charcnt uint32) {
		b = append(b, "TZif"...)
		b = append(b, version)
		b = append(b, make([]byte, 15)...)
		for _, v := range []uint32{0, 0, 0, timecnt, typecnt, charcnt} {
			b = binary.BigEndian.AppendUint32(b, v)
		}
	}
	names := append([]byte(std), 0)
	ttinfo := func() {
		b = binary.BigEndian.AppendUint32(b, uint32(int32(offset)))
		b = append(b, 0, 0) // not DST, the name at index 0
	}
	// Version 1 block: the zone alone.
	header('2', 0, 1, uint32(len(names)))
	ttinfo()
	b = append(b, names...)
	// Version 2 block: one transition, to it, at year -30,000 or so.
	header('2', 1, 1, uint32(len(names)))
	longAgo := int64(-1) << 40
	b = binary.BigEndian.AppendUint64(b, uint64(longAgo))
	b = append(b, 0)
	ttinfo()
	b = append(b, names...)
	b = append(b, '\n')
	b = append(b, rules...)
	b = append(b, '\n')
	return b
}
