// Package repo opens a git repository the way git 2.39.5 does and
// answers the questions blame asks of it before and around the object
// walk: where the repository is, what its configuration says, what refs
// and revision expressions name, who people are (mailmap), what the
// index holds and how a work-tree file converts to its committed form.
//
// # Finding the repository
//
// Discover reproduces setup_git_directory (git's setup.c). With GIT_DIR
// set there is no search: GIT_DIR names the git directory (or a .git
// file), the work tree is GIT_WORK_TREE, else core.worktree (relative to
// the git directory), else none when core.bare is true, else the working
// directory. Without GIT_DIR, git looks in the working directory and each
// parent for a ".git" file ("gitdir: <path>", relative to the file's
// directory), a ".git" directory, or the directory itself being a bare
// repository, stopping below a GIT_CEILING_DIRECTORIES entry, at "/", or
// where the device changes (unless GIT_DISCOVERY_ACROSS_FILESYSTEM). A
// directory counts as a git directory when its HEAD is a symbolic ref
// into refs/ or a hex name and its common directory has objects/ (or
// GIT_OBJECT_DIRECTORY is set) and refs/.
//
// A linked worktree's git directory (<common>/worktrees/<id>) has a
// commondir file naming the shared directory; GIT_COMMON_DIR overrides
// it. Objects, refs other than HEAD, pseudo-refs and refs/bisect|
// worktree|rewritten, packed-refs and config live in the common
// directory; HEAD, the index and MERGE_HEAD are per worktree.
//
// Before anything else git reads <common>/config for
// core.repositoryformatversion (0 or 1; more is refused) and
// extensions.*: noop, preciousObjects, partialClone and worktreeConfig
// are understood in both versions, noop-v1 and objectFormat (sha1 or
// sha256) only in version 1, and any other extension makes a version-1
// repository unreadable. A config file without a version is ignored for
// these purposes (git then even forgets its core.bare). When a
// repository is found by searching, its files (the .git file, the work
// tree and the git directory) must belong to the user, or root running
// with SUDO_UID; otherwise only a safe.directory value from the system,
// global or command-line configuration ("*", or the exact work-tree
// path, or the git directory for a bare repository; an empty value
// resets the list) lets git use it. safe.bareRepository=explicit refuses
// bare repositories found by searching.
//
// Paths in Repository are absolute with symbolic links resolved, as
// "git rev-parse --path-format=absolute" prints them. Prefix is git's
// prefix: the working directory below the work-tree top, with a trailing
// slash.
//
// # Configuration
//
// Configuration is read in git's order: the system file (/etc/gitconfig,
// or GIT_CONFIG_SYSTEM, skipped with GIT_CONFIG_NOSYSTEM), the global
// files ($XDG_CONFIG_HOME/git/config or ~/.config/git/config, then
// ~/.gitconfig; only GIT_CONFIG_GLOBAL when that is set), the
// repository's <common>/config, $GIT_DIR/config.worktree with
// extensions.worktreeConfig, and last the command line:
// GIT_CONFIG_COUNT with GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n>, then
// GIT_CONFIG_PARAMETERS (what "git -c k=v" hands to the commands it
// runs, shell-quoted 'key'='value' words or old 'key=value' ones).
// include.path reads another file in place (relative to the including
// file; a missing file is skipped; at most 10 levels); includeIf.<cond>.path
// does so when the condition holds: gitdir: and gitdir/i: (a wildmatch
// pattern against the git directory; "~/" expanded, "./" relative to the
// including file, "**/" prepended to relative patterns, "**" appended
// after a trailing slash), onbranch: (against the branch HEAD names) and
// hasconfig:remote.*.url: (against every remote URL configured).
//
// The syntax: "[section]", "[section "subsection"]" (the subsection is
// case-sensitive and takes \" and \\ escapes) and the legacy
// "[section.subsection]" (lowercased whole); "name = value" lines,
// where section and name are case-insensitive (letters, digits, '-';
// names start with a letter); '#' and ';' start comments outside
// quotes; inside a value, whitespace runs outside quotes become single
// spaces and surrounding whitespace is dropped, double quotes toggle
// quoting, and \n \t \b \\ \" and backslash-newline are the only
// escapes; a name without '=' has no value (boolean true); a UTF-8 BOM
// is skipped and CR LF reads as LF. Any other text is "bad config line
// N in file F".
//
// go-git's plumbing/format/config parser was the candidate and was not
// kept, because it rejects or misreads configuration git accepts:
//
//	[section.Sub]                 error "illegal character U+002E '.'" (git: section.sub.key)
//	[a] k = v                     error "expected EOL, EOF, or comment" (git: a.k=v)
//	\xEF\xBB\xBF[a]               error "illegal character U+FEFF" (git skips the BOM)
//	k = one \<newline> two        value "one \n two" (git: "one  two")
//	[blame] coloring  vs  empty = both give "" (git: no value vs empty value,
//	                              i.e. true vs false as booleans)
//
// Values are read with git's rules: Bool (true/yes/on, false/no/off/"",
// or an integer; no value is true), Int and Int64 (C integers with
// optional k, m or g), Path ("~/" and "~user/" expanded). Error texts are
// those git dies with when reading through its configuration cache
// (blame's path), e.g. "bad numeric config value 'x' for 'k': invalid
// unit" ("git config --int" adds " in file F").
//
// # Errors and messages
//
// Failures that git reports with die() are *Error values whose Error()
// is git's message without "fatal: "; lines git prints first ("error:
// key does not contain a section: foo") are in Error.Before, and
// Repository.Warnings holds warnings of a successful setup. The command
// line prints Before, then "fatal: "+Error(), exits 128, and, like git's
// die(), replaces control characters other than tab and newline by '?'.
//
// # Refs
//
// Refs are read from the files backend: a loose file (a hex name, or
// "ref: <target>"; a symbolic link into refs/ is a symbolic ref too),
// else the packed-refs record (binary search over the sorted records;
// files without the "sorted" trait are sorted on load). Symbolic refs are
// followed at most five levels. Names must pass git's refname rules.
//
// # Concurrency
//
// Discover and the functions it calls keep no global state; tests run
// many discoveries in parallel. A Repository is safe for concurrent
// reads once Discover has returned (the ref store loads packed-refs
// once, under a sync.Once).
//
// # Security
//
// Configuration files, ref files, packed-refs, .git files and the index
// may be corrupt or hostile. Parsers check every length before slicing
// and return errors (with git's wording) instead of panicking; file
// sizes are bounded where git bounds them (a .git file is at most 1 MiB,
// includes nest at most 10 deep, symbolic refs at most 5).
package repo
