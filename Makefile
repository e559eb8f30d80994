# collvet — the two commands of the README:
#   make examples   run collvet on the bundled examples
#   make test       install what the tests need, then run the whole suite
GO ?= go
BIN := bin/collvet

.PHONY: all build examples test deps gotest racetest fuzz extra-tests bench

all: build

build:
	$(GO) build -o $(BIN) ./cmd/collvet

examples: build
	@echo "+ $(BIN) examples/"
	@$(BIN) examples/; status=$$?; if [ $$status -gt 1 ]; then exit $$status; fi

# deps installs what the test suite needs on a fresh Debian machine:
# PyTorch's Python sources and a CPU torch (the parser corpus and the
# runtime witness), pyflakes (the speed reference), pre-commit (the hook
# test). Node packages are installed by scripts/ci/*.sh where needed.
deps:
	scripts/install-deps.sh

gotest:
	COLLVET_REQUIRE_CORPUS=$${COLLVET_REQUIRE_CORPUS-1} $(GO) test -count=1 ./...

# racetest runs the packages that work on several goroutines (the parse
# and call-graph pipeline, the model's parallel phase, the language
# server) under the race detector.
racetest:
	$(GO) test -race -count=1 ./pyfront ./pyfront/model ./pyfront/flow ./rules/all ./cmd/collvet/internal/lsp ./cmd/collvet/internal/driver ./cmd/collvet/internal/cli

# Minimising each new interesting input may take up to a minute by default,
# during which no executions are counted (the run looks stalled at 0/sec);
# one second each keeps the budget for fuzzing. The budgets are counts of
# executions (about 20 s each here), not durations: with a duration, Go
# before 1.27 can fail a clean run with "context deadline exceeded" when
# the deadline races a busy worker (go.dev/issue/75804).
fuzz:
	$(GO) test ./pyfront/parser -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 300000x -fuzzminimizetime 1s
	$(GO) test ./pyfront -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime 30000x -fuzzminimizetime 1s

# extra-tests runs every scripts/ci/NN-*.sh in order (VS Code extension,
# pre-commit hook, ...). Each prints its own result line and exits non-zero
# on failure.
extra-tests: build
	@set -e; for s in scripts/ci/[0-9]*.sh; do [ -e "$$s" ] || continue; echo "+ $$s"; bash "$$s"; done

test: deps build gotest racetest fuzz extra-tests
