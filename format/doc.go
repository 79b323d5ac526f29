// Package format renders blame results exactly as git 2.39.5's
// builtin/blame.c prints them: the default human format, -c (annotate),
// --porcelain, --line-porcelain and --incremental, with every column
// option (-l, -t, -s, -e, -f, -n, -b, --abbrev, --score-debug,
// --show-stats), dates in every --date mode padded to git's widths,
// author columns padded by display width, C-quoted paths, and colours.
//
// JSON (json.go) is goblame's own format, --json: newline-delimited JSON
// records (a header, then a commit record before the first entry that
// names each commit, and the entries in --incremental's order), version
// JSONVersion, whose schema is blame.schema.json (JSONSchema) and which
// the README's "JSON output" section describes.
//
// Output goes through one buffered writer and is flushed once at the end
// (after every entry with --incremental, which editors read as a stream).
//
// Dates are rendered by internal/gitdate (git's date.c); the blame date
// column's width and padding (blamedate.go) follow builtin/blame.c. The
// helpers for display width (width.go), path quoting (quote.go) and
// colours (color.go) follow git's utf8.c, quote.c and color.c.
//
// # Concurrency
//
// A Printer is used by one goroutine; the helpers are pure functions.
package format
