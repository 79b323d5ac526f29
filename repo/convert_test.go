package repo

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

const convertScript = `
git init -q r
cd r
cat >.gitattributes <<'ATTR'
*.text text
*.bin -text
*.auto text=auto
*.lf text eol=lf
*.crlf text eol=crlf
*.autolf text=auto eol=lf
*.legacy crlf
*.nolegacy -crlf
*.input crlf=input
*.id ident
*.idtext ident text
*.u16 working-tree-encoding=UTF-16
*.u16le working-tree-encoding=UTF-16LE
*.latin working-tree-encoding=ISO-8859-1
*.utf8 working-tree-encoding=utf8
*.filtered filter=nodriver
*.eolonly eol=crlf
*.binmacro binary
ATTR
printf 'a\r\nb\r\n' >incrlf.auto
git add .gitattributes incrlf.auto
git commit -q -m base
`

// convertInputs are work-tree contents to convert.
var convertInputs = map[string]string{
	"lf":      "one\ntwo\n",
	"crlf":    "one\r\ntwo\r\n",
	"mixed":   "one\r\ntwo\nthree\r\n",
	"lonecr":  "one\rtwo\r\n",
	"nul":     "one\r\n\x00two\r\n",
	"ident":   "$Id$ x $Id: 1234 $ y $Id: multi\nline $ z $Idx$ $Id:$\r\n",
	"empty":   "",
	"noeol":   "one\r\ntwo",
	"ctrl":    "\x01\x02\x03\x04\x05\x06\x07\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\r\n",
	"eofchar": "text\r\n\x1a",
	"u16bom":  "\xff\xfeh\x00i\x00\r\x00\n\x00",
	"u16":     "h\x00i\x00\n\x00",
	"latin":   "caf\xe9\r\n",
}

var convertPaths = []string{
	"f.text", "f.bin", "f.auto", "f.lf", "f.crlf", "f.autolf", "f.legacy", "f.nolegacy", "f.input", "f.id",
	"f.idtext", "f.u16", "f.u16le", "f.latin", "f.utf8", "f.filtered", "f.eolonly", "f.binmacro", "f.none",
	"incrlf.auto",
}

func TestConvertToGitMatchesGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	// The inputs are files the fixture script writes next to the
	// repository (in inputs/), for hash-object to read.
	script := convertScript + "mkdir ../inputs\n"
	for _, name := range slices.Sorted(maps.Keys(convertInputs)) {
		script += shellWrite("../inputs/"+name, convertInputs[name])
	}
	configs := [][]string{
		nil,
		{"GIT_CONFIG_PARAMETERS='core.autocrlf'='true'"},
		{"GIT_CONFIG_PARAMETERS='core.autocrlf'='input'"},
		{"GIT_CONFIG_PARAMETERS='core.eol'='crlf'"},
		{"GIT_CONFIG_PARAMETERS='core.autocrlf'='false' 'core.eol'='lf'"},
	}
	checked := 0
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "convert", f, script)
		dir := filepath.Join(root, "r")
		inputs := filepath.Join(root, "inputs")
		for _, env := range configs {
			r, err := Discover(EnvFromList(dir, testgit.Env(f, env...)))
			if err != nil {
				t.Fatal(err)
			}
			var warnings []string
			r.WarningHandler = func(l string) { warnings = append(warnings, l) }
			for _, p := range convertPaths {
				for name, content := range convertInputs {
					res := goldens.Run(testgit.Case{Dir: dir, Format: f, Env: env, Args: []string{"hash-object", "--path=" + p, filepath.Join(inputs, name)}})
					warnings = warnings[:0]
					out, cerr := r.ConvertToGit(p, []byte(content))
					got := ""
					if cerr != nil {
						got = "fatal: " + cerr.Error() + "\n"
					} else {
						got = oid.HashObject(f, "blob", out).String() + "\n"
					}
					want := string(res.Stdout)
					if res.ExitCode != 0 {
						want = string(res.Stderr)
					}
					stderr := strings.Join(append(warnings, ""), "\n")
					if got != want || (res.ExitCode == 0 && stderr != string(res.Stderr)) {
						t.Errorf("%s %v %s %s: got %q (stderr %q), git %q (stderr %q)", f, env, p, name, got, stderr, want, res.Stderr)
					}
					checked++
				}
			}
		}
	}
	t.Logf("%d conversions compared", checked)
}
