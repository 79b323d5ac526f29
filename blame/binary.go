package blame

import (
	"strings"

	"github.com/goblame/goblame/repo"
)

// binaryAttr is git's diff driver verdict on whether the content of path
// is binary, which rename scoring asks (diff_filespec_is_binary, the
// driver's binary field): 1 for -diff (the binary macro), 0 for diff
// set, a named driver's diff.<driver>.binary (true 1, false 0, auto or
// unset -1), -1 otherwise (the content decides). The error is what git
// dies of reading attributes. Answers are cached by path.
func (b *run) binaryAttr(path string) (int, error) {
	if v, ok := b.binaryCache[path]; ok {
		return v, nil
	}
	driver := b.repo.Attributes(path, "diff")["diff"]
	if err := b.repo.AttributesErr(); err != nil {
		return -1, err
	}
	binary := -1
	switch driver {
	case "unset":
		binary = 1
	case "set":
		binary = 0
	case "", "unspecified":
	default:
		for _, e := range b.repo.Config.Entries() {
			if e.Key != "diff."+driver+".binary" {
				continue
			}
			if e.HasValue && strings.EqualFold(e.Value, "auto") {
				binary = -1
			} else if v, valid := repo.ParseBool(e.Value, e.HasValue); valid {
				binary = 0
				if v {
					binary = 1
				}
			}
		}
	}
	if b.binaryCache == nil {
		b.binaryCache = map[string]int{}
	}
	b.binaryCache[path] = binary
	return binary, nil
}
