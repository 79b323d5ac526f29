package main

import (
	"sort"
	"strings"
)

// bash writes the bash completion: a function _goblame registered for
// goblame with complete -F. It needs nothing of the bash-completion
// package: the words split at '=' (COMP_WORDBREAKS) are joined back, so
// that --date=<TAB> offers the formats.
func bash(opts []option) string {
	var words []string
	// The options whose value is the next word, and those whose value
	// follows '=', by what the value is.
	type group struct{ files, revs, none []string }
	var next, eq group
	values := map[string][]string{}
	for _, o := range opts {
		for _, n := range o.names() {
			long := strings.HasPrefix(n, "--")
			switch {
			case long && o.optional:
				words = append(words, n, n+"=")
			case long && o.attached:
				words = append(words, n+"=")
			default:
				words = append(words, n)
			}
			if !o.takesValue() {
				continue
			}
			add := func(g *group) {
				switch {
				case o.values != nil:
					values[n] = o.values
				case o.kind == "file":
					g.files = append(g.files, n)
				case o.kind == "rev":
					g.revs = append(g.revs, n)
				default:
					g.none = append(g.none, n)
				}
			}
			if o.detached {
				add(&next)
			}
			if o.attached && long {
				add(&eq)
			}
		}
	}
	var b strings.Builder
	b.WriteString("# bash completion for goblame (git blame, byte for byte): " + header + "\n")
	b.WriteString("# Source it, or install it as <prefix>/share/bash-completion/completions/goblame.\n\n")
	b.WriteString("_goblame_options='" + strings.Join(words, " ") + "'\n\n")
	b.WriteString(`# _goblame_refs lists the revisions: branches, tags, remote-tracking
# branches and HEAD.
_goblame_refs() {
	git for-each-ref --format='%(refname:short)' refs/heads refs/tags refs/remotes 2>/dev/null
	printf '%s\n' HEAD
}

# _goblame_paths lists the tracked paths that start with $1.
_goblame_paths() {
	git -c core.quotepath=off ls-files -- "$1*" 2>/dev/null
}

# _goblame_reply sets COMPREPLY to the lines of standard input that start
# with $1 (the word being completed, whole); bash replaces only the part
# of it after the last '=' or ':' when COMP_WORDBREAKS splits there.
_goblame_reply() {
	local cur=$1 prefix= line
	COMPREPLY=()
	case $cur in
	*[=:]*)
		local breaks=${COMP_WORDBREAKS//[^=:]/}
		if [[ -n $breaks ]]; then
			prefix=${cur%"${cur##*[$breaks]}"}
		fi
		;;
	esac
	while IFS= read -r line; do
		[[ $line == "$cur"* ]] && COMPREPLY+=("${line#"$prefix"}")
	done
}

_goblame() {
	# The words up to the cursor, with those bash split at '=' or ':'
	# joined back.
	local -a words=()
	local i w
	for ((i = 0; i <= COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if ((${#words[@]} > 0)) && [[ $w == [=:] || ${words[-1]} == *[=:] ]]; then
			words[-1]+=$w
		else
			words+=("$w")
		fi
	done
	local cur=${words[-1]} prev=
	((${#words[@]} > 1)) && prev=${words[-2]}

	local dashdash=
	for w in "${words[@]:1:${#words[@]}-2}"; do
		[[ $w == -- ]] && dashdash=1
	done

	if [[ -z $dashdash ]]; then
		case $prev in
`)
	caseArm := func(patterns []string, body string) {
		if len(patterns) > 0 {
			b.WriteString("\t\t" + strings.Join(patterns, " | ") + ")\n" + body + "\t\t\treturn\n\t\t\t;;\n")
		}
	}
	const filesBody = "\t\t\tcompopt -o filenames 2>/dev/null\n\t\t\t_goblame_reply \"$cur\" < <(compgen -f -- \"$cur\")\n"
	const revsBody = "\t\t\t_goblame_reply \"$cur\" < <(_goblame_refs)\n"
	caseArm(next.files, filesBody)
	caseArm(next.revs, revsBody)
	for _, n := range sortedKeys(values) {
		if contains(next.none, n) || !hasDetached(opts, n) {
			continue
		}
		caseArm([]string{n}, "\t\t\t_goblame_reply \"$cur\" < <(printf '%s\\n' "+strings.Join(values[n], " ")+")\n")
	}
	caseArm(next.none, "\t\t\t# a value with nothing to offer\n")
	b.WriteString("\t\tesac\n\t\tcase $cur in\n")
	suffix := func(names []string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = n + "=*"
		}
		return out
	}
	for _, n := range sortedKeys(values) {
		caseArm([]string{n + "=*"}, "\t\t\t_goblame_reply \"$cur\" < <(printf -- '"+n+"=%s\\n' "+strings.Join(values[n], " ")+")\n")
	}
	caseArm(suffix(eq.files), "\t\t\tcompopt -o filenames 2>/dev/null\n"+
		"\t\t\t_goblame_reply \"$cur\" < <(compgen -f -- \"${cur#*=}\" | sed \"s|^|${cur%%=*}=|\")\n")
	caseArm(suffix(eq.revs), "\t\t\t_goblame_reply \"$cur\" < <(_goblame_refs | sed \"s|^|${cur%%=*}=|\")\n")
	caseArm(suffix(eq.none), "\t\t\t# a value with nothing to offer\n")
	b.WriteString(`		-*)
			_goblame_reply "$cur" < <(printf '%s\n' $_goblame_options)
			_goblame_nospace
			return
			;;
		esac
	fi

	# A revision (before --) or a tracked path.
	compopt -o filenames 2>/dev/null
	_goblame_reply "$cur" < <(
		[[ -z $dashdash ]] && _goblame_refs
		_goblame_paths "$cur"
	)
}

# _goblame_nospace keeps bash from adding a space after a completion that
# ends with '=' (a value follows).
_goblame_nospace() {
	if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *= ]]; then
		compopt -o nospace 2>/dev/null
	fi
}

complete -F _goblame goblame
`)
	return b.String()
}

// hasDetached is whether the option spelled name takes its value as the
// next word.
func hasDetached(opts []option, name string) bool {
	for _, o := range opts {
		for _, n := range o.names() {
			if n == name {
				return o.detached
			}
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
