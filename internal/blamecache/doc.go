// Package blamecache keeps finished blames on disk: the persistent blame
// cache behind blame.Cache. It knows nothing of how a blame is computed;
// it stores and returns blamecore.Snapshots, keyed by the object
// database, the attribution options, the path and the commit.
//
// # Layout
//
//	<dir>/v1/<area>/<kp[:2]>/<kp[2:]>/<commit hex>
//	<dir>/v1/<area>/abbrev/<hash of an object database fingerprint>
//
// area is a hash of the object directory's real path and object format;
// kp a hash of the attribution key (the options that change which line
// is blamed on what) and the path. One directory per (key, path) holds
// one file per commit, so a blame lists the commits it could take over
// with one directory read and then asks at every step of its walk
// without touching the disk. The entry format is in codec.go: varints,
// the key it answers, and a SHA-256 checksum. An area also keeps the
// unique abbreviation lengths its blames printed, one file per state of
// the object database (abbrev.go), so that printing an entry again does
// not search every pack index for each commit.
//
// # Concurrency and failure
//
// Writers write a temporary file in the entry's directory and rename it
// into place, so readers see a whole entry or none; any number of
// processes and goroutines may share a store. Every failure — a missing
// or unreadable directory, a full disk, a truncated, garbled or foreign
// entry, a FIFO or a link in an entry's place — reads as a miss; a
// damaged entry is removed so that the next blame writes it again.
// Directories are made 0700 and files 0600.
//
// # Size
//
// A store is kept under its bound (256 MiB by default) by Trim, which
// removes the least recently used entries (a hit renews an entry's
// modification time) down to 80% of the bound. Writers trim with a
// chance proportional to what they wrote, so that a trim follows about
// every 1/64 of the bound written.
//
// # Security
//
// Entries are read with a size cap and checked field by field (every
// count against the bytes left, every index against its table) before
// the blame checks them against the repository: the commits they name
// must exist, and the blob and line count must be the ones blamed.
package blamecache
