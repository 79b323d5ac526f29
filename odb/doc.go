// Package odb reads git's object database: loose objects, packs with
// their .idx files (v1 and v2), multi-pack-indexes, alternates, and the
// deltas inside packs. It is read-only and reproduces git 2.39.5's lookup
// rules.
//
// (Full documentation is being written; see the report of the odb task.)
//
// # Concurrency
//
// A DB is safe for concurrent use; each goroutine reads through its own
// Reader, which is not safe for concurrent use.
//
// # Security
//
// Every size and offset read from a file is checked before use; corrupt
// input yields a *CorruptError, never a panic.
package odb
