package blame

import (
	"strings"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/posixre"
)

// funcLine returns the -L :<funcname> test for path (git's userdiff
// driver lookup): the diff attribute names a driver whose funcname
// pattern comes from diff.<driver>.xfuncname or .funcname (the last one
// configured) or from the builtin table; without a pattern, nil (git's
// default rule).
func (b *run) funcLine(path string) blamecore.FuncLine {
	pattern, flags, ok := b.funcnamePattern(path)
	if err := b.repo.AttributesErr(); err != nil {
		b.fatalLater = err // git dies reading the driver's attribute
		return nil
	}
	if !ok {
		return nil
	}
	type funcReg struct {
		re     *posixre.Regexp
		negate bool
	}
	var regs []funcReg
	for _, expr := range strings.Split(pattern, "\n") {
		negate := strings.HasPrefix(expr, "!")
		if negate {
			expr = expr[1:]
		}
		re, err := posixre.Compile(expr, flags, b.repo.Env().CtypeLocale())
		if err != nil {
			b.fatalLater = fatalf("Invalid regexp to look for hunk header: %s", expr)
			return func([]byte) bool { return false }
		}
		regs = append(regs, funcReg{re: re, negate: negate})
	}
	return func(line []byte) bool {
		// The terminating newline (and a CR before it) is not matched.
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
		}
		for _, r := range regs {
			// regexec_buf: the whole line, NUL bytes included.
			if r.re.Match(line) {
				return !r.negate
			}
		}
		return false
	}
}

func (b *run) funcnamePattern(path string) (string, int, bool) {
	driver := b.repo.Attributes(path, "diff")["diff"]
	switch driver {
	case "", "set", "unset", "unspecified":
		return "", 0, false
	}
	pattern, flags, found := "", 0, false
	for _, e := range b.repo.Config.Entries() {
		switch e.Key {
		case "diff." + driver + ".funcname":
			pattern, flags, found = e.Value, 0, true
		case "diff." + driver + ".xfuncname":
			pattern, flags, found = e.Value, posixre.Extended, true
		}
	}
	if found {
		return pattern, flags, true
	}
	for _, d := range builtinFuncnames {
		if d.name == driver {
			flags := posixre.Extended
			if d.icase {
				flags |= posixre.ICase
			}
			return d.pattern, flags, true
		}
	}
	return "", 0, false
}
