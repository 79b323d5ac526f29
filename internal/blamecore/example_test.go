package blamecore_test

import (
	"context"
	"fmt"
	"os"

	"github.com/goblame/goblame/format"
	"github.com/goblame/goblame/internal/blamecore"
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
	hist := blamecore.NewHistory(r.Objects.NewReader(), r.Format, blamecore.HistoryOptions{Graph: g})
	res, err := blamecore.Run(context.Background(), hist, r.Format, blamecore.Request{
		Path: "README.md", Final: head, FinalName: "HEAD",
		Tips: []traverse.Tip{{ID: head}},
	}, blamecore.DefaultOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	format.Write(os.Stdout, res, format.Options{Porcelain: true, QuotePath: true})
}
