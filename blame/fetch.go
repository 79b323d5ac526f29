package blame

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/goblame/goblame/internal/startcmd"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
	"github.com/goblame/goblame/repo"
)

// lazyFetch fetches the objects a partial clone lacks from its promisor
// remotes as git does when it reads one (promisor_remote_get_direct):
// one object at a time, through
//
//	git -c fetch.negotiationAlgorithm=noop fetch <remote> --no-tags
//	    --no-write-fetch-head --recurse-submodules=no --filter=blob:none --stdin
//
// with the object's name on its standard input, each promisor remote in
// turn until one succeeds. Like git, it writes what it fetches into the
// repository (a new pack), and GIT_NO_LAZY_FETCH turns it off.
type lazyFetch struct {
	r *Repository

	once         sync.Once
	remotes      []string
	err          error
	warnedNoLazy atomic.Bool // the warning about GIT_NO_LAZY_FETCH was given
	settings     atomic.Pointer[commandSettings]
}

// commandSettings are the environment and standard error a blame gives
// the programs it runs (Options.CommandEnv and CommandStderr); the
// latest blame's serve the lazy fetch.
type commandSettings struct {
	env    []string
	stderr io.Writer
}

// installLazyFetch gives r's object database the lazy fetch when the
// repository is a partial clone (extensions.partialClone, or a remote
// with remote.<name>.promisor or .partialCloneFilter).
func (r *Repository) installLazyFetch() {
	if !r.repo.MayBePartialClone() || r.repo.Objects == nil {
		return
	}
	r.lazy = &lazyFetch{r: r}
	r.repo.Objects.SetFetchMissing(r.lazy.fetch)
}

// setCommands records a blame's settings for the programs it runs.
func (r *Repository) setCommands(opts *Options) {
	if r.lazy != nil {
		r.lazy.settings.Store(&commandSettings{env: opts.CommandEnv, stderr: opts.CommandStderr})
	}
}

// fetch is the odb's missing-object fetch (see odb.DB.SetFetchMissing).
func (l *lazyFetch) fetch(id oid.ID) error {
	s := l.settings.Load()
	if s == nil {
		s = &commandSettings{}
	}
	env := s.env
	if env == nil {
		env = os.Environ()
	}
	l.once.Do(func() { l.remotes, l.err = l.r.repo.PromisorRemotes() })
	if l.err != nil {
		return l.err
	}
	if len(l.remotes) == 0 {
		// remote.<name>.promisor=false only: no promisor remote, and git
		// neither fetches nor warns.
		return fmt.Errorf("odb: %s: %w", id, odb.ErrNotFound)
	}
	noLazy := false
	if v, ok := startcmd.EnvValue(env, "GIT_NO_LAZY_FETCH"); ok {
		b, valid := repo.ParseBool(v, true)
		if !valid {
			return fatalf("bad boolean config value '%s' for 'GIT_NO_LAZY_FETCH'", v)
		}
		noLazy = b
	}
	if noLazy {
		if !l.warnedNoLazy.Swap(true) && s.stderr != nil {
			io.WriteString(s.stderr, "warning: lazy fetching disabled; some objects may not be available\n")
		}
	} else {
		for _, remote := range l.remotes {
			if l.fetchFrom(remote, id, env, s.stderr) {
				return nil
			}
		}
	}
	return &odb.FetchError{ID: id}
}

// fetchFrom runs git fetch for id from remote; it reports whether the
// command succeeded.
func (l *lazyFetch) fetchFrom(remote string, id oid.ID, env []string, stderr io.Writer) bool {
	c := exec.Command("git", "-c", "fetch.negotiationAlgorithm=noop", "fetch", remote, "--no-tags",
		"--no-write-fetch-head", "--recurse-submodules=no", "--filter=blob:none", "--stdin")
	c.Dir = l.r.repo.WorkTree
	if c.Dir == "" {
		c.Dir = l.r.repo.GitDir
	}
	c.Env = env
	c.Stdin = strings.NewReader(id.String() + "\n")
	stderrOut := attachStderr(c, stderr)
	err := c.Run()
	stderrOut()
	return err == nil
}
