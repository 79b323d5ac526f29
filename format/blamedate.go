// The blame date column: builtin/blame.c's blame_date_width and
// format_time's padding, over the dates package gitdate renders.
//
// Cost: AppendBlameDate in the default iso mode takes 60-120 ns and
// allocates nothing (relative 20-30 ns, format:%Y-%m-%d %H:%M 150 ns,
// iso-local 150 ns), measured on the shared 2-core VM with
//
//	go test ./format -run '^$' -bench AppendDate -benchmem
//
// which is small next to the rest of a blame line; a caller printing the
// same commit's date on many lines may still cache the text per commit.

package format

import (
	"time"

	"github.com/goblame/goblame/internal/gitdate"
)

// BlameDateWidth is builtin/blame.c's blame_date_width: the display width
// every date of the default output format is padded to. For "relative" it
// is the width of the C locale's "4 years, 11 months ago" (22); for
// format:<strftime> the byte length of the format applied to timestamp 0
// at +0000 (in the local zone for format-local). now is unused by git's
// computation and accepted for symmetry with gitdate.ShowDate.
func BlameDateWidth(mode gitdate.DateMode, now time.Time, local *time.Location) int {
	switch mode.Type {
	case gitdate.DateRFC2822:
		return len("Thu, 19 Oct 2006 16:00:04 -0700")
	case gitdate.DateISO8601Strict:
		return len("2006-10-19T16:00:04-07:00")
	case gitdate.DateISO8601:
		return len("2006-10-19 16:00:04 -0700")
	case gitdate.DateRaw:
		return len("1161298804 -0700")
	case gitdate.DateUnix:
		return len("1161298804")
	case gitdate.DateShort:
		return len("2006-10-19")
	case gitdate.DateRelative:
		return Utf8Width([]byte("4 years, 11 months ago"))
	case gitdate.DateHuman:
		return len("Thu Oct 19 16:00")
	case gitdate.DateNormal:
		return len("Thu Oct 19 16:00:04 2006 -0700")
	case gitdate.DateStrftime:
		var buf [64]byte
		b, _ := gitdate.AppendDate(buf[:0], mode, 0, 0, now, local)
		return gitdate.CStrlen(b)
	}
	return 0
}

// AppendBlameDate is builtin/blame.c's format_time for a formatted date:
// the date gitdate.ShowDate renders, followed by spaces until its display
// width (Utf8Width) reaches width (BlameDateWidth of the mode). Longer
// dates are not truncated. The default output format then prints the
// result with C's "%10s", i.e. left-padded with spaces to at least 10
// bytes.
func AppendBlameDate(dst []byte, mode gitdate.DateMode, width int, timestamp uint64, tz int, now time.Time, local *time.Location) ([]byte, error) {
	start := len(dst)
	dst, err := gitdate.AppendDate(dst, mode, timestamp, tz, now, local)
	if err != nil {
		return dst, err
	}
	return padBlameDate(dst, start, width), nil
}

// AppendBlameDateWith is AppendBlameDate (format_time) with the state of
// the formatter f.
func AppendBlameDateWith(dst []byte, f *gitdate.DateFormatter, width int, timestamp uint64, tz int) ([]byte, error) {
	start := len(dst)
	dst, err := f.AppendDate(dst, timestamp, tz)
	if err != nil {
		return dst, err
	}
	return padBlameDate(dst, start, width), nil
}

// BlameDateWidthWith is BlameDateWidth with the state of the formatter f
// (for format:<strftime> it is a show_date call, which git makes before
// any line is printed).
func BlameDateWidthWith(f *gitdate.DateFormatter) int {
	if f.Mode.Type != gitdate.DateStrftime {
		return BlameDateWidth(f.Mode, f.Now, f.Local)
	}
	var buf [64]byte
	b, _ := f.AppendDate(buf[:0], 0, 0)
	return gitdate.CStrlen(b)
}

// padBlameDate appends spaces to dst until the display width of the date
// at dst[start:] reaches width.
func padBlameDate(dst []byte, start, width int) []byte {
	for w := Utf8Width(dst[start:]); w < width; w++ {
		dst = append(dst, ' ')
	}
	return dst
}
