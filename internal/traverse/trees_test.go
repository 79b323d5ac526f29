package traverse

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// lsTree returns every entry of a commit's tree, recursively and with
// the trees themselves, from "git ls-tree -r -t -z". Any git will do, not
// only git 2.39.x (and there are no goldens of its 400 KB): with -z it
// prints the tree objects' entries as they are stored, which their ids
// name.
func lsTree(t testing.TB, dir string, format oid.Format, rev string) map[string]lookupResult {
	t.Helper()
	out := map[string]lookupResult{}
	for _, rec := range splitNUL([]byte(testgit.Git(t, dir, format, "ls-tree", "-r", "-t", "-z", rev))) {
		tab := bytes.IndexByte(rec, '\t')
		f := strings.Fields(string(rec[:tab]))
		mode, err := strconv.ParseUint(f[0], 8, 32)
		if err != nil {
			t.Fatal(err)
		}
		out[string(rec[tab+1:])] = lookupResult{mode: uint32(mode), id: parseID(t, format, f[2]), found: true}
	}
	return out
}

// TestLookupMatchesLsTree resolves every path of every commit's tree
// (plus missing paths and paths through files) and compares with git
// ls-tree; a few are also checked against "git rev-parse REV:path".
func TestLookupMatchesLsTree(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			dir := historyFixture(t, "nograph", format)
			rd := loadObjects(t, dir, format)
			cs := NewCommits(rd, nil, format, CommitOptions{})
			ts := NewTrees(rd, format)
			checked := 0
			for _, gc := range gitCommits(t, dir, format) {
				c, err := cs.Get(gc.id)
				if err != nil {
					t.Fatal(err)
				}
				want := lsTree(t, dir, format, gc.id.String())
				paths := []string{"", "nope", "a/nope", "top.txt/x", "d/x/y/z", "link/x", "sub/x", "big/f600x"}
				for p := range want {
					paths = append(paths, p)
				}
				for _, p := range paths {
					mode, id, found, err := ts.Lookup(cs.Tree(c), []byte(p))
					if err != nil {
						t.Fatal(err)
					}
					w, ok := want[p]
					if p == "" {
						w, ok = lookupResult{mode: object.ModeTree, id: cs.Tree(c), found: true}, true
					}
					got := lookupResult{mode: mode, id: id, found: found}
					if !ok {
						w = lookupResult{}
					}
					if got != w {
						t.Errorf("%s:%s = %o %s %v, want %o %s %v", gc.id, p, got.mode, got.id, got.found, w.mode, w.id, w.found)
					}
					checked++
				}
			}
			// rev-parse agrees for some paths of HEAD.
			head, _ := cs.Get(revParse(t, dir, format, "HEAD"))
			for _, p := range []string{"Märchen", "café/été", "big/f7", "d/x/y", "a/b", "sub"} {
				res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: format, Args: []string{"rev-parse", "HEAD:" + p}})
				_, id, found, err := ts.Lookup(cs.Tree(head), []byte(p))
				if err != nil {
					t.Fatal(err)
				}
				if found != (res.ExitCode == 0) || (found && id.String() != strings.TrimSpace(string(res.Stdout))) {
					t.Errorf("HEAD:%s = %s %v; rev-parse: %s", p, id, found, res)
				}
			}
			t.Logf("%d lookups, stats %+v", checked, ts.Stats())
		})
	}
}

// rawDiff formats changes as "git diff-tree -r -z" prints them.
func rawDiff(ch *Change, format oid.Format) string {
	zero := oid.Null(format)
	oldID, newID := ch.OldID, ch.NewID
	if ch.OldMode == 0 {
		oldID = zero
	}
	if ch.NewMode == 0 {
		newID = zero
	}
	return fmt.Sprintf(":%06o %06o %s %s %c\x00%s\x00", ch.OldMode, ch.NewMode, oldID, newID, ch.Status(), ch.Path)
}

// TestDiffTreesMatchesGit compares DiffTrees with "git diff-tree -r" byte
// for byte (raw format) for every commit against each parent, for roots
// against the empty tree, and for pairs of unrelated commits in both
// directions.
func TestDiffTreesMatchesGit(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			dir := historyFixture(t, "nograph", format)
			rd := loadObjects(t, dir, format)
			cs := NewCommits(rd, nil, format, CommitOptions{})
			ts := NewTrees(rd, format)
			all := gitCommits(t, dir, format)
			type pair struct{ a, b string }
			var pairs []pair
			for i, c := range all {
				for _, p := range c.parents {
					pairs = append(pairs, pair{p.String(), c.id.String()})
				}
				if len(c.parents) == 0 {
					pairs = append(pairs, pair{"", c.id.String()})
				}
				if i%5 == 0 {
					other := all[(i*7+3)%len(all)]
					pairs = append(pairs, pair{c.id.String(), other.id.String()}, pair{other.id.String(), c.id.String()})
				}
			}
			changes := 0
			goldens := testgit.Golden(t)
			for i, pr := range pairs {
				// One pair in three keeps a golden output; the others
				// (500 KB more) are compared with git 2.39.x only.
				args := []string{"diff-tree", "-r", "-z", pr.a, pr.b}
				if pr.a == "" {
					args = []string{"diff-tree", "-r", "-z", "--root", "--no-commit-id", pr.b}
				}
				c := testgit.Case{Dir: dir, Format: format, Args: args}
				var res testgit.Result
				ok := true
				if i%3 == 0 {
					res = goldens.Run(c)
				} else {
					res, ok = goldens.Live(c)
				}
				if !ok {
					continue
				}
				if res.ExitCode != 0 {
					t.Fatalf("git %s: %s", strings.Join(args, " "), res)
				}
				want := res.Stdout
				var a oid.ID
				if pr.a != "" {
					ca, err := cs.Get(parseID(t, format, pr.a))
					if err != nil {
						t.Fatal(err)
					}
					a = cs.Tree(ca)
				}
				cb, err := cs.Get(parseID(t, format, pr.b))
				if err != nil {
					t.Fatal(err)
				}
				var got strings.Builder
				err = ts.DiffTrees(a, cs.Tree(cb), func(ch *Change) error {
					got.WriteString(rawDiff(ch, format))
					changes++
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if got.String() != string(want) {
					t.Errorf("diff-tree %s %s:\n got %q\nwant %q", pr.a, pr.b, got.String(), want)
				}

				// DiffTreesAll: the same changes, plus every unchanged
				// file, with each side listing its tree's files in
				// ls-tree order.
				var changed strings.Builder
				var oldSide, newSide []string
				err = ts.DiffTreesAll(a, cs.Tree(cb), func(ch *Change) error {
					if ch.Status() != ' ' {
						changed.WriteString(rawDiff(ch, format))
					}
					if ch.OldMode != 0 {
						oldSide = append(oldSide, string(ch.Path))
					}
					if ch.NewMode != 0 {
						newSide = append(newSide, string(ch.Path))
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if changed.String() != string(want) {
					t.Errorf("DiffTreesAll %s %s changes differ:\n got %q\nwant %q", pr.a, pr.b, changed.String(), want)
				}
				if pr.a != "" {
					diffLists(t, "old side of "+pr.a, oldSide, lsFiles(t, dir, format, pr.a))
				}
				diffLists(t, "new side of "+pr.b, newSide, lsFiles(t, dir, format, pr.b))
			}
			t.Logf("%d tree pairs, %d changes", len(pairs), changes)
			// An error from the callback stops the diff.
			stop := fmt.Errorf("stop")
			head, _ := cs.Get(revParse(t, dir, format, "HEAD"))
			n := 0
			err := ts.DiffTrees(oid.ID{}, cs.Tree(head), func(*Change) error { n++; return stop })
			if err != stop || n != 1 {
				t.Errorf("callback error: got %v after %d calls", err, n)
			}
		})
	}
}

func lsFiles(t testing.TB, dir string, format oid.Format, rev string) []string {
	var out []string
	for _, rec := range splitNUL(gitRaw(t, dir, format, "ls-tree", "-r", "-z", "--name-only", rev)) {
		out = append(out, string(rec))
	}
	return out
}

// TestTreesErrors checks that non-trees and missing objects are errors,
// not panics or silent misses.
func TestTreesErrors(t *testing.T) {
	format := oid.SHA1
	dir := historyFixture(t, "nograph", format)
	rd := loadObjects(t, dir, format)
	ts := NewTrees(rd, format)
	blob := revParse(t, dir, format, "HEAD:top2.txt")
	if _, _, _, err := ts.Lookup(blob, []byte("x")); !errors.Is(err, ErrNotTree) {
		t.Errorf("lookup in a blob: %v", err)
	}
	if err := ts.DiffTrees(blob, blob, func(*Change) error { return nil }); err == nil {
		t.Error("diff of blobs: no error")
	}
	missing := oid.HashObject(format, "tree", []byte("no such tree"))
	if _, _, _, err := ts.Lookup(missing, []byte("x")); err == nil {
		t.Error("lookup in a missing tree: no error")
	}
	// The empty tree needs no object.
	if _, _, found, err := ts.Lookup(oid.EmptyTree(format), []byte("x")); err != nil || found {
		t.Errorf("empty tree: %v %v", found, err)
	}
	cs := NewCommits(rd, nil, format, CommitOptions{})
	if _, err := cs.Get(blob); !errors.Is(err, ErrNotCommit) {
		t.Errorf("Get(blob): %v", err)
	}
	if _, err := cs.Get(missing); err == nil {
		t.Error("Get(missing): no error")
	}
}
