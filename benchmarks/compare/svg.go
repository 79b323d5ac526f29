package main

import (
	"cmp"
	"fmt"
	"html"
	"math"
	"path/filepath"
	"slices"
	"strings"
)

// Chart geometry, in pixels.
const (
	svgWidth    = 1120
	svgMargin   = 16
	svgRowH     = 38
	svgBarH     = 14
	svgTitleH   = 64
	svgLegendH  = 30
	svgAxisH    = 44
	svgCharW    = 6.6 // monospace 11px
	svgMaxLabel = 74  // characters of the arguments line
)

// Colours: goblame/git bars by where they fall against the goals.
const (
	colGoal   = "#2e7d32" // at or below the larger goal
	colFaster = "#1565c0" // faster than git, not at the goal yet
	colSlower = "#c62828" // slower than git
	colBest   = "#8e8e8e" // goblame/best git
	colText   = "#222222"
	colMuted  = "#666666"
)

func xmlText(s string) string { return html.EscapeString(s) }

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func niceStep(span float64) float64 {
	for _, s := range []float64{0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10} {
		if span/s <= 12 {
			return s
		}
	}
	return 20
}

// argsLabel is the blame arguments and the stdin file.
func argsLabel(r result) string {
	s := r.Args
	if r.Stdin != "" {
		s += " < " + filepath.Base(r.Stdin)
	}
	if len(r.Config) > 0 {
		s += " [" + strings.Join(r.Config, " ") + "]"
	}
	return s
}

// svgChart draws one horizontal bar per workload: goblame's median wall
// time divided by git's (and by the best git's, thinner, when measured),
// with lines at 1.0 (level with git) and at each goal.
func svgChart(m meta, results []result) string {
	best := m.BestGit != ""
	maxRatio := 1.0
	for _, r := range results {
		maxRatio = math.Max(maxRatio, ratio(r, 1, 0))
		if best {
			maxRatio = math.Max(maxRatio, ratio(r, 1, 2))
		}
	}
	step := niceStep(maxRatio * 1.1)
	xmax := math.Ceil(maxRatio*1.08/step) * step
	if xmax < maxRatio*1.08 {
		xmax += step
	}

	labelW := 0
	for _, r := range results {
		labelW = max(labelW, len([]rune(argsLabel(r))))
	}
	left := svgMargin + int(float64(max(62, min(labelW, svgMaxLabel)))*svgCharW) + 14
	plotW := svgWidth - left - svgMargin - 44
	x := func(v float64) float64 { return float64(left) + v/xmax*float64(plotW) }

	top := svgTitleH + svgLegendH + 30 // room for two lanes of line labels
	height := top + len(results)*svgRowH + svgAxisH + svgMargin
	largestGoal := 0.0
	for _, g := range m.Goals {
		largestGoal = math.Max(largestGoal, g)
	}

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">`+"\n", svgWidth, height, svgWidth, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#ffffff"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="26" font-size="18" font-weight="bold" fill="%s">goblame ÷ git blame, median wall time — %s</text>`+"\n", svgMargin, colText, xmlText(m.Name))
	sub := fmt.Sprintf("%s · %s, %d CPUs, load %s · %s · goblame %s · %d runs, %d warm-up",
		m.Date, m.CPU, m.CPUs, m.LoadStart, m.GitVersion, m.Goblame, m.Runs, m.Warmup)
	fmt.Fprintf(&b, `<text x="%d" y="46" font-size="11.5" fill="%s">%s</text>`+"\n", svgMargin, colMuted, xmlText(truncate(sub, 172)))

	// Legend.
	ly := svgTitleH + 8
	lx := float64(svgMargin)
	legend := func(col, label string) {
		fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="14" height="10" fill="%s"/>`, lx, ly, col)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="11.5" fill="%s">%s</text>`+"\n", lx+19, ly+9, colText, xmlText(label))
		lx += 26 + float64(len([]rune(label)))*6.4
	}
	legend(colGoal, fmt.Sprintf("goblame/git ≤ %.2f (goal)", largestGoal))
	legend(colFaster, "goblame/git < 1 (faster than git)")
	legend(colSlower, "goblame/git > 1 (slower)")
	if best {
		legend(colBest, "goblame/best git")
	}

	// Grid and ticks.
	plotTop, plotBottom := top-4, top+len(results)*svgRowH
	for v := 0.0; v <= xmax+1e-9; v += step {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e6e6e6"/>`, x(v), plotTop, x(v), plotBottom)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="11" text-anchor="middle" fill="%s">%s</text>`+"\n", x(v), plotBottom+16, colMuted, strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), "."))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="12" text-anchor="middle" fill="%s">goblame time ÷ git time (1.0 = as fast as git; 0.5 = twice as fast)</text>`+"\n", x(xmax/2), plotBottom+36, colText)

	// Rows.
	for i, r := range results {
		y0 := top + i*svgRowH
		if i%2 == 1 {
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#f6f7f9"/>`+"\n", svgMargin/2, y0, svgWidth-svgMargin, svgRowH)
		}
		title := r.Name + " · " + filepath.Base(r.Dir)
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="12" font-weight="bold" fill="%s">%s</text>`, svgMargin, y0+15, colText, xmlText(truncate(title, 34)))
		if r.Status == statusOK {
			times := fmt.Sprintf("git %s · goblame %s", fmtSeconds(r.Sides[0].Time.Median), fmtSeconds(r.Sides[1].Time.Median))
			if best {
				times = fmt.Sprintf("git %s · best %s · goblame %s", fmtSeconds(r.Sides[0].Time.Median), fmtSeconds(r.Sides[2].Time.Median), fmtSeconds(r.Sides[1].Time.Median))
			}
			fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" text-anchor="end" fill="%s">%s</text>`, left-12, y0+15, colMuted, xmlText(times))
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" font-family="DejaVu Sans Mono, Menlo, monospace" fill="%s">%s</text>`+"\n", svgMargin, y0+30, colMuted, xmlText(truncate(argsLabel(r), svgMaxLabel)))
		if r.Status != statusOK {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="12" font-weight="bold" fill="%s">%s — not timed</text>`+"\n", x(0)+6, y0+23, colSlower, xmlText(r.Status))
			continue
		}
		v := ratio(r, 1, 0)
		col := colFaster
		switch {
		case v <= largestGoal+1e-9:
			col = colGoal
		case v > 1:
			col = colSlower
		}
		by := y0 + 5
		if !best {
			by = y0 + (svgRowH-svgBarH)/2
		}
		fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: goblame %s, git %s</title></rect>`,
			x(0), by, x(v)-x(0), svgBarH, col, xmlText(r.Name), fmtSeconds(r.Sides[1].Time.Median), fmtSeconds(r.Sides[0].Time.Median))
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="11.5" font-weight="bold" fill="%s">%.2f</text>`+"\n", x(v)+4, by+11, colText, v)
		if best {
			w := ratio(r, 1, 2)
			fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="9" fill="%s"/>`, x(0), by+svgBarH+2, x(w)-x(0), colBest)
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="10" fill="%s">%.2f</text>`+"\n", x(w)+4, by+svgBarH+10, colMuted, w)
		}
	}

	// Reference lines last, over the bars: 1.0 solid, goals dashed. Their
	// labels sit above the plot, the leftmost to the left of its line and
	// the others to the right, in the lowest lane where a label neither
	// overlaps another nor covers a line that rises past it.
	type ref struct {
		v           float64
		label, dash string
		col         string
		x0, x1      float64 // the label's extent
		lane        int
	}
	refs := []ref{{v: 1, label: "git = 1.0", col: colText}}
	for _, g := range m.Goals {
		refs = append(refs, ref{v: g, label: fmt.Sprintf("goal %.2f (%.1f× faster)", g, 1/g), dash: `stroke-dasharray="6 4"`, col: colGoal})
	}
	refs = slices.DeleteFunc(refs, func(r ref) bool { return r.v > xmax })
	slices.SortFunc(refs, func(a, b ref) int { return cmp.Compare(a.v, b.v) })
	const laneH = 13
	var placed []ref
	for i, rf := range refs {
		w := float64(len([]rune(rf.label)))*6.7 + 4
		if i == 0 && len(refs) > 1 {
			rf.x0, rf.x1 = x(rf.v)-w, x(rf.v)-4
		} else {
			rf.x0, rf.x1 = x(rf.v)+4, x(rf.v)+w
		}
		for rf.lane = 0; ; rf.lane++ {
			ok := true
			for _, p := range placed {
				if p.lane == rf.lane && rf.x0 < p.x1 && p.x0 < rf.x1 ||
					p.lane < rf.lane && p.x0 <= x(rf.v) && x(rf.v) <= p.x1 ||
					p.lane > rf.lane && rf.x0 <= x(p.v) && x(p.v) <= rf.x1 {
					ok = false
					break
				}
			}
			if ok {
				break
			}
		}
		placed = append(placed, rf)
	}
	for _, rf := range placed {
		ty := plotTop - 3 - rf.lane*laneH
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="1.6" %s/>`, x(rf.v), ty-10, x(rf.v), plotBottom, rf.col, rf.dash)
		anchor, tx := "start", rf.x0
		if rf.x1 < x(rf.v) {
			anchor, tx = "end", rf.x1
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="11" text-anchor="%s" fill="%s" font-weight="bold">%s</text>`+"\n", tx, ty, anchor, rf.col, xmlText(rf.label))
	}
	b.WriteString("</svg>\n")
	return b.String()
}
