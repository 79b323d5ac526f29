package main

import (
	"strings"
)

// Layout of the plain-text rendering, close to what man prints on an
// 80-column terminal: headings in the margin, text indented 7 columns,
// item descriptions 4 more, lines filled to textWidth columns.
const (
	textIndent  = 7
	itemIndent  = 4
	textWidth   = 79
	bulletWidth = 4
)

// text renders the manual as plain text (goblame --help without man).
func text(m *manual) string {
	var b strings.Builder
	head := strings.ToUpper(m.name) + "(" + m.section + ")"
	gap := max(2, textWidth-2*len(head)-len(m.title))
	b.WriteString(head + strings.Repeat(" ", gap/2) + m.title + strings.Repeat(" ", gap-gap/2) + head + "\n")
	for _, s := range m.sections {
		b.WriteString("\n" + s.title + "\n")
		textBlocks(&b, s.blocks, textIndent, true)
	}
	b.WriteString("\n" + m.name + " " + m.version + "\n")
	return b.String()
}

func textBlocks(b *strings.Builder, blocks []block, indent int, first bool) {
	for _, bl := range blocks {
		if !first {
			b.WriteByte('\n')
		}
		first = false
		switch bl := bl.(type) {
		case para:
			fill(b, plain(string(bl)), indent, indent)
		case item:
			fill(b, plain(bl.tag), indent, indent)
			textBlocks(b, bl.body, indent+itemIndent, true)
		case example:
			for _, l := range bl {
				if l == "" {
					b.WriteByte('\n')
					continue
				}
				b.WriteString(strings.Repeat(" ", indent+itemIndent) + l + "\n")
			}
		case bullets:
			for i, t := range bl {
				if i > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(strings.Repeat(" ", indent) + "*" + strings.Repeat(" ", bulletWidth-1))
				var line strings.Builder
				fill(&line, plain(t), indent+bulletWidth, indent+bulletWidth)
				b.WriteString(strings.TrimLeft(line.String(), " "))
			}
		}
	}
}

// plain drops the backquotes of literal text.
func plain(s string) string { return strings.ReplaceAll(s, "`", "") }

// fill writes s as lines of words filled to textWidth columns, the first
// indented first columns and the rest indent. A word longer than a line
// has a line of its own.
func fill(b *strings.Builder, s string, first, indent int) {
	col := 0
	for _, w := range strings.Fields(s) {
		n := len([]rune(w))
		switch {
		case col == 0:
			b.WriteString(strings.Repeat(" ", first) + w)
			col = first + n
		case col+1+n > textWidth:
			b.WriteString("\n" + strings.Repeat(" ", indent) + w)
			col = indent + n
		default:
			b.WriteString(" " + w)
			col += 1 + n
		}
	}
	if col > 0 {
		b.WriteByte('\n')
	}
}
