# goblame — build, test and benchmark.
GO ?= go

.PHONY: all build test vet bench bench-compare clean fuzz-short

all: build

# goblame links the C library for -L regular expressions (internal/posixre,
# regcomp/regexec as git uses them); linked statically it starts without
# the dynamic loader (about 25 page faults and a millisecond a run). Where
# no static C library is installed, a dynamic build.
STATIC_LDFLAGS = -linkmode external -extldflags -static

build:
	$(GO) build -ldflags '$(STATIC_LDFLAGS)' -o goblame . 2>/dev/null || $(GO) build -o goblame .

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

# Every test, go vet included. Tests that compare with git skip (with a
# message) unless git 2.39.x is installed.
test: vet
	$(GO) test ./...
	# the library's concurrency under the race detector
	$(GO) test -race -count=1 -run 'Concurrent|Example|Misuse|ReadAhead' ./blame ./internal/traverse

# Every Go fuzz target of the module for FUZZTIME (30 s) each, one after
# the other (not part of make test); a failing input is written under the
# package's testdata/fuzz/<Target>/ and replayed by go test from then on.
# A bare "context deadline exceeded" with no failing input is Go's own
# fuzz-deadline race before Go 1.27 (go.dev/issue/75804), not a finding.
FUZZTIME ?= 30s
fuzz-short:
	@set -e; for pkg in $$($(GO) list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./...); do \
		targets=$$($(GO) test -list '^Fuzz' $$pkg); \
		for target in $$(printf '%s\n' "$$targets" | grep '^Fuzz' || true); do \
			echo "== $$pkg $$target ($(FUZZTIME))"; \
			if out=$$($(GO) test $$pkg -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) 2>&1); then \
				printf '%s\n' "$$out" | tail -1; \
			else \
				printf '%s\n' "$$out" | grep -v '^fuzz: elapsed'; \
				case "$$out" in \
				*'Failing input written'*) exit 1 ;; \
				*'context deadline exceeded'*) echo "(no failing input: go.dev/issue/75804, not a finding)" ;; \
				*) exit 1 ;; \
				esac; \
			fi; \
		done; \
	done

# Go benchmarks of every package (allocations reported).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# goblame against git blame, side by side: hyperfine medians, peak RSS and
# the time to the first --incremental entry on a list of workloads, each
# checked identical to git's output first; writes
# benchmarks/results/$(RESULTS).{md,svg,json}. Settings come from make's
# command line, e.g.
#   make bench-compare WORKLOADS=benchmarks/workloads/git.txt RUNS=10
#   make bench-compare BEST_GIT=/opt/git/bin/git NO_GRAPH=1 REPOS=/srv/repos
# (benchmarks/compare/README.md lists them all).
bench-compare: build
	@command -v hyperfine >/dev/null || { \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update && $$sudo apt-get install -y hyperfine; }
	sh benchmarks/workloads/buffers/make.sh
	$(GO) run ./benchmarks/compare

clean:
	rm -f goblame
