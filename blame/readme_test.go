package blame_test

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeShowsTheExample: the README's library program is the body of
// Example, which go test compiles and runs.
func TestReadmeShowsTheExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## Using the library")
	if !ok {
		t.Fatal("README.md has no \"Using the library\" section")
	}
	_, block, ok := strings.Cut(section, "```go\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("the README's library section has no go code block")
	}
	_, body, ok := strings.Cut(string(src), "\nfunc Example() {\n")
	if !ok {
		t.Fatal("example_test.go has no Example")
	}
	body, _, _ = strings.Cut(body, "\t// Output:")
	var lines []string
	for _, l := range strings.Split(body, "\n") {
		lines = append(lines, strings.TrimPrefix(l, "\t"))
	}
	body = strings.Join(lines, "\n")
	// The example first builds its fixture and changes to it.
	if _, rest, ok := strings.Cut(body, "defer cleanup()\n\n"); ok {
		body = rest
	}
	if strings.TrimSpace(body) != strings.TrimSpace(block) {
		t.Errorf("README.md's library program is not Example's body:\nREADME:\n%s\nExample:\n%s", block, body)
	}
}
