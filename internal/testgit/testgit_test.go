package testgit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/oid"
)

func TestFixtureIsHermeticAndCached(t *testing.T) {
	RequireGit(t)
	for _, f := range Formats {
		script := `git init -q
printf 'a\n' >file
commit_all one
printf 'a\nb\n' >file
commit_all two
`
		dir := Fixture(t, "basic", f, script)
		again := Fixture(t, "basic", f, script)
		if dir != again {
			t.Fatalf("fixture not cached: %s vs %s", dir, again)
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
			t.Fatal(err)
		}
		log := Git(t, dir, f, "log", "--format=%an <%ae> %at %ai|%cn <%ce>", "main")
		want := "A U Thor <author@example.com> 1112912113 2005-04-07 15:15:13 -0700|C O Mitter <committer@example.com>\n" +
			"A U Thor <author@example.com> 1112912053 2005-04-07 15:14:13 -0700|C O Mitter <committer@example.com>\n"
		if log != want {
			t.Errorf("%s log:\n%s\nwant:\n%s", f, log, want)
		}
		format := strings.TrimSpace(Git(t, dir, f, "rev-parse", "--show-object-format"))
		if format != f.String() {
			t.Errorf("object format %s, want %s", format, f)
		}
		head := strings.TrimSpace(Git(t, dir, f, "rev-parse", "HEAD"))
		if _, err := oid.ParseHex(f, head); err != nil {
			t.Errorf("HEAD %q is not a %s id", head, f)
		}
	}
}
