package main

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/goblame/goblame/cli"
)

// newManual writes goblame's manual page from the option tables
// (cli.OptionDocs, cli.RevisionOptionDocs) and the descriptions below.
func newManual() *manual {
	return &manual{
		name:    cli.Name,
		section: "1",
		title:   "goblame Manual",
		version: cli.Version,
		sections: []section{
			{"NAME", []block{para(cli.Name + " - " + cli.Summary)}},
			{"SYNOPSIS", []block{example{
				"goblame [<options>] [<rev-opts>] [<rev>] [--] <file>",
				"goblame annotate [<options>] [<rev-opts>] [<rev>] [--] <file>",
				"goblame --help",
				"goblame --version",
			}}},
			{"DESCRIPTION", description},
			{"OPTIONS", optionItems(false)},
			{"REVISIONS", revisions},
			{"REVISION AND DIFF OPTIONS", revisionOptionItems()},
			{"GOBLAME OPTIONS", optionItems(true)},
			{"OUTPUT", output},
			{"CONFIGURATION", configItems()},
			{"ENVIRONMENT", environmentItems()},
			{"EXIT STATUS", exitStatus},
			{"DIFFERENCES FROM GIT", differences},
			{"FILES", files},
			{"SEE ALSO", []block{para("git-blame(1), git-annotate(1), gitrevisions(7), git-rev-list(1), " +
				"git-log(1) (for --date and --encoding), git-config(1), gitattributes(5) (textconv, funcname), " +
				"gitmailmap(5), git-help(1)")}},
		},
	}
}

var description = []block{
	para("goblame annotates each line of <file> with the commit that last changed it: " +
		"its abbreviated object name, author, date and line number. It is git blame 2.39.5, " +
		"with the same command line, configuration and output, byte for byte, in every output format, " +
		"for SHA-1 and SHA-256 repositories; only faster. Run it inside a git repository wherever " +
		"`git blame` would be run; `goblame annotate` is `git annotate`."),
	para("Without <rev>, the working tree's <file> is blamed: lines changed since HEAD are attributed " +
		"to \"Not Committed Yet\" (`--contents` blames another version of them, such as an editor's buffer). " +
		"Lines are followed across whole-file renames; `-M` and `-C` also follow lines moved within the file " +
		"or copied from other files."),
	para("goblame is also a Go library (github.com/goblame/goblame/blame), and can stand in for git " +
		"under editors and scripts that run `git blame`: see FILES for the git shim."),
}

// optionExtras are descriptions that follow git's one-line help of an
// option (keyed by its first name in the tag, "-b", "--root"); the test
// checks that each names an option of the table.
var optionExtras = map[string][]block{
	"--incremental": {para("Each blame entry is printed as soon as it is found, in the porcelain-like format " +
		"described in git-blame(1), which editors read while the blame runs.")},
	"-b":           {para("Boundary commits' object names are printed as blanks (blame.blankBoundary).")},
	"--root":       {para("Root commits are blamed like any other commit, without the ^ of a boundary (blame.showRoot).")},
	"--show-stats": {para("Counts of the work done are printed after the blame, as git prints them.")},
	"--progress": {para("Progress is reported on standard error when it is a terminal, after " +
		"GIT_PROGRESS_DELAY seconds (2); `--progress` reports it anyway, `--no-progress` never. " +
		"It cannot be combined with `--porcelain` or `--incremental`.")},
	"--score-debug": {para("The score of lines moved or copied (see `-M` and `-C`): the number of alphanumeric " +
		"characters found moved, which must reach the threshold.")},
	"-f": {para("By default the file name is shown when some line comes from a file of another name (a rename).")},
	"-p": {para("A header for each line: the full object name of its commit, its line numbers in the original " +
		"and the final file, and the size of its group; the first time a commit appears, its author, committer, " +
		"summary, previous commit and file name; then the line after a TAB. " +
		"See THE PORCELAIN FORMAT in git-blame(1).")},
	"--line-porcelain": {para("As `--porcelain`, with the commit's information repeated for every line. Implies `--porcelain`.")},
	"-c":               {para("git annotate's output: the fields separated by TABs, with the full date.")},
	"-t":               {para("Dates as seconds since the epoch and a time zone offset.")},
	"-l":               {para("The full object name instead of the abbreviated one.")},
	"-e":               {para("The email in place of the name (blame.showEmail).")},
	"-w":               {para("Whitespace changes are ignored when a version is compared with its parent to find where lines came from.")},
	"--ignore-rev": {para("The changes of <rev> are blamed on the commit before it that changed the line, or the lines " +
		"near it, as if <rev> had never happened. It may be given several times; `--no-ignore-rev` clears the list. " +
		"With blame.markIgnoredLines, lines passed on from an ignored commit are marked `?`; " +
		"with blame.markUnblamableLines, lines that could not be passed on are marked `*`.")},
	"--ignore-revs-file": {para("The revisions listed in <file> (an object name a line, `#` comments, as for fsck.skipList) " +
		"are ignored as with `--ignore-rev`. It may be given several times, after the files of blame.ignoreRevsFile; " +
		"an empty name clears the list so far.")},
	"--color-lines":  {para("In the default format, metadata repeated from the line before is coloured (cyan, color.blame.repeatedLines).")},
	"--color-by-age": {para("In the default format, the metadata is coloured by the age of the line (color.blame.highlightRecent).")},
	"--minimal":      {para("The diff between versions is the minimal one (slower).")},
	"-S": {para("The commits to walk and their parents are read from <file>, a commit and its parents " +
		"on each line, instead of from the history.")},
	"--contents": {para("<file> (`-` for standard input) is blamed as if it were the working tree's version of the file: " +
		"its lines that differ from the starting revision are \"Not Committed Yet\". " +
		"Editors pass a modified buffer this way (`--contents -`).")},
	"-C": {para("In addition to `-M`, lines moved or copied from other files changed in the same commit are found. " +
		"Given twice, also from any file of the commit that creates the file; three times, from files of any commit. " +
		"<score> is the minimum number of alphanumeric characters of a copied block (40 by default; the last `-C` counts).")},
	"-M": {para("Lines moved or copied within the file are blamed on the commit they came from, not on the commit " +
		"that moved them. <score> is the minimum number of alphanumeric characters of a moved block (20 by default).")},
	"-L": {
		para("It may be given several times; overlapping ranges are merged. <range> is one of:"),
		bullets{
			"<start>,<end> \u2014 lines <start> to <end>; either may be left out (to the end of the file, from its start)",
			"<start>,+<count> or <start>,-<count> \u2014 <count> lines from <start> on, or up to it",
			"/<regex>/ as <start> or <end> \u2014 the first line matching the POSIX regular expression, searched from the end " +
				"of the previous range (^/<regex>/: from the start of the file); as <end>, from <start>",
			":<funcname> \u2014 the function whose funcname line matches <funcname>, up to the next funcname line " +
				"(as git diff finds hunk headers: diff.<driver>.xfuncname); ^:<funcname> searches from the start of the file",
		},
	},
	"--abbrev": {para("Object names are abbreviated to at least <n> hexadecimal digits (core.abbrev; 7 by default, " +
		"more where needed to keep them unique), plus one column for the ^ of boundary commits; " +
		"`--abbrev=0` and `--no-abbrev` print them whole.")},
}

// optionTag is an option's names and value as the help writes them:
// "`-f`, `--show-name`", "`-C`[<score>]", "`--contents` <file>".
func optionTag(o cli.OptionDoc) (tag, key string) {
	var names []string
	if o.Short != 0 {
		names = append(names, "`-"+string(o.Short)+"`")
	}
	if o.Long != "" {
		names = append(names, "`--"+o.Long+"`")
	}
	tag = strings.Join(names, ", ") + o.Value
	key = strings.Trim(strings.SplitN(tag, ",", 2)[0], "`")
	if i := strings.IndexAny(key, "`[ "); i >= 0 {
		key = key[:i]
	}
	return tag, key
}

// sentence makes git's one-line help a sentence: capitalised (unless it
// starts with a command's name, "git" or "goblame"), with a full stop.
func sentence(s string) string {
	if first, _, _ := strings.Cut(s, " "); !strings.HasPrefix(first, "git") && !strings.HasPrefix(first, "goblame") {
		r, n := utf8.DecodeRuneInString(s)
		s = string(unicode.ToUpper(r)) + s[n:]
	}
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// optionItems lists git blame's options (goblame=false: those of git's
// table, in git's order, with -h) or goblame's own (--help, --version,
// --generate-bash-completion and the table's goblame options).
func optionItems(goblame bool) []block {
	var blocks []block
	if !goblame {
		blocks = append(blocks, para("Options are read as git reads them: short options cluster (`-sn`), "+
			"long options may be shortened to a unique prefix and most take a `--no-` form (`--no-abbrev`), "+
			"and `--` ends the options. The first line of each description is git's own help text, "+
			"which `-h` prints."))
	} else {
		blocks = append(blocks,
			para("These are goblame's, not git's: git blame does not have them."),
			item{"`--help`", []block{para("Shows this manual page, as `git blame --help` shows git's: " +
				"`man goblame`, with the manual directory of goblame's installation first on MANPATH; " +
				"where man or the page is missing, the same page as plain text, through the pager when " +
				"standard output is a terminal. Words after `--help` are ignored. Only as the first argument " +
				"(or after `annotate`): later on the command line, `--help` is git's `-h`.")}},
			item{"`--version`", []block{para("Prints goblame's version and the version of git whose git blame it " +
				"reproduces (\"goblame version " + cli.Version + " (git blame " + cli.GitVersion + " compatible)\"), " +
				"with the commit it was built from where the build recorded one.")}},
			item{"`--generate-bash-completion`", []block{para("Prints git blame's options, one a line " +
				"(the shell completions in FILES do not need it).")}},
		)
	}
	for _, o := range cli.OptionDocs() {
		if o.Goblame != goblame || o.Hidden && !goblame {
			continue
		}
		tag, key := optionTag(o)
		body := []block{para(sentence(o.Help))}
		body = append(body, optionExtras[key]...)
		blocks = append(blocks, item{tag, body})
	}
	if !goblame {
		// git's table has no entry for -h: parse-options adds it.
		blocks = append(blocks, item{"`-h`", []block{para("Print git blame's option summary " +
			"on standard output and exit with status 129, as git does.")}})
	}
	return blocks
}

var revisions = []block{
	para("<rev> is the commit to start from, in any syntax of gitrevisions(7) (`HEAD~3`, `v1.0`, `main@{yesterday}`, " +
		"`:/message`); without one, the working tree (or `--contents`) is blamed on top of HEAD. " +
		"Revisions that exclude (`^v1.0`, `v1.0..HEAD`, `--since`) make the commits they exclude boundaries: " +
		"lines older than the range are blamed on its oldest commit, marked `^`."),
	para("`-S` <file> replaces the history walked by the commits it lists; `--reverse` walks it forward."),
}

func revisionOptionItems() []block {
	blocks := []block{para("git blame hands the arguments it does not know to git's revision and diff option parsers; " +
		"goblame does the same. These change what is blamed or how it is printed:")}
	for _, d := range cli.RevisionOptionDocs() {
		blocks = append(blocks, item{"`" + d.Option + "`" + d.Value, []block{para(sentence(d.Help))}})
	}
	blocks = append(blocks, para("Every other option of git rev-list and git diff is accepted and ignored, "+
		"as git blame accepts it (`--max-count`, `--author`, `-U5`, ...), with git's errors for bad values; "+
		"an option that neither parser knows is a usage error (status 129)."))
	return blocks
}

var output = []block{
	para("The default format prints, for each line, the abbreviated object name of its commit (`^` before it " +
		"for a boundary), the file name where it differs (`-f`), the author and date, the line number and the line. " +
		"`-c` prints git annotate's format; `--porcelain`, `--line-porcelain` and `--incremental` the formats for " +
		"programs described in git-blame(1) (THE PORCELAIN FORMAT). goblame's output in each is git's, byte for byte; " +
		"goblame's own formats are in GOBLAME OPTIONS."),
	para("On a terminal the output goes through the pager (GIT_PAGER, pager.blame, core.pager, PAGER, less), as git's does."),
}

// configKey documents a configuration key goblame reads; names are the
// keys as git's documentation spells them (a <placeholder> for a
// subsection).
type configKey struct {
	name, help string
}

var configKeys = []configKey{
	{"blame.blankBoundary", "blank object names for boundary commits, as `-b`"},
	{"blame.coloring", "`repeatedLines` (as `--color-lines`), `highlightRecent` (as `--color-by-age`) or `none`"},
	{"blame.date", "the default `--date` format"},
	{"blame.ignoreRevsFile", "files of revisions to ignore, read before `--ignore-revs-file`'s (may be given several times; an empty value clears the list)"},
	{"blame.markIgnoredLines", "mark lines passed on from an ignored revision with `?`"},
	{"blame.markUnblamableLines", "mark lines an ignored revision changed that could not be passed on with `*`"},
	{"blame.showEmail", "show emails instead of names, as `-e`"},
	{"blame.showRoot", "do not treat root commits as boundaries, as `--root`"},
	{"color.blame.repeatedLines", "the colour of `--color-lines` (cyan)"},
	{"color.blame.highlightRecent", "the colours and ages of `--color-by-age` (`blue,12 month ago,white,1 month ago,red`)"},
	{"core.abbrev", "the length of abbreviated object names (`auto`, a number, or `no` for whole names)"},
	{"core.quotePath", "quote unusual characters in file names (on by default)"},
	{"core.pager", "the pager, after GIT_PAGER and pager.blame"},
	{"pager.blame", "a pager for blame alone, or false for none"},
	{"diff.indentHeuristic", "the indent heuristic of the diff (on by default)"},
	{"diff.<driver>.textconv", "the filter textconv runs on a file whose diff attribute names <driver>"},
	{"diff.<driver>.xfuncname", "the funcname regular expression of `-L :<funcname>` (also diff.<driver>.funcname)"},
	{"core.autocrlf", "end-of-line conversion of the working tree file, with core.eol and the text and eol attributes"},
	{"core.eol", "see core.autocrlf"},
	{"core.attributesFile", "a global attributes file"},
	{"mailmap.file", "a mailmap file read after the repository's .mailmap"},
	{"mailmap.blob", "a mailmap blob (`HEAD:.mailmap` by default in a bare repository)"},
	{"i18n.logOutputEncoding", "the encoding of the names and summaries printed (else i18n.commitEncoding, else UTF-8)"},
	{"i18n.commitEncoding", "see i18n.logOutputEncoding"},
	{"core.commitGraph", "read the commit-graph file (on by default)"},
	{"commitGraph.readChangedPaths", "use its changed-path Bloom filters (on by default)"},
	{"core.multiPackIndex", "read the multi-pack-index (on by default)"},
	{"core.useReplaceRefs", "honour refs/replace/ (on by default)"},
	{"core.disambiguate", "the object type a short object name is taken for when it is ambiguous"},
	{"core.warnAmbiguousRefs", "warn when a name is both a branch and a tag"},
	{"core.bare", "the repository has no working tree"},
	{"core.worktree", "the working tree of the repository"},
	{"core.repositoryFormatVersion", "with extensions.*: the repository's format (extensions.objectFormat for SHA-256)"},
	{"safe.directory", "repositories owned by others that may be read"},
	{"safe.bareRepository", "`explicit` refuses bare repositories found by discovery"},
	{"include.path", "other configuration files (also includeIf.<condition>.path)"},
	{"goblame.maxObjectSize", "the largest object goblame reads, in git's size units (1g by default; 0 for no limit); a key of goblame's own"},
}

func configItems() []block {
	blocks := []block{para("goblame reads git's configuration files (system, global, the repository's, the worktree's, " +
		"`-c` through GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT) as git does, and these keys:")}
	for _, k := range configKeys {
		blocks = append(blocks, item{"`" + k.name + "`", []block{para(sentence(k.help))}})
	}
	return blocks
}

// envVar documents environment variables goblame reads (several names
// for one entry; a trailing <n> stands for a number).
type envVar struct {
	names []string
	help  string
}

var environment = []envVar{
	{[]string{"GIT_DIR", "GIT_WORK_TREE"}, "the repository and its working tree, instead of discovering them from the current directory"},
	{[]string{"GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES"}, "parts of the repository elsewhere, as for git"},
	{[]string{"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM"}, "where discovery stops"},
	{[]string{"GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_GLOBAL", "HOME", "XDG_CONFIG_HOME"}, "the system and global configuration files"},
	{[]string{"GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_<n>", "GIT_CONFIG_VALUE_<n>", "GIT_CONFIG_PARAMETERS"}, "configuration given in the environment (git -c sets GIT_CONFIG_PARAMETERS)"},
	{[]string{"GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_GRAFT_FILE", "GIT_SHALLOW_FILE"}, "replace refs, grafts and the shallow file, as for git"},
	{[]string{"GIT_ATTR_NOSYSTEM"}, "skip the system attributes file"},
	{[]string{"GIT_PAGER", "PAGER"}, "the pager (see OUTPUT); `cat` or an empty value for none"},
	{[]string{"LESS", "LV"}, "set to FRX and -c for the pager unless already set, as git sets them"},
	{[]string{"GIT_PROGRESS_DELAY"}, "seconds before progress is shown (2)"},
	{[]string{"TZ"}, "the time zone of `--date=local` and the -local formats"},
	{[]string{"GIT_TEST_DATE_NOW"}, "the current time, in seconds since the epoch, for git's test suite: the date of uncommitted lines, relative dates and approxidate"},
	{[]string{"MANPATH"}, "where `--help` finds the manual page, after goblame's own manual directory"},
	{[]string{"GOBLAME_CACHE"}, "the blame cache (see FILES): `off` (or 0, false, no) turns it off, as `--no-cache` does; " +
		"a directory moves it (relative to the current directory); by default $XDG_CACHE_HOME/goblame, " +
		"else ~/.cache/goblame (none when $HOME is not a directory)"},
	{[]string{"GOBLAME_CACHE_MAX_BYTES"}, "the size the blame cache is kept under, in bytes (256 MiB)"},
	{[]string{"XDG_CACHE_HOME"}, "where the blame cache is by default"},
	{[]string{"GOBLAME_GIT"}, "the real git the git shim (see FILES) runs for the commands it does not answer itself; " +
		"by default the first git on PATH after the shim's own directory"},
	{[]string{"GOBLAME_TRACE_STATS"}, "when set, goblame prints the blame's internal counters on standard error (goblame's own)"},
	{[]string{"GOBLAME_TRACE_PHASES"}, "a CLOCK_MONOTONIC reading in nanoseconds, taken by the program that starts goblame: goblame then prints on " +
		"standard error, at its end, how many milliseconds after it each phase of the run ended (goblame's own; " +
		"benchmarks/startup/phases.py in the source sets it)"},
}

func environmentItems() []block {
	var blocks []block
	for _, v := range environment {
		tag := make([]string, len(v.names))
		for i, n := range v.names {
			tag[i] = "`" + n + "`"
		}
		blocks = append(blocks, item{strings.Join(tag, ", "), []block{para(sentence(v.help))}})
	}
	return append(blocks, para("NO_COLOR is not read, as git 2.39.5 does not read it: goblame colours only what "+
		"`--color-lines`, `--color-by-age` and blame.coloring ask for."))
}

var exitStatus = []block{
	item{"`0`", []block{para("The blame was printed.")}},
	item{"`128`", []block{para("A fatal error, with a `fatal:` message on standard error: not a repository, " +
		"no such path or revision, a bad configuration value, a damaged object.")}},
	item{"`129`", []block{para("A usage error (an unknown option, a malformed value), with git's message and " +
		"the option summary; also `-h`.")}},
	item{"`134`", []block{para("A negated diff option whose callback git 2.39.5 aborts on (`--no-ignore-matching-lines`), " +
		"with git's BUG: line.")}},
	item{"`141`", []block{para("The pager quit before reading the whole output (`q` in less); git dies of SIGPIPE there.")}},
	para("`--help` exits with man's status."),
}

var differences = []block{
	para("goblame's output is git's; it differs where git hangs, crashes or answers wrongly, and in its own options:"),
	bullets{
		"A FIFO, socket or device where a file such as .mailmap, .gitattributes, info/grafts, a config include, " +
			"an ignore-revs file or a ref should be never blocks: goblame reads only regular files (and /dev/null), under a size limit.",
		"A REF_DELTA cycle in a pack is an error, where git hangs.",
		"A damaged commit-graph or multi-pack-index gives the blame of the repository without it and one `warning:` line, " +
			"where git crashes or dies.",
		"An object declaring more than 1 GiB is refused before anything is allocated for it (goblame.maxObjectSize).",
		"A value-less color.blame.repeatedLines is reported as git reports other missing values, where git crashes.",
		"`--output=<file>` creates no file: goblame writes nothing but its blame cache, never in a repository.",
		"Finished blames are kept in a cache (see FILES) that later blames of the file take over from; " +
			"the output is the same as without it. GOBLAME_CACHE=off or `--no-cache` turns it off.",
		"`--help` shows goblame's page and ignores the words after it; git hands them to git help " +
			"(`git blame --help -w` asks for the HTML page). `-h`, and `--help` after other options, are git's.",
		"The options of GOBLAME OPTIONS are goblame's own.",
		"Not yet: remotes defined in $GIT_DIR/remotes and $GIT_DIR/branches files, negative refspecs (for @{upstream} and @{push}).",
		"`-L` and funcname regular expressions run on goblame's own POSIX engine, written to glibc's " +
			"regcomp/regexec and tested against them; it differs in collation rules of locales other than C.UTF-8 " +
			"(ranges in en_US.UTF-8, for example), in patterns that are not valid UTF-8 under a UTF-8 locale, and " +
			"where glibc's back references are inconsistent. A cgo build (`go install` with a C compiler) uses the C library itself.",
	},
}

var files = []block{
	para("`make install PREFIX=<prefix>` installs:"),
	item{"<prefix>/bin/goblame", []block{para("The command.")}},
	item{"<prefix>/share/man/man1/goblame.1, <prefix>/share/man/man1/git-goblame.1", []block{para("This page, " +
		"also as git-goblame.1 for `git goblame --help`.")}},
	item{"<prefix>/bin/git-goblame", []block{para("A link to goblame, so that `git goblame` runs it.")}},
	item{"<prefix>/share/bash-completion/completions/goblame, <prefix>/share/zsh/site-functions/_goblame, " +
		"<prefix>/share/fish/vendor_completions.d/goblame.fish", []block{para("Completions for bash, zsh and fish: " +
		"options, their fixed values, revisions and tracked files.")}},
	para("`make install-shim PREFIX=<prefix>` adds <prefix>/libexec/goblame/git, a link to goblame. " +
		"Run under the name git, goblame answers `git [<global options>] blame` and `git annotate` itself, " +
		"honouring git's global options (`-C`, `-c`, `--git-dir`, `--work-tree`, `--no-pager`, ...), and runs the real git " +
		"(GOBLAME_GIT, or the next git on PATH after the shim's directory) for every other command and for what " +
		"it does not answer exactly (`git blame --help` among them), with the same arguments, environment, " +
		"standard streams and exit status. Put <prefix>/libexec/goblame first on PATH, or give it to an editor as its git executable."),
	item{"$XDG_CACHE_HOME/goblame (~/.cache/goblame)", []block{para("The blame cache: finished blames, " +
		"one file per repository, file, options and commit, checksummed and checked against the repository " +
		"before use; a damaged entry is a miss. It is kept under GOBLAME_CACHE_MAX_BYTES by removing the " +
		"least recently used entries, and may be deleted at any time. GOBLAME_CACHE moves it or turns it off.")}},
}
