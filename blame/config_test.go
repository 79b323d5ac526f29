package blame_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/goblame/goblame/blame"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
	"github.com/goblame/goblame/repo"
)

// TestConfiguredOptionsChecksDefaultConfig: the library's configured
// options fail as git blame does on a key every git command checks
// (git_default_config), with git's lines (the CLI's are compared with
// git in cli's TestConfigMatchesGit).
func TestConfiguredOptionsChecksDefaultConfig(t *testing.T) {
	for _, c := range []struct {
		config, msg string
		before      []string
	}{
		{"git config core.filemode maybe", "bad boolean config value 'maybe' for 'core.filemode'", nil},
		// (at the line git config wrote it on, which depends on what
		// git init writes)
		{"git config push.default bogus", "bad config variable 'push.default' in file '.git/config' at line ",
			[]string{"error: malformed value for push.default: bogus", "error: must be one of nothing, matching, simple, upstream or current"}},
		{"git config core.compression 12", "bad zlib compression level 12", nil},
		{"git config core.editor vi", "", nil},
	} {
		dir := testgit.Fixture(t, "blame-default-config", oid.SHA1, "git init -q\necho a >a\ngit add a\ngit commit -q -m one\n"+c.config+"\n")
		r, err := blame.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.ConfiguredOptions()
		r.Close()
		if c.msg == "" {
			if err != nil {
				t.Errorf("%s: %v, want none", c.config, err)
			}
			continue
		}
		var re *repo.Error
		if !errors.As(err, &re) || !strings.HasPrefix(re.Msg, c.msg) || len(re.Before) != len(c.before) {
			t.Errorf("%s: %#v, want %q after %q", c.config, err, c.msg, c.before)
			continue
		}
		for i := range c.before {
			if re.Before[i] != c.before[i] {
				t.Errorf("%s: line %q, want %q", c.config, re.Before[i], c.before[i])
			}
		}
	}
}
