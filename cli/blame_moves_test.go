package cli

import (
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// movesScript exercises -M and -C: a function moved within a file, code
// copied from a sibling file changed in the same commit, code copied from
// a file the commit does not touch (when the destination is created, and
// when it already existed), and a reformatting commit for --ignore-rev
// (whitespace and brace changes, a line with nothing like it in the
// parent). Every commit has its own date: git's -M/-C results depend on
// the order of commits with equal dates, which git itself does not fix.
const movesScript = `git init -q r && cd r
cat >main.c <<'CEOF'
#include <stdio.h>

static int helper_alpha(int value)
{
	int doubled = value * 2;
	return doubled + 1;
}

static int helper_beta(int value)
{
	int tripled = value * 3;
	return tripled - 1;
}

int main(void)
{
	printf("%d %d\n", helper_alpha(1), helper_beta(2));
	return 0;
}
CEOF
cat >util.c <<'CEOF'
int utility_function_one(int first_argument, int second_argument)
{
	return first_argument * second_argument + 42;
}

int utility_function_two(const char *string_argument)
{
	return string_argument[0] == 'x';
}
CEOF
cat >lib.c <<'CEOF'
/* a library file that later commits copy from without touching */
int library_routine_compute(int alpha_value, int beta_value, int gamma_value)
{
	return alpha_value * beta_value - gamma_value * 7;
}
CEOF
commit_all initial
# Move helper_beta above helper_alpha (-M finds it).
cat >main.c <<'CEOF'
#include <stdio.h>

static int helper_beta(int value)
{
	int tripled = value * 3;
	return tripled - 1;
}

static int helper_alpha(int value)
{
	int doubled = value * 2;
	return doubled + 1;
}

int main(void)
{
	printf("%d %d\n", helper_alpha(1), helper_beta(2));
	return 0;
}
CEOF
commit_all "move helper_beta"
# Copy from util.c, which this commit also changes (-C).
{ cat main.c; sed -n 1,4p util.c; } >main.tmp && mv main.tmp main.c
printf '/* touched */\n' >>util.c
commit_all "copy utility_function_one into main.c"
# Create a file copying lib.c, untouched here (-C -C: created file).
{ printf '/* new file */\n'; sed -n 2,5p lib.c; printf 'int extra_line_here;\n'; } >copy.c
commit_all "create copy.c from lib.c"
# Copy lib.c into an existing file (-C -C -C).
{ cat util.c; sed -n 2,5p lib.c; } >util.tmp && mv util.tmp util.c
commit_all "copy lib.c into util.c"
# A reformatting commit: indentation and brace style change, plus one
# line that has no counterpart in the parent.
sed -e 's/^\t/    /' -e 's/^{$/ {/' main.c >main.tmp && mv main.tmp main.c
printf 'int completely_new_line_zzz;\n' >>main.c
commit_all "reformat main.c"
sed -i 's/return 0;/return 1;/' main.c
commit_all "after reformat"
git rev-parse HEAD~1 >revs
printf '# a comment\n\n%s  # trailing comment\n' "$(git rev-parse HEAD~2)" >>revs
printf 'not-a-revision\n' >badrevs
`

func TestMovesCopiesAndIgnoreRevsMatchGit(t *testing.T) {
	dirs := fixtureDirs(t, "moves", movesScript)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		reformat := strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", "HEAD~1"))
		after := strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", "HEAD"))
		flagSets := [][]string{
			nil, {"-M"}, {"-M5"}, {"-M50"}, {"-C"}, {"-C", "-C"}, {"-C", "-C", "-C"}, {"-C10"}, {"-C30", "-M50"},
			{"-C", "-C1"}, {"-M", "-C", "-C", "-C"}, {"--find-copies-harder"}, {"-w", "-C"},
			{"-C", "-C", "-C", "--porcelain"}, {"-C", "-C", "-C", "--incremental"}, {"-C", "-C", "-C", "-f", "-n"},
			{"--ignore-rev", reformat}, {"--ignore-rev", reformat, "-p"}, {"--ignore-rev", reformat, "--incremental"},
			{"--ignore-rev", reformat, "--ignore-rev", after}, {"--ignore-rev", after, "-M"},
			{"--ignore-rev", "HEAD~1", "--no-ignore-rev"}, {"--ignore-rev", "nosuchrev"},
			{"--ignore-revs-file", "revs"}, {"--ignore-revs-file", "nosuchfile"},
			{"--ignore-revs-file", "revs", "--ignore-revs-file", ""}, {"--ignore-revs-file", "badrevs"},
			{"-C", "--show-stats"}, {"-C", "-C", "--show-stats"}, {"-M", "--show-stats"},
		}
		for _, file := range []string{"main.c", "util.c", "copy.c"} {
			for _, flags := range flagSets {
				compareWithGit(t, dir, format, nil, nil, append(append([]string{}, flags...), "HEAD", "--", file)...)
			}
		}
		marks := []string{"GIT_CONFIG_PARAMETERS='blame.markIgnoredLines'='true' 'blame.markUnblamableLines'='true'"}
		for _, flags := range [][]string{{"--ignore-rev", reformat}, {"--ignore-rev", reformat, "-c"}, {"--ignore-rev", reformat, "-b"}} {
			compareWithGit(t, dir, format, nil, marks, append(flags, "HEAD", "--", "main.c")...)
		}
		cfgFile := []string{"GIT_CONFIG_PARAMETERS='blame.ignoreRevsFile'='revs'"}
		compareWithGit(t, dir, format, nil, cfgFile, "main.c")
		compareWithGit(t, dir, format, nil, cfgFile, "--no-ignore-revs-file", "main.c")
		missing := []string{"GIT_CONFIG_PARAMETERS='blame.ignoreRevsFile'='nosuch'"}
		compareWithGit(t, dir, format, nil, missing, "main.c")
	}
}

// copyChainScript copies lines of src.c into dst.c in a commit that also
// changes src.c, three commits above the last earlier change of src.c:
// the copy's source passes its blame down unchanged commits to that
// change, where it is diffed.
const copyChainScript = `git init -q r && cd r
printf 'int first_function_of_the_source(int value_argument) { return value_argument; }\nint second_function_of_the_source(int other_argument) { return other_argument * 2; }\nint third_function_of_the_source(int third_argument) { return third_argument + 3; }\nint fourth_function_of_the_source(int fourth_argument) { return fourth_argument - 4; }\n' >src.c
printf 'unrelated\n' >other.txt
printf 'int destination_begins_here(void) { return 0; }\n' >dst.c
commit_all c0
sed -i 's/value_argument; }/value_argument + 1; }/' src.c
commit_all c1
echo more >>other.txt
commit_all c2
echo again >>other.txt
commit_all c3
sed -n '2,4p' src.c >>dst.c
echo 'int fifth_function_of_the_source(void) { return 5; }' >>src.c
commit_all c4
`

// TestCopySourceReadCountsAsGit compares --show-stats under -C with git:
// num read blob counts the copy's source once, as git does, whose
// reference from the copied lines keeps the blob read while its blame
// passes down unchanged commits (an earlier goblame dropped it after the
// diff and read it again where src.c changed).
func TestCopySourceReadCountsAsGit(t *testing.T) {
	dirs := fixtureDirs(t, "copy-chain", copyChainScript)
	for _, format := range testgit.Formats {
		for _, flags := range [][]string{{"-C"}, {"-C", "-C"}, {"-C", "-C", "-C"}} {
			compareWithGit(t, dirs[format], format, nil, nil, append(flags, "--show-stats", "HEAD", "--", "dst.c")...)
		}
	}
}

// heldCandidateScript: u.txt (D) copies lines that came into q.txt and
// z-work.txt on branch c (C) and into t.txt on main (E). E's t.txt reads
// q.txt's blob of P as a -C candidate that holds no copy; C's q.txt,
// blamed first, names q.txt of P as its previous, which so stays alive
// (its blob dropped after C's q.txt); C's z-work.txt then searches P in
// three passes (x.txt's copies split its entries), reading q.txt of P in
// each. git reads it once: the origin keeps the blob loaded while it
// lives. goblame remembered the candidate without its blob (E's
// prefilter had let it go) and counted each pass.
const heldCandidateScript = `git init -q r && cd r
lines () { seq $2 $3 | sed "s/.*/$1 line & with enough words to score well/"; }
lines queue 0 9 >q.txt
lines work 0 9 >z-work.txt
lines xtra 0 11 >x.txt
lines tee 0 5 >t.txt
commit_all P
git checkout -q -b c
{ lines "queue new in C" 0 5; lines queue 0 9; } >q.txt
{ lines work 0 9; lines "work new A" 0 3; lines xtra 0 4; lines "work new B" 0 3; lines xtra 6 10; lines "work new C" 0 3; } >z-work.txt
{ lines xtra 0 11; echo "xtra changed in C"; } >x.txt
commit_all C
git checkout -q -
{ lines queue 0 9; echo "queue tail changed on branch E"; } >q.txt
{ lines tee 0 5; lines "brandnew E" 0 3; } >t.txt
commit_all E
test_tick
git merge -q --no-edit c
{ sed -n 1,6p q.txt; sed -n '11,$p' z-work.txt; sed -n 7,10p t.txt; lines own 0 2; } >u.txt
commit_all D
`

// TestHeldCandidateReadCountsAsGit: --show-stats' num read blob counts
// a -C candidate's blob once while its origin lives, as git does
// (heldCandidateScript).
func TestHeldCandidateReadCountsAsGit(t *testing.T) {
	dirs := fixtureDirs(t, "held-candidate", heldCandidateScript)
	for _, format := range testgit.Formats {
		for _, flags := range [][]string{{"-C", "-C"}, {"-C", "-C", "-C"}} {
			compareWithGit(t, dirs[format], format, nil, nil, append(flags, "--show-stats", "HEAD", "--", "u.txt")...)
		}
	}
}
