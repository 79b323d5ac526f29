package blame_test

import (
	"context"
	"fmt"
	"os"

	"github.com/goblame/goblame/blame"
	"github.com/goblame/goblame/format"
	"github.com/goblame/goblame/repo"
	"github.com/goblame/goblame/traverse"
)

// Blaming a file of the repository the current directory is in, as a Go
// program would, and printing it as `git blame --porcelain` does.
func Example() {
	env, err := repo.OSEnv()
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := repo.Discover(env)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	head, _, err := r.Head()
	if err != nil {
		fmt.Println(err)
		return
	}
	g, _, _ := traverse.OpenGraph(r.Objects.ObjectDirs(), r.Format) // nil without a commit-graph
	hist := blame.NewHistory(r.Objects.NewReader(), r.Format, blame.HistoryOptions{Graph: g})
	res, err := blame.Run(context.Background(), hist, r.Format, blame.Request{
		Path: "README.md", Final: head, FinalName: "HEAD",
		Tips: []traverse.Tip{{ID: head}},
	}, blame.DefaultOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	format.Write(os.Stdout, res, format.Options{Porcelain: true, QuotePath: true})
}
