package cli

// This file reproduces the observable behaviour of git's parse-options
// machinery (parse-options.c, v2.39.5) for the two option tables a blame
// command line goes through: blame's own table, parsed with abbreviations
// allowed, and the diff option table, parsed one option at a time without
// abbreviations. Everything a user can see is kept: how short options
// cluster and take their value from the rest of the cluster, when a value
// must be attached, "--no-" negation, unambiguous prefixes and the
// "ambiguous option" error, the "did you mean `--x` (with two dashes)?"
// check, -h, --help, --help-all, --git-completion-helper, and the exact
// wording of every error.

import (
	"errors"
	"fmt"
	"strings"
)

// poKind is the type of an option, as parse-options distinguishes them. The
// type decides how a value is taken, whether --no- is meaningful for the
// completion list, and how the help line is drawn.
type poKind uint8

const (
	poGroup    poKind = iota // a heading in the help; not an option
	poBit                    // OPT_BIT: sets bits, --no- clears them
	poBitop                  // OPT_BITOP: clears some bits and sets others; never negated
	poSetInt                 // OPT_BOOL, OPT_SET_INT
	poString                 // OPT_STRING
	poFilename               // OPT_FILENAME
	poCallback               // OPT_CALLBACK and the macros built on it
	poInteger                // OPT_INTEGER
)

// poFlags are parse-options' PARSE_OPT_* option flags that these tables use.
type poFlags uint8

const (
	poNoArg          poFlags = 1 << iota // takes no value
	poOptArg                             // the value is optional and must be attached
	poNoNeg                              // no --no- form
	poHidden                             // left out of the help unless --help-all
	poLiteralArgHelp                     // argh is printed as is, without <>
	// poGoblame marks an option of goblame's own, not git's (--json): it
	// is left out of everything git prints about its options (-h,
	// --help-all, --git-completion-helper), so that those stay git's
	// bytes, and is documented in the manual page's GOBLAME OPTIONS
	// section. It is taken only when spelled out in full ("--json",
	// "--no-json"), never as an abbreviation, and the ambiguity and typo
	// checks do not see it, so every other command line parses as in git.
	poGoblame
)

// poHow is how an option was spelled: git's enum opt_parsed.
type poHow uint8

const (
	poLong  poHow = 0
	poShort poHow = 1 << 0
	poUnset poHow = 1 << 1
)

// poOption is one entry of an option table.
type poOption struct {
	kind  poKind
	short byte
	long  string
	argh  string // the value's name in the help ("" prints "...")
	help  string
	flags poFlags
	// apply receives the option's value: unset for a --no- form, arg nil
	// when the option got no value. It returns nil, a *FatalError (git
	// dies), or the error returned by poParser.errorf (git reports an
	// error and exits 129).
	apply func(p *poParser, arg *string, unset bool) error
}

// poResult is what one parsing step ended with: git's enum
// parse_opt_result.
type poResult uint8

const (
	poDone      poResult = iota // end of the arguments, or "--"
	poUnknown                   // argv[pos] is not an option of this table
	poHelp                      // help was printed (or an ambiguous option reported)
	poError                     // an error was reported
	poComplete                  // the completion list was printed
	poNonOption                 // stopped at a word (stop-at-non-option mode)
)

// errReported is returned by option callbacks after they reported an error
// with poParser.errorf: parsing stops with exit status 129.
var errReported = errors.New("cli: option error reported")

// poParser is git's struct parse_opt_ctx_t over a Go slice: args[pos] is
// the argument being looked at and out collects the words that are not
// options (blame's revisions and path, plus pass-through pseudo options).
type poParser struct {
	args  []string
	pos   int
	start int // first argument of this parse (ONE_SHOT counts from here)
	total int // number of arguments when parsing started
	out   []string

	// opt is the unparsed rest of a short-option cluster, or the value
	// attached to a long option after "="; optSet is whether git's p->opt
	// is non-NULL (an attached empty value "--x=" is set and empty).
	opt    string
	optSet bool

	keepDashdash    bool // "--" is left in args for the caller
	keepUnknown     bool // PARSE_OPT_KEEP_UNKNOWN_OPT: also disables abbreviations
	oneShot         bool // parse exactly one option (diff_opt_parse)
	stopAtNonOption bool
	internalHelp    bool // -h, --help and --help-all are handled here

	// usage is the usage string list (nil for the diff table, whose
	// help git never prints).
	usage []string

	stdout, stderr strings.Builder
	fatal          error // a *FatalError raised by a callback
}

// errorf reports an error the way git's error() does and returns
// errReported for the callback to return.
func (p *poParser) errorf(format string, args ...any) error {
	p.stderr.WriteString(reportLine("error: ", fmt.Sprintf(format, args...)))
	return errReported
}

// reportLine is how git's error() and die() print a message (usage.c,
// vreportf): the prefix and the message in a 4096-byte buffer (longer
// text is cut), control characters other than tab and newline shown as
// '?', and a newline.
func reportLine(prefix, msg string) string {
	const bufSize = 4096
	b := make([]byte, 0, len(prefix)+len(msg)+1)
	b = append(b, prefix...)
	for i := 0; i < len(msg) && len(b) < bufSize-1; i++ {
		c := msg[i]
		if (c < 0x20 || c == 0x7f) && c != '\t' && c != '\n' {
			c = '?'
		}
		b = append(b, c)
	}
	return string(append(b, '\n'))
}

// optName is how errors name an option: git's optname().
func optName(o *poOption, how poHow) string {
	switch {
	case how&poShort != 0:
		return fmt.Sprintf("switch `%c'", o.short)
	case how&poUnset != 0:
		return fmt.Sprintf("option `no-%s'", o.long)
	default:
		return fmt.Sprintf("option `%s'", o.long)
	}
}

// step parses options from args[pos] until a word it keeps, an option it
// does not know, "--", an error, or the end: git's parse_options_step.
func (p *poParser) step(opts []poOption) poResult {
	p.opt, p.optSet = "", false
	for ; p.pos < len(p.args); p.pos++ {
		arg := p.args[p.pos]
		if p.oneShot && p.pos != p.start {
			break
		}
		if len(arg) < 2 || arg[0] != '-' {
			// No table here has dashless (PARSE_OPT_NODASH) options.
			if p.stopAtNonOption {
				return poNonOption
			}
			p.out = append(p.out, arg)
			continue
		}
		// A lone -h asks for help.
		if p.internalHelp && p.total == 1 && arg == "-h" {
			return p.showHelp(opts, false)
		}
		// A lone --git-completion-helper asks for the completion list.
		if p.total == 1 && arg == "--git-completion-helper" {
			return p.showCompletion(opts, false)
		}
		if p.total == 1 && arg == "--git-completion-helper-all" {
			return p.showCompletion(opts, true)
		}

		if arg[1] != '-' {
			p.opt, p.optSet = arg[1:], true
			switch r := p.parseShort(opts); r {
			case poError:
				return poError
			case poUnknown:
				if p.checkTypos(arg[1:], opts) {
					return poError
				}
				if p.internalHelp && p.opt[0] == 'h' {
					return p.showHelp(opts, false)
				}
				return p.unknown()
			}
			if p.optSet && p.checkTypos(arg[1:], opts) {
				return poError
			}
			for p.optSet {
				switch p.parseShort(opts) {
				case poError:
					return poError
				case poUnknown:
					if p.internalHelp && p.opt[0] == 'h' {
						return p.showHelp(opts, false)
					}
					// Hide that a cluster was being parsed: the unknown
					// rest becomes the argument, as git does.
					p.args[p.pos] = "-" + p.opt
					return p.unknown()
				}
			}
			continue
		}

		if arg == "--" || arg == "--end-of-options" {
			if !p.keepDashdash {
				p.pos++
			}
			break
		}
		if p.internalHelp && arg == "--help-all" {
			return p.showHelp(opts, true)
		}
		if p.internalHelp && arg == "--help" {
			return p.showHelp(opts, false)
		}
		switch p.parseLong(arg[2:], opts) {
		case poError:
			return poError
		case poHelp:
			return p.showHelp(opts, false)
		case poUnknown:
			return p.unknown()
		}
	}
	return poDone
}

// unknown handles an argument the table does not know. In one-shot mode
// parsing just ends with nothing consumed; otherwise the caller gets
// poUnknown with args[pos] being the argument (git's KEEP_UNKNOWN_OPT,
// which would keep it, is only ever combined with one-shot here).
func (p *poParser) unknown() poResult {
	if p.oneShot {
		return poDone
	}
	return poUnknown
}

// parseShort parses the short option at the head of p.opt.
func (p *poParser) parseShort(opts []poOption) poResult {
	c := p.opt[0]
	for i := range opts {
		o := &opts[i]
		if o.kind == poGroup || o.short == 0 || o.short != c {
			continue
		}
		if len(p.opt) > 1 {
			p.opt = p.opt[1:]
		} else {
			p.opt, p.optSet = "", false
		}
		return p.getValue(o, poShort)
	}
	return poUnknown
}

// parseLong parses "--" + arg against the table, allowing unambiguous
// prefixes unless keepUnknown is set.
func (p *poParser) parseLong(arg string, opts []poOption) poResult {
	argEnd := strings.IndexByte(arg, '=')
	if argEnd < 0 {
		argEnd = len(arg)
	}
	var abbrevOpt, ambiguousOpt *poOption
	var abbrevHow, ambiguousHow poHow

	for i := range opts {
		o := &opts[i]
		if o.kind == poGroup || o.long == "" {
			continue
		}
		if o.flags&poGoblame != 0 {
			how := poLong
			name := arg
			if n, ok := strings.CutPrefix(arg, "no-"); ok && o.flags&poNoNeg == 0 {
				how, name = poUnset, n
			}
			if rest, ok := strings.CutPrefix(name, o.long); ok && (rest == "" || rest[0] == '=') {
				if rest != "" {
					p.opt, p.optSet = rest[1:], true
				}
				return p.getValue(o, how)
			}
			continue
		}
		longName := o.long
		how, optHow := poLong, poLong
		var rest string
		var exact bool
	again:
		rest, exact = strings.CutPrefix(arg, longName)
		if !exact {
			abbreviated := false
			switch {
			case !p.keepUnknown && strings.HasPrefix(longName, arg[:argEnd]):
				// An abbreviation of this option.
				abbreviated = true
			case o.flags&poNoNeg != 0:
				continue
			case strings.HasPrefix("no-", arg):
				// "--no" or "--no-" abbreviates every negatable option.
				how |= poUnset
				abbreviated = true
			case !strings.HasPrefix(arg, "no-"):
				if ln, ok := strings.CutPrefix(longName, "no-"); ok {
					optHow |= poUnset
					longName = ln
					goto again
				}
				continue
			default:
				how |= poUnset
				rest, exact = strings.CutPrefix(arg[3:], longName)
				if !exact {
					if strings.HasPrefix(longName, arg[3:]) {
						abbreviated = true
					} else {
						continue
					}
				}
			}
			if abbreviated {
				if abbrevOpt != nil {
					// A second candidate: ambiguous unless an exact
					// match comes later.
					ambiguousOpt, ambiguousHow = abbrevOpt, abbrevHow
				}
				if how&poUnset == 0 && argEnd < len(arg) {
					p.opt, p.optSet = arg[argEnd+1:], true
				}
				abbrevOpt, abbrevHow = o, how^optHow
				continue
			}
		}
		if rest != "" {
			if rest[0] != '=' {
				continue
			}
			p.opt, p.optSet = rest[1:], true
		}
		return p.getValue(o, how^optHow)
	}

	if ambiguousOpt != nil {
		p.errorf("ambiguous option: %s (could be --%s%s or --%s%s)",
			arg, noPrefix(ambiguousHow), ambiguousOpt.long, noPrefix(abbrevHow), abbrevOpt.long)
		return poHelp
	}
	if abbrevOpt != nil {
		return p.getValue(abbrevOpt, abbrevHow)
	}
	return poUnknown
}

func noPrefix(how poHow) string {
	if how&poUnset != 0 {
		return "no-"
	}
	return ""
}

// getValue applies option o spelled as how, taking its value from the
// attached text or the next argument as the option's type requires.
func (p *poParser) getValue(o *poOption, how poHow) poResult {
	unset := how&poUnset != 0
	if unset && p.optSet {
		p.errorf("%s takes no value", optName(o, how))
		return poError
	}
	if unset && o.flags&poNoNeg != 0 {
		p.errorf("%s isn't available", optName(o, how))
		return poError
	}
	if how&poShort == 0 && p.optSet && o.flags&poNoArg != 0 {
		p.errorf("%s takes no value", optName(o, how))
		return poError
	}

	var err error
	switch o.kind {
	case poBit, poBitop, poSetInt:
		err = o.apply(p, nil, unset)
	case poString, poFilename:
		if unset {
			err = o.apply(p, nil, true)
			break
		}
		arg, ok := p.getArg(o, how)
		if !ok {
			return poError
		}
		err = o.apply(p, &arg, false)
	case poCallback:
		switch {
		case unset:
			err = o.apply(p, nil, true)
		case o.flags&poNoArg != 0, o.flags&poOptArg != 0 && !p.optSet:
			err = o.apply(p, nil, false)
		default:
			arg, ok := p.getArg(o, how)
			if !ok {
				return poError
			}
			err = o.apply(p, &arg, false)
		}
	case poInteger:
		if unset {
			zero := "0"
			err = o.apply(p, &zero, true)
			break
		}
		arg, ok := p.getArg(o, how)
		if !ok {
			return poError
		}
		if _, end := strtol(arg); arg == "" || end != len(arg) {
			p.errorf("%s expects a numerical value", optName(o, how))
			return poError
		}
		err = o.apply(p, &arg, false)
	}
	return p.result(err)
}

// result turns a callback's error into the step result.
func (p *poParser) result(err error) poResult {
	if err == nil {
		return poDone
	}
	if !errors.Is(err, errReported) {
		p.fatal = err
	}
	return poError
}

// getArg takes an option's value: the attached text, else the next
// argument (whatever it looks like), else it reports "requires a value".
func (p *poParser) getArg(o *poOption, how poHow) (string, bool) {
	if p.optSet {
		arg := p.opt
		p.opt, p.optSet = "", false
		return arg, true
	}
	if p.pos+1 < len(p.args) {
		p.pos++
		return p.args[p.pos], true
	}
	p.errorf("%s requires a value", optName(o, how))
	return "", false
}

// checkTypos reports "-foo" typed for "--foo": an argument of three or
// more characters after a single dash that starts with "no-" or begins a
// long option name. It reports whether it did (git exits 129 then).
func (p *poParser) checkTypos(arg string, opts []poOption) bool {
	if len(arg) < 3 {
		return false
	}
	typo := strings.HasPrefix(arg, "no-")
	for i := 0; !typo && i < len(opts); i++ {
		typo = opts[i].kind != poGroup && opts[i].long != "" && opts[i].flags&poGoblame == 0 && strings.HasPrefix(opts[i].long, arg)
	}
	if typo {
		p.errorf("did you mean `--%s` (with two dashes)?", arg)
	}
	return typo
}

// showHelp prints the help on standard output (-h, --help, --help-all).
func (p *poParser) showHelp(opts []poOption, full bool) poResult {
	if p.usage != nil {
		p.stdout.WriteString(renderUsage(p.usage, opts, full))
	}
	return poHelp
}

// showCompletion prints the option list git-completion.bash asks for:
// git's show_gitcomp.
func (p *poParser) showCompletion(opts []poOption, all bool) poResult {
	w := &p.stdout
	noOpts := 0
	for i := range opts {
		o := &opts[i]
		if o.long == "" || o.kind == poGroup || o.flags&poGoblame != 0 {
			continue
		}
		if !all && o.flags&poHidden != 0 {
			continue
		}
		suffix := ""
		switch o.kind {
		case poString, poFilename, poInteger, poCallback:
			if o.flags&(poNoArg|poOptArg) == 0 {
				suffix = "="
			}
		}
		if strings.HasPrefix(o.long, "no-") {
			noOpts++
		}
		if i > 0 {
			w.WriteByte(' ')
		}
		w.WriteString("--" + o.long + suffix)
	}
	p.completeNegated(opts, all, -1)
	p.completeNegated(opts, all, noOpts)
	w.WriteByte('\n')
	return poComplete
}

// completeNegated is git's show_negated_gitcomp: with noOpts < 0 it lists
// the positive forms of options named "no-..."; otherwise the --no- forms
// of the others, with a "--" marker before the second one (or before the
// first when some option is named "no-...").
func (p *poParser) completeNegated(opts []poOption, all bool, noOpts int) {
	w := &p.stdout
	printedDashdash := false
	for i := range opts {
		o := &opts[i]
		if o.long == "" || o.kind == poGroup || o.flags&poGoblame != 0 {
			continue
		}
		if !all && o.flags&poHidden != 0 {
			continue
		}
		if o.flags&poNoNeg != 0 {
			continue
		}
		switch o.kind {
		case poString, poFilename, poInteger, poCallback, poBit, poSetInt:
		default:
			continue
		}
		if name, ok := strings.CutPrefix(o.long, "no-"); ok {
			if noOpts < 0 {
				w.WriteString(" --" + name)
			}
			continue
		}
		if noOpts < 0 {
			continue
		}
		if noOpts > 0 && !printedDashdash {
			w.WriteString(" --")
			printedDashdash = true
		}
		w.WriteString(" --no-" + o.long)
		noOpts++
	}
}
