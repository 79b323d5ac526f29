package jsontext

import (
	"encoding/json"
	"testing"
)

// TestStringsAsEncodingJSON: the hand-written encoder escapes as
// encoding/json does (which the command must not link).
func TestStringsAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "A U Thor", `q"uote\back`, "tab\tnl\ncr\r", "\x00\x1f\x7f", "caf\xc3\xa9", "bad\xff\xfeutf8", "\u2028\u2029", "<&>"} {
		want, _ := json.Marshal(s)
		// encoding/json escapes <, > and & for HTML; both are valid JSON
		// for the same string, so compare decoded values.
		var a, b string
		if err := json.Unmarshal(AppendString(nil, s), &a); err != nil {
			t.Fatalf("%q: %s is not JSON: %v", s, AppendString(nil, s), err)
		}
		if err := json.Unmarshal(want, &b); err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Errorf("%q decodes as %q, encoding/json's as %q", s, a, b)
		}
	}
}
