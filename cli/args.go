package cli

// git blame's command line, exactly as git 2.39.5 reads it.
//
// cmd_blame (builtin/blame.c) parses its arguments in one loop over
// parse-options (args_parseopt.go): its own options first (abbreviable long
// names, clustered short options, values attached or detached, optional
// values only attached), and every argument its table does not know goes
// to the revision machinery and then the diff option parser (revopts.go,
// revopts_diff.go), which never abbreviate. Words that are not options are
// collected, in order, together with the pseudo-revision options the
// revision machinery passes through (--not, --all, ...); "--" (or
// "--end-of-options") ends the options. After the loop the words are split
// into revisions and the one path:
//
//	blame [<revisions>] -- <path>   (exactly one word after "--")
//	blame -- <path> <rev>           (the old order: nothing before "--")
//	blame <path> <rev>              (two words and the second names an object)
//	blame [<revisions>] <path>      (otherwise the last word is the path)
//
// Anything else is a usage error. A lone word that names an object in a
// repository without a work tree is "missing <path> to blame". The <rev>
// of the old order can be any word, and setup_revisions reads one that
// looks like an option as an option (revParser.setupWord).
//
// git annotate is "git blame -c" with its own usage line and the ISO date
// format forced; ParseArgs with ParseContext.Annotate does the same.
//
// # Using it
//
// The driver, in git's order: discover the repository (except for a lone
// "-h", which git answers anywhere), read the configuration into
// DefaultBlameArgs and ParseContext, call ParseArgs, print a *UsageError
// or *FatalError verbatim and exit with its status; then resolve RevArgs as
// setup_revisions does (pseudo revisions, --default, --merge), call
// CheckRevisionSetup, and blame.
//
// # Concurrency
//
// ParseArgs, Usage and ParseDateFormat have no shared state: any number
// may run at once. ParseArgs calls the ParseContext callbacks on the
// calling goroutine, in git's order.
//
// # Security
//
// The arguments are untrusted text. Parsing never panics (FuzzParseArgs),
// allocates in proportion to the input, follows pretty.<name> aliases at
// most as many times as there are formats, and runs no regular expression
// (the -I check is a syntax scan).
//
// # Tests
//
// TestArgsAgainstGit runs 907 command lines through git blame (or
// git annotate) 2.39.5 and ParseArgs, for SHA-1 and SHA-256 fixtures: a
// rejected command line must produce git's standard output, standard error
// and exit status byte for byte; an accepted one must decode the fields
// the case names, and git must print exactly the same for the canonical
// command line rebuilt from the parse (canonicalArgs) as for the original,
// which shows that nothing that changes the output was lost.
// TestArgsRandomAgainstGit does the same for random command lines (150 by
// default); the long run:
//
//	GOBLAME_ARGS_RANDOM=20000 GOBLAME_ARGS_SEED=12 go test ./cli -run TestArgsRandomAgainstGit
//
// Speed does not matter next to a blame, but for the record
// (go test ./cli -run '^$' -bench ParseArgs, 2-core Xeon VM): an editor's
// command line parses in 3-5 µs with about 60 allocations, one with four
// revision and diff options in 14 µs.
//
// # Not covered
//
// git compiles --grep, --author, --committer and --grep-reflog patterns
// in setup_revisions and dies on a bad one; goblame does not check them.
// The -I pattern is checked against glibc's extended regular expression
// syntax in the C locale. Messages are git's untranslated English.

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/goblame/goblame/oid"
)

// BlameArgs is a parsed git blame command line: what git's cmd_blame knows
// when it calls setup_revisions. Fields that configuration can preset
// (BlankBoundary, ShowRoot, ShowEmail, Date, IgnoreRevsFiles and, through
// diff.indentHeuristic, IndentHeuristic) start from the defaults ParseArgs
// is given; start from DefaultBlameArgs and apply the configuration.
type BlameArgs struct {
	// JSON is goblame's --json: newline-delimited JSON records (format's
	// JSON output) instead of one of git's output formats.
	JSON bool

	// Blame's own options.
	Incremental   bool // --incremental
	BlankBoundary bool // -b (blame.blankBoundary)
	ShowRoot      bool // --root (blame.showRoot)
	ShowStats     bool // --show-stats
	// Progress is --progress (1) or --no-progress (0); -1 when neither was
	// given and the output is not porcelain or incremental: git then shows
	// progress when standard error is a terminal. It is 0 for porcelain and
	// incremental output.
	Progress   int
	ScoreDebug bool // --score-debug
	NoCache    bool // --no-cache (goblame's own): the blame cache is not used
	ShowName   bool // -f, --show-name
	ShowNumber bool // -n, --show-number
	// Porcelain is the porcelain output bit (-p, --porcelain,
	// --line-porcelain); LinePorcelain the per-line bit (--line-porcelain),
	// which has no effect without Porcelain: "--line-porcelain
	// --no-porcelain" gives the default format.
	Porcelain, LinePorcelain bool
	Annotate                 bool // -c (always set for git annotate)
	RawTime                  bool // -t
	LongHash                 bool // -l
	NoAuthor                 bool // -s
	ShowEmail                bool // -e, --show-email (blame.showEmail)
	IgnoreWhitespace         bool // -w
	Minimal                  bool // --minimal
	ColorLines               bool // --color-lines
	ColorByAge               bool // --color-by-age
	// IgnoreRevs are the --ignore-rev values in order; --no-ignore-rev
	// clears the list.
	IgnoreRevs []string
	// IgnoreRevsFiles starts with the blame.ignoreRevsFile values (sorted
	// and without duplicates, as git's string_list_insert keeps them);
	// --ignore-revs-file appends, --no-ignore-revs-file clears. An empty
	// entry discards the entries before it when the list is read.
	IgnoreRevsFiles []string
	RevsFile        *string // -S <file>: graft lines ("commit parent...") read before the walk
	Contents        *string // --contents <file> (--no-contents clears)
	// Move is set by -M, -C and --find-copies-harder; MoveScore is the
	// score of the last -M<n> (git's parse_score: a string that is not
	// all digits counts as 0; 0 means the default).
	Move      bool
	MoveScore uint32
	// CopyLevel counts -C (at most 3: copies from files modified in the
	// same commit, also when the file is created, from any file);
	// --find-copies-harder (or a second --find-copies) raises it to at
	// least 2. CopyScore is the score of the last -C<n>.
	CopyLevel int
	CopyScore uint32
	Ranges    []string // -L values in order, unchecked
	// Abbrev is the hash column width git uses: -1 for automatic (not
	// given, or --abbrev while core.abbrev is automatic); otherwise the
	// width after git's adjustments: --abbrev=<n> clamped to 4..hexsz and
	// then one more for the boundary marker, --abbrev=0 or --no-abbrev the
	// full hexsz.
	Abbrev int

	// Revision and diff options that change blame.
	Reverse     bool       // --reverse (git walks with --children)
	FirstParent bool       // --first-parent
	Since       *DateLimit // --since, --after, --max-age (last wins): older commits are boundaries
	// Date is the date format blame prints with: the defaults' (blame.date)
	// changed by --date, --relative-date and, when no date option was
	// given, --pretty=reference (short); git annotate always uses ISO
	// 8601, keeping only the "-local" of blame.date.
	Date             DateMode
	Encoding         *string // --encoding: the output encoding; "" for "none"
	IndentHeuristic  *bool   // --[no-]indent-heuristic; nil: diff.indentHeuristic (default on)
	TextConv         bool    // --[no-]textconv (default on)
	NoFollow         bool    // --no-follow: no whole-file rename following
	FindCopiesHarder bool    // --find-copies-harder, or a second --find-copies (already in CopyLevel)

	// Rev is what the remaining revision and diff options set.
	Rev RevOptions

	// RevArgs are the words setup_revisions resolves, in command-line
	// order: revisions ("HEAD", "^v1", "A..B", "-") and the pass-through
	// pseudo options (--not, --all, --branches=<glob>, --no-walk, ...).
	RevArgs []string
	// NoDashDash is set when the words reach setup_revisions without a
	// "--" after them (only "<revs> --end-of-options <path>"): a word that
	// does not resolve is then checked as a path ("ambiguous argument")
	// instead of being a "bad revision".
	NoDashDash bool
	// Path is the <file> argument as typed; the caller adds the prefix.
	Path string
}

// DefaultBlameArgs returns git blame's defaults without configuration:
// automatic progress and abbreviation, ISO 8601 dates, textconv on.
func DefaultBlameArgs() BlameArgs {
	return BlameArgs{
		Progress: -1,
		Abbrev:   -1,
		Date:     DateMode{Type: DateISO8601},
		TextConv: true,
		Rev:      RevOptions{MaxCount: -1},
	}
}

// NameKind is what a name on the command line resolves to, for the tests
// git makes while parsing.
type NameKind uint8

const (
	NameUnresolved NameKind = iota // get_oid fails
	NameMissing                    // a name of an object the repository does not have (a full hex ID)
	NameObject                     // an existing object that does not peel to a commit
	NameCommittish                 // an existing commit, or a tag that peels to one
)

// ResolvedName is what ParseContext.Resolve reports about a name.
type ResolvedName struct {
	Kind NameKind
	// For NameObject: the object the name ends at after following tags,
	// as git names it in "object <hex> is a <type>, not a commit".
	PeeledHex, PeeledType string
}

// PrettyFormat is a pretty.<name> configuration entry: a user-defined
// --pretty format or an alias of another format.
type PrettyFormat struct{ Name, Value string }

// ParseContext is what ParseArgs needs to know besides the arguments.
type ParseContext struct {
	// Annotate parses as git annotate: "-c" goes first, the usage says
	// "git annotate", the date format is ISO 8601.
	Annotate bool
	// Format is the repository's object format; --abbrev is clamped to
	// its hex length (the zero value counts as SHA-1).
	Format oid.Format
	// CoreAbbrev is core.abbrev, which a bare --abbrev uses: 0 when unset
	// or "auto", the number, or the full hex length for "no"/false.
	CoreAbbrev int
	// Bare is set when there is no work tree.
	Bare bool
	// StdoutIsTerminal decides --date=auto:<format> (git: isatty(1) or a
	// pager already running).
	StdoutIsTerminal bool
	// Resolve looks a name up in the repository: blame's is_a_rev is
	// Resolve(word).Kind >= NameObject; --find-object needs a name that
	// resolves, --ancestry-path=<rev> a commit. Nil resolves nothing.
	Resolve func(name string) ResolvedName
	// PrettyFormats are the pretty.<name> entries, in configuration order.
	PrettyFormats []PrettyFormat
	// CheckSettings checks the repository's settings git reads once the
	// options are parsed (prepare_repo_settings), before the checks that
	// follow; it returns the fatal error to report. Nil checks nothing.
	CheckSettings func() error
	// ReadRevsFile reads the -S graft file at the point git does (after
	// the options, before the words are checked) and returns nil or the
	// error to report (git: "reading graft file '<file>' failed: <errno
	// text>", fatal). Nil skips the read.
	ReadRevsFile func(path string) error
	// OpenDiffOutput is called for --output=<file>, which git opens for
	// writing (creating or truncating it, relative to the current
	// directory) while parsing; it returns nil or the error to report
	// (git: "could not open '<path>' for writing: <errno text>", fatal).
	OpenDiffOutput func(path string) error
}

func (c *ParseContext) resolve(name string) ResolvedName {
	if c.Resolve == nil {
		return ResolvedName{}
	}
	return c.Resolve(name)
}

func (c *ParseContext) hexSize() int {
	if n := c.Format.HexSize(); n > 0 {
		return n
	}
	return oid.SHA1.HexSize()
}

// UsageError is a command line that git answers without blaming: a usage
// error (exit status 129), help asked for with -h, --help or --help-all
// (on standard output, 129), the completion list for
// --git-completion-helper (standard output, 0), or git's BUG abort for
// --no-ignore-matching-lines (134). Print Stdout and Stderr verbatim and
// exit with ExitCode.
type UsageError struct {
	// Message is the main error message without "error: " ("unknown
	// option `-Z'"), or a description for help and usage.
	Message  string
	Stdout   string
	Stderr   string
	ExitCode int
	// ShowHelp is set when the output includes the option help.
	ShowHelp bool
}

func (e *UsageError) Error() string { return e.Message }

// FatalError is a fatal error git reports while parsing: print
// "fatal: " + Message + "\n" on standard error and exit with status 128.
type FatalError struct {
	Message string
}

func (e *FatalError) Error() string { return e.Message }

// Stderr is what git prints: "fatal: " and the message, with control
// characters shown as '?' and the line cut at git's 4096-byte buffer.
func (e *FatalError) Stderr() string { return reportLine("fatal: ", e.Message) }

// ExitCode is git's exit status for a fatal error.
func (e *FatalError) ExitCode() int { return 128 }

func fatalf(format string, args ...any) error {
	return &FatalError{Message: fmt.Sprintf(format, args...)}
}

// ParseArgs parses a git blame command line (the arguments after "blame")
// as git 2.39.5 does. It returns a *UsageError or *FatalError for every
// command line git rejects or answers itself, with git's exact output, or
// an error returned by a ParseContext callback. With a zero ParseContext it
// handles a lone "-h", which git answers outside a repository.
//
// A leading "--help" is not for ParseArgs: git runs "git help blame" for
// it before blame starts. Elsewhere --help prints the option help.
func ParseArgs(args []string, defaults BlameArgs, ctx ParseContext) (*BlameArgs, error) {
	a := defaults
	a.IgnoreRevs = slices.Clone(defaults.IgnoreRevs)
	a.IgnoreRevsFiles = sortedUnique(defaults.IgnoreRevsFiles)
	a.Ranges = slices.Clone(defaults.Ranges)
	a.RevArgs = nil
	a.Rev.Args = nil
	a.Rev.AncestryPathBottoms = slices.Clone(defaults.Rev.AncestryPathBottoms)
	configDate := defaults.Date

	argv := make([]string, 0, len(args)+1)
	if ctx.Annotate {
		argv = append(argv, "-c")
	}
	argv = append(argv, args...)

	st := &blameOptionState{args: &a, ctx: &ctx, abbrev: -1}
	opts := blameOptionTable(st)
	p := &poParser{
		args:         argv,
		total:        len(argv),
		keepDashdash: true,
		internalHelp: true,
		usage:        usageStrings(ctx.Annotate),
	}
	rev := &revParser{args: &a, ctx: &ctx, blame: p}
	usageErr := func(message string, showHelp bool) *UsageError {
		e := &UsageError{Message: message, Stdout: p.stdout.String(), Stderr: p.stderr.String(), ExitCode: 129, ShowHelp: showHelp}
		if showHelp {
			e.Stderr += renderUsage(p.usage, opts, false)
		}
		return e
	}

	dashdash := false
parse:
	for {
		switch p.step(opts) {
		case poHelp:
			msg := firstErrorLine(p.stderr.String())
			if msg == "" {
				msg = "help"
			}
			return nil, &UsageError{Message: msg, Stdout: p.stdout.String(), Stderr: p.stderr.String(),
				ExitCode: 129, ShowHelp: true}
		case poError:
			if p.fatal != nil {
				return nil, p.fatal
			}
			return nil, usageErr(firstErrorLine(p.stderr.String()), false)
		case poComplete:
			return nil, &UsageError{Message: "completion", Stdout: p.stdout.String()}
		case poDone:
			dashdash = p.pos < len(p.args)
			break parse
		}

		if p.args[p.pos] == "--reverse" {
			p.args[p.pos] = "--children"
			a.Reverse = true
		}
		n, err := rev.handle(p.args[p.pos:])
		switch {
		case err == errCompletion:
			return nil, &UsageError{Message: "completion", Stdout: p.stdout.String()}
		case err == errReported:
			return nil, usageErr(firstErrorLine(p.stderr.String()), false)
		case err != nil:
			return nil, err
		case n <= 0:
			p.errorf("unknown option `%s'", p.args[p.pos])
			return nil, usageErr(firstErrorLine(p.stderr.String()), true)
		}
		a.Rev.Args = append(a.Rev.Args, p.args[p.pos:p.pos+n]...)
		p.pos += n
	}

	// revision_opts_finish
	if a.Rev.graph {
		if a.Rev.trackLinear {
			return nil, fatalf("options '%s' and '%s' cannot be used together", "--show-linear-break", "--graph")
		}
		a.Rev.TopoOrder, a.Rev.rewriteParents = true, true
	}

	if a.JSON {
		if err := jsonConflict(&a, ctx.Annotate); err != nil {
			return nil, err
		}
	}
	if ctx.CheckSettings != nil {
		if err := ctx.CheckSettings(); err != nil {
			return nil, err
		}
	}
	if a.Incremental || a.Porcelain {
		if a.Progress > 0 {
			return nil, fatalf("--progress can't be used with --incremental or porcelain formats")
		}
		a.Progress = 0
	}

	hexsz := ctx.hexSize()
	switch {
	case 0 < st.abbrev && st.abbrev < hexsz:
		a.Abbrev = st.abbrev + 1
	case st.abbrev == 0:
		a.Abbrev = hexsz
	default:
		a.Abbrev = st.abbrev
	}

	if a.RevsFile != nil && ctx.ReadRevsFile != nil {
		if err := ctx.ReadRevsFile(*a.RevsFile); err != nil {
			return nil, err
		}
	}

	if ctx.Annotate {
		a.Annotate = true
		a.Date = configDate
		a.Date.Type = DateISO8601
	}
	if a.FindCopiesHarder {
		a.Move = true
		a.CopyLevel = max(a.CopyLevel, 2)
	}

	// The words: revisions and the path.
	words := p.out
	if dashdash {
		sep := p.args[p.pos]
		after := p.args[p.pos+1:]
		switch {
		case len(after) == 2 && len(words) == 0:
			// blame -- <path> <rev>: the <rev> word can be anything,
			// and setup_revisions reads one that looks like an option
			// as an option.
			a.Path = after[0]
			a.RevArgs = []string{after[1]}
			if err := rev.setupWord(after[1]); err != nil {
				return nil, err
			}
		case len(after) == 1:
			a.Path = after[0]
			a.RevArgs = words
			a.NoDashDash = sep != "--"
		default:
			return nil, usageErr("usage", true)
		}
	} else {
		switch {
		case len(words) == 0:
			return nil, usageErr("usage", true)
		case len(words) == 2 && ctx.resolve(words[1]).Kind >= NameObject:
			// blame <path> <rev>
			a.Path = words[0]
			a.RevArgs = []string{words[1]}
		default:
			if len(words) == 1 && ctx.Bare && ctx.resolve(words[0]).Kind >= NameObject {
				return nil, fatalf("missing <path> to blame")
			}
			a.Path = words[len(words)-1]
			a.RevArgs = words[:len(words)-1]
		}
	}
	// setup_revisions ignores a lone "-".
	a.RevArgs = slices.DeleteFunc(slices.Clone(a.RevArgs), func(w string) bool { return w == "-" })
	return &a, nil
}

// jsonConflict refuses --json with the options that choose another
// output (git's output formats) or that make no sense for a stream of
// records read by a program (--progress, which git refuses with its
// machine formats too): a usage error, exit status 129, in the words git
// uses for options that cannot be used together. The options that only
// change the columns of git's formats (-l, -t, -s, -e, -f, -n, -b,
// --abbrev, --date, colours, --score-debug, --show-stats) are ignored, as
// --porcelain and --incremental ignore them, so that configuration
// setting them (blame.showEmail, blame.date, ...) does not get in the way.
func jsonConflict(a *BlameArgs, annotate bool) error {
	other := ""
	switch {
	case annotate:
		const msg = "--json cannot be used with git annotate"
		return &UsageError{Message: msg, Stderr: reportLine("error: ", msg), ExitCode: 129}
	case a.Incremental:
		other = "--incremental"
	case a.Porcelain && a.LinePorcelain:
		other = "--line-porcelain"
	case a.Porcelain:
		other = "--porcelain"
	case a.Annotate:
		other = "-c"
	case a.Progress > 0:
		other = "--progress"
	default:
		return nil
	}
	msg := fmt.Sprintf("options '%s' and '%s' cannot be used together", "--json", other)
	return &UsageError{Message: msg, Stderr: reportLine("error: ", msg), ExitCode: 129}
}

// firstErrorLine is the first "error: " message in git's output, for
// UsageError.Message.
func firstErrorLine(stderr string) string {
	line, _, _ := strings.Cut(stderr, "\n")
	if rest, ok := strings.CutPrefix(line, "error: "); ok {
		return rest
	}
	return line
}

// sortedUnique returns the values sorted and without duplicates: git's
// string_list_insert, which blame.ignoreRevsFile entries go through.
func sortedUnique(values []string) []string {
	out := slices.Clone(values)
	sort.Strings(out)
	return slices.Compact(out)
}

// blameOptionState is what blame's option callbacks keep beyond BlameArgs.
type blameOptionState struct {
	args   *BlameArgs
	ctx    *ParseContext
	abbrev int // blame's abbrev variable before the final adjustment
}

// blameOptionTable is git blame's option table (builtin/blame.c), in
// git's order, with callbacks that record into st.args. Usage builds it
// with a nil st, never calling the callbacks.
func blameOptionTable(st *blameOptionState) []poOption {
	var a *BlameArgs
	if st != nil {
		a = st.args
	}
	flag := func(field func() *bool) func(*poParser, *string, bool) error {
		return func(_ *poParser, _ *string, unset bool) error {
			*field() = !unset
			return nil
		}
	}
	stringList := func(field func() *[]string) func(*poParser, *string, bool) error {
		return func(_ *poParser, arg *string, unset bool) error {
			if unset {
				*field() = nil
			} else {
				*field() = append(*field(), *arg)
			}
			return nil
		}
	}
	return []poOption{
		{kind: poSetInt, long: "incremental", flags: poNoArg, help: "show blame entries as we find them, incrementally",
			apply: flag(func() *bool { return &a.Incremental })},
		{kind: poSetInt, short: 'b', flags: poNoArg, help: "do not show object names of boundary commits (Default: off)",
			apply: flag(func() *bool { return &a.BlankBoundary })},
		{kind: poSetInt, long: "root", flags: poNoArg, help: "do not treat root commits as boundaries (Default: off)",
			apply: flag(func() *bool { return &a.ShowRoot })},
		{kind: poSetInt, long: "show-stats", flags: poNoArg, help: "show work cost statistics",
			apply: flag(func() *bool { return &a.ShowStats })},
		{kind: poSetInt, long: "progress", flags: poNoArg, help: "force progress reporting",
			apply: func(_ *poParser, _ *string, unset bool) error {
				a.Progress = 1
				if unset {
					a.Progress = 0
				}
				return nil
			}},
		{kind: poBit, long: "score-debug", flags: poNoArg, help: "show output score for blame entries",
			apply: flag(func() *bool { return &a.ScoreDebug })},
		{kind: poBit, long: "no-cache", flags: poNoArg | poNoNeg | poGoblame, help: "do not read or write the blame cache (goblame's own; GOBLAME_CACHE=off does the same)",
			apply: flag(func() *bool { return &a.NoCache })},
		{kind: poBit, short: 'f', long: "show-name", flags: poNoArg, help: "show original filename (Default: auto)",
			apply: flag(func() *bool { return &a.ShowName })},
		{kind: poBit, short: 'n', long: "show-number", flags: poNoArg, help: "show original linenumber (Default: off)",
			apply: flag(func() *bool { return &a.ShowNumber })},
		{kind: poBit, short: 'p', long: "porcelain", flags: poNoArg, help: "show in a format designed for machine consumption",
			apply: flag(func() *bool { return &a.Porcelain })},
		{kind: poBit, long: "line-porcelain", flags: poNoArg, help: "show porcelain format with per-line commit information",
			apply: func(_ *poParser, _ *string, unset bool) error {
				a.Porcelain, a.LinePorcelain = !unset, !unset
				return nil
			}},
		{kind: poBit, short: 'c', flags: poNoArg, help: "use the same output mode as git-annotate (Default: off)",
			apply: flag(func() *bool { return &a.Annotate })},
		{kind: poBit, short: 't', flags: poNoArg, help: "show raw timestamp (Default: off)",
			apply: flag(func() *bool { return &a.RawTime })},
		{kind: poBit, short: 'l', flags: poNoArg, help: "show long commit SHA1 (Default: off)",
			apply: flag(func() *bool { return &a.LongHash })},
		{kind: poBit, short: 's', flags: poNoArg, help: "suppress author name and timestamp (Default: off)",
			apply: flag(func() *bool { return &a.NoAuthor })},
		{kind: poBit, short: 'e', long: "show-email", flags: poNoArg, help: "show author email instead of name (Default: off)",
			apply: flag(func() *bool { return &a.ShowEmail })},
		{kind: poBit, short: 'w', flags: poNoArg, help: "ignore whitespace differences",
			apply: flag(func() *bool { return &a.IgnoreWhitespace })},
		{kind: poCallback, long: "ignore-rev", argh: "rev", help: "ignore <rev> when blaming",
			apply: stringList(func() *[]string { return &a.IgnoreRevs })},
		{kind: poCallback, long: "ignore-revs-file", argh: "file", help: "ignore revisions from <file>",
			apply: stringList(func() *[]string { return &a.IgnoreRevsFiles })},
		{kind: poBit, long: "color-lines", flags: poNoArg, help: "color redundant metadata from previous line differently",
			apply: flag(func() *bool { return &a.ColorLines })},
		{kind: poBit, long: "color-by-age", flags: poNoArg, help: "color lines by age",
			apply: flag(func() *bool { return &a.ColorByAge })},
		{kind: poBit, long: "minimal", flags: poNoArg, help: "spend extra cycles to find better match",
			apply: flag(func() *bool { return &a.Minimal })},
		{kind: poString, short: 'S', argh: "file", help: "use revisions from <file> instead of calling git-rev-list",
			apply: func(_ *poParser, arg *string, _ bool) error {
				v := *arg
				a.RevsFile = &v
				return nil
			}},
		{kind: poString, long: "contents", argh: "file", help: "use <file>'s contents as the final image",
			apply: func(_ *poParser, arg *string, unset bool) error {
				if unset {
					a.Contents = nil
					return nil
				}
				v := *arg
				a.Contents = &v
				return nil
			}},
		{kind: poCallback, short: 'C', argh: "score", flags: poOptArg, help: "find line copies within and across files",
			apply: func(_ *poParser, arg *string, _ bool) error {
				a.CopyLevel = min(a.CopyLevel+1, 3)
				a.Move = true
				if arg != nil {
					a.CopyScore = parseScore(*arg)
				}
				return nil
			}},
		{kind: poCallback, short: 'M', argh: "score", flags: poOptArg, help: "find line movements within and across files",
			apply: func(_ *poParser, arg *string, _ bool) error {
				a.Move = true
				if arg != nil {
					a.MoveScore = parseScore(*arg)
				}
				return nil
			}},
		{kind: poCallback, short: 'L', argh: "range", help: "process only line range <start>,<end> or function :<funcname>",
			apply: stringList(func() *[]string { return &a.Ranges })},
		{kind: poCallback, long: "abbrev", argh: "n", flags: poOptArg, help: "use <n> digits to display object names",
			apply: func(p *poParser, arg *string, unset bool) error {
				switch {
				case arg == nil && unset:
					st.abbrev = 0
				case arg == nil:
					st.abbrev = -1
					if st.ctx.CoreAbbrev != 0 {
						st.abbrev = st.ctx.CoreAbbrev
					}
				default:
					v, ok := parseAbbrevValue(*arg, st.ctx.hexSize())
					if !ok {
						return p.errorf("option `%s' expects a numerical value", "abbrev")
					}
					st.abbrev = v
				}
				return nil
			}},
		// goblame's own options, which git's help and matching never see.
		{kind: poSetInt, long: "json", flags: poNoArg | poGoblame,
			help:  "print the blame as newline-delimited JSON records, entries in --incremental's order (schema format/blame.schema.json, described in the README's JSON output; refused with --porcelain, --line-porcelain, --incremental, -c and --progress)",
			apply: flag(func() *bool { return &a.JSON })},
	}
}

// parseScore is blame's parse_score: strtoul of the whole value, 0 when
// anything follows the number, truncated to an unsigned int.
func parseScore(arg string) uint32 {
	v, end := strtoul(arg)
	if end != len(arg) {
		return 0
	}
	return uint32(v)
}

// parseAbbrevValue is parse_opt_abbrev_cb for an explicit value: a number
// (strtol, truncated to an int) that is clamped to 4..hexsz unless 0.
func parseAbbrevValue(arg string, hexsz int) (int, bool) {
	if arg == "" {
		return 0, false
	}
	n, end := strtol(arg)
	if end != len(arg) {
		return 0, false
	}
	v := int(int32(n))
	switch {
	case v != 0 && v < 4:
		v = 4
	case v > hexsz:
		v = hexsz
	}
	return v, true
}
