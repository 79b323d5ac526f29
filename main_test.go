package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStartupDependencies keeps out of the goblame binary the packages
// whose initialisation every run would pay for without using them (see
// cli/doc.go, "Start-up").
func TestStartupDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	unwanted := []string{
		"github.com/urfave/cli/v2", // the manual page generator's, not goblame's
		"github.com/russross/blackfriday/v2",
		"text/template",
		"encoding/json",
		"golang.org/x/text/encoding/ianaindex", // 54 KB of maps built at start-up (internal/charset instead)
		"net/url",
		"os/user", // getpwnam through the C library's NSS (internal/passwd instead): no static link
		"regexp",  // its initialisation builds Unicode tables (only the cgo-less fallback of internal/posixre uses it)
	}
	for _, d := range deps {
		for _, u := range unwanted {
			if d == u {
				t.Errorf("goblame links %s", d)
			}
		}
	}
}
