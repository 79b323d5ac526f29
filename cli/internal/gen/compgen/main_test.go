package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

const completionsDir = "../../../../completions"

// TestCompletionsUpToDate checks that the committed scripts are what the
// option tables generate now (go generate ./cli rewrites them).
func TestCompletionsUpToDate(t *testing.T) {
	opts := options()
	for _, s := range scripts {
		got, err := os.ReadFile(filepath.Join(completionsDir, s.file))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != s.render(opts) {
			t.Errorf("completions/%s is out of date: run go generate ./cli", s.file)
		}
	}
}

// completionRepo is a repository with branches, a tag and files in
// directories, for the completion tests.
func completionRepo(t *testing.T) string {
	return testgit.Fixture(t, "compgen", oid.SHA1, `
git init -q r && cd r
mkdir -p src docs
echo a >README.md; echo b >src/main.go; echo c >docs/guide.txt; echo d >untracked.txt
git add README.md src docs
test_tick
git commit -q -m first
git branch feature
git tag v1.0
`)
}

// bashComplete runs the bash completion function on words (the last is
// the word being completed) in dir, the way bash calls it: COMP_WORDS split
// at COMP_WORDBREAKS, COMP_CWORD, COMP_LINE and COMP_POINT.
func bashComplete(t *testing.T, dir, line string) []string {
	t.Helper()
	script, err := filepath.Abs(filepath.Join(completionsDir, "goblame.bash"))
	if err != nil {
		t.Fatal(err)
	}
	// bash's own splitting of the line into COMP_WORDS: blanks separate
	// words, and each of COMP_WORDBREAKS' '=' and ':' is a word of its own.
	var words []string
	for _, f := range strings.Fields(line) {
		for f != "" {
			i := strings.IndexAny(f, "=:")
			switch {
			case i < 0:
				words, f = append(words, f), ""
			case i == 0:
				words, f = append(words, f[:1]), f[1:]
			default:
				words, f = append(words, f[:i]), f[i:]
			}
		}
	}
	if strings.HasSuffix(line, " ") || strings.HasSuffix(line, "=") || strings.HasSuffix(line, ":") {
		words = append(words, "")
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	prog := "source " + script + "\n" +
		"COMP_WORDS=(" + strings.Join(quoted, " ") + ")\n" +
		"COMP_CWORD=" + itoa(len(words)-1) + "\n" +
		"COMP_LINE='" + line + "'\nCOMP_POINT=" + itoa(len(line)) + "\n" +
		"_goblame 2>/dev/null\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
	cmd := exec.Command("bash", "--norc", "--noprofile", "-c", prog)
	cmd.Dir = dir
	cmd.Env = testgit.Env(oid.SHA1)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash completion of %q: %v\n%s", line, err, out)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(got) == 1 && got[0] == "" {
		return nil
	}
	slices.Sort(got)
	return got
}

func itoa(n int) string { return strconv.Itoa(n) }

// completionCases are command lines and what completing their last word
// offers, sorted; the same for every shell.
var completionCases = []struct {
	line string
	want []string
}{
	{"goblame --da", []string{"--date="}},
	{"goblame --show-n", []string{"--show-name", "--show-number"}},
	{"goblame --date=is", []string{"iso", "iso-strict", "iso8601", "iso8601-strict"}},
	{"goblame --date ra", []string{"raw"}},
	{"goblame --encoding=UTF", []string{"UTF-16", "UTF-8"}},
	{"goblame fea", []string{"feature"}},
	{"goblame v1", []string{"v1.0"}},
	{"goblame src/", []string{"src/main.go"}},
	{"goblame HEAD -- READ", []string{"README.md"}},
	{"goblame -- fea", nil},
	{"goblame untr", nil}, // not tracked
	{"goblame --ignore-rev fe", []string{"feature"}},
	{"goblame --ignore-rev=v", []string{"v1.0"}},
	{"goblame --contents untr", []string{"untracked.txt"}},
	{"goblame -L ", nil},
}

// TestBashCompletion sources the bash script and calls its completion
// function with COMP_WORDS set as bash sets them.
func TestBashCompletion(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	dir := filepath.Join(completionRepo(t), "r")
	for _, c := range completionCases {
		// bash replaces only the part after '=': the replies are the
		// values alone.
		got := bashComplete(t, dir, c.line)
		if !slices.Equal(got, c.want) {
			t.Errorf("bash: %q completes to %q, want %q", c.line, got, c.want)
		}
	}
}

// TestFishCompletion asks fish for the completions of each case (complete
// -C), with the script sourced.
func TestFishCompletion(t *testing.T) {
	if _, err := exec.LookPath("fish"); err != nil {
		t.Skip("fish is not installed (.ci/run installs it)")
	}
	script, _ := filepath.Abs(filepath.Join(completionsDir, "goblame.fish"))
	dir := filepath.Join(completionRepo(t), "r")
	for _, c := range completionCases {
		cmd := exec.Command("fish", "--no-config", "-c", "source "+script+"; complete -C'"+c.line+"'")
		cmd.Dir = dir
		cmd.Env = testgit.Env(oid.SHA1)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("fish: %q: %v\n%s", c.line, err, out)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
			if l == "" {
				continue
			}
			w, _, _ := strings.Cut(l, "\t")
			// fish offers whole words: a value with its option.
			if i := strings.LastIndexByte(w, '='); i >= 0 && strings.HasPrefix(w, "--") && !strings.HasSuffix(w, "=") {
				w = w[i+1:]
			}
			got = append(got, w)
		}
		slices.Sort(got)
		want := c.want
		if c.line == "goblame --da" {
			want = []string{"--date"} // fish adds the '=' itself
		}
		if !slices.Equal(got, want) {
			t.Errorf("fish: %q completes to %q, want %q", c.line, got, want)
		}
	}
}

// zshCapture prints the matches zsh's completion system offers for the
// last word of a command line, one a line: an interactive zsh on a pty
// (zsh/zpty) with compinit (its dump file $2, built by the first case) and
// the script's directory on fpath is sent the line and a TAB; compadd is
// wrapped to print what each call matches, and the completion widget's end
// prints a marker the reader stops at (no waiting).
const zshCapture = `zmodload zsh/zpty || exit 2
zpty z zsh -f -i || exit 2
zpty -w z "PROMPT=; RPROMPT=; fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -d ${(q)2}"
zpty -w z 'bindkey "^I" complete-word; comppostfuncs=(__done); __done() { print -r -- "@@""DONE@@" }'
zpty -w z 'compadd() { local -a __h; builtin compadd -A __h "$@"; (( $#__h )) && print -rl -- "@@""HIT@@"${^__h} }'
zpty -w -n z "$3"$'\t'
local out line
zpty -r z out '*@@DONE@@*' || exit 3
for line in ${(f)out}; do
	[[ $line == *@@HIT@@* ]] && print -r -- ${${line##*@@HIT@@}%%$'\r'*}
done
zpty -d z
`

// TestZshCompletion runs zsh's completion of each case with the script
// on fpath. zsh's helpers call compadd more than once (_multi_parts offers
// "src/main.go" and its last part "main.go"), so the test checks that the
// matches wanted are among those offered, and that nothing is offered
// where nothing is wanted.
func TestZshCompletion(t *testing.T) {
	if _, err := exec.LookPath("zsh"); err != nil {
		t.Skip("zsh is not installed (.ci/run installs it)")
	}
	out, err := exec.Command("zsh", "-n", filepath.Join(completionsDir, "_goblame")).CombinedOutput()
	if err != nil {
		t.Fatalf("zsh -n _goblame: %v\n%s", err, out)
	}
	capture := filepath.Join(t.TempDir(), "capture.zsh")
	if err := os.WriteFile(capture, []byte(zshCapture), 0o666); err != nil {
		t.Fatal(err)
	}
	fpath, _ := filepath.Abs(completionsDir)
	dump := filepath.Join(t.TempDir(), "zcompdump")
	dir := filepath.Join(completionRepo(t), "r")
	for _, c := range completionCases {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a safety net, not a measure
		cmd := exec.CommandContext(ctx, "zsh", "-f", capture, fpath, dump, c.line)
		cmd.Dir = dir
		cmd.Env = append(testgit.Env(oid.SHA1), "TERM=dumb")
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("zsh: %q: %v\n%s", c.line, err, out)
		}
		got := map[string]bool{}
		for _, l := range strings.Split(string(out), "\n") {
			if l != "" {
				got[l] = true
			}
		}
		want := c.want
		if c.line == "goblame --da" {
			want = []string{"--date"} // zsh adds the '=' itself
		}
		for _, w := range want {
			if !got[w] {
				t.Errorf("zsh: %q offers %q, not %q", c.line, keys(got), w)
			}
		}
		if len(want) == 0 && len(got) > 0 {
			t.Errorf("zsh: %q offers %q, want nothing", c.line, keys(got))
		}
	}
}

func keys(m map[string]bool) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	slices.Sort(k)
	return k
}
