// Command compare runs shell-free commands interleaved, N rounds, and
// prints for each the median wall time, median CPU time (user+system) and
// the median and maximum peak RSS, from the kernel's accounting of each
// child (wait4 rusage). Interleaving spreads the noise of a shared machine
// evenly over the commands; CPU time is less affected by it than wall
// time.
//
//	compare [-n 21] 'walkcount GITDIR PATH' 'git --git-dir=GITDIR rev-list --count HEAD -- PATH'
//
// Each argument is one command, split on spaces (no quoting).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

type sample struct {
	wall, cpu time.Duration
	rssKB     int64
}

func main() {
	rounds := flag.Int("n", 21, "rounds")
	flag.Parse()
	cmds := flag.Args()
	if len(cmds) == 0 {
		fmt.Fprintln(os.Stderr, "usage: compare [-n rounds] 'cmd args' ...")
		os.Exit(2)
	}
	samples := make([][]sample, len(cmds))
	outputs := make([]string, len(cmds))
	for r := 0; r < *rounds; r++ {
		for i, c := range cmds {
			f := strings.Fields(c)
			cmd := exec.Command(f[0], f[1:]...)
			var out strings.Builder
			cmd.Stdout = &out
			cmd.Stderr = io.Discard
			start := time.Now()
			if err := cmd.Run(); err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", c, err)
				os.Exit(1)
			}
			wall := time.Since(start)
			ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			samples[i] = append(samples[i], sample{wall, cpu, ru.Maxrss})
			if r == 0 {
				outputs[i] = strings.TrimSpace(out.String())
			} else if o := strings.TrimSpace(out.String()); o != outputs[i] {
				fmt.Fprintf(os.Stderr, "%s: output changed: %q then %q\n", c, outputs[i], o)
				os.Exit(1)
			}
		}
	}
	for i, c := range cmds {
		s := samples[i]
		wall := median(s, func(x sample) int64 { return int64(x.wall) })
		cpu := median(s, func(x sample) int64 { return int64(x.cpu) })
		rss := median(s, func(x sample) int64 { return x.rssKB })
		maxRSS := slices.MaxFunc(s, func(a, b sample) int { return int(a.rssKB - b.rssKB) }).rssKB
		fmt.Printf("%-8.1f ms wall  %-8.1f ms cpu  %6d KB rss (max %d)  out=%q  %s\n",
			float64(wall)/1e6, float64(cpu)/1e6, rss, maxRSS, outputs[i], c)
	}
}

func median(s []sample, key func(sample) int64) int64 {
	v := make([]int64, len(s))
	for i, x := range s {
		v[i] = key(x)
	}
	slices.Sort(v)
	return v[len(v)/2]
}
