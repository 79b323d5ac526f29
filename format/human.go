package format

import (
	"strconv"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/gitdate"
)

// alignment holds the column widths git's find_alignment computes over
// the blamed entries.
type alignment struct {
	longestFile   int
	longestAuthor int
	origDigits    int
	digits        int
	scoreDigits   int
	abbrev        int
	showName      bool
}

func decimalWidth(n int) int {
	w := 1
	for n >= 10 {
		n /= 10
		w++
	}
	return w
}

func (p *printer) align() (alignment, error) {
	var a alignment
	a.showName = p.opts.ShowName
	longestSrc, longestDst, largestScore := 0, 0, 0
	compute := p.opts.Abbrev < 0
	autoAbbrev := p.opts.DefaultAbbrev
	seen := make(map[*blamecore.Commit]bool)
	uniq := make(map[*blamecore.Commit]int)
	for i := range p.res.Entries {
		e := &p.res.Entries[i]
		if compute {
			if p.opts.OnFindAbbrev != nil {
				p.opts.OnFindAbbrev(i == 0)
			}
			// git asks find_unique_abbrev for every entry; the answer for
			// a commit is max(len, its unique length), so one question
			// per commit is enough.
			n, ok := uniq[e.Commit]
			if !ok {
				n = p.opts.UniqueAbbrevLen(e.Commit.ID, autoAbbrev)
				uniq[e.Commit] = n
			}
			if autoAbbrev < n {
				autoAbbrev = n
			}
		}
		if e.Path != p.res.Path {
			a.showName = true
		}
		if len(e.Path) > a.longestFile {
			a.longestFile = len(e.Path)
		}
		if !seen[e.Commit] {
			seen[e.Commit] = true
			info, err := e.Commit.Info()
			if err != nil {
				return a, err
			}
			name := info.Author
			if p.opts.ShowEmail {
				name = info.AuthorMail
			}
			if w := Utf8Width(name); w > a.longestAuthor {
				a.longestAuthor = w
			}
		}
		longestSrc = max(longestSrc, e.SLno+e.NumLines)
		longestDst = max(longestDst, e.Lno+e.NumLines)
		score, _ := blamecore.ScoreDebug(e)
		largestScore = max(largestScore, score)
	}
	a.origDigits = decimalWidth(longestSrc)
	a.digits = decimalWidth(longestDst)
	a.scoreDigits = decimalWidth(largestScore)
	if compute {
		a.abbrev = autoAbbrev + 1
	} else {
		a.abbrev = p.opts.Abbrev
	}
	return a, nil
}

// appendPadLeft appends s right-aligned in width bytes (C's %*s).
func appendPadLeft(b []byte, s []byte, width int) []byte {
	for i := len(s); i < width; i++ {
		b = append(b, ' ')
	}
	return append(b, s...)
}

func appendIntPad(b []byte, n, width int) []byte {
	var tmp [20]byte
	s := strconv.AppendInt(tmp[:0], int64(n), 10)
	return appendPadLeft(b, s, width)
}

// formatTime is git's format_time: raw "<epoch> <tz>" with -t, else the
// date in the chosen mode padded with spaces to the mode's width.
func (p *printer) formatTime(dst []byte, info *blamecore.CommitInfo, dateWidth int) ([]byte, error) {
	if p.opts.RawTime {
		dst = strconv.AppendUint(dst, info.AuthorTime, 10)
		dst = append(dst, ' ')
		return append(dst, info.AuthorTZ...), nil
	}
	return AppendBlameDate(dst, p.opts.DateMode, dateWidth, info.AuthorTime, gitdate.AtoiTZ(info.AuthorTZ), p.opts.Now, p.opts.Local)
}

func (p *printer) human() error {
	a, err := p.align()
	if err != nil {
		return err
	}
	dateWidth := BlameDateWidth(p.opts.DateMode, p.opts.Now, p.opts.Local)
	colorLines, colorAge := p.opts.ColorLines, p.opts.ColorByAge
	if p.opts.Annotate {
		colorLines, colorAge = false, false
	}
	repeated := p.opts.RepeatedColor
	if repeated == "" {
		repeated = colorCyan
	}
	hexSize := 0
	var hexBuf []byte
	var timeBuf []byte
	// git formats the date only where it shows it, after the start of
	// the line: a date it cannot format dies with that start written.
	needTime := p.opts.Annotate || !p.opts.NoAuthor
	for i := range p.res.Entries {
		e := &p.res.Entries[i]
		info, err := e.Commit.Info()
		if err != nil {
			return err
		}
		hexBuf = e.Commit.ID.AppendHex(hexBuf[:0])
		hexSize = len(hexBuf)
		var timeErr error
		if needTime {
			timeBuf, timeErr = p.formatTime(timeBuf[:0], info, dateWidth)
		}
		var defaultColor, color, reset string
		if colorAge {
			defaultColor = p.opts.Heat.ColorFor(info.AuthorTime)
			color = defaultColor
			reset = colorReset
		}
		name := info.Author
		if p.opts.ShowEmail {
			name = info.AuthorMail
		}
		for k := 0; k < e.NumLines; k++ {
			length := a.abbrev
			if p.opts.LongHash {
				length = hexSize
			}
			if colorLines {
				if k > 0 {
					color, reset = repeated, colorReset
				} else if defaultColor != "" {
					color, reset = defaultColor, colorReset
				} else {
					color, reset = "", ""
				}
			}
			b := p.buf[:0]
			b = append(b, color...)
			hex := hexBuf
			if e.Commit.Boundary {
				if p.opts.BlankBoundary {
					hex = blankHex(length)
				} else if !p.opts.Annotate {
					length--
					b = append(b, '^')
				}
			}
			if p.opts.MarkUnblamable && e.Unblamable {
				length--
				b = append(b, '*')
			}
			if p.opts.MarkIgnored && e.Ignored {
				length--
				b = append(b, '?')
			}
			// printf("%.*s", length, hex): at most length characters.
			if length < 0 {
				length = 0
			}
			b = append(b, hex[:min(length, len(hex))]...)
			if p.opts.Annotate {
				if timeErr != nil {
					p.w.Write(b)
					return timeErr
				}
				b = append(b, "\t("...)
				b = appendPadLeft(b, name, 10)
				b = append(b, '\t')
				b = appendPadLeft(b, timeBuf, 10)
				b = append(b, '\t')
				b = strconv.AppendInt(b, int64(e.Lno+1+k), 10)
				b = append(b, ')')
			} else {
				if p.opts.ShowScore {
					b = append(b, ' ')
					score, refCount := blamecore.ScoreDebug(e)
					b = appendIntPad(b, score, a.scoreDigits)
					b = append(b, ' ')
					rc := strconv.Itoa(refCount)
					if len(rc) < 2 {
						b = append(b, '0')
					}
					b = append(b, rc...)
				}
				if a.showName {
					b = append(b, ' ')
					path := e.Path
					if len(path) > a.longestFile {
						path = path[:a.longestFile]
					}
					b = append(b, path...)
					for j := len(path); j < a.longestFile; j++ {
						b = append(b, ' ')
					}
				}
				if p.opts.ShowNumber {
					b = append(b, ' ')
					b = appendIntPad(b, e.SLno+1+k, a.origDigits)
				}
				if !p.opts.NoAuthor {
					if timeErr != nil {
						p.w.Write(b)
						return timeErr
					}
					b = append(b, " ("...)
					b = append(b, name...)
					for j := Utf8Width(name); j < a.longestAuthor; j++ {
						b = append(b, ' ')
					}
					b = append(b, ' ')
					b = appendPadLeft(b, timeBuf, 10)
				}
				b = append(b, ' ')
				b = appendIntPad(b, e.Lno+1+k, a.digits)
				b = append(b, ") "...)
			}
			b = append(b, reset...)
			p.buf = b
			p.w.Write(b)
			p.w.Write(p.res.Line(e.Lno + k))
		}
		p.finishEntry(e)
	}
	return nil
}

// blankHex is what -b prints instead of a boundary commit's name: git
// overwrites the first length characters of the hex name with spaces.
func blankHex(length int) []byte {
	b := make([]byte, max(length, 0))
	for i := range b {
		b[i] = ' '
	}
	return b
}
