package cli

import (
	"io"
	"os/exec"
	"strings"

	"github.com/goblame/goblame/repo"
)

// pagerCommand is the pager git would start for blame's output on a
// terminal (git_pager): GIT_PAGER, pager.blame, core.pager, PAGER, then
// "less"; "" or "cat" means none.
func (b *blameRun) pagerCommand() string {
	if !b.env.StdoutIsTerminal {
		return ""
	}
	pager := b.env.Getenv("GIT_PAGER")
	if pager == "" {
		if e, ok := b.r.Config.Entry("pager.blame"); ok {
			if on, valid := repo.ParseBool(e.Value, e.HasValue); valid {
				if !on {
					return ""
				}
			} else {
				pager = e.Value
			}
		}
	}
	if pager == "" {
		if v, ok := b.r.Config.Get("core.pager"); ok {
			pager = v
		}
	}
	if pager == "" {
		pager = b.env.Getenv("PAGER")
	}
	if pager == "" {
		pager = "less"
	}
	if pager == "cat" || strings.TrimSpace(pager) == "" {
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
	cmd := exec.Command("sh", "-c", cmdline)
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
