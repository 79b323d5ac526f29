// Command mangen writes goblame's manual page (or its Markdown source)
// from the option table git blame's help is drawn from, with urfave/cli's
// documentation generator (App.ToManWithSection, App.ToMarkdown).
//
// urfave/cli lives here, not in the goblame binary: goblame answers
// --help, --version and --generate-bash-completion itself (cli.Main), so a
// run does not pay for initialising urfave/cli and the Markdown and
// template packages it brings along.
//
// Usage, from the repository root (or go generate ./cli):
//
//	go run ./cli/internal/gen/mangen -out goblame.1
//	go run ./cli/internal/gen/mangen -format markdown -out goblame.md
package main

import (
	"flag"
	"log"
	"os"
	"strings"

	"github.com/goblame/goblame/cli"
	urfave "github.com/urfave/cli/v2"
)

func main() {
	out := flag.String("out", "goblame.1", `file to write ("-" for standard output)`)
	format := flag.String("format", "man", "man or markdown")
	section := flag.Int("section", 1, "manual section")
	flag.Parse()

	app := newApp()
	var text string
	var err error
	switch *format {
	case "man":
		text, err = app.ToManWithSection(*section)
	case "markdown":
		text, err = app.ToMarkdown()
	default:
		log.Fatalf("mangen: unknown -format %q (man or markdown)", *format)
	}
	if err != nil {
		log.Fatalf("mangen: %v", err)
	}
	if *out == "-" {
		_, err = os.Stdout.WriteString(text)
	} else {
		err = os.WriteFile(*out, []byte(text), 0o666)
	}
	if err != nil {
		log.Fatalf("mangen: %v", err)
	}
}

// newApp describes goblame to urfave/cli: its name, summary and usage, and
// one flag per option of git blame's table plus goblame's own --help and
// --version.
func newApp() *urfave.App {
	// goblame has options, not commands and global options.
	urfave.MarkdownDocTemplate = strings.Replace(urfave.MarkdownDocTemplate, "# GLOBAL OPTIONS", "# OPTIONS", 1)
	flags := []urfave.Flag{
		&docFlag{names: []string{"help"}, usage: "show the option help (as the first argument)"},
		&docFlag{names: []string{"version"}, usage: "print the version (as the first argument)"},
	}
	for _, o := range cli.OptionDocs() {
		if o.Hidden {
			continue
		}
		f := &docFlag{usage: markdownEscape(o.Help)}
		if o.Long != "" {
			f.names = append(f.names, o.Long)
		}
		if o.Short != 0 {
			f.names = append(f.names, string(o.Short))
		}
		if o.Value != "" {
			// urfave prints a value as `=""`; git's help spells it out.
			syntax := "-" + string(o.Short)
			if o.Long != "" {
				syntax = "--" + o.Long
			}
			f.usage += " (`" + syntax + o.Value + "`)"
		}
		flags = append(flags, f)
	}
	return &urfave.App{
		Name:  cli.Name,
		Usage: cli.Summary,
		Description: "goblame annotates each line of a file with the commit that last changed it, " +
			"as git blame 2.39.5 does, with the same command line, configuration and output, byte for byte. " +
			"Run it inside a git repository as \"git blame\" would be run; " +
			"\\<rev-opts\\> are documented in git-rev-list(1).",
		UsageText:       cli.Name + " [<options>] [<rev-opts>] [<rev>] [--] <file>",
		Version:         cli.Version,
		HideHelp:        true,
		HideHelpCommand: true,
		HideVersion:     true,
		Flags:           flags,
	}
}

// docFlag is an option as urfave/cli's documentation generator sees it:
// names and a usage line; goblame parses its command line itself.
type docFlag struct {
	names []string
	usage string
}

func (f *docFlag) String() string            { return strings.Join(f.names, ", ") }
func (f *docFlag) Apply(*flag.FlagSet) error { return nil }
func (f *docFlag) Names() []string           { return f.names }
func (f *docFlag) IsSet() bool               { return false }
func (f *docFlag) IsVisible() bool           { return true }
func (f *docFlag) TakesValue() bool          { return false }
func (f *docFlag) GetUsage() string          { return f.usage }
func (f *docFlag) GetValue() string          { return "" }
func (f *docFlag) GetDefaultText() string    { return "" }
func (f *docFlag) GetEnvVars() []string      { return nil }
func (f *docFlag) GetCategory() string       { return "" }
func (f *docFlag) IsRequired() bool          { return false }
func (f *docFlag) IsDefaultVisible() bool    { return false }
func (f *docFlag) TakesFile() bool           { return false }

// markdownEscape keeps git's help text literal in Markdown ("<file>" is
// not an HTML tag there).
func markdownEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("\\`*_[]<>#", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
