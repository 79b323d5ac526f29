package cli

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/goblame/goblame/oid"
)

// TestOwnOptions checks goblame's own first arguments: --version, --help
// where man cannot show the page (no man on PATH: the plain-text manual,
// whatever follows --help), and the completion word list. The install
// test (../install_test.go) runs --help through man.
func TestOwnOptions(t *testing.T) {
	dir := t.TempDir()
	res := runGoblame(dir, oid.SHA1, nil, nil, "--version", "ignored")
	if want := VersionLine(); string(res.Stdout) != want || res.ExitCode != 0 || len(res.Stderr) != 0 {
		t.Errorf("--version: %q %q %d, want %q", res.Stdout, res.Stderr, res.ExitCode, want)
	}
	if v := VersionLine(); !strings.HasPrefix(v, "goblame version "+Version) || !strings.HasSuffix(v, " (git blame "+GitVersion+" compatible)\n") {
		t.Errorf("VersionLine() = %q", v)
	}

	noMan := []string{"PATH=" + t.TempDir()}
	for _, args := range [][]string{
		{"--help"}, {"--help", "file"}, {"--help", "-w"}, {"--help", "--version"}, {"--help", "--no-such-option", "x", "y"},
		{"annotate", "--help"},
	} {
		res = runGoblame(dir, oid.SHA1, nil, noMan, args...)
		if res.ExitCode != 0 || len(res.Stderr) != 0 || string(res.Stdout) != ManualText() {
			t.Errorf("%q without man: exit %d, stderr %q, stdout %.80q", args, res.ExitCode, res.Stderr, res.Stdout)
		}
	}
	if !strings.HasPrefix(ManualText(), "GOBLAME(1)") || !strings.Contains(ManualText(), "\n       --contents <file>\n") {
		t.Errorf("the plain-text manual is not goblame's page: %.200q", ManualText())
	}

	res = runGoblame(dir, oid.SHA1, nil, nil, "--generate-bash-completion")
	words := strings.Split(strings.TrimSuffix(string(res.Stdout), "\n"), "\n")
	if res.ExitCode != 0 || len(words) < 31 || words[0] != "--incremental" || words[1] != "-b" {
		t.Errorf("--generate-bash-completion: %q (%d words)", res.Stdout, len(words))
	}
}

// TestHelpPager checks the pager choice for the plain-text manual: none
// off a terminal; GIT_PAGER, PAGER, then less on one; "cat" for none.
func TestHelpPager(t *testing.T) {
	for _, c := range []struct {
		tty       bool
		env       map[string]string
		wantPager string
	}{
		{false, map[string]string{"GIT_PAGER": "more"}, ""},
		{true, nil, "less"},
		{true, map[string]string{"PAGER": "more"}, "more"},
		{true, map[string]string{"GIT_PAGER": "most", "PAGER": "more"}, "most"},
		{true, map[string]string{"GIT_PAGER": "cat"}, ""},
		{true, map[string]string{"PAGER": " "}, ""},
	} {
		env := Environ{StdoutIsTerminal: c.tty, Getenv: func(k string) string { return c.env[k] }}
		if got := helpPager(env); got != c.wantPager {
			t.Errorf("helpPager(tty=%v, %v) = %q, want %q", c.tty, c.env, got, c.wantPager)
		}
	}
}

// TestBuildSuffix checks what --version adds from the build's stamp.
func TestBuildSuffix(t *testing.T) {
	for _, c := range []struct {
		info debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, ""},
		{debug.BuildInfo{Main: debug.Module{Version: "v0.2.0"}}, "+v0.2.0"},
		{debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261202-139c25a4d0e1+dirty"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "139c25a4d0e1f00f00f00f00f00f00f00f00f00f"}, {Key: "vcs.modified", Value: "true"}}}, "+139c25a4d0e1.dirty"},
		{debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}}, "+abc"},
	} {
		if got := buildSuffix(&c.info); got != c.want {
			t.Errorf("buildSuffix(%+v) = %q, want %q", c.info, got, c.want)
		}
	}
}
