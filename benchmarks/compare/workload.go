package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A workload is one line of a workload file: a blame to run in a
// directory, with git and with goblame.
type workload struct {
	Line   int      // line number in the workload file
	Name   string   // label (the 4th field, or the directory's base name)
	Dir    string   // directory to run in, $VARs expanded, absolute
	Args   string   // the argument string after "blame", as written
	Argv   []string // Args split into words
	Stdin  string   // file fed on standard input ("" for none), absolute
	Config []string // key=value pairs for the command-line config scope
}

// parseWorkloads reads a workload file (see doc.go for the format).
// Relative directories and stdin files are taken from the file's folder;
// $VAR and ${VAR} are expanded from lookup, and an unset variable is an
// error (an empty $REPOS would silently run in the wrong place).
func parseWorkloads(r io.Reader, base string, lookup func(string) (string, bool)) ([]workload, error) {
	var list []workload
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		w, err := parseWorkload(line, base, lookup)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		w.Line = n
		list = append(list, w)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return list, nil
}

func parseWorkload(line, base string, lookup func(string) (string, bool)) (workload, error) {
	fields := strings.Split(line, "|")
	if len(fields) < 2 || len(fields) > 5 {
		return workload{}, fmt.Errorf("want DIR|ARGS[|STDIN-FILE[|NAME[|CONFIG]]], got %d fields", len(fields))
	}
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	var w workload
	var err error
	if w.Dir, err = expand(fields[0], lookup); err != nil {
		return w, err
	}
	if w.Dir == "" {
		return w, fmt.Errorf("empty DIR")
	}
	w.Dir = resolve(base, w.Dir)
	w.Args = fields[1]
	if w.Argv, err = splitWords(w.Args); err != nil {
		return w, err
	}
	if len(fields) > 2 && fields[2] != "" {
		s, err := expand(fields[2], lookup)
		if err != nil {
			return w, err
		}
		w.Stdin = resolve(base, s)
	}
	if len(fields) > 3 {
		w.Name = fields[3]
	}
	if w.Name == "" {
		w.Name = filepath.Base(w.Dir)
	}
	if len(fields) > 4 && fields[4] != "" {
		if w.Config, err = parseConfig(fields[4]); err != nil {
			return w, err
		}
	}
	return w, nil
}

func resolve(base, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

var varRef = regexp.MustCompile(`\$(\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)`)

// expand replaces $VAR and ${VAR}; every variable must be set.
func expand(s string, lookup func(string) (string, bool)) (string, error) {
	var missing string
	out := varRef.ReplaceAllStringFunc(s, func(ref string) string {
		name := strings.Trim(ref[1:], "{}")
		v, ok := lookup(name)
		if !ok && missing == "" {
			missing = name
		}
		return v
	})
	if missing != "" {
		return "", fmt.Errorf("$%s is not set", missing)
	}
	return out, nil
}

// parseConfig reads "key=value key=value" (each pair one word, quoted as
// in ARGS if a value holds spaces).
func parseConfig(s string) ([]string, error) {
	words, err := splitWords(s)
	if err != nil {
		return nil, err
	}
	for _, kv := range words {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return nil, fmt.Errorf("config %q: want key=value", kv)
		}
	}
	return words, nil
}

// splitWords splits s into words as a POSIX shell would, without any
// expansion: blanks separate words, '...' is literal, "..." is literal
// except for \" \\ \$ \`, a backslash outside quotes escapes the next
// character.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated \" in %q", s)
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("trailing backslash in %q", s)
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./,:=+@%^-]+$`)

// shellQuote quotes one word for sh (and for hyperfine's own word
// splitting under -N, which follows the same rules).
func shellQuote(w string) string {
	if plainWord.MatchString(w) {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

func shellJoin(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shellQuote(w)
	}
	return strings.Join(q, " ")
}

// configEnv is the command-line config scope as environment variables
// (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n>, GIT_CONFIG_VALUE_<n>), which git
// and goblame both read; goblame takes blame's arguments only, so "git -c"
// has no equivalent on its command line.
func configEnv(pairs []string) []string {
	if len(pairs) == 0 {
		return nil
	}
	env := []string{fmt.Sprintf("GIT_CONFIG_COUNT=%d", len(pairs))}
	for i, kv := range pairs {
		k, v, _ := strings.Cut(kv, "=")
		env = append(env, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", i, k), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", i, v))
	}
	return env
}

// environ returns os.Environ() without any inherited GIT_CONFIG_COUNT
// scope (it would be shadowed half-way), plus env. goblame's blame cache
// is off: these are cold blames (GOBLAME_CACHE set in the caller's
// environment is kept, to time warm ones on purpose).
func environ(env []string) []string {
	var out []string
	cache := false
	for _, kv := range os.Environ() {
		if len(env) > 0 && (strings.HasPrefix(kv, "GIT_CONFIG_COUNT=") || strings.HasPrefix(kv, "GIT_CONFIG_KEY_") || strings.HasPrefix(kv, "GIT_CONFIG_VALUE_")) {
			continue
		}
		cache = cache || strings.HasPrefix(kv, "GOBLAME_CACHE=")
		out = append(out, kv)
	}
	if !cache {
		out = append(out, "GOBLAME_CACHE=off")
	}
	return append(out, env...)
}
