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
// default rule). Its error is git's death there: reading the driver's
// attribute, or the pattern (xdiff_set_find_func: a line that does not
// compile, a last line negated).
func (b *run) funcLine(path string) (blamecore.FuncLine, error) {
	d, err := b.diffDriverOf(path)
	if err != nil {
		return nil, err
	}
	if !d.hasFuncname {
		return nil, nil
	}
	pattern, flags := d.funcname, d.funcFlags
	type funcReg struct {
		re     *posixre.Regexp
		negate bool
	}
	var regs []funcReg
	exprs := strings.Split(pattern, "\n")
	for i, expr := range exprs {
		negate := strings.HasPrefix(expr, "!")
		if negate && i == len(exprs)-1 {
			return nil, fatalf("Last expression must not be negated: %s", expr)
		}
		if negate {
			expr = expr[1:]
		}
		re, err := posixre.Compile(expr, flags, b.repo.Env().CtypeLocale())
		if err != nil {
			return nil, fatalf("Invalid regexp to look for hunk header: %s", expr)
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
	}, nil
}
