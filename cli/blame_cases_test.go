package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
)

// TestWorkTreeBlameMatchesGit compares blame of uncommitted files: the
// working-tree file, --contents <file> and --contents - (editors send
// dirty buffers on standard input), staged-only files, and errors.
func TestWorkTreeBlameMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "worktree", worktreeScript)
	buffer := []byte("ONE\ntwo\nTHREE\nfour\nfive\nsix (buffer)\nseven\n")
	for _, format := range testgit.Formats {
		dir := dirs[format]
		// These show lines not committed yet, which git dates now: they
		// need git 2.39.x itself and are not compared without it.
		for _, args := range [][]string{
			{"file"}, {"-p", "file"}, {"--incremental", "file"}, {"-c", "file"}, {"-L", "4,6", "file"},
			{"moved.txt"}, {"--porcelain", "moved.txt"}, {"staged.txt"}, {"-p", "staged.txt"},
			{"--contents", "-", "file"}, {"--incremental", "--contents", "-", "file"},
			{"--root", "--incremental", "--contents", "-", "--", "file"},
			{"--contents", "moved.txt", "file"},
			{"--not", "HEAD~2", "--", "file"},
			{"HEAD", "^HEAD", "--", "file"}, // no final commit: the working tree
			{"-e", "file"},
		} {
			compareWithLiveGit(t, dir, format, buffer, nil, args...)
		}
		for _, args := range [][]string{
			{"--contents", "nosuch", "file"},
			{"--contents", "-", "HEAD", "--", "file"},
			{"--contents", "-", "--reverse", "HEAD~2..HEAD", "--", "file"},
			{"nosuchfile"},
			// The empty name is given: git fails to stat it, after its
			// other checks and the path's.
			{"--contents=", "file"}, {"--contents", "", "-L", "9,10", "file"},
			{"--contents=", "HEAD", "--", "file"}, {"--contents", "", "--reverse", "HEAD~2..HEAD", "--", "file"},
			{"--contents=", "nosuchfile"},
		} {
			compareWithGit(t, dir, format, buffer, nil, args...)
		}
	}
}

// TestRevisionsAndRangesMatchGit covers revision ranges, boundaries,
// --reverse, --first-parent, --since, tags, old argument order and the
// errors for bad revisions and paths.
func TestRevisionsAndRangesMatchGit(t *testing.T) {
	dirs := fixtureDirs(t, "history", historyScript)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		for _, args := range [][]string{
			{"HEAD~3..HEAD", "--", "file"}, {"-p", "HEAD~3..", "--", "file"}, {"^HEAD~2", "HEAD", "--", "file"},
			{"--not", "HEAD~2", "--not", "HEAD", "--", "file"}, {"HEAD^!", "--", "file"},
			{"v1", "--", "file"}, {"v1^{commit}", "--", "file"}, {"file", "HEAD~1"}, {"--", "file", "HEAD~1"},
			{"--reverse", "HEAD~4..HEAD", "--", "file"}, {"--reverse", "-p", "HEAD~4..HEAD", "--", "file"},
			{"--reverse", "HEAD~4", "--", "file"}, {"--reverse", "--first-parent", "HEAD~3..HEAD", "--", "file"},
			{"--first-parent", "-p", "file"}, {"--since=1112912200", "file"}, {"--since=1112912200", "-p", "file"},
			{"HEAD", "HEAD~1", "--", "file"}, {"nosuchrev", "--", "file"}, {"HEAD:file", "--", "file"},
			{"HEAD", "--", "nosuch"}, {"HEAD~1", "--", "moved.txt"}, {"-L", "99", "file"}, {"-L", "0", "file"},
			{"-L", "2,+0", "file"}, {"-L", "X", "file"}, {"-L", "/nomatch/", "file"}, {"-L", ":nomatch", "file"},
			{"-L", "/t\\(/", "file"}, {"-L", "/four/,/six/", "file"}, {"-L", "^/t/", "-L", "/t/", "file"},
			{"-L", ":THREE", "file"}, {"-L", "2,3", "-L", "3,4", "-p", "file"},
			{"../outside"}, {"/nonexistent/abs"}, {}, {"a", "b", "c"}, {"--bogus-option", "file"},
			{"-h"}, {"--progress", "-p", "file"},
			// A positive revision a negative one names too is not the
			// final commit (git's object flags), and under --reverse
			// one more negative.
			{"HEAD~2...HEAD", "--", "file"}, {"HEAD...HEAD~2", "--", "file"}, {"HEAD~2", "HEAD", "^HEAD~2", "--", "file"},
			{"--reverse", "HEAD~2", "HEAD", "^HEAD~2", "--", "file"}, {"--reverse", "HEAD~3...HEAD", "--", "file"},
			// The branches checked out before (side, then main).
			{"@{-1}", "--", "file"}, {"-p", "@{-2}~1", "--", "file"}, {"@{-3}", "--", "file"},
			{"main@{1000000000}", "--", "file"},
			// --reverse --first-parent wants one latest commit: a second
			// one is named with the first (a range's end too).
			{"--reverse", "--first-parent", "HEAD~3..HEAD", "HEAD~1", "--", "file"},
			{"--reverse", "--first-parent", "HEAD~1", "HEAD~3..", "--", "file"},
			{"--reverse", "--first-parent", "^HEAD~3", "HEAD", "HEAD~1", "--", "file"},
			// --until leaves newer commits out of the list a --reverse
			// blame takes children from, and changes nothing else.
			{"--reverse", "--until=1112912200", "HEAD~4..HEAD", "--", "file"},
			{"--reverse", "--min-age=1112912300", "-p", "HEAD~4", "--", "file"},
			{"--reverse", "--before=2005-04-07 22:20:00 +0000", "HEAD~4..", "--", "file"},
			{"--until=1112912200", "file"}, {"--before=1112912200", "-p", "HEAD~1", "--", "file"},
		} {
			compareWithGit(t, dir, format, nil, nil, args...)
		}
		// A warning comes before the output, as from git's unbuffered
		// standard error, where both go to one place.
		args := []string{"main@{1000000000}", "--", "file"}
		apart := runGoblame(dir, format, nil, nil, args...)
		var both bytes.Buffer
		m := map[string]string{}
		for _, kv := range testgit.Env(format) {
			k, v, _ := strings.Cut(kv, "=")
			m[k] = v
		}
		Main(args, Environ{Dir: dir, Getenv: func(k string) string { return m[k] },
			LookupEnv: func(k string) (string, bool) { v, ok := m[k]; return v, ok }, Env: testgit.Env(format),
			Stdin: bytes.NewReader(nil), Stdout: &both, Stderr: &both, Now: time.Now})
		if len(apart.Stderr) == 0 || both.String() != string(apart.Stderr)+string(apart.Stdout) {
			t.Errorf("%v: goblame %s to one place:\n%s\nwant its warning %q first", format, strings.Join(args, " "), both.String(), apart.Stderr)
		}
		// The progress meter, shown at once.
		for _, args := range [][]string{{"--progress", "file"}, {"--progress", "-L", "3,5", "file"}, {"--progress", "-L", "1,2", "-L", "8,9", "file"}} {
			compareWithGit(t, dir, format, nil, []string{"GIT_PROGRESS_DELAY=0"}, args...)
		}
	}
}

// TestConfigMatchesGit covers the configuration keys blame reads, given
// as git -c would (GIT_CONFIG_PARAMETERS).
func TestConfigMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "history", historyScript)
	cfgs := []string{
		"'blame.showroot'='true'", "'blame.blankboundary'='true'", "'blame.showemail'='true'",
		"'blame.date'='short'", "'blame.date'='relative'", "'blame.coloring'='repeatedLines'",
		"'blame.coloring'='highlightRecent'", "'blame.coloring'='bogus'", "'color.blame.repeatedlines'='bold red'",
		"'color.blame.repeatedlines'='notacolor'", "'color.blame.repeatedlines'='red blue green'",
		"'color.blame.highlightrecent'='red,1 year ago,green'", "'core.abbrev'='12'", "'core.abbrev'='no'",
		"'color.blame.highlightrecent'='bogus'", "'color.blame.highlightrecent'='red,1 year ago,bogus'",
		"'color.blame.highlightrecent'='red,1 year ago'", "'color.blame.highlightrecent'='red, 1 year ago ,green'",
		"'core.quotepath'='false'", "'diff.indentheuristic'='false'", "'blame.showroot'='maybe'",
		"'blame.date'='bogus'", "'core.abbrev'='3'",
		// Booleans as git_config_bool reads them: numbers too.
		"'blame.blankboundary'='1'", "'blame.showemail'='2'", "'blame.showroot'='1k'", "'diff.indentheuristic'='0'",
		"'pager.blame'", "'core.commitgraph'='0'",
		// What prepare_repo_settings reads, and dies of.
		"'core.commitgraph'='bogus'", "'commitgraph.readchangedpaths'='x'", "'commitgraph.generationversion'='x'",
		"'index.version'='9999999999'", "'core.multipackindex'='maybe'", "'fetch.negotiationalgorithm'",
		"'fetch.negotiationalgorithm'='bogus'", "'core.untrackedcache'='keep'", "'feature.manyfiles'='x'",
		// userdiff_config, which git blame runs on every key: a driver's
		// pattern or command without a value, a bad boolean.
		"'diff.y.textconv'", "'diff.y.funcname'", "'diff.y.wordregex'", "'diff..command'", "'diff.textconv'",
		"'diff.y.algorithm'", "'diff.y.binary'='maybe'", "'diff.y.binary'='AUTO'", "'diff.y.binary'",
		"'diff.y.cachetextconv'='x'",
		// git_default_config, which git blame's callback ends with:
		// booleans, booleans or words, values a key needs, numbers with
		// units and ranges, and the keys with rules of their own.
		"'core.filemode'='x'", "'core.logallrefupdates'='ALWAYS'", "'core.autocrlf'='x'", "'core.safecrlf'='warn'",
		"'branch.autosetupmerge'='inherit'", "'advice.StatusHints'='x'", "'advice.nosuchadvice'='x'",
		"'color.advice'='Never'", "'pager.color'='x'", "'user.useconfigonly'='x'",
		"'core.attributesfile'", "'core.attributesfile'='~nosuchuser/x'", "'core.editor'", "'committer.email'",
		"'i18n.commitencoding'", "'core.compression'='-2'", "'core.compression'='-1'", "'pack.compression'='12'",
		"'core.loosecompression'", "'core.packedgitwindowsize'='-1'", "'core.bigfilethreshold'='1x'",
		"'pack.packsizelimit'='0x10G'", "'core.disambiguate'='x'", "'core.disambiguate'='Commit'",
		"'core.commentchar'='ab'", "'core.commentchar'=''", "'core.commentchar'='AUTO'",
		"'core.whitespace'='-trailing,space-before-tab,tabwidth=99'", "'core.whitespace'='tab-in-indent,indent-with-non-tab'",
		"'core.whitespace'='tab-in-indent,indent,-indent'", "'core.fsync'='objects,-bogus,pack,-'", "'core.fsync'='none,bogus'",
		"'core.fsyncmethod'='x'", "'core.fsyncobjectfiles'='1' 'core.fsyncobjectfiles'='x'", "'core.createobject'='x'",
		"'branch.autosetuprebase'='x'", "'push.default'='x'", "'push.default'='tracking'",
		"'color.advice.hint'='bogus'", "'color.advice.reset'", "'color.advice.hint'='bold red'",
		"'core.packedgitlimit'='18446744073709551615'", "'core.packedgitlimit'='18446744073709551616'",
		"'core.packedgitlimit'='17179869184g'", "'core.packedgitlimit'='k'", "'core.packedgitlimit'='  +7k'",
		"'core.packedgitlimit'='09'",
		// Every entry in order: the first core.abbrev, and the first bad key.
		"'core.abbrev'='x' 'core.abbrev'='8'", "'core.abbrev'='2' 'core.filemode'='x'", "'core.filemode'='x' 'core.abbrev'='2'",
	}
	for _, format := range testgit.Formats {
		dir := dirs[format]
		for _, c := range cfgs {
			extra := []string{"GIT_CONFIG_PARAMETERS=" + c, "GIT_TEST_DATE_NOW=1112999999"}
			for _, args := range [][]string{{"file"}, {"-p", "moved.txt"}, {"--no-show-email", "file"}} {
				compareWithGit(t, dir, format, nil, extra, args...)
			}
		}
		// GIT_TEST_DATE_NOW read as get_time's atoi reads it: a leading
		// number (trailing bytes ignored, spaces skipped), 0 for none
		// (an empty value too), truncated to 32 bits.
		for _, now := range []string{"1112999999abc", " 1112999999", "abc", "", "1e9", "4294967296", "2147483648"} {
			compareWithGit(t, dir, format, nil, []string{"GIT_TEST_DATE_NOW=" + now}, "--date=relative", "HEAD", "--", "file")
		}
		// git reads the repository's settings after the options and
		// before it checks them and the revisions.
		for _, c := range []string{"'core.commitgraph'='bogus'", "'fetch.negotiationalgorithm'"} {
			for _, args := range [][]string{{"--bogus", "file"}, {"--progress", "--incremental", "file"}, {"nosuchrev", "--", "file"}} {
				compareWithGit(t, dir, format, nil, []string{"GIT_CONFIG_PARAMETERS=" + c}, args...)
			}
		}
	}
}

// renamedWorktreeScript renames a file and copies another without
// committing: blame of the new names follows them into HEAD through the
// index (git diffs HEAD's tree against the index with the uncommitted
// file in it).
const renamedWorktreeScript = historyScript + `
git mv moved.txt renamed.txt
printf 'zeta\n' >>renamed.txt
cp file copied.txt
printf 'copied tail\n' >>copied.txt
git add copied.txt
`

// TestUncommittedRenameMatchesGit blames files renamed or copied in the
// index only: the working-tree file, a dirty buffer, -M and -C.
func TestUncommittedRenameMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "renamed-worktree", renamedWorktreeScript)
	buffer := []byte("alpha\nbeta (buffer)\ngamma\ndelta\nzeta\n")
	for _, format := range testgit.Formats {
		dir := dirs[format]
		for _, args := range [][]string{
			{"renamed.txt"}, {"-p", "renamed.txt"}, {"--incremental", "renamed.txt"},
			{"--contents", "-", "renamed.txt"}, {"--root", "--incremental", "-w", "--contents", "-", "--", "renamed.txt"},
			{"-M", "renamed.txt"}, {"--no-follow", "renamed.txt"},
			{"copied.txt"}, {"-C", "copied.txt"}, {"-C", "-C", "-p", "copied.txt"}, {"-C", "-C", "-C", "copied.txt"},
		} {
			compareWithLiveGit(t, dir, format, buffer, nil, args...)
		}
	}
}

// TestTimeZonesMatchGit: the local time zone of --date=local and
// format-local: dates as glibc's tzset makes it of TZ: a zone file by name
// or absolute path (with or without a leading ':'), a POSIX rule string
// (offset only, with DST rules, a quoted name), what glibc keeps of one
// that does not parse (a name at UTC's offset), and nothing named.
func TestTimeZonesMatchGit(t *testing.T) {
	dirs := fixtureDirs(t, "history", historyScript)
	zones := []string{"", ":", "UTC", "GMT", "utc", "Nowhere/Bogus", "Asia/Tokyo", ":Asia/Tokyo",
		"/usr/share/zoneinfo/Asia/Tokyo", ":/usr/share/zoneinfo/Asia/Tokyo", "JST-9", "XYZ+3:30", "<+0545>-5:45",
		"EST5EDT,M3.2.0,M11.1.0", "CET-1CEST,M3.5.0,M10.5.0/3", "AB+3", "ABC-1:2:3"}
	_, err := os.Stat("/usr/share/zoneinfo/Asia/Tokyo")
	haveZones := err == nil
	for _, format := range testgit.Formats {
		for _, tz := range zones {
			if strings.Contains(tz, "Asia/") && !haveZones {
				continue // no zone files here, which the goldens had
			}
			for _, args := range [][]string{{"--date=local", "file"}, {"--date=format-local:%c %Z %z", "-L", "1,3", "file"}} {
				compareWithGit(t, dirs[format], format, nil, []string{"TZ=" + tz}, args...)
			}
		}
	}
}

// leapSecondScript commits at the leap second that ended 2016 (Unix time
// 1483228826 in the "right/" zones' count, which git shows as 23:59:60
// there) and around it.
const leapSecondScript = `git init -q r && cd r
for t in 1483228825 1483228826 1483228827 1483228828; do
	echo $t >>f && git add f
	GIT_AUTHOR_DATE="$t +0100" GIT_COMMITTER_DATE="$t +0100" git commit -q -m $t
done
`

// TestLeapSecondZonesMatchGit: where the local zone is a "right/" zone,
// glibc's gmtime and localtime take its leap seconds off every time they
// convert, so git shows every date 27 seconds early (a leap second as
// :60), and the local offset it computes for an ident less a minute
// ("+0059" for +0100). goblame showed the dates of the zone without its
// leap seconds.
func TestLeapSecondZonesMatchGit(t *testing.T) {
	if _, err := os.Stat("/usr/share/zoneinfo/right/Europe/Berlin"); err != nil {
		t.Skip("no right/ zone files here, which the goldens had")
	}
	dirs := fixtureDirs(t, "leap-second", leapSecondScript)
	for _, format := range testgit.Formats {
		for _, tz := range []string{"right/UTC", "right/Europe/Berlin", ":/usr/share/zoneinfo/right/Asia/Tokyo", "Europe/Berlin"} {
			for _, args := range [][]string{
				{"f"}, {"--date=local", "f"}, {"--date=iso-local", "f"}, {"--date=rfc", "f"},
				{"--date=format:%c %s %z", "f"}, {"--date=format-local:%c %s %z %Z", "f"}, {"-p", "f"},
				{"--since=2016-12-31.23:59:58", "HEAD", "--", "f"}, {"--since=1483228826", "HEAD", "--", "f"},
			} {
				compareWithGit(t, dirs[format], format, nil, []string{"TZ=" + tz}, args...)
			}
		}
	}
}
