package cli

// The diff option table (diff.c, prep_parse_options, v2.39.5), as the
// last parser a blame argument can reach. Blame honours four of these
// options (--find-copies-harder and a second --find-copies, --no-follow,
// --textconv/--no-textconv, --indent-heuristic/--no-indent-heuristic);
// the others are accepted and ignored, but their values are checked
// exactly as git checks them, because git fails on a bad one.

import (
	"errors"
	"fmt"
	"github.com/goblame/goblame/repo"
	"strconv"
	"strings"
)

// diffOption runs git's diff_opt_parse on argv: one option (and its
// detached value) from the diff table, without abbreviations. It returns
// the number of arguments consumed, 0 when the table does not know
// argv[0].
func (r *revParser) diffOption(argv []string) (int, error) {
	p := &poParser{
		args:            argv,
		total:           len(argv),
		keepDashdash:    true,
		keepUnknown:     true,
		oneShot:         true,
		stopAtNonOption: true,
	}
	if r.diffTable == nil {
		r.diffTable = r.diffOptionTable()
	}
	res := p.step(r.diffTable)
	// Errors and completion output go to the same streams as blame's.
	r.blame.stdout.WriteString(p.stdout.String())
	r.blame.stderr.WriteString(p.stderr.String())
	switch res {
	case poHelp, poError:
		if p.fatal != nil {
			return 0, p.fatal
		}
		return 0, errReported
	case poComplete:
		return 0, errCompletion
	}
	return p.pos - p.start, nil
}

// errCompletion means the completion list was printed: exit status 0.
var errCompletion = errors.New("cli: completion list printed")

// diffOptionTable builds the diff table with callbacks that record into
// r.args.
func (r *revParser) diffOptionTable() []poOption {
	a := r.args
	rev := &a.Rev

	bits := func(set uint) func(*poParser, *string, bool) error {
		return func(_ *poParser, _ *string, unset bool) error {
			if unset {
				rev.diffOutput &^= set
			} else {
				rev.diffOutput |= set
			}
			return nil
		}
	}
	bitop := func(set, clear uint) func(*poParser, *string, bool) error {
		return func(*poParser, *string, bool) error {
			rev.diffOutput = rev.diffOutput&^clear | set
			return nil
		}
	}
	pickaxe := func(set uint) func(*poParser, *string, bool) error {
		return func(_ *poParser, _ *string, unset bool) error {
			if unset {
				rev.pickaxe &^= set
			} else {
				rev.pickaxe |= set
			}
			return nil
		}
	}
	noop := func(*poParser, *string, bool) error { return nil }
	// negationBug is BUG_ON_OPT_NEG in a callback whose option can be
	// negated: git aborts.
	negationBug := func(line int) error {
		return &UsageError{
			Message:  "option callback does not expect negation",
			Stderr:   "BUG: diff.c:" + strconv.Itoa(line) + ": option callback does not expect negation\n",
			ExitCode: 134,
		}
	}
	enablePatch := func() { rev.diffOutput = rev.diffOutput&^diffFormatNoOutput | diffFormatPatch }
	dirstat := func(name string) func(*poParser, *string, bool) error {
		return func(p *poParser, arg *string, _ bool) error {
			params := ""
			switch {
			case name == "cumulative":
				params = "cumulative"
			case arg != nil:
				params = *arg
			}
			if name == "dirstat-by-file" {
				if err := checkDirstat("files"); err != nil {
					return err
				}
			}
			if err := checkDirstat(params); err != nil {
				return err
			}
			rev.diffOutput |= diffFormatDirstat
			return nil
		}
	}
	stat := func(name string) func(*poParser, *string, bool) error {
		return func(p *poParser, arg *string, _ bool) error {
			if name == "stat" {
				if arg != nil && !validStatValue(*arg) {
					return p.errorf("invalid --stat value: %s", *arg)
				}
			} else if _, end := strtoul(*arg); end != len(*arg) {
				return p.errorf("%s expects a numerical value", name)
			}
			rev.diffOutput |= diffFormatDiffstat
			return nil
		}
	}
	indicator := func(name string) func(*poParser, *string, bool) error {
		return func(p *poParser, arg *string, _ bool) error {
			v := *arg
			// git tests arg[1]: for an empty value that is the first
			// byte of the next argument, or of the environment after
			// the last one (never empty in practice).
			tooLong := len(v) > 1
			if v == "" {
				next := p.pos + 1
				tooLong = next >= len(p.args) || p.args[next] != ""
				if r.ctx.Annotate && p.args[p.pos] != "" {
					// git annotate copies its arguments one by
					// one (strvec_push): after an attached empty
					// value ("--x=") comes the allocator's next
					// chunk's header, not zero. (After a detached
					// one, an argument of its own, the rest of its
					// small chunk, which depends on what the
					// allocator held before: taken as above.)
					tooLong = true
				}
			}
			if tooLong {
				return p.errorf("%s expects a character, got '%s'", name, v)
			}
			return nil
		}
	}
	renameScore := func(name string, copies bool) func(*poParser, *string, bool) error {
		return func(p *poParser, arg *string, _ bool) error {
			v := ""
			if arg != nil {
				v = *arg
			}
			if n := renameScoreLen(v); n != len(v) {
				return p.errorf("invalid argument to %s", name)
			}
			switch {
			case !copies:
				rev.detectRename = detectRename
			case rev.detectRename == detectCopy:
				a.FindCopiesHarder = true
			default:
				rev.detectRename = detectCopy
			}
			return nil
		}
	}

	return []poOption{
		{kind: poGroup, help: "Diff output format options"},
		{kind: poBitop, short: 'p', long: "patch", flags: poNoArg | poNoNeg, apply: bitop(diffFormatPatch, diffFormatNoOutput)},
		{kind: poBit, short: 's', long: "no-patch", flags: poNoArg | poNoNeg, apply: bits(diffFormatNoOutput)},
		{kind: poBitop, short: 'u', flags: poNoArg | poNoNeg, apply: bitop(diffFormatPatch, diffFormatNoOutput)},
		{kind: poCallback, short: 'U', long: "unified", argh: "<n>", flags: poNoNeg | poOptArg,
			apply: func(p *poParser, arg *string, _ bool) error {
				if arg != nil {
					if _, end := strtol(*arg); end != len(*arg) {
						return p.errorf("%s expects a numerical value", "--unified")
					}
				}
				enablePatch()
				return nil
			}},
		{kind: poSetInt, short: 'W', long: "function-context", flags: poNoArg, apply: noop},
		{kind: poBit, long: "raw", flags: poNoArg | poNoNeg, apply: bits(diffFormatRaw)},
		{kind: poBitop, long: "patch-with-raw", flags: poNoArg | poNoNeg, apply: bitop(diffFormatPatch|diffFormatRaw, diffFormatNoOutput)},
		{kind: poBitop, long: "patch-with-stat", flags: poNoArg | poNoNeg, apply: bitop(diffFormatPatch|diffFormatDiffstat, diffFormatNoOutput)},
		{kind: poBit, long: "numstat", flags: poNoArg | poNoNeg, apply: bits(diffFormatNumstat)},
		{kind: poBit, long: "shortstat", flags: poNoArg | poNoNeg, apply: bits(diffFormatShortstat)},
		{kind: poCallback, short: 'X', long: "dirstat", argh: "<param1,param2>...", flags: poNoNeg | poOptArg, apply: dirstat("dirstat")},
		{kind: poCallback, long: "cumulative", flags: poNoNeg | poNoArg, apply: dirstat("cumulative")},
		{kind: poCallback, long: "dirstat-by-file", argh: "<param1,param2>...", flags: poNoNeg | poOptArg, apply: dirstat("dirstat-by-file")},
		{kind: poBit, long: "check", flags: poNoArg | poNoNeg, apply: bits(diffFormatCheckdiff)},
		{kind: poBit, long: "summary", flags: poNoArg | poNoNeg, apply: bits(diffFormatSummary)},
		{kind: poBit, long: "name-only", flags: poNoArg | poNoNeg, apply: bits(diffFormatName)},
		{kind: poBit, long: "name-status", flags: poNoArg | poNoNeg, apply: bits(diffFormatNameStatus)},
		{kind: poCallback, long: "stat", argh: "<width>[,<name-width>[,<count>]]", flags: poNoNeg | poOptArg, apply: stat("stat")},
		{kind: poCallback, long: "stat-width", argh: "<width>", flags: poNoNeg, apply: stat("stat-width")},
		{kind: poCallback, long: "stat-name-width", argh: "<width>", flags: poNoNeg, apply: stat("stat-name-width")},
		{kind: poCallback, long: "stat-graph-width", argh: "<width>", flags: poNoNeg, apply: stat("stat-graph-width")},
		{kind: poCallback, long: "stat-count", argh: "<count>", flags: poNoNeg, apply: stat("stat-count")},
		{kind: poCallback, long: "compact-summary", flags: poNoArg,
			apply: func(_ *poParser, _ *string, unset bool) error {
				if !unset {
					rev.diffOutput |= diffFormatDiffstat
				}
				return nil
			}},
		{kind: poCallback, long: "binary", flags: poNoNeg | poNoArg,
			apply: func(*poParser, *string, bool) error { enablePatch(); return nil }},
		{kind: poSetInt, long: "full-index", flags: poNoArg, apply: noop},
		{kind: poCallback, long: "color", argh: "when", flags: poOptArg,
			apply: func(p *poParser, arg *string, unset bool) error {
				if arg == nil || unset {
					return nil
				}
				switch strings.ToLower(*arg) {
				case "never", "always", "auto":
					return nil
				}
				return p.errorf("option `%s' expects \"always\", \"auto\", or \"never\"", "color")
			}},
		{kind: poCallback, long: "ws-error-highlight", argh: "<kind>", flags: poNoNeg,
			apply: func(p *poParser, arg *string, _ bool) error {
				if bad := wsErrorHighlightError(*arg); bad >= 0 {
					return p.errorf("unknown value after ws-error-highlight=%s", (*arg)[:bad])
				}
				return nil
			}},
		{kind: poSetInt, short: 'z', flags: poNoArg, apply: noop},
		{kind: poCallback, long: "abbrev", argh: "n", flags: poOptArg,
			apply: func(p *poParser, arg *string, unset bool) error {
				if arg != nil && !unset {
					if _, ok := parseAbbrevValue(*arg, 40); !ok {
						return p.errorf("option `%s' expects a numerical value", "abbrev")
					}
				}
				return nil
			}},
		{kind: poString, long: "src-prefix", argh: "<prefix>", flags: poNoNeg, apply: noop},
		{kind: poString, long: "dst-prefix", argh: "<prefix>", flags: poNoNeg, apply: noop},
		{kind: poCallback, long: "line-prefix", argh: "<prefix>", flags: poNoNeg, apply: noop},
		{kind: poCallback, long: "no-prefix", flags: poNoNeg | poNoArg, apply: noop},
		{kind: poInteger, long: "inter-hunk-context", argh: "n", flags: poNoNeg, apply: noop},
		{kind: poCallback, long: "output-indicator-new", argh: "<char>", flags: poNoNeg, apply: indicator("output-indicator-new")},
		{kind: poCallback, long: "output-indicator-old", argh: "<char>", flags: poNoNeg, apply: indicator("output-indicator-old")},
		{kind: poCallback, long: "output-indicator-context", argh: "<char>", flags: poNoNeg, apply: indicator("output-indicator-context")},

		{kind: poGroup, help: "Diff rename options"},
		{kind: poCallback, short: 'B', long: "break-rewrites", argh: "<n>[/<m>]", flags: poNoNeg | poOptArg,
			apply: func(p *poParser, arg *string, _ bool) error {
				v := ""
				if arg != nil {
					v = *arg
				}
				n := renameScoreLen(v)
				if n < len(v) {
					if v[n] != '/' {
						return p.errorf("%s expects <n>/<m> form", "break-rewrites")
					}
					rest := v[n+1:]
					if renameScoreLen(rest) != len(rest) {
						return p.errorf("%s expects <n>/<m> form", "break-rewrites")
					}
				}
				return nil
			}},
		{kind: poCallback, short: 'M', long: "find-renames", argh: "<n>", flags: poNoNeg | poOptArg, apply: renameScore("find-renames", false)},
		{kind: poSetInt, short: 'D', long: "irreversible-delete", flags: poNoArg | poNoNeg, apply: noop},
		{kind: poCallback, short: 'C', long: "find-copies", argh: "<n>", flags: poNoNeg | poOptArg, apply: renameScore("find-copies", true)},
		{kind: poSetInt, long: "find-copies-harder", flags: poNoArg,
			apply: func(_ *poParser, _ *string, unset bool) error { a.FindCopiesHarder = !unset; return nil }},
		{kind: poSetInt, long: "no-renames", flags: poNoArg | poNoNeg,
			apply: func(*poParser, *string, bool) error { rev.detectRename = 0; return nil }},
		{kind: poSetInt, long: "rename-empty", flags: poNoArg, apply: noop},
		{kind: poCallback, long: "follow", flags: poNoArg,
			apply: func(_ *poParser, _ *string, unset bool) error { a.NoFollow = unset; return nil }},
		{kind: poInteger, short: 'l', argh: "n", apply: noop},

		{kind: poGroup, help: "Diff algorithm options"},
		{kind: poBit, long: "minimal", flags: poNoArg, apply: noop},
		{kind: poBit, short: 'w', long: "ignore-all-space", flags: poNoArg | poNoNeg, apply: noop},
		{kind: poBit, short: 'b', long: "ignore-space-change", flags: poNoArg | poNoNeg, apply: noop},
		{kind: poBit, long: "ignore-space-at-eol", flags: poNoArg | poNoNeg, apply: noop},
		{kind: poBit, long: "ignore-cr-at-eol", flags: poNoArg | poNoNeg, apply: noop},
		{kind: poBit, long: "ignore-blank-lines", flags: poNoArg | poNoNeg, apply: noop},
		{kind: poCallback, short: 'I', long: "ignore-matching-lines", argh: "<regex>",
			apply: func(p *poParser, arg *string, unset bool) error {
				if unset {
					return negationBug(5277)
				}
				if !validPOSIXExtendedRegex(*arg) {
					return p.errorf("invalid regex given to -I: '%s'", *arg)
				}
				return nil
			}},
		{kind: poBit, long: "indent-heuristic", flags: poNoArg,
			apply: func(_ *poParser, _ *string, unset bool) error {
				on := !unset
				a.IndentHeuristic = &on
				return nil
			}},
		{kind: poCallback, long: "patience", flags: poNoNeg | poNoArg, apply: noop},
		{kind: poBitop, long: "histogram", flags: poNoArg | poNoNeg, apply: noop},
		{kind: poCallback, long: "diff-algorithm", argh: "<algorithm>", flags: poNoNeg,
			apply: func(p *poParser, arg *string, _ bool) error {
				switch strings.ToLower(*arg) {
				case "myers", "default", "minimal", "patience", "histogram":
					return nil
				}
				return p.errorf("option diff-algorithm accepts \"myers\", \"minimal\", \"patience\" and \"histogram\"")
			}},
		{kind: poCallback, long: "anchored", argh: "<text>", flags: poNoNeg, apply: noop},
		{kind: poCallback, long: "word-diff", argh: "<mode>", flags: poNoNeg | poOptArg,
			apply: func(p *poParser, arg *string, _ bool) error {
				if arg == nil {
					return nil
				}
				switch *arg {
				case "plain", "color", "porcelain", "none":
					return nil
				}
				return p.errorf("bad --word-diff argument: %s", *arg)
			}},
		{kind: poCallback, long: "word-diff-regex", argh: "<regex>", flags: poNoNeg, apply: noop},
		{kind: poCallback, long: "color-words", argh: "<regex>", flags: poNoNeg | poOptArg, apply: noop},
		{kind: poCallback, long: "color-moved", argh: "<mode>", flags: poOptArg,
			apply: func(p *poParser, arg *string, unset bool) error {
				if unset || arg == nil || validColorMoved(*arg) {
					return nil
				}
				p.errorf("color moved setting must be one of 'no', 'default', 'blocks', 'zebra', 'dimmed-zebra', 'plain'")
				return p.errorf("bad --color-moved argument: %s", *arg)
			}},
		{kind: poCallback, long: "color-moved-ws", argh: "<mode>",
			apply: func(p *poParser, arg *string, unset bool) error {
				if unset {
					return nil
				}
				if !checkColorMovedWS(p, *arg) {
					return p.errorf("invalid mode '%s' in --color-moved-ws", *arg)
				}
				return nil
			}},

		{kind: poGroup, help: "Other diff options"},
		{kind: poCallback, long: "relative", argh: "<prefix>", flags: poOptArg, apply: noop},
		{kind: poSetInt, short: 'a', long: "text", flags: poNoArg, apply: noop},
		{kind: poSetInt, short: 'R', flags: poNoArg, apply: noop},
		{kind: poSetInt, long: "exit-code", flags: poNoArg, apply: noop},
		{kind: poSetInt, long: "quiet", flags: poNoArg, apply: noop},
		{kind: poSetInt, long: "ext-diff", flags: poNoArg, apply: noop},
		{kind: poCallback, long: "textconv", flags: poNoArg,
			apply: func(_ *poParser, _ *string, unset bool) error { a.TextConv = !unset; return nil }},
		{kind: poCallback, long: "ignore-submodules", argh: "<when>", flags: poNoNeg | poOptArg,
			apply: func(_ *poParser, arg *string, _ bool) error {
				if arg == nil {
					return nil
				}
				switch *arg {
				case "all", "untracked", "dirty", "none":
					return nil
				}
				return fatalf("bad --ignore-submodules argument: %s", *arg)
			}},
		{kind: poCallback, long: "submodule", argh: "<format>", flags: poNoNeg | poOptArg,
			apply: func(p *poParser, arg *string, _ bool) error {
				if arg == nil {
					return nil
				}
				switch *arg {
				case "log", "short", "diff":
					return nil
				}
				return p.errorf("failed to parse --submodule option parameter: '%s'", *arg)
			}},
		{kind: poSetInt, long: "ita-invisible-in-index", flags: poNoArg | poNoNeg, apply: noop},
		{kind: poSetInt, long: "ita-visible-in-index", flags: poNoArg | poNoNeg, apply: noop},
		{kind: poCallback, short: 'S', argh: "<string>", apply: pickaxe(pickaxeKindS)},
		{kind: poCallback, short: 'G', argh: "<regex>", apply: pickaxe(pickaxeKindG)},
		{kind: poBit, long: "pickaxe-all", flags: poNoArg | poNoNeg, apply: pickaxe(pickaxeAll)},
		{kind: poBit, long: "pickaxe-regex", flags: poNoArg | poNoNeg, apply: pickaxe(pickaxeRegex)},
		{kind: poFilename, short: 'O', argh: "file", apply: noop},
		{kind: poCallback, long: "rotate-to", argh: "<path>", flags: poNoNeg, apply: noop},
		{kind: poCallback, long: "skip-to", argh: "<path>", flags: poNoNeg, apply: noop},
		{kind: poCallback, long: "find-object", argh: "<object-id>", flags: poNoNeg,
			apply: func(p *poParser, arg *string, _ bool) error {
				if r.ctx.resolve(*arg).Kind == NameUnresolved {
					return p.errorf("unable to resolve '%s'", *arg)
				}
				rev.pickaxe |= pickaxeKindObjfind
				return nil
			}},
		{kind: poCallback, long: "diff-filter", argh: "[(A|C|D|M|R|T|U|X|B)...[*]]", flags: poNoNeg,
			apply: func(p *poParser, arg *string, _ bool) error {
				for i := 0; i < len(*arg); i++ {
					c := (*arg)[i]
					upper := c
					if 'a' <= c && c <= 'z' {
						upper = c - 'a' + 'A'
					}
					if !strings.ContainsRune("ACDMRTUXB*", rune(upper)) || c >= 0x80 {
						return p.errorf("unknown change class '%c' in --diff-filter=%s", rawByte(c), *arg)
					}
				}
				return nil
			}},
		{kind: poCallback, long: "output", argh: "<file>", flags: poNoNeg,
			apply: func(_ *poParser, arg *string, _ bool) error {
				if r.ctx.OpenDiffOutput != nil {
					return r.ctx.OpenDiffOutput(*arg)
				}
				return nil
			}},
	}
}

// rawByte lets %c print a single byte as git's printf does, even when it
// is not valid UTF-8 on its own.
type rawByte byte

func (b rawByte) Format(f fmt.State, _ rune) { f.Write([]byte{byte(b)}) }

// renameScoreLen is how much of s git's parse_rename_score reads: digits
// with at most one '.', optionally ending with '%'.
func renameScoreLen(s string) int {
	dot := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.' && !dot:
			dot = true
		case c == '%':
			return i + 1
		case isDigit(c):
		default:
			return i
		}
	}
	return len(s)
}

// checkDirstat is parse_dirstat_opt: a bad parameter list is fatal, with
// one line per bad parameter.
func checkDirstat(params string) error {
	if params == "" {
		return nil
	}
	var msg strings.Builder
	for _, p := range strings.Split(params, ",") {
		switch p {
		case "changes", "lines", "files", "noncumulative", "cumulative":
			continue
		}
		if p != "" && isDigit(p[0]) {
			_, end := strtoul(p)
			rest := p[end:]
			if len(rest) >= 2 && rest[0] == '.' && isDigit(rest[1]) {
				rest = strings.TrimLeft(rest[2:], "0123456789")
			}
			if rest == "" {
				continue
			}
			msg.WriteString("  Failed to parse dirstat cut-off percentage '" + p + "'\n")
			continue
		}
		msg.WriteString("  Unknown dirstat parameter '" + p + "'\n")
	}
	if msg.Len() == 0 {
		return nil
	}
	return fatalf("Failed to parse --dirstat/-X option parameter:\n%s", msg.String())
}

// validStatValue checks --stat=<width>[,<name-width>[,<count>]].
func validStatValue(v string) bool {
	_, end := strtoul(v)
	for part := 0; part < 2 && end < len(v) && v[end] == ','; part++ {
		rest := v[end+1:]
		_, n := strtoul(rest)
		end += 1 + n
	}
	return end == len(v)
}

// wsErrorHighlightError returns how much of a --ws-error-highlight value
// git accepted before a bad token, or -1 when all of it is good.
func wsErrorHighlightError(arg string) int {
	i := 0
	for i < len(arg) {
		ok := false
		for _, tok := range []string{"none", "default", "all", "new", "old", "context"} {
			if strings.HasPrefix(arg[i:], tok) {
				if j := i + len(tok); j == len(arg) || arg[j] == ',' {
					i, ok = j, true
					break
				}
			}
		}
		if !ok {
			return i
		}
		if i < len(arg) {
			i++
		}
	}
	return -1
}

// validColorMoved is parse_color_moved: a boolean or a mode name.
func validColorMoved(arg string) bool {
	if _, ok := parseMaybeBool(arg); ok {
		return true
	}
	switch arg {
	case "no", "plain", "blocks", "zebra", "default", "dimmed-zebra", "dimmed_zebra":
		return true
	}
	return false
}

// checkColorMovedWS is parse_color_moved_ws, reporting its errors.
func checkColorMovedWS(p *poParser, arg string) bool {
	ok, indent, whitespace := true, false, false
	for _, mode := range strings.Split(arg, ",") {
		mode = strings.Trim(mode, " \t\n\v\f\r")
		switch mode {
		case "no":
			indent, whitespace = false, false
		case "ignore-space-change", "ignore-space-at-eol", "ignore-all-space":
			whitespace = true
		case "allow-indentation-change":
			indent = true
		default:
			ok = false
			p.errorf("unknown color-moved-ws mode '%s', possible values are 'ignore-space-change', 'ignore-space-at-eol', 'ignore-all-space', 'allow-indentation-change'", mode)
		}
	}
	if indent && whitespace {
		p.errorf("color-moved-ws: allow-indentation-change cannot be combined with other whitespace modes")
		ok = false
	}
	return ok
}

// parseMaybeBool is git_parse_maybe_bool: true/yes/on, false/no/off, ""
// (false), or an integer (git_parse_int) that is true when non-zero.
func parseMaybeBool(v string) (bool, bool) {
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true, true
	case "", "false", "no", "off":
		return false, true
	}
	n, ok := parseConfigInt(v)
	return n != 0, ok
}

// parseConfigInt is git_parse_int: repo.ParseConfigInt within ±(2^31-1).
func parseConfigInt(v string) (int64, bool) {
	n, err := repo.ParseConfigInt(v, 1<<31-1)
	return n, err == nil
}

func hexValue(c byte) uint8 {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10
	}
	return 255
}
