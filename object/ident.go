package object

import "bytes"

// Ident is an author or committer line split the way git's
// split_ident_line splits it. Slices alias the input.
type Ident struct {
	Name, Mail []byte
	// Date is the decimal timestamp text, TZ the "+hhmm"/"-hhmm" text;
	// both nil when git would find no date ("person only").
	Date, TZ []byte
}

// ParseIdent splits "Name <mail> 1234567890 +0000". ok is false when there
// is no "<...>" pair, which git reports as "(unknown)".
func ParseIdent(line []byte) (id Ident, ok bool) {
	lt := bytes.IndexByte(line, '<')
	if lt < 0 {
		return Ident{}, false
	}
	// Name: before '<', trailing git-whitespace removed.
	nameEnd := lt
	for nameEnd > 0 && isGitSpace(line[nameEnd-1]) {
		nameEnd--
	}
	id.Name = line[:nameEnd]
	gt := bytes.IndexByte(line[lt+1:], '>')
	if gt < 0 {
		return Ident{}, false
	}
	id.Mail = line[lt+1 : lt+1+gt]
	// The date follows the last '>' on the line.
	last := bytes.LastIndexByte(line, '>')
	p := last + 1
	for p < len(line) && isGitSpace(line[p]) {
		p++
	}
	ds := p
	for p < len(line) && '0' <= line[p] && line[p] <= '9' {
		p++
	}
	if p == ds {
		return id, true
	}
	date := line[ds:p]
	for p < len(line) && isGitSpace(line[p]) {
		p++
	}
	if p >= len(line) || (line[p] != '+' && line[p] != '-') {
		return id, true
	}
	ts := p
	p++
	for p < len(line) && '0' <= line[p] && line[p] <= '9' {
		p++
	}
	if p == ts+1 {
		return id, true
	}
	id.Date = date
	id.TZ = line[ts:p]
	return id, true
}

// ParseTimestamp converts the Date text of an Ident as C's strtoul would
// (saturating on overflow).
func ParseTimestamp(date []byte) uint64 {
	v, _ := parseDecimal(date)
	return v
}

// parseDecimal reads the leading decimal digits of b, saturating at
// 2^64-1, and reports whether their value exceeded it.
func parseDecimal(b []byte) (v uint64, overflow bool) {
	for _, c := range b {
		if c < '0' || c > '9' {
			break
		}
		d := uint64(c - '0')
		if v > (^uint64(0)-d)/10 {
			return ^uint64(0), true
		}
		v = v*10 + d
	}
	return v, false
}
