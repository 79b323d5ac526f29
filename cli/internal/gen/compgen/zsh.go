package main

import (
	"strings"
)

// zsh writes the zsh completion function _goblame (#compdef goblame), an
// _arguments specification of every option.
func zsh(opts []option) string {
	var b strings.Builder
	b.WriteString("#compdef goblame\n")
	b.WriteString("# zsh completion for goblame (git blame, byte for byte): " + header + "\n")
	b.WriteString("# Install it as _goblame in a directory of $fpath (<prefix>/share/zsh/site-functions).\n\n")
	b.WriteString(`# _goblame_refs offers the revisions: branches, tags, remote-tracking
# branches and HEAD.
_goblame_refs() {
	local -a refs expl
	refs=(${(f)"$(git for-each-ref --format='%(refname:short)' refs/heads refs/tags refs/remotes 2>/dev/null)"} HEAD)
	_wanted refs expl revision compadd -a - refs
}

# _goblame_files offers the tracked paths, a directory at a time.
_goblame_files() {
	local -a files
	files=(${(f)"$(git -c core.quotepath=off ls-files 2>/dev/null)"})
	_wanted files expl 'tracked file' _multi_parts / files
}

# _goblame_words offers a revision or a path before --, a path after it.
_goblame_words() {
	local dd=${words[(I)--]}
	if (( dd > 0 && dd < CURRENT )); then
		_goblame_files
	else
		_alternative 'refs:revision:_goblame_refs' 'files:tracked file:_goblame_files'
	fi
}

_goblame() {
	_arguments -s -S \
`)
	for _, o := range opts {
		for _, n := range o.names() {
			b.WriteString("\t\t" + zshSpec(o, n) + " \\\n")
		}
	}
	b.WriteString("\t\t'*:revision or file:_goblame_words'\n}\n\n_goblame \"$@\"\n")
	return b.String()
}

// zshSpec is the _arguments specification of one spelling of an option:
// '*--contents=[help]:file:_files', '*-C-[help]::score: ', ... (every
// option may be repeated: git takes the last or adds them up).
func zshSpec(o option, name string) string {
	spec := "*" + name
	long := strings.HasPrefix(name, "--")
	switch {
	case !o.takesValue(), !o.attached: // no value, or the next word's
	case o.optional || !o.detached: // the value must be attached
		if long {
			spec += "=-"
		} else {
			spec += "-"
		}
	case long:
		spec += "="
	default:
		spec += "+"
	}
	spec += "[" + zshEscape(o.help) + "]"
	if o.takesValue() {
		msg := o.valueName
		if msg == "" {
			msg = "value"
		}
		action := " "
		switch {
		case o.values != nil:
			vals := make([]string, len(o.values))
			for i, v := range o.values {
				vals[i] = strings.ReplaceAll(v, ":", `\:`)
			}
			action = "(" + strings.Join(vals, " ") + ")"
		case o.kind == "file":
			action = "_files"
		case o.kind == "rev":
			action = "_goblame_refs"
		}
		if o.optional {
			spec += ":"
		}
		spec += ":" + msg + ":" + action
	}
	return "'" + strings.ReplaceAll(spec, "'", `'\''`) + "'"
}

// zshEscape quotes the characters _arguments gives a meaning in an
// option's explanation.
func zshEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, ":", `\:`)
	return r.Replace(s)
}
