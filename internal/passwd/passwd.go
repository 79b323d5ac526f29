// Package passwd finds a user's home directory for "~user/" in paths from
// the configuration (git's interpolate_path, which asks getpwnam).
//
// It reads /etc/passwd, as Go's os/user does without cgo, so that goblame
// links statically (make build): os/user with cgo calls getpwnam, whose
// name-service modules are shared libraries loaded at run time, for a
// lookup almost no run makes. Users
// known only to other name services (NSS: LDAP, sssd, systemd-homed) are
// not found; getpwnam would find them.
//
// # Concurrency
//
// Home is safe for concurrent use.
package passwd

import (
	"bufio"
	"bytes"
	"os"
)

// File is the password database Home reads.
const File = "/etc/passwd"

// Home returns the home directory of the user named name, and whether
// there is such a user.
func Home(name string) (string, bool) {
	f, err := os.Open(File)
	if err != nil {
		return "", false
	}
	defer f.Close()
	return lookup(f, name)
}

// lookup scans passwd(5) lines, "name:password:uid:gid:gecos:home:shell",
// for the first entry of name.
func lookup(f *os.File, name string) (string, bool) {
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] == '#' || line[0] == '+' || line[0] == '-' {
			continue
		}
		fields := bytes.SplitN(line, []byte(":"), 7)
		if len(fields) < 6 || string(fields[0]) != name {
			continue
		}
		return string(fields[5]), true
	}
	return "", false
}
