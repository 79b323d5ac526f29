package cli

import (
	"bufio"
	"fmt"
	"strconv"
	"time"

	"github.com/goblame/goblame/blame"
)

// progressMeter prints git's delayed progress ("Blaming lines: 42%
// (21/50)"), starting after GIT_PROGRESS_DELAY seconds (2 by default)
// and ending with ", done.".
type progressMeter struct {
	w       *bufio.Writer
	title   string
	total   int
	done    int
	start   time.Time
	delay   time.Duration
	shown   bool
	lastPct int
}

func newProgress(w *bufio.Writer, title string, total int, env Environ) *progressMeter {
	delay := 2 * time.Second
	if v := env.Getenv("GIT_PROGRESS_DELAY"); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			delay = time.Duration(n) * time.Second
		}
	}
	return &progressMeter{w: w, title: title, total: total, start: env.Now(), delay: delay, lastPct: -1}
}

func (p *progressMeter) entry(e blame.Entry) {
	p.done += e.NumLines
	if !p.shown && time.Since(p.start) < p.delay {
		return
	}
	p.shown = true
	p.display("\r")
}

func (p *progressMeter) display(eol string) {
	pct := 100
	if p.total > 0 {
		pct = p.done * 100 / p.total
	}
	if pct == p.lastPct && eol == "\r" {
		return
	}
	p.lastPct = pct
	fmt.Fprintf(p.w, "%s: %3d%% (%d/%d)%s", p.title, pct, p.done, p.total, eol)
	p.w.Flush()
}

func (p *progressMeter) stop() {
	if !p.shown && time.Since(p.start) < p.delay {
		return
	}
	p.lastPct = -1
	p.display(", done.\n")
}
