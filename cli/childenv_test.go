package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestWithExecPath(t *testing.T) {
	for _, c := range []struct {
		name      string
		env       []string
		exec, dir string
		want      []string
	}{
		{"PATH set", []string{"A=1", "PATH=/bin:/x", "GIT_EXEC_PATH=/old"}, "/core", "/w",
			[]string{"A=1", "GIT_EXEC_PATH=/core", "PATH=/core:/bin:/x"}},
		{"PATH unset: glibc's default path", []string{"A=1"}, "/core", "/w",
			[]string{"A=1", "GIT_EXEC_PATH=/core", "PATH=/core:/usr/bin:/bin"}},
		{"PATH empty", []string{"PATH="}, "/core", "/w",
			[]string{"GIT_EXEC_PATH=/core", "PATH=/core:"}},
		{"relative: absolute on PATH only", []string{"PATH=/bin"}, "a/../b", "/w/",
			[]string{"GIT_EXEC_PATH=a/../b", "PATH=/w/a/../b:/bin"}},
		{"no exec path", []string{"PATH=/bin"}, "", "/w", []string{"PATH=/bin"}},
		{"no exec path, PATH unset", []string{"A=1"}, "", "/w", []string{"A=1", "PATH=/usr/bin:/bin"}},
		{"the process's environment", nil, "/core", "/w", nil},
	} {
		if got := withExecPath(c.env, c.exec, c.dir); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestGitExecPath(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "fakegit")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n[ \"$1\" = --exec-path ] && echo /fake/core\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := func(kv ...string) Environ {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		var list []string
		for k, v := range m {
			list = append(list, k+"="+v)
		}
		return Environ{Dir: dir, Env: list,
			Getenv:    func(k string) string { return m[k] },
			LookupEnv: func(k string) (string, bool) { v, ok := m[k]; return v, ok }}
	}
	for _, c := range []struct {
		name string
		e    Environ
		want string
	}{
		{"GIT_EXEC_PATH wins", env("GIT_EXEC_PATH", "rel/core", "GOBLAME_GIT", fake), "rel/core"},
		{"asked of GOBLAME_GIT", env("GOBLAME_GIT", fake, "PATH", "/nonexistent"), "/fake/core"},
		{"asked of the git on PATH", env("GOBLAME_GIT", "fakegit", "PATH", "/nonexistent:"+dir), "/fake/core"},
		{"no git to ask", env("PATH", "/nonexistent"), ""},
	} {
		if got := gitExecPath(c.e); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
