# goblame — build, test and benchmark.
GO ?= go

.PHONY: all build test vet bench bench-compare clean fuzz-short install install-shim uninstall

all: build

# make build makes a pure-Go binary (static, no C library: a run starts
# about a millisecond sooner than a cgo build's, see README.md,
# Requirements). The git shim passes the signals its parent ignored on to
# the git it runs (internal/execve): without cgo it reads them from the Go
# runtime, which the goblame_fwdsig tag and -checklinkname=0 allow.
# OUT names the binary.
OUT ?= goblame
BUILD_TAGS = goblame_fwdsig
BUILD_FLAGS = -ldflags '-checklinkname=0 $(VERSION_LDFLAGS)'
# goblame --version names the commit it was built from.
COMMIT := $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && { git diff --quiet HEAD -- 2>/dev/null || c=$$c.dirty; echo $$c; })
VERSION_LDFLAGS = $(if $(COMMIT),-X github.com/goblame/goblame/cli.buildCommit=$(COMMIT))

# It is built with six changes to the Go runtime: the scheduler starts
# on one processor, no cgroup read on machines of two CPUs or fewer, the
# sweeper and scavenger start on the main thread, sysmon's first sleep,
# the size of the heap's span-set blocks and the heap's memory mapped
# with mprotect (tools/runtimepatch says which and why); where the
# installed Go's runtime does not have that code, as it is. The last
# one, where it applied, adds the goblame_sysmap tag (cli's
# sysMapKeepsAdvice).
build:
	@overlay=$$(GO='$(GO)' $(GO) run ./tools/runtimepatch) && \
	tags='$(BUILD_TAGS)' && \
	case "$$(cat "$$overlay" 2>/dev/null)" in *mem_linux.go*) tags=$$tags,goblame_sysmap ;; esac && \
	$(if $(findstring s,$(firstword -$(MAKEFLAGS))),,set -x &&) \
	CGO_ENABLED=0 $(GO) build $${overlay:+-overlay "$$overlay"} -tags "$$tags" $(BUILD_FLAGS) -o '$(OUT)' .

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

# Every test, go vet included. Tests that compare with git run git
# 2.39.x where it is installed and its committed golden outputs
# otherwise; what has neither (or no git to build its fixture) skips,
# saying so.
test: vet
	$(GO) test -timeout 30m ./...
	# what make build builds differently: regular expressions on the
	# package's own engine, the shim's signals without cgo
	CGO_ENABLED=0 $(GO) test -count=1 -tags goblame_fwdsig -ldflags=-checklinkname=0 \
		-run 'Regex|Funcname|Locale|Shim|Basic|MatchSearches' ./internal/posixre ./cli
	# the library's concurrency under the race detector
	$(GO) test -race -count=1 -run 'Concurrent|Example|Misuse|ReadAhead|LookAhead|InfoAhead|Prefetch' ./blame ./internal/traverse ./internal/blamecore

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

# make install PREFIX=/usr/local [DESTDIR=/staging]: the binary, the manual
# page (also as git-goblame.1, the page git goblame --help asks man for,
# with a git-goblame link so that git goblame runs goblame) and the bash,
# zsh and fish completions, where each shell looks for them.
# make install-shim (after make install) adds the git shim:
# $(PREFIX)/libexec/goblame/git, a link to goblame; put that directory first
# on PATH, or give it to an editor as its git. make uninstall removes both.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
MAN1DIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHCOMPDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
SHIMDIR = $(DESTDIR)$(PREFIX)/libexec/goblame

install: build
	install -d '$(BINDIR)' '$(MAN1DIR)' '$(BASHCOMPDIR)' '$(ZSHCOMPDIR)' '$(FISHCOMPDIR)'
	install -m 755 '$(OUT)' '$(BINDIR)/goblame'
	ln -sf goblame '$(BINDIR)/git-goblame'
	install -m 644 goblame.1 '$(MAN1DIR)/goblame.1'
	install -m 644 goblame.1 '$(MAN1DIR)/git-goblame.1'
	install -m 644 completions/goblame.bash '$(BASHCOMPDIR)/goblame'
	install -m 644 completions/_goblame '$(ZSHCOMPDIR)/_goblame'
	install -m 644 completions/goblame.fish '$(FISHCOMPDIR)/goblame.fish'

install-shim:
	@test -x '$(BINDIR)/goblame' || { echo "make install-shim: no $(BINDIR)/goblame: run make install PREFIX=$(PREFIX) first" >&2; exit 1; }
	install -d '$(SHIMDIR)'
	ln -sfn ../../bin/goblame '$(SHIMDIR)/git'

uninstall:
	rm -f '$(BINDIR)/goblame' '$(BINDIR)/git-goblame' '$(MAN1DIR)/goblame.1' '$(MAN1DIR)/git-goblame.1' \
		'$(BASHCOMPDIR)/goblame' '$(ZSHCOMPDIR)/_goblame' '$(FISHCOMPDIR)/goblame.fish' '$(SHIMDIR)/git'
	-rmdir '$(SHIMDIR)' 2>/dev/null

clean:
	rm -f goblame
