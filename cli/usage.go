package cli

import (
	"strings"
	"unicode/utf8"
)

// The usage strings of git blame and git annotate (builtin/blame.c).
const (
	blameUsageLine    = "git blame [<options>] [<rev-opts>] [<rev>] [--] <file>"
	annotateUsageLine = "git annotate [<options>] [<rev-opts>] [<rev>] [--] <file>"
)

// usageStrings is the usage array git passes to parse-options: the usage
// line, an empty separator and a note.
func usageStrings(annotate bool) []string {
	line := blameUsageLine
	if annotate {
		line = annotateUsageLine
	}
	return []string{line, "", "<rev-opts> are documented in git-rev-list(1)"}
}

// Usage returns the help git blame 2.39.5 prints for -h (on standard
// output, exit status 129) and after a usage error (on standard error,
// exit status 129), byte for byte. With annotate it is git annotate's.
func Usage(annotate bool) string {
	return renderUsage(usageStrings(annotate), blameOptionTable(nil), false)
}

// UsageLine returns the one-line usage git prints (on standard error, exit
// status 129) for a malformed -L value: "usage: git blame [<options>] ...".
func UsageLine(annotate bool) string {
	return "usage: " + usageStrings(annotate)[0] + "\n"
}

// Layout of the option help: git's USAGE_OPTS_WIDTH and USAGE_GAP.
const (
	usageOptsWidth = 24
	usageGap       = 2
)

// renderUsage draws the usage strings and the option table as git's
// usage_with_options_internal does. full also shows hidden options
// (--help-all).
func renderUsage(usage []string, opts []poOption, full bool) string {
	var b strings.Builder
	const usagePrefix = "usage: "
	prefix := usagePrefix
	sawEmpty := false
	for _, str := range usage {
		if !sawEmpty && str == "" {
			sawEmpty = true
		}
		for j, line := range strings.Split(str, "\n") {
			switch {
			case sawEmpty && line != "":
				b.WriteString("    " + line + "\n")
			case sawEmpty:
				b.WriteByte('\n')
			case j == 0:
				b.WriteString(prefix + line + "\n")
			default:
				b.WriteString(strings.Repeat(" ", len(usagePrefix)) + line + "\n")
			}
		}
		prefix = "   or: "
	}

	needNewline := true
	for i := range opts {
		o := &opts[i]
		if o.kind == poGroup {
			b.WriteByte('\n')
			needNewline = false
			if o.help != "" {
				b.WriteString(o.help + "\n")
			}
			continue
		}
		if !full && o.flags&poHidden != 0 || o.flags&poGoblame != 0 {
			continue
		}
		if needNewline {
			b.WriteByte('\n')
			needNewline = false
		}
		var line strings.Builder
		line.WriteString("    ")
		if o.short != 0 {
			line.WriteString("-" + string(o.short))
		}
		if o.long != "" && o.short != 0 {
			line.WriteString(", ")
		}
		if o.long != "" {
			line.WriteString("--" + o.long)
		}
		pos := line.Len()
		if o.flags&poLiteralArgHelp != 0 || o.flags&poNoArg == 0 {
			argh := usageArgHelp(o)
			line.WriteString(argh)
			pos += utf8.RuneCountInString(argh)
		}
		b.WriteString(line.String())
		pad := usageOptsWidth - pos
		if pos > usageOptsWidth {
			b.WriteByte('\n')
			pad = usageOptsWidth
		}
		b.WriteString(strings.Repeat(" ", pad+usageGap))
		b.WriteString(o.help + "\n")
	}
	b.WriteByte('\n')
	return b.String()
}

// usageArgHelp is how the help names an option's value: " <file>",
// "[<score>]" for an optional value of a short option, "[=<n>]" of a long
// one; the name is printed literally when it already has brackets or the
// option asks for it.
func usageArgHelp(o *poOption) string {
	argh := o.argh
	literal := o.flags&poLiteralArgHelp != 0 || argh == "" || strings.ContainsAny(argh, "()<>[]|")
	if argh == "" {
		argh = "..."
	}
	if !literal {
		argh = "<" + argh + ">"
	}
	if o.flags&poOptArg != 0 {
		if o.long != "" {
			return "[=" + argh + "]"
		}
		return "[" + argh + "]"
	}
	return " " + argh
}

// OptionDoc describes one option of git blame's table for documentation
// (the manual page generator) and completion.
type OptionDoc struct {
	Short byte   // 0 when the option has no short form
	Long  string // "" when it has no long form
	// Value is how the help names the option's value, as git prints it
	// after the option: " <file>", "[<score>]", "[=<n>]"; "" for none.
	Value  string
	Help   string
	Hidden bool // left out of -h (shown by --help-all)
	// Goblame marks goblame's own options (not git blame's), which git's
	// help and completion lists leave out.
	Goblame bool
}

// OptionDocs lists git blame's options in the order git's help shows them,
// then goblame's own.
func OptionDocs() []OptionDoc {
	table := blameOptionTable(nil)
	docs := make([]OptionDoc, 0, len(table))
	for i := range table {
		o := &table[i]
		if o.kind == poGroup {
			continue
		}
		d := OptionDoc{Short: o.short, Long: o.long, Help: o.help, Hidden: o.flags&poHidden != 0, Goblame: o.flags&poGoblame != 0}
		if o.flags&poLiteralArgHelp != 0 || o.flags&poNoArg == 0 {
			d.Value = usageArgHelp(o)
		}
		docs = append(docs, d)
	}
	return docs
}
