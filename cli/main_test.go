package cli

import (
	"strings"
	"testing"

	"github.com/goblame/goblame/oid"
)

// TestOwnOptions checks goblame's own first arguments: --version in
// urfave/cli's wording (what goblame printed while urfave answered it),
// --help with git's option help, and the completion word list.
func TestOwnOptions(t *testing.T) {
	dir := t.TempDir()
	res := runGoblame(dir, oid.SHA1, nil, nil, "--version")
	if want := "goblame version " + Version + "\n"; string(res.Stdout) != want || res.ExitCode != 0 || len(res.Stderr) != 0 {
		t.Errorf("--version: %q %q %d, want %q", res.Stdout, res.Stderr, res.ExitCode, want)
	}

	res = runGoblame(dir, oid.SHA1, nil, nil, "--help")
	help := string(res.Stdout)
	if res.ExitCode != 0 || len(res.Stderr) != 0 || !strings.HasPrefix(help, "goblame - "+Summary+"\n\nusage: goblame [<options>]") {
		t.Errorf("--help: %q %q %d", res.Stdout, res.Stderr, res.ExitCode)
	}
	// Every option line of git's help is in goblame's.
	for _, line := range strings.Split(Usage(false), "\n") {
		if strings.HasPrefix(line, "    -") && !strings.Contains(help, line+"\n") {
			t.Errorf("--help lacks %q", line)
		}
	}
	for _, s := range []string{"    --help                show this help\n", "    --version             print the version\n"} {
		if !strings.Contains(help, s) {
			t.Errorf("--help lacks %q", s)
		}
	}

	res = runGoblame(dir, oid.SHA1, nil, nil, "--generate-bash-completion")
	words := strings.Split(strings.TrimSuffix(string(res.Stdout), "\n"), "\n")
	if res.ExitCode != 0 || len(words) != 31 || words[0] != "--incremental" || words[1] != "-b" || words[len(words)-1] != "--abbrev" {
		t.Errorf("--generate-bash-completion: %q (%d words)", res.Stdout, len(words))
	}
}
