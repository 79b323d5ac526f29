package format

import (
	"bufio"
	"io"
	"strconv"
	"time"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/gitdate"
	"github.com/goblame/goblame/oid"
)

// Options select the output format and its columns, mirroring git
// blame's OUTPUT_* flags and settings.
type Options struct {
	Porcelain     bool // -p, --porcelain
	LinePorcelain bool // --line-porcelain (implies Porcelain)
	Annotate      bool // -c, git annotate
	LongHash      bool // -l
	RawTime       bool // -t
	ShowName      bool // -f (also switched on when a line comes from another path)
	ShowNumber    bool // -n
	ShowScore     bool // --score-debug
	NoAuthor      bool // -s
	ShowEmail     bool // -e, blame.showEmail
	BlankBoundary bool // -b, blame.blankBoundary
	ShowStats     bool // --show-stats

	ColorLines      bool   // --color-lines / blame.coloring=repeatedLines
	ColorByAge      bool   // --color-by-age / blame.coloring=highlightRecent
	RepeatedColor   string // color.blame.repeatedLines (default cyan)
	Heat            HeatColors
	MarkUnblamable  bool // blame.markUnblamableLines
	MarkIgnored     bool // blame.markIgnoredLines
	QuotePath       bool // core.quotePath (default true)
	Abbrev          int  // git's abbrev after option processing: -1 auto, else the column width
	DefaultAbbrev   int  // core.abbrev (-1 = auto), the start of the auto computation
	DateMode        gitdate.DateMode
	Now             time.Time
	Local           *time.Location
	UniqueAbbrevLen func(id oid.ID, minLen int) int // odb's find_unique_abbrev
	// OnFindAbbrev, when set, runs where git's find_alignment asks
	// find_unique_abbrev for an entry's commit (the automatic width):
	// once per entry, first the first time.
	OnFindAbbrev func(first bool)
}

const colorReset = "\x1b[m"
const colorCyan = "\x1b[36m"

// Write renders a finished (non-incremental) result.
func Write(w io.Writer, res *blamecore.Result, opts Options) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	p := &printer{w: bw, res: res, opts: opts, shown: make(map[*blamecore.Commit]bool)}
	var err error
	if opts.Porcelain || opts.LinePorcelain {
		err = p.porcelain()
	} else {
		err = p.human()
	}
	if err != nil {
		bw.Flush()
		return err
	}
	if opts.ShowStats {
		bw.WriteString("num read blob: " + strconv.Itoa(res.Stats.ReadBlobs) + "\n")
		bw.WriteString("num get patch: " + strconv.Itoa(res.Stats.Diffs) + "\n")
		bw.WriteString("num commits: " + strconv.Itoa(res.Stats.Commits) + "\n")
	}
	return bw.Flush()
}

type printer struct {
	w     *bufio.Writer
	res   *blamecore.Result
	opts  Options
	shown map[*blamecore.Commit]bool // METAINFO_SHOWN
	buf   []byte
}

// writeDetails prints the commit block of porcelain and incremental
// output once per commit (every time with repeat), as git's
// emit_one_suspect_detail. It reports whether it printed.
func (p *printer) writeDetails(c *blamecore.Commit, repeat bool) (bool, error) {
	if !repeat && p.shown[c] {
		return false, nil
	}
	p.shown[c] = true
	info, err := c.Info()
	if err != nil {
		return false, err
	}
	b := p.buf[:0]
	b = append(b, "author "...)
	b = append(b, info.Author...)
	b = append(b, "\nauthor-mail "...)
	b = append(b, info.AuthorMail...)
	b = append(b, "\nauthor-time "...)
	b = strconv.AppendUint(b, info.AuthorTime, 10)
	b = append(b, "\nauthor-tz "...)
	b = append(b, info.AuthorTZ...)
	b = append(b, "\ncommitter "...)
	b = append(b, info.Committer...)
	b = append(b, "\ncommitter-mail "...)
	b = append(b, info.CommitterMail...)
	b = append(b, "\ncommitter-time "...)
	b = strconv.AppendUint(b, info.CommitterTime, 10)
	b = append(b, "\ncommitter-tz "...)
	b = append(b, info.CommitterTZ...)
	b = append(b, "\nsummary "...)
	b = append(b, info.Summary...)
	b = append(b, '\n')
	if c.Boundary {
		b = append(b, "boundary\n"...)
	}
	p.buf = b
	_, err = p.w.Write(b)
	return true, err
}

// writeFilename prints "previous" (when known) and "filename".
func (p *printer) writeFilename(e *blamecore.Entry) {
	b := p.buf[:0]
	if e.Previous != nil {
		b = append(b, "previous "...)
		b = e.Previous.Commit.AppendHex(b)
		b = append(b, ' ')
		b = QuotePath(b, []byte(e.Previous.Path), p.opts.QuotePath)
		b = append(b, '\n')
	}
	b = append(b, "filename "...)
	b = QuotePath(b, []byte(e.Path), p.opts.QuotePath)
	b = append(b, '\n')
	p.buf = b
	p.w.Write(b)
}

func (p *printer) porcelainDetails(e *blamecore.Entry, repeat bool) error {
	printed, err := p.writeDetails(e.Commit, repeat)
	if err != nil {
		return err
	}
	if printed || e.Commit.MultiplePaths {
		p.writeFilename(e)
	}
	return nil
}

func (p *printer) porcelain() error {
	repeat := p.opts.LinePorcelain
	res := p.res
	for i := range res.Entries {
		e := &res.Entries[i]
		var hex []byte
		hex = e.Commit.ID.AppendHex(hex)
		b := p.buf[:0]
		b = append(b, hex...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(e.SLno+1), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(e.Lno+1), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(e.NumLines), 10)
		b = append(b, '\n')
		p.buf = b
		p.w.Write(b)
		if err := p.porcelainDetails(e, repeat); err != nil {
			return err
		}
		for k := 0; k < e.NumLines; k++ {
			if k > 0 {
				b := p.buf[:0]
				b = append(b, hex...)
				b = append(b, ' ')
				b = strconv.AppendInt(b, int64(e.SLno+1+k), 10)
				b = append(b, ' ')
				b = strconv.AppendInt(b, int64(e.Lno+1+k), 10)
				b = append(b, '\n')
				p.buf = b
				p.w.Write(b)
				if repeat {
					if err := p.porcelainDetails(e, true); err != nil {
						return err
					}
				}
			}
			p.w.WriteByte('\t')
			p.w.Write(res.Line(e.Lno + k))
		}
		p.finishEntry(e)
	}
	return nil
}

// finishEntry adds the newline git prints after an entry whose last line
// lacks one (the end of a file without a final newline).
func (p *printer) finishEntry(e *blamecore.Entry) {
	end := p.res.LineStarts[e.Lno+e.NumLines]
	if len(p.res.Final) > 0 && p.res.Final[end-1] != '\n' {
		p.w.WriteByte('\n')
	}
}

// Incremental prints entries as blame finds them (--incremental).
type Incremental struct {
	p   *printer
	err error
}

// NewIncremental returns a printer for --incremental output on w.
func NewIncremental(w io.Writer, opts Options) *Incremental {
	return &Incremental{p: &printer{w: bufio.NewWriterSize(w, 16<<10), opts: opts, shown: make(map[*blamecore.Commit]bool)}}
}

// Entry prints one guilty entry and flushes, as git does after each.
func (inc *Incremental) Entry(e blamecore.Entry) {
	if inc.err != nil {
		return
	}
	p := inc.p
	b := p.buf[:0]
	b = e.Commit.ID.AppendHex(b)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(e.SLno+1), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(e.Lno+1), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(e.NumLines), 10)
	b = append(b, '\n')
	p.buf = b
	p.w.Write(b)
	if _, err := p.writeDetails(e.Commit, false); err != nil {
		inc.err = err
		return
	}
	p.writeFilename(&e)
	inc.err = p.w.Flush()
}

// Err returns the first error met while printing.
func (inc *Incremental) Err() error {
	if inc.err != nil {
		return inc.err
	}
	return inc.p.w.Flush()
}
