package traverse

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// walkAll runs a Walk from tip and returns the commits in order.
func walkAll(t testing.TB, cs *Commits, tip oid.ID, firstParent bool) []*Commit {
	t.Helper()
	w := NewWalk(cs)
	w.FirstParent = firstParent
	if err := w.Push(tip); err != nil {
		t.Fatal(err)
	}
	var out []*Commit
	for {
		c, err := w.Next()
		if err != nil {
			t.Fatal(err)
		}
		if c == nil {
			return out
		}
		out = append(out, c)
	}
}

func ids(cs *Commits, list []*Commit) []string {
	s := make([]string, len(list))
	for i, c := range list {
		s[i] = cs.ID(c).String()
	}
	return s
}

func diffLists(t testing.TB, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got %d: %s\nwant %d: %s", what, len(got), strings.Join(got, " "), len(want), strings.Join(want, " "))
	}
}

// TestWalkMatchesRevList compares the plain walk with git rev-list, with
// and without --first-parent, and the walk filtered by PathChanged with
// "git rev-list --full-history HEAD -- PATH" for every path of interest:
// same commits, same order.
func TestWalkMatchesRevList(t *testing.T) {
	for _, format := range testgit.Formats {
		for _, v := range graphVariants {
			t.Run(format.String()+"/"+v.name, func(t *testing.T) {
				dir := historyFixture(t, v.name, format)
				rd := loadObjects(t, dir, format)
				var g *Graph
				if v.graph {
					g = openGraph(t, dir, format)
				}
				head := revParse(t, dir, format, "HEAD")
				for _, fp := range []bool{false, true} {
					cs := NewCommits(rd, g, format, CommitOptions{})
					args := []string{"rev-list"}
					if fp {
						args = append(args, "--first-parent")
					}
					walked := walkAll(t, cs, head, fp)
					diffLists(t, "walk "+strings.Join(args, " "), ids(cs, walked), gitLines(t, dir, format, append(args, "HEAD")...))
					if fp {
						continue
					}
					ts := NewTrees(rd, format)
					for _, path := range pathsOfInterest {
						key := NewBloomKey([]byte(path))
						var got []string
						for _, c := range walked {
							show := false
							if len(c.Parents) == 0 {
								ch, err := PathChanged(cs, ts, c, 0, &key)
								if err != nil {
									t.Fatal(err)
								}
								show = ch
							}
							for i := range c.Parents {
								ch, err := PathChanged(cs, ts, c, i, &key)
								if err != nil {
									t.Fatal(err)
								}
								if ch {
									show = true
								}
							}
							if show {
								got = append(got, cs.ID(c).String())
							}
						}
						want := gitLines(t, dir, format, "rev-list", "--full-history", "HEAD", "--", path)
						diffLists(t, "rev-list --full-history HEAD -- "+path, got, want)
					}
				}
			})
		}
	}
}

// limitCase is a set of revision arguments for git rev-list and the
// equivalent Tips and options.
type limitCase struct {
	args []string // revisions as given to git (resolved by the test)
	opts LimitOptions
}

func limitCases(t testing.TB, dir string, format oid.Format) []limitCase {
	ts := func(rev string) uint64 {
		v, err := strconv.ParseUint(strings.TrimSpace(gitMemo(t, dir, format, "log", "-1", "--format=%ct", rev)), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	return []limitCase{
		{args: []string{"main~5..main"}},
		{args: []string{"main~1..main"}},
		{args: []string{"side..main"}},
		{args: []string{"main", "^side"}},
		{args: []string{"^side", "main"}},
		{args: []string{"main", "^o1", "^skew"}},
		{args: []string{"skew..main"}},
		{args: []string{"main~3..skew"}},
		{args: []string{"o2..o3"}},
		{args: []string{"main..side"}},
		{args: []string{"late..main"}},
		{args: []string{"main~10..main"}, opts: LimitOptions{FirstParent: true}},
		{args: []string{"side..main"}, opts: LimitOptions{FirstParent: true}},
		{args: []string{"main~2..main"}, opts: LimitOptions{Children: true}},
		{args: []string{"main~12..main"}, opts: LimitOptions{Children: true}},
		{args: []string{"side..main"}, opts: LimitOptions{Children: true}},
		{args: []string{"main~12..main"}, opts: LimitOptions{Children: true, FirstParent: true}},
		{args: []string{"main"}, opts: LimitOptions{Children: true}},
		{args: []string{"main"}, opts: LimitOptions{Children: true, Since: ts("main~6"), HasSince: true}},
		{args: []string{"side..main"}, opts: LimitOptions{Since: ts("main~8"), HasSince: true}},
		{args: []string{"main~4..main"}, opts: LimitOptions{Since: ts("skew~1"), HasSince: true}},
	}
}

// resolveTips turns rev-list style arguments into Tips as git's revision
// parser orders them: "A..B" is ^A then B.
func resolveTips(t testing.TB, dir string, format oid.Format, args []string) []Tip {
	var tips []Tip
	for _, a := range args {
		switch {
		case strings.Contains(a, ".."):
			ab := strings.SplitN(a, "..", 2)
			tips = append(tips, Tip{ID: revParse(t, dir, format, ab[0]), Uninteresting: true})
			tips = append(tips, Tip{ID: revParse(t, dir, format, ab[1])})
		case strings.HasPrefix(a, "^"):
			tips = append(tips, Tip{ID: revParse(t, dir, format, a[1:]), Uninteresting: true})
		default:
			tips = append(tips, Tip{ID: revParse(t, dir, format, a)})
		}
	}
	return tips
}

func gitArgs(c limitCase) []string {
	var args []string
	if c.opts.FirstParent {
		args = append(args, "--first-parent")
	}
	if c.opts.HasSince {
		args = append(args, "--since="+strconv.FormatUint(c.opts.Since, 10))
	}
	args = append(args, c.args...)
	return append(args, "--")
}

// TestLimitMatchesRevList compares Limit with git rev-list on ranges:
// the surviving list (git rev-list), the boundary (the "-" lines of
// --boundary: uninteresting parents of listed commits) and the children
// lists (--children, order included).
func TestLimitMatchesRevList(t *testing.T) {
	for _, format := range testgit.Formats {
		for _, v := range graphVariants {
			t.Run(format.String()+"/"+v.name, func(t *testing.T) {
				dir := historyFixture(t, v.name, format)
				rd := loadObjects(t, dir, format)
				var g *Graph
				if v.graph {
					g = openGraph(t, dir, format)
				}
				for _, lc := range limitCases(t, dir, format) {
					name := strings.Join(gitArgs(lc), " ")
					cs := NewCommits(rd, g, format, CommitOptions{})
					m, err := Limit(cs, resolveTips(t, dir, format, lc.args), lc.opts)
					if err != nil {
						t.Fatal(err)
					}
					if !m.Limited() {
						t.Fatalf("%s: not limited", name)
					}
					var shown []*Commit
					for _, c := range m.List() {
						if !m.Uninteresting(c) {
							shown = append(shown, c)
						}
					}
					diffLists(t, "rev-list "+name, ids(cs, shown), gitLines(t, dir, format, append([]string{"rev-list"}, gitArgs(lc)...)...))

					// Boundary: parents of shown commits that are not
					// shown (as a set; git sorts them topologically).
					var gotB []string
					isShown := map[*Commit]bool{}
					for _, c := range shown {
						isShown[c] = true
					}
					seenB := map[*Commit]bool{}
					for _, c := range shown {
						// git lists every parent here, even with
						// --first-parent.
						for i, p := range c.Parents {
							if !isShown[p] && !seenB[p] {
								seenB[p] = true
								if (i == 0 || !lc.opts.FirstParent) && !m.Uninteresting(p) {
									t.Errorf("%s: boundary commit %s is not uninteresting", name, cs.ID(p))
								}
								gotB = append(gotB, cs.ID(p).String())
							}
						}
					}
					var wantB []string
					for _, l := range gitLines(t, dir, format, append([]string{"rev-list", "--boundary"}, gitArgs(lc)...)...) {
						if strings.HasPrefix(l, "-") {
							wantB = append(wantB, l[1:])
						}
					}
					sort.Strings(gotB)
					sort.Strings(wantB)
					diffLists(t, "boundary of "+name, gotB, wantB)

					if !lc.opts.Children {
						continue
					}
					var gotC []string
					for _, c := range shown {
						line := cs.ID(c).String()
						for _, ch := range m.Children(c) {
							line += " " + cs.ID(ch).String()
						}
						gotC = append(gotC, line)
					}
					diffLists(t, "rev-list --children "+name, gotC, gitLines(t, dir, format, append([]string{"rev-list", "--children"}, gitArgs(lc)...)...))
				}
			})
		}
	}
}

// TestLimitUnlimited checks that without uninteresting tips nothing is
// limited or marked, as in git (blame --since alone checks dates itself).
func TestLimitUnlimited(t *testing.T) {
	format := oid.SHA1
	dir := historyFixture(t, "nograph", format)
	rd := loadObjects(t, dir, format)
	cs := NewCommits(rd, nil, format, CommitOptions{})
	head := revParse(t, dir, format, "HEAD")
	m, err := Limit(cs, []Tip{{ID: head}}, LimitOptions{Since: 1 << 40, HasSince: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.Limited() || m.List() != nil {
		t.Fatal("limited without a negative tip or Children")
	}
	c := cs.Lookup(head)
	if m.Uninteresting(c) || !c.Parsed() {
		t.Fatal("tip should be parsed and interesting")
	}
	m.SetUninteresting(c)
	m.MarkParentsUninteresting(c)
	for _, p := range c.Parents {
		if !m.Uninteresting(p) {
			t.Errorf("parent %s not marked", cs.ID(p))
		}
		if p.Parsed() {
			t.Errorf("parent %s parsed by marking", cs.ID(p))
		}
	}
}

// TestFirstParentChildren checks the children lists of blame --reverse
// --first-parent: each commit on END's first-parent chain down to START is
// the only child of its first parent, and a START off the chain is
// refused.
func TestFirstParentChildren(t *testing.T) {
	for _, format := range testgit.Formats {
		dir := historyFixture(t, "graph", format)
		rd := loadObjects(t, dir, format)
		g := openGraph(t, dir, format)
		cs := NewCommits(rd, g, format, CommitOptions{})
		start := revParse(t, dir, format, "main~9")
		end := revParse(t, dir, format, "main")
		m, err := Limit(cs, []Tip{{ID: start, Uninteresting: true}, {ID: end}}, LimitOptions{FirstParent: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := m.SetFirstParentChildren(cs.Lookup(end), cs.Lookup(start)); err != nil {
			t.Fatal(err)
		}
		chain := gitLines(t, dir, format, "rev-list", "--first-parent", "main~9..main")
		for i := 0; i < len(chain); i++ {
			child := cs.Lookup(parseID(t, format, chain[i]))
			parent := child.Parents[0]
			kids := m.Children(parent)
			if len(kids) != 1 || kids[0] != child {
				t.Errorf("children of %s = %v, want [%s]", cs.ID(parent), ids(cs, kids), cs.ID(child))
			}
		}
		if kids := m.Children(cs.Lookup(end)); len(kids) != 0 {
			t.Errorf("end has children %v", ids(cs, kids))
		}
		side := revParse(t, dir, format, "side")
		cs2 := NewCommits(rd, g, format, CommitOptions{})
		m2, err := Limit(cs2, []Tip{{ID: side, Uninteresting: true}, {ID: end}}, LimitOptions{FirstParent: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := m2.SetFirstParentChildren(cs2.Lookup(end), cs2.Lookup(side)); err != ErrNotOnFirstParentChain {
			t.Errorf("side branch start: err = %v", err)
		}
	}
}

// TestSynthetic checks that a synthetic commit (blame's working-tree
// commit) gets its own Index, is never found by ID, and walks like any
// other commit.
func TestSynthetic(t *testing.T) {
	format := oid.SHA1
	dir := historyFixture(t, "graph", format)
	rd := loadObjects(t, dir, format)
	cs := NewCommits(rd, openGraph(t, dir, format), format, CommitOptions{})
	head, err := cs.Get(revParse(t, dir, format, "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	fake := cs.Synthetic(oid.Null(format), oid.ID{}, []*Commit{head}, 1<<40)
	if fake.Index == head.Index || !fake.Parsed() || len(fake.Parents) != 1 || fake.Parents[0] != head {
		t.Fatalf("synthetic commit %+v", fake)
	}
	if cs.Lookup(oid.Null(format)) == fake {
		t.Fatal("Lookup finds the synthetic commit")
	}
	m, err := Limit(cs, []Tip{{ID: revParse(t, dir, format, "HEAD~2"), Uninteresting: true}}, LimitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Uninteresting(fake) || m.Uninteresting(head) {
		t.Fatal("marks leak onto the synthetic commit or HEAD")
	}
	m.SetUninteresting(fake)
	m.MarkParentsUninteresting(fake)
	if !m.Uninteresting(head) {
		t.Fatal("marking through the synthetic commit failed")
	}
	var q Queue
	q.Push(head)
	q.Push(fake)
	if q.Pop() != fake {
		t.Fatal("the newest commit does not pop first")
	}

	// As a tip of a limited walk it is listed first and its parents
	// follow, as "git rev-list HEAD~2..HEAD" lists them after it.
	cs2 := NewCommits(rd, nil, format, CommitOptions{})
	head2, _ := cs2.Get(cs.ID(head))
	fake2 := cs2.Synthetic(oid.Null(format), oid.ID{}, []*Commit{head2}, 1<<40)
	m2, err := Limit(cs2, []Tip{{Commit: fake2}, {ID: revParse(t, dir, format, "HEAD~2"), Uninteresting: true}}, LimitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	list := m2.List()
	if len(list) == 0 || list[0] != fake2 {
		t.Fatalf("synthetic tip not listed first: %v", ids(cs2, list))
	}
	diffLists(t, "walk below a synthetic tip", ids(cs2, list[1:]), gitLines(t, dir, format, "rev-list", "HEAD~2..HEAD", "--"))
}
