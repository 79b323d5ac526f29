package blamecore

import (
	"encoding/json"
	"testing"
	"time"
)

// TestJSONStringsAsEncodingJSON: the hand-written encoder escapes as
// encoding/json does (which the command must not link).
func TestJSONStringsAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "A U Thor", `q"uote\back`, "tab\tnl\ncr\r", "\x00\x1f\x7f", "caf\xc3\xa9", "bad\xff\xfeutf8", "\u2028\u2029", "<&>"} {
		want, _ := json.Marshal(s)
		want2 := string(want)
		// encoding/json escapes <, > and & for HTML; both are valid JSON
		// for the same string, so compare decoded values.
		var a, b string
		if err := json.Unmarshal(appendJSONString(nil, s), &a); err != nil {
			t.Fatalf("%q: %s is not JSON: %v", s, appendJSONString(nil, s), err)
		}
		if err := json.Unmarshal([]byte(want2), &b); err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Errorf("%q decodes as %q, encoding/json's as %q", s, a, b)
		}
	}
	p := Person{Name: "N\"ame", Email: "e@x", Time: time.Unix(1112911993, 0).In(time.FixedZone("-0700", -7*3600)), Zone: "-0700"}
	data, _ := p.MarshalJSON()
	var back struct {
		Name, Email, Zone string
		Time              time.Time
	}
	if err := json.Unmarshal(data, &back); err != nil || back.Name != p.Name || back.Email != p.Email || back.Zone != p.Zone || !back.Time.Equal(p.Time) {
		t.Errorf("Person JSON %s decodes as %+v (%v)", data, back, err)
	}
}
