// Package oid holds the object ID value type shared by every stage of
// goblame: a SHA-1 or SHA-256 object name stored in a fixed-size array so
// that IDs are comparable values usable as map keys, never strings or
// slices.
//
// An ID carries its Format, so a SHA-1 ID and a SHA-256 ID whose first 20
// bytes agree are different values. The zero ID has no format and is
// distinct from the null ID of either format (all-zero bytes with a format),
// which git uses for "not committed yet".
//
// # Concurrency
//
// IDs are immutable values; every function here is safe for concurrent use.
package oid
