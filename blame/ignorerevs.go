package blame

import (
	"github.com/goblame/goblame/internal/fsread"
	"strings"

	"github.com/goblame/goblame/oid"
)

// badObjectName is a line of an ignore-revs file that is no object ID.
type badObjectName struct{ line string }

func (e *badObjectName) Error() string { return "invalid object name: " + e.line }

// readIgnoreRevsFile reads a --ignore-revs-file list as git's
// oidset_parse_file does: one full object ID per line, '#' starts a
// comment, blank lines and surrounding white space are ignored.
func readIgnoreRevsFile(name string, format oid.Format) ([]oid.ID, error) {
	data, err := fsread.ReadFileOrPipe(name, 0)
	if err != nil {
		return nil, err
	}
	return ParseIgnoreRevs(string(data), format)
}

// ParseIgnoreRevs parses the text of an ignore-revs file (see
// Options.IgnoreRevsFiles): one full object ID per line, '#' starts a
// comment, blank lines and surrounding white space are ignored.
func ParseIgnoreRevs(text string, format oid.Format) ([]oid.ID, error) {
	var ids []oid.ID
	for _, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		id, err := oid.ParseHex(format, line)
		if err != nil {
			return nil, &badObjectName{line: line}
		}
		ids = append(ids, id)
	}
	return ids, nil
}
