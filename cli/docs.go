package cli

// Documentation of the command line beyond blame's own option table: the
// revision and diff options that change what blame does, and the fixed
// sets of values some options take. The manual page and the completion
// scripts are generated from these lists and from OptionDocs
// (internal/gen/mangen, internal/gen/compgen); docs_test.go checks that
// every option and value listed here is one the parser accepts.

// GitVersion is the version of git whose git blame goblame reproduces.
const GitVersion = "2.39.5"

// RevisionOptionDoc describes a revision or diff option that changes what
// git blame does (revision.c and diff.c options handed on by blame's
// argument loop: see revopts.go). The many other revision and diff
// options git accepts there are accepted and ignored, as in git.
type RevisionOptionDoc struct {
	// Option is the option as typed ("--since", "--date").
	Option string
	// Value is how the manual writes the option's value after it:
	// "=<date>", " <rev>", "[=<pattern>]"; "" when it takes none.
	Value string
	// Arg is how the value may be given.
	Arg ArgForm
	// Example is a value the parser accepts, for the tests.
	Example string
	Help    string
	// Values is the fixed set the value is one of, for completion (nil
	// when the value is free).
	Values []string
	// ValueKind tells completion what the value names when it is not a
	// fixed set: "rev", "file", "date", "pattern" or "".
	ValueKind string
}

// ArgForm is how an option takes its value, as git's revision parser
// reads it.
type ArgForm uint8

const (
	ArgNone     ArgForm = iota // no value
	ArgEither                  // --date=<v> or --date <v> (parse_long_opt)
	ArgAttached                // --glob=<v> only
	ArgDetached                // --default <v> only
	ArgOptional                // --branches or --branches=<v>
)

// RevisionOptionDocs lists the revision and diff options that change
// blame's result or output, in the order the manual page shows them.
func RevisionOptionDocs() []RevisionOptionDoc {
	return []RevisionOptionDoc{
		{Option: "--reverse", Value: " <rev>..<rev>",
			Help: "walk history forward instead of backward: show the last revision in which each line existed (a lone <rev> means <rev>..HEAD)"},
		{Option: "--first-parent", Help: "follow only the first parent of merge commits"},
		{Option: "--ancestry-path", Value: "[=<commit>]", Arg: ArgOptional, Example: "v1.0", ValueKind: "rev",
			Help: "of the range's commits, walk only the bottoms of the range (or <commit>), their descendants and their ancestors; the others are boundaries"},
		{Option: "--simplify-by-decoration",
			Help: "pass blame from each commit to the nearest commits below it that a ref names (or roots), as git's history simplification rewrites their parents: lines are blamed on commits that refs name, the blamed commit, or boundaries"},
		{Option: "--sparse", Help: "with --simplify-by-decoration, keep every commit with one parent too (--dense, the default, undoes it)"},
		{Option: "--topo-order",
			Help: "over a range, walk as git's topological walk does: with the commit-graph's generation numbers only the commits down to the revisions' lowest generation are boundaries (blame may go on past the bottom through a branch forked below it); a --reverse blame's children come in topological order (--date-order and --author-date-order: newest committer or author date first)"},
		{Option: "--since", Value: "=<date>", Arg: ArgEither, Example: "2.weeks.ago", ValueKind: "date",
			Help: "treat commits older than <date> as boundaries (also --after=<date>, --max-age=<seconds>)"},
		{Option: "--date", Value: "=<format>", Arg: ArgEither, Example: "short", Values: DateFormatNames(),
			Help: "the format of dates in the output (blame.date; iso by default), as in git log: " +
				"relative, local, iso, iso-strict, rfc, short, raw, unix, human, default, format:<strftime>, each with -local"},
		{Option: "--relative-date", Help: "same as --date=relative"},
		{Option: "--encoding", Value: "=<encoding>", Arg: ArgEither, Example: "ISO-8859-1", Values: EncodingNames(),
			Help: "re-encode author names and summaries to <encoding> (i18n.logOutputEncoding; none: print them unconverted)"},
		{Option: "--no-follow", Help: "do not follow the file across whole-file renames"},
		{Option: "--find-copies-harder", Help: "same as a second -C: also look for copies in the commit that creates the file"},
		{Option: "--indent-heuristic", Help: "shift hunk boundaries to make the diff easier to read (diff.indentHeuristic; on by default)"},
		{Option: "--no-indent-heuristic", Help: "turn the indent heuristic off"},
		{Option: "--textconv", Help: "run the textconv filters of the file's diff driver on each version (the default)"},
		{Option: "--no-textconv", Help: "blame the versions as stored, without textconv filters"},
		{Option: "--default", Value: " <rev>", Arg: ArgDetached, Example: "HEAD", ValueKind: "rev",
			Help: "the revision to start from when none is given"},
		{Option: "--not", Help: "reverse the meaning of the ^ prefix for the revisions that follow"},
		{Option: "--all", Help: "every ref as a revision (after --not, every ref as an exclusion, as ^<rev>)"},
		{Option: "--branches", Value: "[=<pattern>]", Arg: ArgOptional, Example: "main", ValueKind: "pattern",
			Help: "the branches (matching <pattern>) as revisions"},
		{Option: "--tags", Value: "[=<pattern>]", Arg: ArgOptional, Example: "v*", ValueKind: "pattern",
			Help: "the tags (matching <pattern>) as revisions"},
		{Option: "--remotes", Value: "[=<pattern>]", Arg: ArgOptional, Example: "origin/*", ValueKind: "pattern",
			Help: "the remote-tracking branches (matching <pattern>) as revisions"},
		{Option: "--glob", Value: "=<pattern>", Arg: ArgAttached, Example: "refs/heads/*", ValueKind: "pattern",
			Help: "the refs matching <pattern> as revisions"},
		{Option: "--exclude", Value: "=<pattern>", Arg: ArgAttached, Example: "refs/heads/x*", ValueKind: "pattern",
			Help: "leave the refs matching <pattern> out of the next --all, --branches, --tags, --remotes or --glob"},
		{Option: "--exclude-hidden", Value: "=<section>", Arg: ArgAttached, Example: "receive", Values: []string{"receive", "uploadpack"},
			Help: "leave the refs that <section>.hideRefs and transfer.hideRefs hide out of the next --all or --glob"},
	}
}

// DateFormatNames are the --date formats (git's date mode names; each
// also takes a "-local" suffix, and "format:" a strftime format).
func DateFormatNames() []string {
	return []string{"relative", "local", "iso", "iso8601", "iso-strict", "iso8601-strict", "rfc", "rfc2822",
		"short", "raw", "unix", "human", "default", "format:"}
}

// EncodingNames are common --encoding values offered by completion (any
// encoding glibc's iconv knows is accepted).
func EncodingNames() []string {
	return []string{"none", "UTF-8", "ISO-8859-1", "ISO-8859-15", "Windows-1252", "UTF-16", "EUC-JP", "Shift_JIS", "GBK", "Big5", "KOI8-R"}
}
