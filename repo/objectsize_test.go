package repo

import (
	"errors"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// TestMaxObjectSizeConfig: goblame.maxObjectSize (git's size units) sets
// the object database's size limit; a bad value is git's bad numeric
// config error.
func TestMaxObjectSizeConfig(t *testing.T) {
	testgit.Golden(t) // skips without git, which builds the fixture (git is not asked anything)
	dir := testgit.Fixture(t, "objectsize", oid.SHA1, "git init -q r && cd r && seq 1 3000 >f && commit_all one")
	open := func(value string) (*Repository, error) {
		return Discover(EnvFromList(dir+"/r", append(testgit.Env(oid.SHA1), "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=goblame.maxObjectSize", "GIT_CONFIG_VALUE_0="+value)))
	}
	read := func(r *Repository) error {
		id, err := r.ResolveRevision(r.Objects.NewReader(), "HEAD:f")
		if err != nil {
			return err
		}
		_, _, err = r.Objects.NewReader().Read(id, nil)
		return err
	}
	for value, wantTooLarge := range map[string]bool{"1k": true, "8k": true, "1m": false, "0": false} {
		r, err := open(value)
		if err != nil {
			t.Fatalf("%s: %v", value, err)
		}
		err = read(r)
		if got := errors.Is(err, odb.ErrTooLarge); got != wantTooLarge {
			t.Errorf("goblame.maxObjectSize=%s: reading a 13.9 KB blob: %v", value, err)
		}
		r.Close()
	}
	if _, err := open("lots"); err == nil || err.Error() != "bad numeric config value 'lots' for 'goblame.maxobjectsize': invalid unit" {
		t.Errorf("bad value: %v", err)
	}
}
