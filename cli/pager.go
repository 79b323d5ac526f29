package cli

import (
	"fmt"
	"io"

	"github.com/goblame/goblame/internal/startcmd"

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
// git does (LESS=FRX and LV=-c unless set), where git runs it: in its
// directory (repo.Repository.WorkDir: the top of the work tree after a
// work-tree blame, where setup_work_tree went). It returns
// the writer to use and a function that closes it and waits for the
// pager. Its environment is the other programs' (childEnv: GIT_PREFIX,
// git's exec path).
func (b *blameRun) startPager(cmdline string, inWorkTree bool) (io.Writer, func(), error) {
	e := b.env
	e.Env = b.childEnv()
	return startPager(e, cmdline, b.r.WorkDir(inWorkTree))
}

// startPager runs the pager cmdline in dir with env's environment and
// standard output and error, as git's setup_pager starts it
// (startcmd.Command: through /bin/sh only for a command line with the
// shell's special characters). A pager that cannot start gets git's
// error line, and the output goes to standard output instead.
func startPager(e Environ, cmdline, dir string) (io.Writer, func(), error) {
	env := append([]string(nil), e.Env...)
	if e.Getenv("LESS") == "" {
		env = append(env, "LESS=FRX")
	}
	if e.Getenv("LV") == "" {
		env = append(env, "LV=-c")
	}
	cmd, err := startcmd.Command(cmdline, nil, dir, env)
	if err != nil {
		fmt.Fprintln(e.Stderr, startcmd.NotFoundLine(cmdline))
		return nil, nil, err
	}
	cmd.Stdout = e.Stdout
	cmd.Stderr = e.Stderr
	cmd, w, _, err := startcmd.StartPiped(cmd, false)
	if err != nil {
		fmt.Fprintln(e.Stderr, startcmd.ExecFailedLine(cmdline, err, repo.Strerror))
		return nil, nil, err
	}
	return w, func() {
		w.Close()
		cmd.Wait()
	}, nil
}
