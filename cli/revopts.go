package cli

// Revision options on a blame command line.
//
// An argument git blame's own option table does not know is handed, with
// everything after it, to the revision machinery (revision.c,
// handle_revision_opt), and what that does not know to the diff option
// parser (diff.c, diff_opt_parse). Four things can happen to it:
//
//   - honoured: it changes blame (--first-parent, --since, --date,
//     --encoding, --no-follow, --find-copies-harder, --textconv,
//     --indent-heuristic, --default, --pretty=reference through the date,
//     --simplify-by-decoration, --topo-order and --graph through the walk,
//     ...); BlameArgs carries the result.
//   - accepted and ignored: it sets something in git's rev_info that
//     blame never reads (--max-count, --author, -U5, --stat, ...);
//     it still consumes a detached value and still fails on a bad value
//     exactly as in git. RevOptions records what a walk could observe.
//   - passed through: a pseudo revision (--all, --not, --branches=..., --glob=,
//     --no-walk, ...) stays in the word list and is resolved with the
//     revisions (BlameArgs.RevArgs).
//   - rejected: neither parser knows it (--stdin, --filter=...):
//     "error: unknown option `...'" and the help, exit status 129.
//
// Some combinations are only refused later, in git's setup_revisions,
// after the revision words have been resolved; BlameArgs.CheckRevisionSetup
// raises those in git's order.

import (
	"slices"
	"strings"

	"github.com/goblame/goblame/blame"
	"github.com/goblame/goblame/internal/cnum"
	"github.com/goblame/goblame/internal/gitdate"
)

// DateLimit is the value of a date-limiting revision option.
type DateLimit struct {
	Value string // as typed
	// Epoch is set for --max-age/--min-age, whose value git reads with
	// atoi as seconds since the epoch; --since/--after/--until/--before
	// are read with approxidate.
	Epoch bool
}

// RevOptions is what the revision and diff options of a blame command line
// set in git's rev_info beyond the fields BlameArgs lifts out. git blame
// 2.39.5 hands rev_info to prepare_revision_walk, so options that make the
// walk "limited" or change how UNINTERESTING spreads can show in corner
// cases; everything else here is accepted and never read by blame.
type RevOptions struct {
	// Args lists every argument the revision and diff parsers consumed,
	// in order, detached values included ("--author", "me").
	Args []string

	ExcludeFirstParentOnly bool            // --exclude-first-parent-only: mark_parents_uninteresting follows first parents only
	AncestryPath           bool            // --ancestry-path (the range's bottoms)
	AncestryPathBottoms    []string        // the <commit> values of --ancestry-path=<commit>
	SimplifyMerges         bool            // --simplify-merges, --simplify-by-decoration
	SimplifyByDecoration   bool            // --simplify-by-decoration: git rewrites the walk's parents
	Sparse                 bool            // --sparse (--dense: false): with --simplify-by-decoration, every one-parent commit counts
	TopoOrder              bool            // --topo-order, --date-order, --author-date-order, --graph, --simplify-*, --early-output
	SortOrder              blame.WalkOrder // the order TopoOrder sorts in: the last of --topo-order, --date-order and --author-date-order (default WalkTopo)
	// Limited is set by options that make prepare_revision_walk run
	// limit_list over the whole history: --children (and so --reverse),
	// --ancestry-path, --simplify-merges, --simplify-by-decoration,
	// --cherry, --cherry-mark, --cherry-pick. setup_revisions also sets it
	// when TopoOrder is set and the repository has no generation numbers.
	Limited     bool
	Children    bool // --children, or --reverse
	WalkReflogs bool // -g, --walk-reflogs
	// IgnoreMissing is --ignore-missing: revision words that name
	// nothing are passed over.
	IgnoreMissing bool
	Default       *string    // --default <rev>: used when no revision is given
	ShowMerge     bool       // --merge: setup_revisions adds HEAD...MERGE_HEAD (and dies without MERGE_HEAD)
	Until         *DateLimit // --until, --before, --min-age (last wins)
	SinceFilter   *DateLimit // --since-as-filter (git's max_age_as_filter)
	MaxCount      int        // --max-count, -<n> (-1 when not given)

	// State only CheckRevisionSetup and the parse-time checks read.
	leftOnly, rightOnly    bool
	cherryMark, cherryPick bool
	graph, trackLinear     bool
	rewriteParents         bool
	grepReflog             bool
	combineMerges          bool
	combinedAllPaths       bool
	diffOutput             uint // DIFF_FORMAT_* bits
	pickaxe                uint // DIFF_PICKAXE_* bits
	detectRename           int  // 0, DIFF_DETECT_RENAME, DIFF_DETECT_COPY
	dateExplicit           bool // --date or --relative-date was given
	followAtSetup          bool // --follow reached setup_revisions (old-order <rev> word)
}

// git's DIFF_FORMAT_* and DIFF_PICKAXE_* bits (diff.h) that the checks use.
const (
	diffFormatRaw        = 0x0001
	diffFormatDiffstat   = 0x0002
	diffFormatNumstat    = 0x0004
	diffFormatSummary    = 0x0008
	diffFormatPatch      = 0x0010
	diffFormatShortstat  = 0x0020
	diffFormatDirstat    = 0x0040
	diffFormatName       = 0x0100
	diffFormatNameStatus = 0x0200
	diffFormatCheckdiff  = 0x0400
	diffFormatNoOutput   = 0x0800

	pickaxeAll         = 1
	pickaxeRegex       = 2
	pickaxeKindS       = 4
	pickaxeKindG       = 8
	pickaxeKindObjfind = 16

	detectRename = 1
	detectCopy   = 2
)

// revParser is the revision half of blame's argument loop: git's
// handle_revision_opt with blame's rev_info.
type revParser struct {
	args *BlameArgs
	ctx  *ParseContext
	// blame is the parser of blame's own table; pass-through words go to
	// its word list and errors to its output.
	blame *poParser
	// diffTable is the diff option table, built on first use.
	diffTable []poOption
}

// handle emulates handle_revision_opt on argv (argv[0] is the option, the
// rest follows it on the command line). It returns how many arguments
// were consumed; 0 when neither the revision nor the diff parser knows
// argv[0]; an error (*FatalError for git's die, errReported when git
// reported an error and exits 129 without the help).
func (r *revParser) handle(argv []string) (int, error) {
	a := r.args
	rev := &a.Rev
	arg := argv[0]

	// Pseudo revisions stay in the word list for setup_revisions.
	if isPassThroughPseudo(arg) {
		r.blame.out = append(r.blame.out, arg)
		return 1, nil
	}

	if v, n, err := revLongOpt(argv, "max-count"); n != 0 || err != nil {
		if err == nil {
			rev.MaxCount = atoi(v)
		}
		return n, err
	}
	if _, n, err := revLongOpt(argv, "skip"); n != 0 || err != nil {
		return n, err
	}
	switch {
	case len(arg) > 1 && arg[0] == '-' && isDigit(arg[1]):
		v, ok := strtolInt(arg[1:])
		if !ok || v < 0 {
			return 0, fatalf("'%s': not a non-negative integer", arg[1:])
		}
		rev.MaxCount = v
		return 1, nil
	case arg == "-n":
		if len(argv) <= 1 {
			r.blame.errorf("-n requires an argument")
			return -1, nil
		}
		rev.MaxCount = atoi(argv[1])
		return 2, nil
	case strings.HasPrefix(arg, "-n"):
		rev.MaxCount = atoi(arg[2:])
		return 1, nil
	}

	for _, d := range []struct {
		name   string
		until  bool
		epoch  bool
		since  bool // honoured: revs->max_age
		filter bool // revs->max_age_as_filter
	}{
		{name: "max-age", epoch: true, since: true},
		{name: "since", since: true},
		{name: "since-as-filter", filter: true},
		{name: "after", since: true},
		{name: "min-age", epoch: true, until: true},
		{name: "before", until: true},
		{name: "until", until: true},
	} {
		v, n, err := revLongOpt(argv, d.name)
		if n == 0 && err == nil {
			continue
		}
		if err != nil {
			return 0, err
		}
		limit := &DateLimit{Value: v, Epoch: d.epoch}
		switch {
		case d.since:
			a.Since = limit
		case d.until:
			rev.Until = limit
		case d.filter:
			rev.SinceFilter = limit
		}
		return n, nil
	}

	if n, err, ok := r.flagOption(arg); ok {
		return n, err
	}
	if n, err, ok := r.valueOption(argv); ok {
		return n, err
	}

	// Everything else is for the diff option parser.
	n, err := r.diffOption(argv)
	if n == 0 && err == nil && len(r.blame.out) == r.blame.pos {
		// git keeps the unknown argument in its word list, which shares
		// the argument array: when no argument before it was consumed as
		// an option, that slot is this one, and the diff parser's
		// rewriting of a short-option cluster is undone.
		argv[0] = arg
	}
	return n, err
}

// setupWord handles the <rev> of "blame -- <path> <rev>" when it is an
// option: setup_revisions, which then sees it, treats it as one. Pseudo
// revisions stay in RevArgs; "--", "--end-of-options", "--stdin" and
// unknown options are ignored; other revision and diff options take
// effect, but only on what blame reads after setup_revisions (the walk,
// --first-parent, --since, --encoding, --textconv, --default), and fail as
// they do there: no value can follow, a reported error exits with status
// 128 without the help.
func (r *revParser) setupWord(word string) error {
	a := r.args
	switch {
	case len(word) < 2 || word[0] != '-':
		return nil
	case word == "--" || word == "--end-of-options" || word == "--stdin":
		a.RevArgs = nil
		return nil
	case isSetupPseudo(word):
		return nil
	}
	a.RevArgs = nil
	scratch := *a
	scratch.Rev.Args = slices.Clone(a.Rev.Args)
	scratch.Rev.AncestryPathBottoms = slices.Clone(a.Rev.AncestryPathBottoms)
	scratch.NoFollow = true // blame turned rename following off before setup_revisions
	out := &poParser{}
	setup := &revParser{args: &scratch, ctx: r.ctx, blame: out}
	n, err := setup.handle([]string{word})
	switch {
	case err == errCompletion:
		return &UsageError{Message: "completion", Stdout: out.stdout.String()}
	case err == errReported:
		return &UsageError{Message: firstErrorLine(out.stderr.String()), Stderr: out.stderr.String(), ExitCode: 129}
	case err != nil:
		return err
	case n < 0:
		return &UsageError{Message: firstErrorLine(out.stderr.String()), Stderr: out.stderr.String(), ExitCode: 128}
	case n == 0:
		return nil
	}
	// Keep what blame had already read before setup_revisions.
	keep := *a
	*a = scratch
	a.Date, a.IndentHeuristic, a.NoFollow = keep.Date, keep.IndentHeuristic, keep.NoFollow
	a.FindCopiesHarder, a.CopyLevel, a.Move = keep.FindCopiesHarder, keep.CopyLevel, keep.Move
	a.Rev.followAtSetup = !scratch.NoFollow
	a.Rev.Args = append(a.Rev.Args, word)
	return nil
}

// isSetupPseudo reports whether setup_revisions handles arg as a pseudo
// revision (handle_revision_pseudo_opt): a superset of the options the
// argument loop passes through.
func isSetupPseudo(arg string) bool {
	if isPassThroughPseudo(arg) {
		return true
	}
	switch arg {
	case "--glob", "--exclude", "--exclude-hidden", "--single-worktree", "--no-filter":
		return true
	}
	return strings.HasPrefix(arg, "--filter=")
}

// isPassThroughPseudo reports whether handle_revision_opt leaves arg in
// the word list for setup_revisions.
func isPassThroughPseudo(arg string) bool {
	switch arg {
	case "--all", "--branches", "--tags", "--remotes", "--reflog", "--not",
		"--no-walk", "--do-walk", "--bisect", "--indexed-objects", "--alternate-refs":
		return true
	}
	for _, prefix := range []string{"--glob=", "--exclude=", "--exclude-hidden=",
		"--branches=", "--tags=", "--remotes=", "--no-walk="} {
		if strings.HasPrefix(arg, prefix) {
			return true
		}
	}
	return false
}

// revLongOpt is revision.c's parse_long_opt: "--name=value" consumes one
// argument, "--name value" two; "--name" as the last argument dies.
func revLongOpt(argv []string, name string) (string, int, error) {
	rest, ok := strings.CutPrefix(argv[0], "--")
	if !ok {
		return "", 0, nil
	}
	rest, ok = strings.CutPrefix(rest, name)
	if !ok {
		return "", 0, nil
	}
	if v, ok := strings.CutPrefix(rest, "="); ok {
		return v, 1, nil
	}
	if rest != "" {
		return "", 0, nil
	}
	if len(argv) < 2 {
		return "", 0, fatalf("Option '--%s' requires a value", name)
	}
	return argv[1], 2, nil
}

// flagOption handles the revision options that are a single argument.
func (r *revParser) flagOption(arg string) (int, error, bool) {
	a := r.args
	rev := &a.Rev
	switch arg {
	case "--first-parent":
		a.FirstParent = true
	case "--exclude-first-parent-only":
		rev.ExcludeFirstParentOnly = true
	case "--ancestry-path":
		rev.AncestryPath = true
		rev.Limited = true
	case "-g", "--walk-reflogs":
		rev.WalkReflogs = true
	case "--merge":
		rev.ShowMerge = true
	case "--topo-order":
		rev.TopoOrder, rev.SortOrder = true, blame.WalkTopo
	case "--date-order":
		rev.TopoOrder, rev.SortOrder = true, blame.WalkTopoDate
	case "--author-date-order":
		rev.TopoOrder, rev.SortOrder = true, blame.WalkTopoAuthorDate
	case "--simplify-merges":
		rev.SimplifyMerges, rev.TopoOrder, rev.rewriteParents, rev.Limited = true, true, true, true
	case "--simplify-by-decoration":
		rev.SimplifyMerges, rev.TopoOrder, rev.rewriteParents, rev.Limited = true, true, true, true
		rev.SimplifyByDecoration = true
	case "--early-output":
		rev.TopoOrder = true
	case "--parents":
		rev.rewriteParents = true
	case "--sparse":
		rev.Sparse = true
	case "--dense":
		rev.Sparse = false
	case "--in-commit-order", "--remove-empty", "--merges",
		"--no-merges", "--no-min-parents", "--no-max-parents", "--boundary", "--left-right",
		"--count", "--objects", "--objects-edge", "--objects-edge-aggressive",
		"--verify-objects", "--unpacked", "--no-kept-objects", "-r", "-t", "-v",
		"--expand-tabs", "--no-expand-tabs", "--show-notes", "--notes",
		"--show-signature", "--no-show-signature", "--show-linear-break",
		"--no-notes", "--standard-notes", "--no-standard-notes", "--oneline",
		"--encode-email-headers", "--no-encode-email-headers", "--root",
		"--no-commit-id", "--always", "--no-abbrev", "--abbrev", "--abbrev-commit",
		"--no-abbrev-commit", "--full-diff", "--show-pulls", "--full-history",
		"--log-size", "--basic-regexp", "--extended-regexp", "-E",
		"--regexp-ignore-case", "-i", "--fixed-strings", "-F", "--perl-regexp", "-P",
		"--all-match", "--invert-grep", "--pretty":
		// Accepted; blame never reads what they set.
		if arg == "--show-linear-break" {
			rev.trackLinear = true
		}
	case "--ignore-missing":
		rev.IgnoreMissing = true
	case "--left-only":
		if rev.rightOnly {
			return 0, fatalf("--left-only is incompatible with --right-only or --cherry"), true
		}
		rev.leftOnly = true
	case "--right-only":
		if rev.leftOnly {
			return 0, fatalf("options '%s' and '%s' cannot be used together", "--right-only", "--left-only"), true
		}
		rev.rightOnly = true
	case "--cherry":
		if rev.leftOnly {
			return 0, fatalf("options '%s' and '%s' cannot be used together", "--cherry", "--left-only"), true
		}
		rev.cherryMark, rev.rightOnly, rev.Limited = true, true, true
	case "--cherry-mark":
		if rev.cherryPick {
			return 0, fatalf("options '%s' and '%s' cannot be used together", "--cherry-mark", "--cherry-pick"), true
		}
		rev.cherryMark, rev.Limited = true, true
	case "--cherry-pick":
		if rev.cherryMark {
			return 0, fatalf("options '%s' and '%s' cannot be used together", "--cherry-pick", "--cherry-mark"), true
		}
		rev.cherryPick, rev.Limited = true, true
	case "-m":
		r.setSeparateMerges()
	case "--cc":
		r.setCombinedMerges()
	case "--remerge-diff", "--no-diff-merges":
		r.suppressMerges()
	case "--combined-all-paths":
		rev.combinedAllPaths = true
	case "--graph":
		rev.graph = true
	case "--no-graph":
		rev.graph = false
	case "--relative-date":
		a.Date.Type = DateRelative
		rev.dateExplicit = true
	case "--reverse":
		// Not reached from blame, which turns --reverse into --children;
		// kept so the table is complete. Sets revs->reverse, which blame
		// does not read.
	case "--children":
		rev.Children, rev.Limited = true, true
	default:
		return 0, nil, false
	}
	return 1, nil, true
}

// The --diff-merges family: git keeps several flags; only "combined" and
// "combined-all-paths" matter for the one check blame can hit.
func (r *revParser) suppressMerges() {
	r.args.Rev.combineMerges = false
	r.args.Rev.combinedAllPaths = false
}

func (r *revParser) setSeparateMerges() { r.suppressMerges() }

func (r *revParser) setCombinedMerges() {
	r.suppressMerges()
	r.args.Rev.combineMerges = true
}

// valueOption handles revision options that carry a value.
func (r *revParser) valueOption(argv []string) (int, error, bool) {
	a := r.args
	rev := &a.Rev
	arg := argv[0]

	if v, ok := strings.CutPrefix(arg, "--ancestry-path="); ok {
		rev.Limited = true
		switch name := r.ctx.resolve(v); name.Kind {
		case NameCommittish:
		case NameMissing:
			return 0, fatalf("bad object %s", v), true
		default:
			// git reports these and then "unknown option".
			if name.Kind == NameObject {
				r.blame.errorf("object %s is a %s, not a %s", name.PeeledHex, name.PeeledType, "commit")
			}
			r.blame.errorf("could not get commit for ancestry-path argument %s", v)
			return -1, nil, true
		}
		rev.AncestryPathBottoms = append(rev.AncestryPathBottoms, v)
		return 1, nil, true
	}
	if arg == "--default" {
		if len(argv) <= 1 {
			r.blame.errorf("bad --default argument")
			return -1, nil, true
		}
		d := argv[1]
		rev.Default = &d
		return 2, nil, true
	}
	if v, ok := strings.CutPrefix(arg, "--early-output="); ok {
		if _, ok := strtoulUint(v); !ok {
			return 0, fatalf("'%s': not a non-negative integer", v), true
		}
		rev.TopoOrder = true
		return 1, nil, true
	}
	if strings.HasPrefix(arg, "--unpacked=") {
		return 0, fatalf("--unpacked=<packfile> no longer supported"), true
	}
	for _, prefix := range []string{"--no-kept-objects=", "--min-parents=", "--max-parents=", "--abbrev="} {
		if strings.HasPrefix(arg, prefix) {
			return 1, nil, true
		}
	}
	if v, n, err := revLongOpt(argv, "diff-merges"); n != 0 || err != nil {
		if err != nil {
			return 0, err, true
		}
		switch v {
		case "off", "none", "r", "remerge":
			r.suppressMerges()
		case "1", "first-parent", "separate", "m", "on":
			r.setSeparateMerges()
		case "c", "combined", "cc", "dense-combined":
			r.setCombinedMerges()
		default:
			return 0, fatalf("invalid value for '%s': '%s'", "--diff-merges", v), true
		}
		return n, nil, true
	}
	if v, ok := cutAnyPrefix(arg, "--pretty=", "--format="); ok {
		if err := r.commitFormat(v); err != nil {
			return 0, err, true
		}
		return 1, nil, true
	}
	if v, ok := strings.CutPrefix(arg, "--expand-tabs="); ok {
		if n, ok := strtolInt(v); !ok || n < 0 {
			return 0, fatalf("'%s': not a non-negative integer", v), true
		}
		return 1, nil, true
	}
	if strings.HasPrefix(arg, "--show-linear-break=") {
		rev.trackLinear = true
		return 1, nil, true
	}
	if _, ok := cutAnyPrefix(arg, "--show-notes=", "--notes="); ok {
		return 1, nil, true
	}
	if v, n, err := revLongOpt(argv, "date"); n != 0 || err != nil {
		if err != nil {
			return 0, err, true
		}
		mode, err := ParseDateFormat(v, r.ctx.StdoutIsTerminal)
		if err != nil {
			return 0, err, true
		}
		a.Date = mode
		rev.dateExplicit = true
		return n, nil, true
	}
	for _, name := range []string{"author", "committer", "grep-reflog", "grep"} {
		if _, n, err := revLongOpt(argv, name); n != 0 || err != nil {
			if name == "grep-reflog" {
				rev.grepReflog = true
			}
			return n, err, true
		}
	}
	if v, n, err := revLongOpt(argv, "encoding"); n != 0 || err != nil {
		if err != nil {
			return 0, err, true
		}
		if v == "none" {
			v = ""
		}
		a.Encoding = &v
		return n, nil, true
	}
	return 0, nil, false
}

func cutAnyPrefix(s string, prefixes ...string) (string, bool) {
	for _, p := range prefixes {
		if v, ok := strings.CutPrefix(s, p); ok {
			return v, true
		}
	}
	return "", false
}

// builtinCommitFormats are pretty.c's built-in --pretty formats, in git's
// order (the shortest name that a value abbreviates wins).
var builtinCommitFormats = []string{"raw", "medium", "short", "email", "mboxrd", "fuller", "full", "oneline", "reference"}

// commitFormat is get_commit_format: git dies on a name that is neither a
// format string nor a (prefix of a) known format. Only "reference" matters
// to blame: unless a date format was given, it switches the date to
// "short".
func (r *revParser) commitFormat(arg string) error {
	if strings.HasPrefix(arg, "format:") {
		return nil
	}
	if arg == "" || strings.HasPrefix(arg, "tformat:") || strings.Contains(arg, "%") {
		return nil
	}
	name, err := r.findCommitFormat(arg, arg, 0)
	if err != nil {
		return err
	}
	if name == "reference" && !r.args.Rev.dateExplicit {
		r.args.Date.Type = DateShort
	}
	return nil
}

// findCommitFormat resolves a --pretty name through the built-in formats
// and the pretty.<name> aliases as find_commit_format_recursive does: the
// shortest name that sought abbreviates wins, and an alias is followed. It
// returns the built-in format reached, or "" for a user format string.
func (r *revParser) findCommitFormat(sought, original string, redirections int) (string, error) {
	type entry struct {
		name, value string
		builtin     bool
	}
	var entries []entry
	for _, n := range builtinCommitFormats {
		entries = append(entries, entry{name: n, builtin: true})
	}
	for _, f := range r.ctx.PrettyFormats {
		if isBuiltinFormat(f.Name) {
			continue
		}
		i := slices.IndexFunc(entries, func(e entry) bool { return !e.builtin && e.name == f.Name })
		if i < 0 {
			entries = append(entries, entry{name: f.Name})
			i = len(entries) - 1
		}
		entries[i].value = f.Value
	}
	if redirections >= len(entries) {
		return "", fatalf("invalid --pretty format: '%s' references an alias which points to itself", original)
	}
	found := -1
	for i, e := range entries {
		if strings.HasPrefix(e.name, sought) && (found < 0 || len(entries[found].name) > len(e.name)) {
			found = i
		}
	}
	if found < 0 {
		return "", fatalf("invalid --pretty format: %s", original)
	}
	e := entries[found]
	switch {
	case e.builtin:
		return e.name, nil
	case strings.HasPrefix(e.value, "format:"), strings.HasPrefix(e.value, "tformat:"), strings.Contains(e.value, "%"):
		return "", nil
	}
	return r.findCommitFormat(e.value, original, redirections+1)
}

func isBuiltinFormat(name string) bool {
	for _, n := range builtinCommitFormats {
		if n == name {
			return true
		}
	}
	return false
}

// LimitedWalk reports whether the revision options make git's walk limited
// (revs->limited: --ancestry-path, --simplify-merges,
// --simplify-by-decoration, --cherry-pick, --cherry-mark, --cherry,
// --children; --topo-order, its kin and --graph where the commit-graph
// gives no generation numbers), which walks the whole history before
// blame starts (limit_list). generationNumbers is asked only where it
// decides (it opens the commit-graph).
func (a *BlameArgs) LimitedWalk(generationNumbers func() bool) bool {
	rev := &a.Rev
	return rev.Limited || ((rev.TopoOrder || rev.graph) && !generationNumbers())
}

// NoWalk reports whether --no-walk is in effect once the pass-through
// words (RevArgs) are read: --no-walk[=...] sets it and --do-walk clears
// it, as does an exclusion added to the revisions after it
// (add_pending_object_with_path): ^A, a range's bottom, A^!, A^-, or any
// revision after --not. (A ref listing after --not that lists nothing
// adds nothing, and would leave it set.)
func (a *BlameArgs) NoWalk() bool {
	noWalk, not := false, false
	for _, w := range a.RevArgs {
		switch {
		case w == "--no-walk" || strings.HasPrefix(w, "--no-walk="):
			noWalk = true
		case w == "--do-walk":
			noWalk = false
		case w == "--not":
			not = !not
		case strings.HasPrefix(w, "-") && !not:
		case not != strings.HasPrefix(w, "^") || strings.Contains(w, "..") ||
			strings.HasSuffix(w, "^!") || strings.Contains(w, "^-"):
			noWalk = false
		}
	}
	return noWalk
}

// CheckRevisionSetup raises the errors git's setup_revisions reports after
// the revision words have been resolved successfully, in git's order. The
// driver calls it after resolving RevArgs (and handling --default and
// --merge) and before anything else: generationNumbers is whether the
// repository's commit-graph has generation numbers (setup_revisions then
// does not make a --topo-order walk limited), noWalk whether --no-walk was
// left in effect by the pass-through words.
//
// One check comes before --default and --merge in git (revision_opts_finish
// again, reachable only through an old-order <rev> word: --graph with
// --show-linear-break); it is made first here.
func (a *BlameArgs) CheckRevisionSetup(generationNumbers, noWalk bool) error {
	rev := &a.Rev
	if rev.graph && rev.trackLinear {
		return fatalf("options '%s' and '%s' cannot be used together", "--show-linear-break", "--graph")
	}
	limited := a.LimitedWalk(func() bool { return generationNumbers })
	if rev.combinedAllPaths && !rev.combineMerges {
		return fatalf("--combined-all-paths makes no sense without -c or --cc")
	}
	const checkMask = diffFormatName | diffFormatNameStatus | diffFormatCheckdiff | diffFormatNoOutput
	if multipleBits(rev.diffOutput & checkMask) {
		return fatalf("options '%s', '%s', '%s', and '%s' cannot be used together",
			"--name-only", "--name-status", "--check", "-s")
	}
	if multipleBits(rev.pickaxe & (pickaxeKindS | pickaxeKindG | pickaxeKindObjfind)) {
		return fatalf("options '%s', '%s', and '%s' cannot be used together", "-G", "-S", "--find-object")
	}
	if multipleBits(rev.pickaxe & (pickaxeKindG | pickaxeRegex)) {
		return fatalf("options '%s' and '%s' cannot be used together, use '%s' with '%s'",
			"-G", "--pickaxe-regex", "--pickaxe-regex", "-S")
	}
	if multipleBits(rev.pickaxe & (pickaxeAll | pickaxeKindObjfind)) {
		return fatalf("options '%s' and '%s' cannot be used together, use '%s' with '%s' and '%s'",
			"--pickaxe-all", "--find-object", "--pickaxe-all", "-G", "-S")
	}
	if rev.followAtSetup {
		// blame's path is not a pathspec: setup_revisions sees none.
		return fatalf("--follow requires exactly one pathspec")
	}
	if rev.WalkReflogs && limited {
		return fatalf("cannot combine --walk-reflogs with history-limiting options")
	}
	if rev.rewriteParents && rev.Children {
		return fatalf("options '%s' and '%s' cannot be used together", "--parents", "--children")
	}
	if rev.WalkReflogs && rev.graph {
		return fatalf("options '%s' and '%s' cannot be used together", "--walk-reflogs", "--graph")
	}
	if noWalk && rev.graph {
		return fatalf("options '%s' and '%s' cannot be used together", "--no-walk", "--graph")
	}
	if !rev.WalkReflogs && rev.grepReflog {
		return fatalf("the option '%s' requires '%s'", "--grep-reflog", "--walk-reflogs")
	}
	return nil
}

func multipleBits(x uint) bool { return x&(x-1) != 0 }

// DateMode is a parsed --date value: git's struct date_mode, as the
// renderer (package format) takes it.
type DateMode = gitdate.DateMode

// The date mode types (gitdate's), under the names this package uses.
const (
	DateNormal        = gitdate.DateNormal
	DateRelative      = gitdate.DateRelative
	DateShort         = gitdate.DateShort
	DateISO8601       = gitdate.DateISO8601
	DateISO8601Strict = gitdate.DateISO8601Strict
	DateRFC2822       = gitdate.DateRFC2822
	DateStrftime      = gitdate.DateStrftime
	DateRaw           = gitdate.DateRaw
	DateHuman         = gitdate.DateHuman
	DateUnix          = gitdate.DateUnix
)

// ParseDateFormat parses a --date (or blame.date) value as git's
// parse_date_format does (gitdate.ParseDateModeAuto), failing with git's
// fatal message. stdoutIsTerminal decides "auto:<fmt>" (git: isatty(1) or
// a pager in use).
func ParseDateFormat(spec string, stdoutIsTerminal bool) (DateMode, error) {
	m, err := gitdate.ParseDateModeAuto(spec, stdoutIsTerminal)
	if err != nil {
		return DateMode{}, &FatalError{Message: err.Error()}
	}
	return m, nil
}

// C number parsing, as git's option callbacks use it (internal/cnum).

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// strtoul is C's strtoul(s, &end, 10) (cnum.Strtoul); end is 0 when
// there were no digits.
func strtoul(s string) (uint64, int) {
	v, end, _ := cnum.Strtoul(s, 10)
	return v, end
}

// strtol is C's strtol(s, &end, 10) with a 64-bit long, clamping on
// overflow (cnum.Strtol).
func strtol(s string) (int64, int) {
	v, end, _ := cnum.Strtol(s, 10)
	return v, end
}

// atoi is C's atoi (cnum.Atoi).
func atoi(s string) int { return cnum.Atoi(s) }

// strtolInt is git's strtol_i: the whole string is a number that fits an
// int (an overflowing long is clamped and so never fits).
func strtolInt(s string) (int, bool) {
	v, end := strtol(s)
	if end == 0 || end != len(s) || v != int64(int32(v)) {
		return 0, false
	}
	return int(v), true
}

// strtoulUint is git's strtoul_ui: no "-", the whole string a number that
// fits an unsigned int.
func strtoulUint(s string) (uint32, bool) {
	if strings.Contains(s, "-") {
		return 0, false
	}
	v, end := strtoul(s)
	if end == 0 || end != len(s) || v > 1<<32-1 {
		return 0, false
	}
	return uint32(v), true
}
