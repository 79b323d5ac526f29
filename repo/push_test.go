package repo

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

func TestPushMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	configs := [][]string{
		nil,
		{"push.default", "current"}, {"push.default", "nothing"}, {"push.default", "upstream"},
		{"push.default", "matching"}, {"push.default", "tracking"}, {"push.default", "simple"},
		{"remote.pushDefault", "up"}, {"branch.feat.pushRemote", "origin"},
		{"remote.origin.push", "refs/heads/*:refs/heads/pushed/*"},
		{"remote.origin.push", "refs/heads/nomatch:refs/heads/x"},
		{"remote.origin.mirror", "true"},
	}
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "upstream", f, upstreamScript)
		for _, repoDir := range []string{"r", "detached"} {
			dir := filepath.Join(root, repoDir)
			for _, kv := range configs {
				var env []string
				if kv != nil {
					env = []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=" + kv[0], "GIT_CONFIG_VALUE_0=" + kv[1]}
				}
				r, err := Discover(EnvFromList(dir, append(testgit.Env(f), env...)))
				if err != nil {
					t.Fatal(err)
				}
				rd := r.Objects.NewReader()
				for _, spec := range []string{"@{push}", "@{PUSH}", "main@{push}", "side@{push}", "feat@{push}", "loc@{push}",
					"nostore@{push}", "noremote@{push}", "plain@{push}", "nope@{push}", "HEAD@{push}~1"} {
					res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Env: env, Args: []string{"rev-parse", "--verify", "-q", "--end-of-options", spec}})
					id, rerr := r.ResolveRevision(rd, spec)
					want := strings.TrimSpace(string(res.Stdout))
					where := fmt.Sprintf("%s %s %v: %s", f, repoDir, kv, spec)
					switch res.ExitCode {
					case 0:
						if rerr != nil || id.String() != want {
							t.Errorf("%s = %v, %v; git %s", where, id, rerr, want)
						}
					case 128:
						msg := strings.TrimSpace(strings.TrimPrefix(string(res.Stderr), "fatal: "))
						if rerr == nil || !strings.Contains(rerr.Error(), msg) {
							t.Errorf("%s = %v, %v; git dies with %q", where, id, rerr, msg)
						}
					default:
						if rerr == nil {
							t.Errorf("%s = %v; git finds nothing (exit %d)", where, id, res.ExitCode)
						}
					}
				}
				r.Close()
			}
		}
	}
}
