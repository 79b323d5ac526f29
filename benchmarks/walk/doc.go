// Package walk measures the history walk of package traverse against git:
// for every commit reachable from HEAD, does PATH differ from its parent
// (Bloom filter first, then tree lookups) — the question "git rev-list
// --count HEAD -- PATH" answers and the one blame asks at every step.
//
// Count reproduces rev-list's counting for a path (history simplification,
// --full-history, or first-parent changes); the benchmarks check its count
// against git's on the same repository before timing anything. Generated
// builds a reproducible repository with git fast-import (about 20,000
// commits over 1,000 files, merges every fifty commits, one pack).
//
// Run the benchmarks, side by side with git on the same repository, with
// and without the commit-graph:
//
//	go test ./benchmarks/walk -run '^$' -bench . -benchmem -count 6
//
// and on a real repository (a bare clone or a mirror; give it a
// commit-graph with Bloom filters first with "git commit-graph write
// --reachable --changed-paths"):
//
//	GOBLAME_WALK_REPO=/path/to/repo.git GOBLAME_WALK_PATHS=README.md,Makefile \
//	    go test ./benchmarks/walk -run '^$' -bench Real -benchmem -count 6
//
// The walkcount command does one walk in a fresh process, for comparisons
// of wall time and peak memory with /usr/bin/time. RESULTS.md holds the
// measured figures.
//
// # Concurrency
//
// Count uses the Commits and Trees it is given, which are single-goroutine
// values; run concurrent walks with separate ones.
package walk
