// Package odbbench measures goblame's object database (package odb)
// against git on the same repository: reading every object, as
// "git cat-file --batch --batch-all-objects" does (in id order, and with
// --unordered in pack order), and reading every version of one file, newest
// first, as blame does (git cat-file --batch fed the same blob names), and
// reading the root tree of every commit, newest first, as a history walk
// does.
//
// CatAll and CatIDs print exactly what git cat-file --batch prints, so each
// measurement also checks the output: TestCatAllMatchesGit compares the
// bytes on the generated repository.
//
// Two commands:
//
//   - catall reads a repository's objects once in a fresh process and
//     writes git's batch format to stdout (the goblame side of a run);
//   - compare runs git and catall alternately, several times, and prints
//     the median wall time, CPU time and peak RSS of each, with the ratio
//     goblame/git.
//
// On the generated CI-sized repository (about 3,000 commits and 20,000
// objects, built once with git fast-import and cached):
//
//	go run ./benchmarks/odb/compare
//
// On any repository (a bare clone, a mirror or a working copy), with a
// file whose history to read:
//
//	go run ./benchmarks/odb/compare -repo /path/to/repo.git -file README.md -runs 5
//
// or equivalently GOBLAME_ODB_REPO / GOBLAME_ODB_FILE in the environment.
// RESULTS.md holds the measured figures and the commands that produced
// them.
//
// # Concurrency
//
// CatAll and CatIDs use one odb.Reader; call them from one goroutine per
// DB reader.
package odbbench
