package passwd

import (
	"os"
	"os/user"
	"path/filepath"
	"testing"
)

func TestLookup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "passwd")
	data := "# comment\n+nis\nroot:x:0:0:root:/root:/bin/bash\nweird:x:1:1:a:b:c:/home/weird:/bin/sh\nshort:x:2:2\n" +
		"joe:x:1000:1000:Joe,,,:/home/joe:/bin/sh\njoe:x:1001:1001::/home/joe2:/bin/sh\nnoshell:x:3:3::/nonexistent\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, home string
		ok         bool
	}{
		{"root", "/root", true}, {"joe", "/home/joe", true}, {"noshell", "/nonexistent", true},
		{"weird", "b", true}, {"short", "", false}, {"nobody-here", "", false}, {"", "", false}, {"+nis", "", false},
	} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		home, ok := lookup(f, c.name)
		f.Close()
		if home != c.home || ok != c.ok {
			t.Errorf("lookup(%q) = %q, %v; want %q, %v", c.name, home, ok, c.home, c.ok)
		}
	}
}

// TestHomeMatchesOSUser compares with os/user (getpwnam when the tests
// are built with cgo) for the users of this machine's /etc/passwd.
func TestHomeMatchesOSUser(t *testing.T) {
	for _, name := range []string{"root", "nobody", "daemon"} {
		u, err := user.Lookup(name)
		home, ok := Home(name)
		if (err == nil) != ok || err == nil && u.HomeDir != home {
			t.Errorf("Home(%q) = %q, %v; os/user: %v, %v", name, home, ok, u, err)
		}
	}
}
