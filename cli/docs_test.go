package cli

import (
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/charset"
)

// TestDocumentedOptionsParse checks that every revision and diff option
// the manual page and the completions list is one blame's parser takes,
// with its example value, attached or detached as the documentation
// writes it.
func TestDocumentedOptionsParse(t *testing.T) {
	// Every name resolves to a commit (--ancestry-path=<commit> asks).
	committish := func(string) ResolvedName { return ResolvedName{Kind: NameCommittish} }
	parses := func(args ...string) error {
		_, err := ParseArgs(append(args, "--", "file"), DefaultBlameArgs(), ParseContext{Resolve: committish})
		return err
	}
	for _, d := range RevisionOptionDocs() {
		attached, detached := d.Option+"="+d.Example, []string{d.Option, d.Example}
		var ok, refused [][]string
		switch d.Arg {
		case ArgNone:
			ok = [][]string{{d.Option}}
		case ArgEither:
			ok = [][]string{{attached}, detached}
		case ArgAttached:
			ok, refused = [][]string{{attached}}, [][]string{{d.Option}}
		case ArgDetached:
			ok, refused = [][]string{detached}, [][]string{{attached}}
		case ArgOptional:
			ok = [][]string{{d.Option}, {attached}}
		}
		for _, args := range ok {
			if err := parses(args...); err != nil {
				t.Errorf("ParseArgs(%q): %v", args, err)
			}
		}
		for _, args := range refused {
			if err := parses(args...); err == nil {
				t.Errorf("ParseArgs(%q) accepts what the documentation says it refuses", args)
			}
		}
		if (d.Arg == ArgNone) != (d.Example == "") {
			t.Errorf("%s: value form %d with example %q", d.Option, d.Arg, d.Example)
		}
	}
	for _, o := range OptionDocs() {
		var args []string
		switch {
		case o.Long != "":
			args = []string{"--" + o.Long}
		default:
			args = []string{"-" + string(o.Short)}
		}
		if o.Value != "" && !strings.HasPrefix(o.Value, "[") {
			args = append(args, "1")
		}
		if _, err := ParseArgs(append(args, "--", "file"), DefaultBlameArgs(), ParseContext{}); err != nil {
			t.Errorf("ParseArgs(%q): %v", args, err)
		}
	}
}

// TestDocumentedValuesParse checks the fixed value sets completion offers:
// every --date format parses (with and without -local), every --encoding
// is one goblame converts to.
func TestDocumentedValuesParse(t *testing.T) {
	for _, name := range DateFormatNames() {
		specs := []string{name}
		switch {
		case name == "format:":
			specs = []string{"format:%Y", "format-local:%Y"}
		case name != "local":
			specs = append(specs, name+"-local")
		}
		for _, spec := range specs {
			if _, err := ParseDateFormat(spec, false); err != nil {
				t.Errorf("--date=%s: %v", spec, err)
			}
		}
	}
	for _, name := range EncodingNames() {
		if name != "none" && charset.Lookup(name) == nil {
			t.Errorf("--encoding=%s is not an encoding goblame knows", name)
		}
	}
}
