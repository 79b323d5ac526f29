package cli

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
	"github.com/goblame/goblame/repo"
)

// TestBlamePagerCommand: the pager git_pager chooses on a terminal, the
// first of GIT_PAGER, pager.blame, core.pager, PAGER and less that is
// set; set to "" or "cat", none (an empty GIT_PAGER or PAGER is set).
func TestBlamePagerCommand(t *testing.T) {
	dir := testgit.Fixture(t, "cli-pager", oid.SHA1, "git init -q\n")
	for _, c := range []struct {
		env  map[string]string
		cfg  string
		want string
	}{
		{nil, "", "less"},
		{map[string]string{"GIT_PAGER": ""}, "'core.pager'='most'", ""},
		{map[string]string{"PAGER": ""}, "", ""},
		{map[string]string{"PAGER": "more"}, "'core.pager'='most'", "most"},
		{map[string]string{"GIT_PAGER": "g", "PAGER": "more"}, "'core.pager'='most'", "g"},
		{map[string]string{"PAGER": "more"}, "'core.pager'=''", ""},
		{nil, "'pager.blame'='false'", ""},
		{nil, "'pager.blame'='pg' 'core.pager'='most'", "pg"},
		{map[string]string{"GIT_PAGER": "cat"}, "", ""},
		{map[string]string{"PAGER": " "}, "", " "},
	} {
		m := map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "HOME": dir,
			"GIT_CONFIG_PARAMETERS": c.cfg}
		for k, v := range c.env {
			m[k] = v
		}
		getenv := func(k string) string { return m[k] }
		lookup := func(k string) (string, bool) { v, ok := m[k]; return v, ok }
		r, err := repo.Discover(repo.Env{Cwd: dir, Getenv: getenv, LookupEnv: lookup})
		if err != nil {
			t.Fatal(err)
		}
		b := &blameRun{env: Environ{StdoutIsTerminal: true, Getenv: getenv, LookupEnv: lookup}, r: r}
		if got := b.pagerCommand(); got != c.want {
			t.Errorf("env %v, config %s: pager %q, want %q", c.env, c.cfg, got, c.want)
		}
		r.Close()
	}
}
