package cli

import "testing"

// Command lines editors send (see the reference notes on editors).
var benchCommandLines = map[string][]string{
	"vscode":    {"--root", "--incremental", "-w", "-L", "1,5", "--contents", "-", "HEAD", "--", "src/main.go"},
	"jetbrains": {"--porcelain", "-l", "-t", "--encoding=UTF-8", "-w", "-M", "HEAD", "--", "src/main.go"},
	"fugitive":  {"--show-number", "-l", "-t", "-f", "-n", "-s", "-e", "-w", "-M", "-C", "--root", "--", "src/main.go"},
	"diffopts":  {"--first-parent", "--since=2.weeks", "--date=short", "--no-follow", "--find-copies-harder", "-U3", "src/main.go"},
}

func BenchmarkParseArgs(b *testing.B) {
	ctx := ParseContext{Resolve: func(name string) ResolvedName {
		if name == "HEAD" {
			return ResolvedName{Kind: NameCommittish}
		}
		return ResolvedName{}
	}}
	for name, args := range benchCommandLines {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			defaults := DefaultBlameArgs()
			for b.Loop() {
				if _, err := ParseArgs(args, defaults, ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkUsage(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = Usage(false)
	}
}
