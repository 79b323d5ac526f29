// Command walkcount counts the commits reachable from HEAD that change a
// path, as "git rev-list --count [--full-history] HEAD -- PATH" does, with
// goblame's history walk. It exists to compare a fresh process with git
// (time, peak memory):
//
//	walkcount [-no-graph] [-full-history] [-first-parent-changes] GITDIR PATH
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/goblame/goblame/benchmarks/walk"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

func main() {
	noGraph := flag.Bool("no-graph", false, "ignore the commit-graph")
	full := flag.Bool("full-history", false, "count as rev-list --full-history")
	fp := flag.Bool("first-parent-changes", false, "count commits whose path differs from the first parent")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: walkcount [-no-graph] [-full-history] [-first-parent-changes] GITDIR PATH")
		os.Exit(2)
	}
	mode := walk.Simplified
	if *full {
		mode = walk.FullHistory
	} else if *fp {
		mode = walk.FirstParentChanges
	}
	n, err := run(flag.Arg(0), flag.Arg(1), !*noGraph, mode)
	if err != nil {
		fmt.Fprintln(os.Stderr, "walkcount:", err)
		os.Exit(1)
	}
	fmt.Println(n)
}

func run(gitDir, path string, useGraph bool, mode walk.Mode) (int, error) {
	format := oid.SHA1
	if cfg, err := os.ReadFile(filepath.Join(gitDir, "config")); err == nil && strings.Contains(string(cfg), "objectformat = sha256") {
		format = oid.SHA256
	}
	head, err := resolveHead(gitDir, format)
	if err != nil {
		return 0, err
	}
	db, err := odb.Open(filepath.Join(gitDir, "objects"), format, odb.Options{})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var g *traverse.Graph
	if useGraph {
		var warnings []string
		g, warnings, err = traverse.OpenGraph(db.ObjectDirs(), format)
		if err != nil {
			return 0, err
		}
		for _, w := range warnings {
			fmt.Fprintln(os.Stderr, w)
		}
		defer g.Close()
	}
	rd := db.NewReader()
	cs := traverse.NewCommits(rd, g, format, traverse.CommitOptions{})
	ts := traverse.NewTrees(rd, format)
	return walk.Count(cs, ts, head, []byte(path), mode)
}

// resolveHead follows HEAD through one symbolic ref, loose or packed (no
// repo package: this command measures the walk only).
func resolveHead(gitDir string, format oid.Format) (oid.ID, error) {
	b, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return oid.ID{}, err
	}
	s := strings.TrimSpace(string(b))
	ref, ok := strings.CutPrefix(s, "ref: ")
	if !ok {
		return oid.ParseHex(format, s)
	}
	if b, err := os.ReadFile(filepath.Join(gitDir, ref)); err == nil {
		return oid.ParseHex(format, strings.TrimSpace(string(b)))
	}
	packed, err := os.ReadFile(filepath.Join(gitDir, "packed-refs"))
	if err != nil {
		return oid.ID{}, fmt.Errorf("cannot resolve %s", ref)
	}
	for _, line := range strings.Split(string(packed), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] == ref {
			return oid.ParseHex(format, f[0])
		}
	}
	return oid.ID{}, fmt.Errorf("cannot resolve %s", ref)
}
