package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/goblame/goblame/internal/cquote"
	"github.com/goblame/goblame/repo"
)

// The git shim. Editors run "git blame", not goblame; goblame installed
// under the name git (make install-shim: PREFIX/libexec/goblame/git, a
// link to the goblame binary, in a directory placed before the real git
// on PATH or named by the editor's git setting) answers
//
//	git [global options] blame ...      (and pickaxe, its old name)
//	git [global options] annotate ...
//
// itself and runs the real git, unchanged, for every other command line.
//
// The global options are read as git 2.39.5's handle_options (git.c)
// reads them, and have the effects git gives them, on this process, before
// the blame runs: -C <dir> changes directory; --git-dir, --work-tree,
// --no-replace-objects, --literal-pathspecs (and --no-literal-, --glob-,
// --noglob-, --icase-pathspecs), --no-optional-locks and --bare set the
// environment variables git sets; -c <name>[=<value>] and --config-env
// <name>=<envvar> append to GIT_CONFIG_PARAMETERS, quoted as git quotes
// them; -P (--no-pager) sets GIT_PAGER=cat. Everything after that is
// goblame reading the environment as git does (GIT_DIR, GIT_CONFIG_*,
// GIT_NO_REPLACE_OBJECTS and the rest, see repo.Discover).
//
// The real git runs instead whenever goblame could not give git's exact
// answer: any other command, no command, "blame --help" (git help blame),
// --help, --version, --exec-path and the other path queries, an unknown
// option or one missing its argument (git's usage message), --super-prefix,
// --shallow-file, --list-cmds, a namespace (git checks its name), -p
// (--paginate) with standard output on a terminal (git starts the pager
// before the command, with pager.blame ignored), tracing (GIT_TRACE,
// GIT_TRACE_<x>, GIT_TRACE2, GIT_TRACE2_EVENT, GIT_TRACE2_PERF),
// GIT_PAGER_IN_USE (which git's auto colours and dates treat as a
// terminal), and --bare on a repository whose core.worktree gives it a
// work tree or cannot be opened (git's --bare then has no work tree and
// looks at no core.worktree, unless core.bare says false).
// Aliases are the real git's too: git looks them up only for names that
// are not commands, so an alias cannot stand for blame.
//
// The real git is GOBLAME_GIT when that is set (and is not the shim
// itself), else the first git on PATH after the directory the shim was
// found in, skipping any that is the shim's own file. On Unix it replaces
// the shim's process (execve), so arguments, environment, standard
// streams, the process, its exit status and the signal that ends it are
// git's own.

// shimEffectKind is what a global option does to the process.
type shimEffectKind int

const (
	effectChdir     shimEffectKind = iota // -C <dir>: chdir(value)
	effectSetenv                          // setenv(name, value)
	effectBare                            // --bare
	effectConfig                          // -c name[=value]
	effectConfigEnv                       // --config-env name=<value: a variable's name>
)

type shimEffect struct {
	kind        shimEffectKind
	name, value string
	hasValue    bool // effectConfig: the text had an '='
}

// shimPlan is what git [global options] <command> ... comes to.
type shimPlan struct {
	// delegate says the real git must run the command line; reason
	// says why (for tests and debugging).
	delegate bool
	reason   string
	effects  []shimEffect
	bare     bool
	command  string   // blame, pickaxe or annotate
	args     []string // the command's arguments
}

// planShim reads the global options of a git command line as git's
// handle_options does, without acting on them. environ is the process's
// environment; stdoutIsTerminal is asked only for -p.
func planShim(args []string, environ []string, stdoutIsTerminal func() bool) shimPlan {
	env := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := env[k]; !dup {
			env[k] = v
		}
	}
	var p shimPlan
	delegate := func(reason string) shimPlan { return shimPlan{delegate: true, reason: reason} }
	setenv := func(name, value string) {
		p.effects = append(p.effects, shimEffect{kind: effectSetenv, name: name, value: value})
		env[name] = value
	}
	pager := -1
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			break
		}
		// The options that take the next word.
		var value string
		switch a {
		case "--git-dir", "--namespace", "--work-tree", "--super-prefix", "-c", "--config-env", "-C":
			if i+1 == len(args) {
				return delegate(a + " without its argument")
			}
			i++
			value = args[i]
		}
		switch {
		case a == "--help" || a == "-h" || a == "--version" || a == "-v":
			return delegate(a)
		case strings.HasPrefix(a, "--exec-path"), a == "--html-path", a == "--man-path", a == "--info-path":
			return delegate(a)
		case a == "-p" || a == "--paginate":
			pager = 1
		case a == "-P" || a == "--no-pager":
			pager = 0
		case a == "--no-replace-objects":
			setenv("GIT_NO_REPLACE_OBJECTS", "1")
		case a == "--git-dir":
			setenv("GIT_DIR", value)
		case strings.HasPrefix(a, "--git-dir="):
			setenv("GIT_DIR", a[len("--git-dir="):])
		case a == "--namespace":
			setenv("GIT_NAMESPACE", value)
		case strings.HasPrefix(a, "--namespace="):
			setenv("GIT_NAMESPACE", a[len("--namespace="):])
		case a == "--work-tree":
			setenv("GIT_WORK_TREE", value)
		case strings.HasPrefix(a, "--work-tree="):
			setenv("GIT_WORK_TREE", a[len("--work-tree="):])
		case a == "--super-prefix" || strings.HasPrefix(a, "--super-prefix="):
			return delegate(a) // "fatal: blame doesn't support --super-prefix"
		case a == "--bare":
			p.effects = append(p.effects, shimEffect{kind: effectBare})
			p.bare = true
			if _, ok := env["GIT_DIR"]; !ok {
				env["GIT_DIR"] = "" // the working directory, known when applied
			}
			env["GIT_IMPLICIT_WORK_TREE"] = "0"
		case a == "-c":
			name, val, ok := strings.Cut(value, "=")
			p.effects = append(p.effects, shimEffect{kind: effectConfig, name: name, value: val, hasValue: ok})
			env["GIT_CONFIG_PARAMETERS"] = "set"
		case a == "--config-env" || strings.HasPrefix(a, "--config-env="):
			spec := value
			if a != "--config-env" {
				spec = a[len("--config-env="):]
			}
			// git_config_push_env: the last '=' ends the name.
			eq := strings.LastIndexByte(spec, '=')
			if eq < 0 {
				return delegate("--config-env without '='") // "invalid config format"
			}
			name, variable := spec[:eq], spec[eq+1:]
			if _, ok := env[variable]; !ok || variable == "" {
				return delegate("--config-env names a variable that is not set")
			}
			p.effects = append(p.effects, shimEffect{kind: effectConfigEnv, name: name, value: variable})
			env["GIT_CONFIG_PARAMETERS"] = "set"
		case a == "--literal-pathspecs":
			setenv("GIT_LITERAL_PATHSPECS", "1")
		case a == "--no-literal-pathspecs":
			setenv("GIT_LITERAL_PATHSPECS", "0")
		case a == "--glob-pathspecs":
			setenv("GIT_GLOB_PATHSPECS", "1")
		case a == "--noglob-pathspecs":
			setenv("GIT_NOGLOB_PATHSPECS", "1")
		case a == "--icase-pathspecs":
			setenv("GIT_ICASE_PATHSPECS", "1")
		case a == "--no-optional-locks":
			setenv("GIT_OPTIONAL_LOCKS", "0")
		case a == "--shallow-file":
			return delegate(a)
		case a == "-C":
			if value != "" {
				p.effects = append(p.effects, shimEffect{kind: effectChdir, value: value})
			}
		case strings.HasPrefix(a, "--list-cmds="):
			return delegate(a)
		default:
			return delegate("unknown option " + a) // git's usage
		}
	}
	if i == len(args) {
		return delegate("no command")
	}
	switch args[i] {
	case "blame", "pickaxe", "annotate":
	default:
		return delegate("git " + args[i])
	}
	p.command, p.args = args[i], args[i+1:]
	if len(p.args) > 0 && p.args[0] == "--help" {
		return delegate("git help " + p.command)
	}
	switch pager {
	case 0:
		// commit_pager_choice, when the command starts.
		setenv("GIT_PAGER", "cat")
	case 1:
		if stdoutIsTerminal() {
			return delegate("-p on a terminal")
		}
		// git_pager() starts nothing when standard output is not a
		// terminal: -p changes nothing then.
	}
	if env["GIT_NAMESPACE"] != "" {
		return delegate("a namespace")
	}
	if _, ok := env["GIT_PAGER_IN_USE"]; ok {
		return delegate("GIT_PAGER_IN_USE")
	}
	for k, v := range env {
		if tracing(k, v) {
			return delegate(k)
		}
	}
	return p
}

// tracing reports whether the variable k=v turns on one of git's traces
// (trace.c's trace_want, trace2's target variables). GIT_TRACE_BARE,
// GIT_TRACE_REDACT and GIT_TRACE_CURL_NO_DATA are trace keys that only
// shape other traces' lines (git's test suite sets GIT_TRACE_BARE=1 for
// every test).
func tracing(k, v string) bool {
	if k != "GIT_TRACE" && !strings.HasPrefix(k, "GIT_TRACE_") &&
		k != "GIT_TRACE2" && k != "GIT_TRACE2_EVENT" && k != "GIT_TRACE2_PERF" {
		return false
	}
	switch k {
	case "GIT_TRACE_BARE", "GIT_TRACE_REDACT", "GIT_TRACE_CURL_NO_DATA":
		return false
	}
	return v != "" && v != "0" && !strings.EqualFold(v, "false")
}

// IsShimName reports whether goblame run under the program name name
// (the last element of its argv[0]) is the git shim.
func IsShimName(name string) bool {
	return name == "git" || (runtime.GOOS == "windows" && strings.EqualFold(name, "git.exe"))
}

// ShimMain is goblame run as git with the command line argv (argv[0] the
// program): it blames, or runs the real git. It returns the exit status,
// or does not return when the real git replaces the process.
func ShimMain(argv []string) int {
	environ := os.Environ()
	plan := planShim(argv[1:], environ, func() bool { return isTerminal(os.Stdout) })
	if plan.delegate {
		return runRealGit(argv, environ)
	}
	var back *os.File // the working directory to return to if git must run after all
	if plan.bare {
		f, err := os.Open(".")
		if err != nil {
			return runRealGit(argv, environ)
		}
		defer f.Close()
		back = f
	}
	for _, e := range plan.effects {
		switch e.kind {
		case effectChdir:
			if err := os.Chdir(e.value); err != nil {
				os.Stderr.WriteString(reportLine("fatal: ", "cannot change to '"+e.value+"': "+repo.Strerror(err)))
				return 128
			}
		case effectSetenv:
			os.Setenv(e.name, e.value)
		case effectBare:
			cwd, err := syscall.Getwd()
			if err != nil {
				os.Stderr.WriteString(reportLine("fatal: ", "unable to get current working directory: "+repo.Strerror(err)))
				return 128
			}
			if _, ok := os.LookupEnv("GIT_DIR"); !ok {
				os.Setenv("GIT_DIR", cwd)
			}
			os.Setenv("GIT_IMPLICIT_WORK_TREE", "0")
		case effectConfig:
			pushConfigParameter(e.name, e.value, e.hasValue)
		case effectConfigEnv:
			v, _ := os.LookupEnv(e.value)
			pushConfigParameter(e.name, v, true)
		}
	}
	if plan.bare && bareNeedsGit() {
		if err := back.Chdir(); err != nil {
			os.Stderr.WriteString(reportLine("fatal: ", "cannot return to the working directory: "+repo.Strerror(err)))
			return 128
		}
		return runRealGit(argv, environ)
	}
	return runBlame(plan.args, OSEnviron(), plan.command == "annotate")
}

// pushConfigParameter appends a -c setting to GIT_CONFIG_PARAMETERS as
// git_config_push_split_parameter does: 'name'='value' (or 'name' without
// a value), separated by a space from the settings before it.
func pushConfigParameter(name, value string, hasValue bool) {
	s := os.Getenv("GIT_CONFIG_PARAMETERS")
	if s != "" {
		s += " "
	}
	s += cquote.SingleQuote(name) + "="
	if hasValue {
		s += cquote.SingleQuote(value)
	}
	os.Setenv("GIT_CONFIG_PARAMETERS", s)
}

// bareNeedsGit reports whether the repository --bare names has a work
// tree without GIT_WORK_TREE, which can only come from core.worktree, or
// cannot be opened: git's --bare (is_bare_repository_cfg = 1) then has no
// work tree and ignores core.worktree, unless the repository's core.bare
// is false, a case goblame leaves to git.
func bareNeedsGit() bool {
	if _, ok := os.LookupEnv("GIT_WORK_TREE"); ok {
		return false
	}
	cwd, err := os.Getwd()
	if err != nil {
		return true
	}
	r, err := repo.Discover(repo.Env{Cwd: cwd, Getenv: os.Getenv, LookupEnv: os.LookupEnv})
	if err != nil {
		return true
	}
	defer r.Close()
	return r.WorkTree != ""
}

// realGit finds the git the shim stands for: GOBLAME_GIT unless it is the
// shim, else the first git on PATH after the shim's own directory that
// is not the shim's file.
func realGit(argv0 string) (string, bool) {
	self := shimSelf(argv0)
	isSelf := func(path string) bool {
		if self == nil {
			return false
		}
		fi, err := os.Stat(path)
		return err == nil && os.SameFile(fi, self)
	}
	dirs := filepath.SplitList(os.Getenv("PATH"))
	find := func(name string, dirs []string) string {
		for _, d := range dirs {
			if d == "" {
				d = "." // POSIX: an empty entry is the working directory
			}
			p := filepath.Join(d, name)
			if isExecutable(p) && !isSelf(p) {
				return p
			}
		}
		return ""
	}
	if g := os.Getenv("GOBLAME_GIT"); g != "" {
		if strings.ContainsRune(g, filepath.Separator) || strings.ContainsRune(g, '/') {
			if !isSelf(g) {
				return g, true
			}
		} else if p := find(g, dirs); p != "" {
			return p, true
		}
	}
	start := 0
	for i, d := range dirs {
		if d == "" {
			d = "."
		}
		if isSelf(filepath.Join(d, gitProgram)) {
			start = i + 1
			break
		}
	}
	if p := find(gitProgram, dirs[start:]); p != "" {
		return p, true
	}
	return "", false
}

// gitProgram is the file name of git.
var gitProgram = func() string {
	if runtime.GOOS == "windows" {
		return "git.exe"
	}
	return "git"
}()

// shimSelf is the shim's own file: the running executable, else what
// argv[0] names (a path, or the first match on PATH).
func shimSelf(argv0 string) os.FileInfo {
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			return fi
		}
	}
	path := argv0
	if !strings.ContainsRune(argv0, filepath.Separator) && !strings.ContainsRune(argv0, '/') {
		path = ""
		for _, d := range filepath.SplitList(os.Getenv("PATH")) {
			if p := filepath.Join(d, argv0); isExecutable(p) {
				path = p
				break
			}
		}
	}
	if path == "" {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	return fi
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0
}

// runRealGit runs the real git with the shim's arguments and environ,
// as the shim's process where the system allows it.
func runRealGit(argv []string, environ []string) int {
	git, ok := realGit(argv[0])
	if !ok {
		os.Stderr.WriteString("goblame: running as git, found no other git on PATH after its own directory (set GOBLAME_GIT to the real git)\n")
		return 127
	}
	return execGit(git, append([]string{git}, argv[1:]...), environ)
}
