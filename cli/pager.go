package cli

import (
	"io"
	"os/exec"

	"github.com/goblame/goblame/repo"
)

// pagerCommand is the pager git would start for blame's output on a
// terminal (git_pager): GIT_PAGER, pager.blame, core.pager, PAGER, then
// "less", the first that is set; set to "" or "cat", none.
func (b *blameRun) pagerCommand() string {
	if !b.env.StdoutIsTerminal {
		return ""
	}
	pager, ok := b.env.lookup("GIT_PAGER")
	if !ok {
		if e, set := b.r.Config.Entry("pager.blame"); set {
			if on, valid := repo.ParseBool(e.Value, e.HasValue); valid {
				if !on {
					return ""
				}
			} else {
				pager, ok = e.Value, true
			}
		}
	}
	if !ok {
		pager, ok = b.r.Config.Get("core.pager")
	}
	if !ok {
		pager, ok = b.env.lookup("PAGER")
	}
	if !ok {
		pager = "less"
	}
	if pager == "" || pager == "cat" {
		return ""
	}
	return pager
}

// startPager runs the pager with blame's output on its standard input, as
// git does (LESS=FRX and LV=-c unless set). It returns the writer to use
// and a function that closes it and waits for the pager. Its environment
// is the other programs' (childEnv: GIT_PREFIX, git's exec path).
func (b *blameRun) startPager(cmdline string) (io.Writer, func(), error) {
	e := b.env
	e.Env = b.childEnv()
	return startPager(e, cmdline)
}

// startPager runs the pager cmdline with env's environment and standard
// output (see blameRun.startPager).
func startPager(e Environ, cmdline string) (io.Writer, func(), error) {
	cmd := exec.Command("/bin/sh", "-c", cmdline) // git's SHELL_PATH
	env := append([]string(nil), e.Env...)
	if e.Getenv("LESS") == "" {
		env = append(env, "LESS=FRX")
	}
	if e.Getenv("LV") == "" {
		env = append(env, "LV=-c")
	}
	cmd.Env = env
	cmd.Stdout = e.Stdout
	cmd.Stderr = e.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return in, func() {
		in.Close()
		cmd.Wait()
	}, nil
}
