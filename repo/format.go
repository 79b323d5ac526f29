package repo

import (
	"github.com/goblame/goblame/internal/fsread"
	"strings"

	"github.com/goblame/goblame/oid"
)

// repoFormatVersionRead is the newest core.repositoryformatversion git
// 2.39.5 reads.
const repoFormatVersionRead = 1

// repoFormat is what git's check_repo_format learns from the repository
// configuration before anything else is read: the format version, the
// extensions, and core.bare/core.worktree.
type repoFormat struct {
	version        int // -1: no core.repositoryformatversion (or no config)
	hash           oid.Format
	worktreeConfig bool
	partialClone   string
	precious       bool
	unknownExt     []string
	v1OnlyExt      []string
	isBare         int // -1 unset, 0, 1
	workTree       string
	hasWorkTree    bool
}

// readRepoFormat reads <commondir>/config the way check_repo_format
// does (no includes). A missing file leaves version -1.
func readRepoFormat(path, name string) (repoFormat, error) {
	f := repoFormat{version: -1, hash: oid.SHA1, isBare: -1}
	data, err := fsread.ReadFile(path, 0)
	if err != nil {
		return f, nil
	}
	src := configSource{kind: originFile, name: name, path: path}
	perr := parseConfig(data, src, func(key, value string, hasValue bool, line int) error {
		switch {
		case key == "core.repositoryformatversion":
			v, err := parseConfigInt(value, 1<<31-1)
			if err != nil {
				return newError(ErrBadConfig, "bad numeric config value '%s' for '%s' in file %s: %s", value, key, name, err.Error())
			}
			f.version = int(v)
		case strings.HasPrefix(key, "extensions."):
			ext := key[len("extensions."):]
			switch ext {
			case "noop":
			case "preciousobjects":
				b, ok := parseBoolValue(value, hasValue)
				if !ok {
					return newError(ErrBadConfig, "bad boolean config value '%s' for '%s'", value, key)
				}
				f.precious = b
			case "partialclone":
				f.partialClone = value
			case "worktreeconfig":
				b, ok := parseBoolValue(value, hasValue)
				if !ok {
					return newError(ErrBadConfig, "bad boolean config value '%s' for '%s'", value, key)
				}
				f.worktreeConfig = b
			case "noop-v1":
				f.v1OnlyExt = append(f.v1OnlyExt, ext)
			case "objectformat":
				if !hasValue {
					return &callbackFailure{[]string{"error: missing value for '" + key + "'"}}
				}
				h, err := oid.ParseFormat(value)
				if err != nil || value == "" {
					return &callbackFailure{[]string{"error: invalid value for 'extensions.objectformat': '" + value + "'"}}
				}
				f.hash = h
				f.v1OnlyExt = append(f.v1OnlyExt, ext)
			default:
				f.unknownExt = append(f.unknownExt, ext)
			}
		default:
			return f.worktreeSetting(key, value, hasValue)
		}
		return nil
	})
	if perr != nil {
		return f, perr
	}
	if f.version == -1 {
		// Without a version git forgets everything it read.
		return repoFormat{version: -1, hash: oid.SHA1, isBare: -1}, nil
	}
	return f, nil
}

// worktreeSetting records core.bare and core.worktree (read_worktree_config).
func (f *repoFormat) worktreeSetting(key, value string, hasValue bool) error {
	switch key {
	case "core.bare":
		b, ok := parseBoolValue(value, hasValue)
		if !ok {
			return newError(ErrBadConfig, "bad boolean config value '%s' for '%s'", value, key)
		}
		if b {
			f.isBare = 1
		} else {
			f.isBare = 0
		}
	case "core.worktree":
		if !hasValue {
			return &callbackFailure{[]string{"error: missing value for '" + key + "'"}}
		}
		f.workTree = value
		f.hasWorkTree = true
	}
	return nil
}

// readWorktreeFormat applies core.bare and core.worktree from
// $GIT_DIR/config.worktree (extensions.worktreeConfig).
func (f *repoFormat) readWorktreeConfig(path, name string) error {
	data, err := fsread.ReadFile(path, 0)
	if err != nil {
		return nil
	}
	return parseConfig(data, configSource{kind: originFile, name: name, path: path}, func(key, value string, hasValue bool, line int) error {
		return f.worktreeSetting(key, value, hasValue)
	})
}

// verify is verify_repository_format: the version must be readable,
// a version-1 repository may not use unknown extensions, and a
// version-0 one may not use version-1 extensions.
func (f *repoFormat) verify() error {
	if f.version > repoFormatVersionRead {
		return newError(ErrUnsupportedFormat, "Expected git repo version <= %d, found %d", repoFormatVersionRead, f.version)
	}
	list := func(one, many string, names []string) error {
		var b strings.Builder
		if len(names) == 1 {
			b.WriteString(one)
		} else {
			b.WriteString(many)
		}
		for _, n := range names {
			b.WriteString("\n\t")
			b.WriteString(n)
		}
		return &Error{Kind: ErrUnsupportedFormat, Msg: b.String()}
	}
	if f.version >= 1 && len(f.unknownExt) > 0 {
		return list("unknown repository extension found:", "unknown repository extensions found:", f.unknownExt)
	}
	if f.version == 0 && len(f.v1OnlyExt) > 0 {
		return list("repo version is 0, but v1-only extension found:", "repo version is 0, but v1-only extensions found:", f.v1OnlyExt)
	}
	return nil
}
