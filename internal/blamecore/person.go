package blamecore

import (
	"encoding/json"
	"strconv"
	"time"
)

// Person is an author or committer as blame reports it: the mailmapped
// name and email (without the angle brackets; names and emails are the
// bytes of the output encoding) and the time in the zone the commit
// records. Zone is the recorded zone text ("+0200"), which time cannot
// always hold (git keeps "-0000" and malformed zones as written).
type Person struct {
	Name  string    `json:"name"`
	Email string    `json:"email"`
	Time  time.Time `json:"time"`
	Zone  string    `json:"zone"`
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

// MarshalJSON encodes the commit with its details as text.
func (c *Commit) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		ID            string `json:"id"`
		Boundary      bool   `json:"boundary,omitempty"`
		Uncommitted   bool   `json:"uncommitted,omitempty"`
		MultiplePaths bool   `json:"multiplePaths,omitempty"`
		Author        Person `json:"author"`
		Committer     Person `json:"committer"`
		Summary       string `json:"summary"`
	}{c.ID.String(), c.Boundary, c.Uncommitted, c.MultiplePaths, c.Author(), c.Committer(), c.Summary()})
}
