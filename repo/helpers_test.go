package repo

import (
	"os"
	"testing"
)

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// dieText is what git's die() prints for msg: control characters other
// than tab and newline become '?' (usage.c's vreportf).
func dieText(msg string) string {
	b := []byte(msg)
	for i, c := range b {
		if (c < 0x20 || c == 0x7f) && c != '\t' && c != '\n' {
			b[i] = '?'
		}
	}
	return string(b)
}
