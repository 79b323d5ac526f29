// Command mangen writes goblame's manual page goblame.1 and its plain-text
// rendering (what goblame --help prints where man cannot show the page)
// from the option tables git blame's help is drawn from (cli.OptionDocs,
// cli.RevisionOptionDocs) and the descriptions in manual.go.
//
// Usage, from the repository root (or go generate ./cli):
//
//	go run ./cli/internal/gen/mangen -out goblame.1 -text cli/goblame.1.txt
package main

import (
	"flag"
	"log"
	"os"
)

func main() {
	out := flag.String("out", "goblame.1", `the manual page to write ("-" for standard output)`)
	textOut := flag.String("text", "", "the plain-text rendering to write (none when empty)")
	flag.Parse()

	m := newManual()
	if err := write(*out, roff(m)); err != nil {
		log.Fatalf("mangen: %v", err)
	}
	if *textOut != "" {
		if err := write(*textOut, text(m)); err != nil {
			log.Fatalf("mangen: %v", err)
		}
	}
}

func write(name, content string) error {
	if name == "-" {
		_, err := os.Stdout.WriteString(content)
		return err
	}
	return os.WriteFile(name, []byte(content), 0o666)
}
