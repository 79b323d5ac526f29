// Package object holds pure parsers over the bytes of git objects: commits,
// trees and tags (blobs are plain bytes). Nothing here does I/O; every
// function works on a caller-owned buffer and returns views into it, so the
// parsers are cheap to call in the hot path and easy to fuzz.
//
// The formats are those of git's "gitformat-*" documents and of git's own
// readers (commit.c, tree-walk.c, tag.c, ident.c):
//
//   - A commit is a header block of "key SP value LF" lines (tree first,
//     then consecutive parent lines, author, committer, optional encoding,
//     gpgsig, mergetag and unknown headers; continuation lines start with a
//     space), an empty line, and the message.
//   - A tree is a sequence of "<octal mode> SP <name> NUL <raw id>" entries
//     sorted by name, where a directory compares as if its name ended in
//     "/".
//   - A tag is "object", "type", "tag" and an optional "tagger" header, an
//     empty line and the message.
//
// # Security
//
// Object bytes come from repositories that may be corrupt or hostile. Every
// parser checks bounds before slicing and reports malformed input as an
// error (a *FormatError carrying the offset); none panics on any input.
// The fuzz targets in this package exercise that promise.
//
// # Concurrency
//
// The parsers keep no state; the views they return alias the input buffer
// and are valid as long as the caller keeps that buffer unchanged.
package object
