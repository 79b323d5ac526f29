package cli

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// TestOutputFormatsMatchGit compares goblame's output byte for byte with
// git blame's for every output option, on a committed history.
func TestOutputFormatsMatchGit(t *testing.T) {
	dirs := fixtureDirs(t, "history", historyScript)
	flagSets := [][]string{
		nil, {"-c"}, {"-s"}, {"-e"}, {"-l"}, {"-t"}, {"-f"}, {"-n"}, {"-b"}, {"--root"},
		{"-f", "-n"}, {"-f", "-n", "-s", "-e"}, {"-l", "-b"}, {"-c", "-e"}, {"-c", "-b"}, {"-c", "-l"},
		{"--abbrev=4"}, {"--abbrev=10"}, {"--abbrev=40"}, {"--no-abbrev"}, {"--abbrev=0"},
		{"-p"}, {"--porcelain", "--root"}, {"--line-porcelain"}, {"--incremental"}, {"--incremental", "--root"},
		{"--date=short"}, {"--date=iso-strict"}, {"--date=rfc"}, {"--date=raw"}, {"--date=unix"},
		{"--date=default"}, {"--date=format:%Y-%m"}, {"--date=local"}, {"--date=iso-local"},
		{"--show-stats"}, {"-p", "--show-stats"}, {"--score-debug"},
		{"--color-lines"}, {"--color-by-age"}, {"--color-lines", "--color-by-age"},
		{"-L", "2,4"}, {"-L", "3,+2", "-L", "10"}, {"-L", "/THREE/,+2"}, {"-L", "5,-3"},
		{"-w"}, {"-M"}, {"-C"}, {"--first-parent"},
	}
	for _, format := range testgit.Formats {
		dir := dirs[format]
		for _, file := range []string{"file", "moved.txt", ".mailmap"} {
			for _, flags := range flagSets {
				compareWithGit(t, dir, format, nil, nil, append(append([]string{}, flags...), file)...)
				compareWithGit(t, dir, format, nil, nil, append(append([]string{}, flags...), "HEAD~2", "--", file)...)
			}
		}
	}
}
