package main

import (
	"encoding/xml"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestSplitWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"HEAD -- diff.c", []string{"HEAD", "--", "diff.c"}},
		{"  -L  '/^func main/,+5'  -- a\\ b.go ", []string{"-L", "/^func main/,+5", "--", "a b.go"}},
		{`--contents - -- "dir/it's \"x\".txt"`, []string{"--contents", "-", "--", `dir/it's "x".txt`}},
		{`a''b ""`, []string{"ab", ""}},
	} {
		got, err := splitWords(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
		// Quoting the words and splitting again gives them back (the
		// round trip hyperfine's command line relies on).
		if back, err := splitWords(shellJoin(got)); err != nil || !reflect.DeepEqual(back, got) {
			t.Errorf("splitWords(shellJoin(%q)) = %q, %v", got, back, err)
		}
	}
	for _, bad := range []string{"'open", `"open`, `trailing\`} {
		if _, err := splitWords(bad); err == nil {
			t.Errorf("splitWords(%q): no error", bad)
		}
	}
}

func TestParseWorkloads(t *testing.T) {
	file := `# comment

$REPOS/git|HEAD -- diff.c
${REPOS}/go-git | --contents - -- README.md | buffers/x.md | gitsigns
rel|-M HEAD -- a|/abs/in||core.commitGraph=false blame.date=short
`
	lookup := func(v string) (string, bool) {
		if v == "REPOS" {
			return "/r", true
		}
		return "", false
	}
	got, err := parseWorkloads(strings.NewReader(file), "/lists", lookup)
	if err != nil {
		t.Fatal(err)
	}
	want := []workload{
		{Line: 3, Name: "git", Dir: "/r/git", Args: "HEAD -- diff.c", Argv: []string{"HEAD", "--", "diff.c"}},
		{Line: 4, Name: "gitsigns", Dir: "/r/go-git", Args: "--contents - -- README.md", Argv: []string{"--contents", "-", "--", "README.md"}, Stdin: "/lists/buffers/x.md"},
		{Line: 5, Name: "rel", Dir: "/lists/rel", Args: "-M HEAD -- a", Argv: []string{"-M", "HEAD", "--", "a"}, Stdin: "/abs/in", Config: []string{"core.commitGraph=false", "blame.date=short"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	for _, bad := range []string{"$UNSET/x|HEAD -- a", "onlydir", "d|a|b|c|d|e", "d|a|||nokey"} {
		if _, err := parseWorkloads(strings.NewReader(bad), "/", lookup); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestConfigEnv(t *testing.T) {
	got := configEnv([]string{"core.commitGraph=false", "a.b=x=y"})
	want := []string{"GIT_CONFIG_COUNT=2", "GIT_CONFIG_KEY_0=core.commitGraph", "GIT_CONFIG_VALUE_0=false", "GIT_CONFIG_KEY_1=a.b", "GIT_CONFIG_VALUE_1=x=y"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("configEnv = %q", got)
	}
}

func sampleResults(best bool) (meta, []result) {
	m := meta{Name: "test <&>", Workloads: "w.txt", Date: "2025-01-01 00:00 UTC", CPU: "cpu", CPUs: 2,
		GitVersion: "git version 2.39.5", Goblame: "abc", Hyperfine: "hyperfine 1.15.0", Runs: 5, Warmup: 1, RSSRuns: 3,
		Goals: []float64{0.33, 0.40}}
	n := 2
	if best {
		m.BestGit, m.BestGitVersion = "/opt/git", "git version 2.50"
		n = 3
	}
	mk := func(name, args string, medians ...float64) result {
		r := result{Name: name, Dir: "/r/git", Args: args, Status: statusOK, Incremental: strings.Contains(args, "--incremental")}
		for i := 0; i < n; i++ {
			r.Sides = append(r.Sides, sideResult{Label: "x", Time: &timing{Median: medians[i], User: medians[i] / 2, System: 0.001}, PeakRSSKB: 20480, FirstByte: medians[i] / 3})
		}
		return r
	}
	return m, []result{
		mk("HEAD", "HEAD -- diff.c", 0.9, 0.3, 0.8),
		mk("GitLens", "--root --incremental -w -- README.md | x", 0.05, 0.06, 0.05),
		mk("-C -C", "-C -C HEAD -- builtin/blame.c", 2.5, 0.9, 2.0),
		{Name: "Zed", Dir: "/r/git", Args: "--incremental --contents - -- diff.c", Stdin: "/b/git-diff.c", Status: statusDiffers, Detail: "stdout differs from line 4"},
	}
}

func TestReport(t *testing.T) {
	for _, best := range []bool{false, true} {
		m, results := sampleResults(best)
		md := markdown(m, results, "test.svg")
		for _, want := range []string{"| HEAD | git | `HEAD -- diff.c` | 900.0 ms |", "**DIFFERS**", "0.33", "`--root --incremental -w -- README.md \\| x`", "## Not timed"} {
			if !strings.Contains(md, want) {
				t.Errorf("best=%v: markdown lacks %q:\n%s", best, want, md)
			}
		}
		// Every table row has as many cells as the header.
		var cells int
		for _, line := range strings.Split(md, "\n") {
			if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| `/") || strings.HasPrefix(line, "| directory") {
				continue
			}
			c := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
			if cells == 0 {
				cells = c
			} else if c != cells {
				t.Errorf("best=%v: row has %d separators, header %d: %s", best, c, cells, line)
			}
		}
		svg := svgChart(m, results)
		dec := xml.NewDecoder(strings.NewReader(svg))
		for {
			if _, err := dec.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("best=%v: SVG is not well-formed XML: %v", best, err)
			}
		}
		for _, want := range []string{"goal 0.33", "goal 0.40", "git = 1.0", "DIFFERS", "0.33<", "test &lt;&amp;&gt;"} {
			if !strings.Contains(svg, want) {
				t.Errorf("best=%v: SVG lacks %q", best, want)
			}
		}
	}
}

func TestRoundOrder(t *testing.T) {
	for _, c := range []struct {
		round, n int
		want     []int
	}{
		{0, 2, []int{0, 1}},
		{1, 2, []int{1, 0}},
		{2, 2, []int{0, 1}},
		{0, 3, []int{0, 1, 2}},
		{1, 3, []int{1, 2, 0}},
		{2, 3, []int{2, 0, 1}},
	} {
		var got []int
		for k := 0; k < c.n; k++ {
			got = append(got, roundOrder(c.round, k, c.n))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("round %d of %d sides: %v, want %v", c.round, c.n, got, c.want)
		}
	}
}
