# zklocks — see README.md.
GO      ?= go
BIN     ?= zklocks
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

# Builds leave the checkout's directory out of what they compile
# (-trimpath): the build cache then keys a package by its sources alone,
# so a fresh clone or another worktree reuses the packages any checkout
# of the same code compiled, where it compiled all of them again (vet's
# and the -race tests' builds alone: about 90 s of CPU time of a clean
# clone's make test; see docs/testing.md, Test time). The tests' own go
# build of the binary inherits it.
export GOFLAGS := -trimpath $(filter-out -trimpath,$(GOFLAGS))

.PHONY: build deps test unit vet fuzz chaos bench-watch clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .

deps:
	./scripts/deps.sh

# The project's test command (CI runs it through .ci/run): the integration
# tests, then the unit tests once (make unit, timed against its budget by
# scripts/unit-budget on the cache the integration runs have warmed). The
# second invocation runs, without -race, the fault tests whose reconnects
# re-register watches (built only without -race: //go:build !race):
# go-zookeeper v1.0.4 races with itself there (Conn.recvLoop writes lastZxid
# at conn.go:849 while Conn.sendSetWatches reads it at conn.go:614). Our own
# code's reconnects run under -race in the first, in tests that set no
# watch before a reconnect.
#
# Most of the suite's time is spent waiting (JVMs starting, sessions
# expiring, real clients queueing), not computing, so TESTP packages run at
# once and TESTPARALLEL tests within each (t.Parallel), more than the
# machine's cores, the longest packages named first so that they start
# first (see docs/testing.md, Test time).
TESTP        ?= 3
TESTPARALLEL ?= 4
# make unit's packages at a time: a third of its packages' time is their
# tests' waits (timeouts, stalled readers, fake members' silences), which
# two at a time on two cores left as idle wall time.
UNITP        ?= 4
#
# The second invocation runs beside the first, its output kept until the
# first has ended: its tests mostly wait (restarts, expiries, a chaos
# run's rounds), and alone after the first they left one core idle for
# most of their half minute (see docs/testing.md, Test time).
LONGEST      := ./internal/cli ./tests/e2e ./zkwatch ./lockclient ./recording ./internal/testkit/peers ./ui
# The packages holding a TestIntegration… test that -race builds (not
# under //go:build !race), the longest first: the others' race-built test
# binaries would be linked and run to find none (about 20 s of CPU for two
# dozen packages).
INTEGRATION  := $(LONGEST) $(filter-out $(LONGEST),$(sort $(patsubst %/,%,$(dir $(shell grep -rl --include='*_test.go' -e '^func TestIntegration' . | xargs grep -L '^//go:build.*!race')))))
test: deps vet
	@second=$$(mktemp); trap 'rm -f "$$second"' EXIT; \
	echo "$(GO) test -count=1 -p $(TESTP) -parallel $(TESTPARALLEL) -timeout 15m -run '^TestIntegration(Chaos|Reconnect)' ./lockclient ./zkwatch ./tests/chaos ./internal/testkit/bigtree (beside the next; its output after it)"; \
	$(GO) test -count=1 -p $(TESTP) -parallel $(TESTPARALLEL) -timeout 15m -run '^TestIntegration(Chaos|Reconnect)' ./lockclient ./zkwatch ./tests/chaos ./internal/testkit/bigtree >"$$second" 2>&1 & pid=$$!; \
	echo "$(GO) test -race -count=1 -p $(TESTP) -parallel $(TESTPARALLEL) -timeout 15m -run '^TestIntegration' $(INTEGRATION)"; \
	$(GO) test -race -count=1 -p $(TESTP) -parallel $(TESTPARALLEL) -timeout 15m -run '^TestIntegration' $(INTEGRATION) && first=0 || first=$$?; \
	wait $$pid && other=0 || other=$$?; \
	echo "--- without -race (chaos and reconnects):"; cat "$$second"; \
	[ $$first -eq 0 ] && [ $$other -eq 0 ]
	./scripts/unit-budget

# The tests that need no ZooKeeper, JVM or terminal: every test but the
# TestIntegration… ones. make test runs them last, held to 60 s on the
# cache its integration runs have just warmed (scripts/unit-budget;
# docs/testing.md, make unit).
unit: vet
	$(GO) test -race -count=1 -p $(UNITP) -skip Integration ./...

# The integration tests FLAKECOUNT times over (the two invocations of
# test), while a busy loop spins on every core for the run's duration
# (tests/flakes): prints each test that failed at least once, with its
# failure, and nothing when every run passed (see docs/testing.md,
# Flaky tests). FLAKELOAD busy goroutines, every core's by default; the
# whole go test -json output of each invocation is kept in FLAKEDIR.
FLAKECOUNT ?= 3
FLAKELOAD  ?= $(shell nproc 2>/dev/null || echo 2)
FLAKEDIR   ?= $(or $(TMPDIR),/tmp)
.PHONY: flakes
flakes: deps vet
	@status=0; \
	$(GO) run ./tests/flakes -count $(FLAKECOUNT) -load $(FLAKELOAD) -raw $(FLAKEDIR)/flakes-race.json -- -race -p $(TESTP) -parallel $(TESTPARALLEL) -timeout $$(( $(FLAKECOUNT) * 15 ))m -run '^TestIntegration' $(INTEGRATION) || status=$$?; \
	$(GO) run ./tests/flakes -count $(FLAKECOUNT) -load $(FLAKELOAD) -raw $(FLAKEDIR)/flakes-norace.json -- -p $(TESTP) -parallel $(TESTPARALLEL) -timeout $$(( $(FLAKECOUNT) * 15 ))m -run '^TestIntegration(Chaos|Reconnect)' ./lockclient ./zkwatch ./tests/chaos ./internal/testkit/bigtree || status=$$?; \
	exit $$status

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...

# Each fuzz target runs for FUZZTIME (at least a minute by default).
FUZZTIME ?= 1m
fuzz:
	$(GO) test ./lockcore -run '^$$' -fuzz '^FuzzParseName$$' -fuzztime $(FUZZTIME)
	$(GO) test ./lockcore -run '^$$' -fuzz '^FuzzAnalyze$$' -fuzztime $(FUZZTIME)
	$(GO) test ./lockcore -run '^$$' -fuzz '^FuzzNameMatcher$$' -fuzztime $(FUZZTIME)
	$(GO) test ./lockcore -run '^$$' -fuzz '^FuzzByFieldsRecipes$$' -fuzztime $(FUZZTIME)
	$(GO) test ./zkwatch/words -run '^$$' -fuzz '^FuzzParsers$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/cli -run '^$$' -fuzz '^FuzzConfigRecipes$$' -fuzztime $(FUZZTIME)

# The watcher's performance against ZooKeeper itself, in one run on this
# machine (see docs/performance.md); two to three minutes. BENCHFLAGS adds
# e.g. -cpuprofile cpu.out.
BENCHFLAGS ?=
bench-watch: deps
	$(GO) test ./tests/bench/watch -run '^$$' -bench '^BenchmarkWatch$$' -benchtime 1x -timeout 20m $(BENCHFLAGS)

# zklocks on a generated production-sized cluster (a million znodes, 10,000
# locks × 6 Curator contenders, a million foreign watches), every figure
# beside its target and a raw go-zookeeper floor (see docs/performance.md, Large
# clusters), the floor and the UI in interleaved rounds; fifteen to twenty
# minutes. BENCHFLAGS adds e.g. -scale.members=3 or -scale.rounds=5.
# zklocks reading ZooKeeper's own transaction log beside ZooKeeper's
# TxnLogToolkit: a million-znode snapshot, then 5 million lock
# transactions over 10,000 locks (see docs/performance.md).
.PHONY: bench-txnlog
bench-txnlog: deps
	$(GO) test ./tests/bench/txnlog -run '^$$' -bench '^BenchmarkTxnLog$$' -benchtime 1x -count 1 -timeout 120m $(BENCHFLAGS)

.PHONY: bench-scale
bench-scale: deps
	$(GO) test ./tests/bench/scale -run '^$$' -bench '^BenchmarkScale$$' -benchtime 1x -count 1 -timeout 60m $(BENCHFLAGS)

# Our lock client against go-zookeeper's zk.Lock, Curator and kazoo on one
# throwaway ZooKeeper, in one run on this machine (see docs/performance.md, Lock client
# performance); a few minutes. BENCHFLAGS adds e.g. -cpuprofile cpu.out.
.PHONY: bench-lock
bench-lock: deps
	$(GO) test ./tests/lockbench -run '^$$' -bench '^BenchmarkLock$$' -benchtime 1x -count 1 -timeout 20m $(BENCHFLAGS)

# zklocks serve with 1 and with 20 SSH sessions on one cluster: its memory
# and CPU, and the server's watches and connections, side by side (see
# docs/performance.md, zklocks serve); about three minutes.
.PHONY: bench-serve
bench-serve: deps
	$(GO) test ./tests/bench/serve -run '^$$' -bench '^BenchmarkServe$$' -benchtime 1x -count 1 -timeout 20m $(BENCHFLAGS)

# What recording costs at 1,000 lock changes a second: CPU and bytes per
# minute against the targets (see docs/recording.md); a few seconds, no
# ZooKeeper needed.
.PHONY: bench-record
bench-record:
	$(GO) test ./recording -run '^$$' -bench '^BenchmarkRecord$$' -benchtime 1x -count 1 $(BENCHFLAGS)

# The README's first command: installs ZooKeeper when it is missing, builds,
# and runs the live demo on a throwaway server (zklocks demo --help);
# DEMOFLAGS adds e.g. --naive or --contenders 10.
DEMOFLAGS ?=
.PHONY: demo
demo: deps build
	./$(BIN) demo $(DEMOFLAGS)

# The long chaos run, every mode in turn (exclusive, read/write, leases):
# leader kills, connection drops and forced expiries under 16 of our
# contenders with Curator and kazoo contenders in the same queues (a light
# run is part of make test). Without -race: see test. RUNS=N runs it N
# times in a row, each on a new ensemble, and stops at the first failure.
RUNS ?= 1
chaos: deps
	$(GO) test -count=$(RUNS) -failfast -timeout $$(( $(RUNS) * 20 ))m -v -run '^TestIntegrationChaos$$' ./tests/chaos -chaos.long

# The mixed chaos (every mode at once) for DURATION, with the same figures.
DURATION ?= 10m
.PHONY: soak
soak: deps
	$(GO) test -count=1 -timeout 24h -v -run '^TestIntegrationSoak$$' ./tests/chaos -chaos.soak $(DURATION)

clean:
	rm -f $(BIN)
