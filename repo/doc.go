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
// # Refs and history files
//
// Refs are read from the files backend: a loose file (a hex name, or
// "ref: <target>"; a symbolic link into refs/ is a symbolic ref too),
// else the packed-refs record (binary search over the sorted records;
// files without the "sorted" trait are sorted on load, only the records
// of a requested range are validated, as in git). Symbolic refs are
// followed at most five levels. Names must pass git's refname rules.
// HEAD, pseudo-refs and refs/bisect|worktree|rewritten live in the git
// directory; main-worktree/ and worktrees/<id>/ reach other worktrees.
//
// The shallow file (GIT_SHALLOW_FILE) and info/grafts (GIT_GRAFT_FILE)
// rewrite parents: EffectiveParents merges them as git's graft table
// does (a shallow commit has no parents). Reading info/grafts makes git
// print its deprecation hint, which ReadGrafts returns with the other
// messages. Replace refs (refs/replace/ or GIT_REPLACE_REF_BASE) are
// installed into Objects unless GIT_NO_REPLACE_OBJECTS is set or
// core.useReplaceRefs is false; HasReplacements then tells the walk to
// ignore the commit-graph, as git does.
//
// # Revisions
//
// ResolveRevision follows get_oid_with_context: "name~n", "name^n",
// "name^{type}" (commit, tree, blob, tag, object, and "^{}" for tags
// only), then a basic name (a full hex name, which is taken even if the
// object does not exist; "@" for HEAD; a ref by the DWIM rules x,
// refs/x, refs/tags/x, refs/heads/x, refs/remotes/x, refs/remotes/x/HEAD,
// warning "refname 'x' is ambiguous." when several match or the name is
// also a short object name), describe output (…-g<hex>), a short hex
// name of 4 or more digits (disambiguated by the lookup's type hint or
// core.disambiguate), and finally "rev:path" (a tree entry; "./" and
// "../" relative to the prefix) and ":path" or ":<stage>:path" (the
// index). Parents follow grafts and shallow commits. Reflog counts
// (<ref>@{n}, @{n}) and dates (<ref>@{date}), @{-n}, "^{/regex}" and
// ":/regex" resolve, and so do <branch>@{upstream} and <branch>@{push},
// through the remote's refspecs as git reads them (the configuration,
// then for a remote it gives no URL the legacy $GIT_DIR/remotes/<name>
// and $GIT_DIR/branches/<name> files; negative refspecs with git's
// query rules; an invalid refspec anywhere fails as git dies).
//
// ParseRevisionArgs handles blame's revision arguments as git's
// revision machinery does after blame has put "--" before the path:
// A, ^A, A..B, A...B (merge bases negative), A^@, A^!, A^-n and --not,
// returning the pending objects in git's order with the names git uses
// in blame's messages.
//
// git reads info/grafts once per command, when it first parses a commit,
// and prints the grafts' hint then: ResolveRevisionWith,
// ParseRevisionArgsWith and LoadMailmap take the command's
// CommandParents, so that all of a command's resolutions share that read
// and its hint comes out once, where git prints it.
//
// What git blame prints for revisions it cannot use (verified with
// 2.39.5), and how the errors carry it:
//
//	$ git blame nosuch -- f
//	fatal: bad revision 'nosuch'
//	$ git blame 389a -- f            (a prefix shared by a commit and a blob)
//	error: short object ID 389a is ambiguous
//	hint: The candidates are:
//	hint:   389ae78 commit 2005-04-07 - commit 241
//	hint:   389ac1e blob
//	fatal: bad revision '389a'
//
// The error is an *Error of kind ErrBadRevision (ErrAmbiguous for the
// second) with Msg "bad revision '389a'" and the "error:"/"hint:" lines
// in Before; the command line prints Before, then "fatal: "+Msg, and
// exits 128. Other failures die with their own message and also come
// back as *Error: "Invalid revision range A..B", "Invalid symmetric
// difference expression A...B", "bad object X", "'../x' is outside
// repository at '/top'". IsRevision (blame's is_a_rev) is quiet; git
// prints an ambiguity error there too, which the CLI gets from
// ResolveRevision's error when it needs to reproduce it.
//
// # Mailmap
//
// LoadMailmap reads .mailmap at the top of the work tree (opened without
// following a symbolic link; not in bare repositories), the blob of
// mailmap.blob (default HEAD:.mailmap in bare repositories) and the file
// of mailmap.file, later entries overriding earlier ones. A line
// "Proper Name <proper@email>" sets the name for that e-mail;
// "<proper@email> <commit@email>", "Proper Name <proper@email>
// <commit@email>" and "Proper Name <proper@email> Commit Name
// <commit@email>" replace name and/or e-mail for the commit e-mail (and,
// in the last form, only for that name). Matching is ASCII
// case-insensitive; a name-specific entry falls back to the plain entry
// of its e-mail. Files are read in 1023-byte pieces as git's fgets reads
// them; blobs line by line.
//
// # Index
//
// ReadIndex reads $GIT_DIR/index (GIT_INDEX_FILE): versions 2, 3
// (extended flags: skip-worktree, intent-to-add) and 4 (prefix-compressed
// paths), a split index (the "link" extension names
// $GIT_DIR/sharedindex.<hex>, whose entries are replaced and deleted by
// two EWAH bitmaps, then the split index's own entries are added), and a
// sparse index, whose directory entries it expands from their trees as
// git does for blame (ReadIndexSparse keeps them). Optional extensions
// (upper-case signatures) are skipped, git's "ignoring XXXX extension"
// noted for unknown ones; an unknown required extension is git's
// "index uses xxxx extension, which we do not understand" and "index
// file corrupt". The trailing checksum is not verified (git does not
// either outside fsck), so a zero trailer is accepted. Where git 2.39.5
// trusts an entry count the file cannot hold and reads past the end,
// this reader reports the index as corrupt.
//
// # Attributes and conversion
//
// Attributes and AllAttributes evaluate gitattributes as "git check-attr"
// does: the builtin "[attr]binary -diff -merge -text" macro,
// /etc/gitattributes (git's sysconfdir; unless GIT_ATTR_NOSYSTEM),
// core.attributesFile (default $XDG_CONFIG_HOME/git/attributes),
// .gitattributes from the top of the work tree down to the path's
// directory (a symbolic link is not followed, with git's warning; a file
// missing from the work tree is read from the index) and
// $GIT_DIR/info/attributes, the last matching line deciding each
// attribute. Patterns without a slash match the base name, others the
// path relative to the file's directory (wildmatch with WM_PATHNAME); a
// trailing slash matches directories only; macros expand when set.
// Lines git rejects are reported with git's messages through the
// warning handler.
//
// ConvertToGit turns work-tree content into what git would store, as
// blame does for the work-tree file (convert_to_git without safecrlf):
// working-tree-encoding (UTF-16/32 with git's BOM rules, other names as
// glibc's iconv knows them, through internal/charset), end-of-line conversion by the
// text/eol/crlf attributes and core.autocrlf/core.eol (the "auto" modes
// leave binary content alone, and content whose index copy already has
// CRLF), and the ident collapse. Clean filters (filter=<driver> with a
// configured clean or process command) are programs, which this package
// never runs: ConvertToGitFiltered hands the content to a function of
// the caller first (package blame runs them as git does).
//
// # Tests
//
// Every behaviour above is compared with git 2.39.5 on fixture
// repositories for SHA-1 and SHA-256: discovery with git rev-parse (59
// layouts and variable combinations, 13 ownership cases), configuration
// with git config --list/--get/--get-all/--bool/--int (19 sequences, 54
// keys, 16 syntax errors), refs and revisions with git rev-parse
// --verify (96 expressions, plus 9 from a subdirectory and 9 under
// grafts, shallow and replace refs) and git blame's stderr for 20 bad
// ones, revision ranges with git rev-parse (26 argument lists), the
// index with git ls-files -s --debug, mailmap with git check-mailmap and
// git log, attributes with git check-attr, conversion with git
// hash-object --path (2600 cases). The fuzz targets (fuzz_test.go) run
// one at a time:
//
//	go test ./repo -run '^$' -fuzz FuzzParseIndex -fuzztime 5m
//
// # Performance
//
// Measured on the project's 2-core VM (shared, so figures vary by 2-5x
// between runs) with
//
//	go test ./repo -run '^$' -bench . -benchtime 300x
//
// Discover (walk, format, full configuration, object store) 57-320 µs
// and 262 allocations; ResolveRevision "HEAD" 9 µs, "main~20" 150-370 µs
// (twenty commit reads); ReadIndex of 20000 entries 2.5-14 ms with 12
// allocations (paths share one string); Attributes 3-22 µs;
// Mailmap.Map 24-37 ns, allocation-free (a budget test keeps it so).
// "git rev-parse --git-dir" as a process takes about 2 ms.
//
// # Concurrency
//
// Discover keeps no global state; tests run many discoveries in
// parallel. A Repository may be used from several goroutines once
// Discover has returned, with one odb.Reader per goroutine: the ref
// store loads packed-refs once (sync.Once), attribute files are read
// once under a mutex, and the configuration is immutable. Warnings
// produced after Discover go to WarningHandler when it is set (set it
// before sharing the repository); otherwise they are appended to
// Warnings, which is only safe from one goroutine.
//
// # Not supported
//
// GIT_NAMESPACE, core.ignoreCase outside attribute patterns (which it
// makes match without regard to the case of ASCII letters, as git's do:
// other paths and patterns compare case-sensitively, as on Linux by
// default), the reftable backend (git
// 2.39.5 refuses it too), and the sparse-checkout cone
// check git makes before reading a .gitattributes file from the index.
//
// # Security
//
// Configuration files, ref files, packed-refs, .git files and the index
// may be corrupt or hostile. Parsers check every length before slicing
// and return errors (with git's wording) instead of panicking; file
// sizes are bounded where git bounds them (a .git file is at most 1 MiB,
// includes nest at most 10 deep, symbolic refs at most 5).
package repo
