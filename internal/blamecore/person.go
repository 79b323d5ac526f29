package blamecore

import (
	"strconv"
	"time"

	"github.com/goblame/goblame/internal/jsontext"
)

// Person is an author or committer as blame reports it: the mailmapped
// name and email (without the angle brackets; names and emails are the
// bytes of the output encoding) and the time in the zone the commit
// records. Zone is the recorded zone text ("+0200"), which time cannot
// always hold (git keeps "-0000" and malformed zones as written).
type Person struct {
	Name, Email string
	Time        time.Time
	Zone        string
}

func person(name, mail []byte, t uint64, tz []byte) Person {
	email := string(mail)
	if n := len(email); n >= 2 && email[0] == '<' && email[n-1] == '>' {
		email = email[1 : n-1]
	}
	return Person{Name: string(name), Email: email, Time: time.Unix(int64(t), 0).In(zone(tz)), Zone: string(tz)}
}

// zone turns git's "+hhmm" into a fixed zone (UTC when malformed).
func zone(tz []byte) *time.Location {
	if len(tz) != 5 || tz[0] != '+' && tz[0] != '-' {
		return time.UTC
	}
	n, err := strconv.Atoi(string(tz[1:]))
	if err != nil || n < 0 {
		return time.UTC
	}
	off := (n/100*60 + n%100) * 60
	if tz[0] == '-' {
		off = -off
	}
	if off == 0 {
		return time.UTC
	}
	return time.FixedZone(string(tz), off)
}

// Author returns the commit's author.
func (c *Commit) Author() Person {
	i, _ := c.Info()
	return person(i.Author, i.AuthorMail, i.AuthorTime, i.AuthorTZ)
}

// Committer returns the commit's committer.
func (c *Commit) Committer() Person {
	i, _ := c.Info()
	return person(i.Committer, i.CommitterMail, i.CommitterTime, i.CommitterTZ)
}

// Summary returns the first line of the commit's message.
func (c *Commit) Summary() string {
	i, _ := c.Info()
	return string(i.Summary)
}

// MarshalJSON encodes the commit with its details as text:
// {"id", "boundary", "uncommitted", "multiplePaths", "author",
// "committer", "summary"}, the flags only when set. (Hand-written:
// encoding/json would be linked into the command, whose start-up it
// slows.)
func (c *Commit) MarshalJSON() ([]byte, error) {
	b := append([]byte(`{"id":"`), c.ID.AppendHex(nil)...)
	b = append(b, '"')
	if c.Boundary {
		b = append(b, `,"boundary":true`...)
	}
	if c.Uncommitted {
		b = append(b, `,"uncommitted":true`...)
	}
	if c.MultiplePaths {
		b = append(b, `,"multiplePaths":true`...)
	}
	b = append(b, `,"author":`...)
	b = c.Author().appendJSON(b)
	b = append(b, `,"committer":`...)
	b = c.Committer().appendJSON(b)
	b = append(b, `,"summary":`...)
	b = jsontext.AppendString(b, c.Summary())
	return append(b, '}'), nil
}

// MarshalJSON encodes the person as {"name", "email", "time" (RFC 3339
// in the recorded zone), "zone"}.
func (p Person) MarshalJSON() ([]byte, error) { return p.appendJSON(nil), nil }

func (p Person) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = jsontext.AppendString(b, p.Name)
	b = append(b, `,"email":`...)
	b = jsontext.AppendString(b, p.Email)
	b = append(b, `,"time":"`...)
	b = p.Time.AppendFormat(b, time.RFC3339)
	b = append(b, `","zone":`...)
	b = jsontext.AppendString(b, p.Zone)
	return append(b, '}')
}
