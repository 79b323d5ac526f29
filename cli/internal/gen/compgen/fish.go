package main

import (
	"strings"
)

// fish writes the fish completions: complete -c goblame lines.
func fish(opts []option) string {
	var b strings.Builder
	b.WriteString("# fish completion for goblame (git blame, byte for byte): " + header + "\n")
	b.WriteString("# Install it as <prefix>/share/fish/vendor_completions.d/goblame.fish.\n\n")
	b.WriteString(`# The revisions: branches, tags, remote-tracking branches and HEAD.
function __goblame_refs
    git for-each-ref --format='%(refname:short)' refs/heads refs/tags refs/remotes 2>/dev/null
    echo HEAD
end

# The tracked paths.
function __goblame_files
    git -c core.quotepath=off ls-files 2>/dev/null
end

# Whether the command line has no -- before the word being completed.
function __goblame_before_dashdash
    not contains -- -- (commandline -opc)
end

complete -c goblame -f
complete -c goblame -n __goblame_before_dashdash -a '(__goblame_refs)' -d revision
complete -c goblame -a '(__goblame_files)' -d 'tracked file'
`)
	for _, o := range opts {
		line := "complete -c goblame"
		if o.short != "" {
			line += " -s " + o.short
		}
		if o.long != "" {
			line += " -l " + o.long
		}
		if o.takesValue() && !o.optional {
			switch {
			case o.values != nil:
				line += " -x -a " + fishQuote(strings.Join(o.values, " "))
			case o.kind == "file":
				line += " -r -F"
			case o.kind == "rev":
				line += " -x -a '(__goblame_refs)'"
			default:
				line += " -x"
			}
		}
		b.WriteString(line + " -d " + fishQuote(o.help) + "\n")
	}
	return b.String()
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}
