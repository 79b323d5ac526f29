package main

import (
	"os"
	"strings"
	"testing"
)

// TestManPageUpToDate checks that the committed goblame.1 is what the
// option table generates now (go generate ./cli rewrites it).
func TestManPageUpToDate(t *testing.T) {
	got, err := newApp().ToManWithSection(1)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../../../goblame.1")
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("goblame.1 is out of date: run go generate ./cli")
	}
	for _, s := range []string{"--contents <file>", "-C[<score>]", "--abbrev[=<n>]", "show original linenumber"} {
		if !strings.Contains(got, s) {
			t.Errorf("the manual page lacks %q", s)
		}
	}
}
