package blamecore

import (
	"encoding/json"
	"testing"
	"time"
)

// TestPersonJSON: a Person encodes as JSON that encoding/json decodes
// back (the strings' escaping is internal/jsontext's, tested there).
func TestPersonJSON(t *testing.T) {
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
