package blamecore

import (
	"bytes"

	"github.com/goblame/goblame/internal/charset"
	"github.com/goblame/goblame/object"
)

// commitInfo extracts what blame prints about a commit, as git's
// get_commit_info does: the message re-encoded to the output encoding,
// the author and committer lines found by searching for "\nauthor " and
// "\ncommitter ", split with git's ident rules and mapped through the
// mailmap, and the first line of the message.
//
// A commit taken from a snapshot brings its text along (node.body); a
// recording blame keeps the text it read for its snapshot. text, when not
// nil, is the commit's text read already (infoAhead).
func (sb *scoreboard) commitInfo(node *commitNode, text []byte) (*CommitInfo, error) {
	body := node.body // (always set for the pseudo commit)
	if body == nil {
		if text == nil {
			b, err := sb.hist.commitBody(sb.id(node))
			if err != nil {
				return nil, err
			}
			text = b
		}
		body = text
		if sb.opts.Record && len(text) <= maxSnapshotBody {
			node.body = append([]byte(nil), text...)
		}
	}
	msg := reencodeMessage(body, sb.opts.OutputEncoding)
	if i := bytes.IndexByte(msg, 0); i >= 0 {
		msg = msg[:i] // git works on a NUL-terminated string
	}
	info := &CommitInfo{}
	info.Author, info.AuthorMail, info.AuthorTime, info.AuthorTZ = sb.identLine(msg, "\nauthor ")
	info.Committer, info.CommitterMail, info.CommitterTime, info.CommitterTZ = sb.identLine(msg, "\ncommitter ")
	if s := object.Summary(msg); len(s) > 0 {
		info.Summary = append([]byte(nil), s...)
	} else {
		info.Summary = []byte("(" + sb.id(node).String() + ")")
	}
	return info, nil
}

var unknownIdent = []byte("(unknown)")

// identLine is git's get_ac_line.
func (sb *scoreboard) identLine(msg []byte, what string) (name, mail []byte, t uint64, tz []byte) {
	i := bytes.Index(msg, []byte(what))
	if i < 0 {
		return unknownIdent, unknownIdent, 0, unknownIdent
	}
	line := msg[i+len(what):]
	if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	id, ok := object.ParseIdent(line)
	if !ok {
		return unknownIdent, unknownIdent, 0, unknownIdent
	}
	if id.Date != nil {
		t = object.ParseTimestamp(id.Date)
	}
	if id.TZ != nil {
		tz = append([]byte(nil), id.TZ...)
	} else {
		tz = unknownIdent
	}
	n, m := id.Name, id.Mail
	if sb.opts.Mailmap != nil {
		n, m = sb.opts.Mailmap.Map(n, m)
	}
	mail = make([]byte, 0, len(m)+2)
	mail = append(append(append(mail, '<'), m...), '>')
	return append([]byte(nil), n...), mail, t, tz
}

// reencodeMessage converts a commit to the output encoding as git's
// logmsg_reencode does: git works on the commit as a C string, so nothing
// after a NUL counts, nor is converted; the commit's "encoding" header
// (UTF-8 when absent) names the source; "none" output (--encoding=none)
// means raw, "" the default, UTF-8; an encoding git calls the same as the
// output (same_encoding) is not converted; a failed conversion leaves the
// bytes as they are.
func reencodeMessage(body []byte, output string) []byte {
	if i := bytes.IndexByte(body, 0); i >= 0 {
		body = body[:i]
	}
	if output == "none" {
		return body
	}
	if output == "" {
		output = "UTF-8"
	}
	from := "UTF-8"
	if enc := headerValue(body, "encoding"); enc != nil {
		from = string(enc)
	}
	if charset.SameEncoding(from, output) {
		return body
	}
	if out, ok := charset.Reencode(body, output, from); ok {
		return out
	}
	return body
}

// headerValue returns the value of a commit header line in the header
// block (git's get_header).
func headerValue(body []byte, key string) []byte {
	for len(body) > 0 {
		nl := bytes.IndexByte(body, '\n')
		line := body
		if nl >= 0 {
			line = body[:nl]
		}
		if len(line) == 0 {
			return nil
		}
		if len(line) > len(key) && string(line[:len(key)]) == key && line[len(key)] == ' ' {
			return line[len(key)+1:]
		}
		if nl < 0 {
			return nil
		}
		body = body[nl+1:]
	}
	return nil
}
