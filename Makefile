# goblame — build, test and benchmark.
GO ?= go

.PHONY: all build test vet bench clean

all: build

build:
	$(GO) build -o goblame .

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

# Every test, go vet included. Tests that compare with git skip (with a
# message) unless git 2.39.x is installed.
test: vet
	$(GO) test ./...

# Go benchmarks of every package (allocations reported).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -f goblame
