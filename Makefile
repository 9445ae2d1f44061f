# tern: the two commands a user needs are `make sim` and `make test`; both bootstrap a fresh
# Debian 12 machine first (scripts/bootstrap.sh is a fast no-op once everything is there).
BUILD  ?= build
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)
TAGS   ?= smoke
TEST   ?=
SEED   ?= 1
WAVES  ?= 1
LIST   ?= sim/regressions/default.yaml

BIN    := $(BUILD)/bin
export TERN := $(abspath $(BIN)/tern)
export BUILD

.PHONY: all bootstrap configure build test test-deep fuzz fuzz-build test-small small-core bench-models sim lint timing formal coverage fpga bench bench-trn2 clean help

all: build

help:
	@echo "make sim    default waveform regression ($(LIST)); TEST=<name> TAGS=<tag|all> SEED=<n> WAVES=0|1"
	@echo "make test   every unit and integration test (CTest); the core-level RTL at tiny"
	@echo "make test-deep  make test's suite with the random tests at their full size (nightly)"
	@echo "make test-small  make test with the small config's ACT, compute and core models as well"
	@echo "make lint   verilator -Wall lint and Yosys synthesis of every RTL top, then make timing"
	@echo "make timing logic levels per stage against the budget, and area (build/timing/*.json); AREA_SMALL=1 adds the small core"
	@echo "make coverage  make test's suite and the smoke regression on models built with --coverage (build/coverage/summary.json, html/)"
	@echo "make formal bounded model checks and k-induction of the FIFO, arbiter, semaphores, link credits and two fp steps (build/formal/summary.json)"
	@echo "make fpga   iCE40 bitstream (build/fpga/report.json)"
	@echo "make bench  cycle benchmarks -> build/bench/*.json"
	@echo "make bench-trn2  only the trn2 core's e2e GEMM and the sim-speed bench (part of make bench)"

bootstrap:
	@scripts/bootstrap.sh

$(BUILD)/build.ninja: | bootstrap
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

# A dry run first: when a source the last configure saw is gone (a file moved, a branch
# switched), ninja cannot even plan, and configuring again fixes it. Every target that builds
# goes through here.
configure: bootstrap $(BUILD)/build.ninja
	@cmake --build $(BUILD) -- -n >/dev/null 2>&1 || cmake -S . -B $(BUILD)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build fuzz-build
	ctest --test-dir $(BUILD) -j $(JOBS) --output-on-failure
	scripts/fuzz.sh $(FUZZ_SECONDS)

# make test's suite with every random test at its full documented size (TERN_DEEP=1: 10^5
# random matmuls, ACT commands and DVE instructions per config, 1000 random kernels on the
# core; tests/test_util.h random_count), the nightly depth: about four times make test's time.
test-deep: build
	TERN_DEEP=1 ctest --test-dir $(BUILD) -j $(JOBS) --output-on-failure

# libFuzzer targets (fuzz/): their own clang build with sanitizers, in $(BUILD)/fuzz. `make test`
# runs each for FUZZ_SECONDS; `make fuzz FUZZ_SECONDS=3600` is a long run.
FUZZ_SECONDS ?= 10
fuzz-build: bootstrap
	CXX=clang++ cmake -S fuzz -B $(BUILD)/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD)/fuzz -j $(JOBS)

fuzz: fuzz-build
	scripts/fuzz.sh $(FUZZ_SECONDS)

# The small config's Scalar Engine, compute-cluster and whole-core models (TERN_SMALL_CORE):
# the largest builds, so `make test` leaves them out (docs/decisions.md). Turned on in the build
# directory by these targets, and kept there like any CMake option.
small-core: configure
	cmake -S . -B $(BUILD) -DTERN_SMALL_CORE=ON

test-small: small-core
	cmake --build $(BUILD) -j $(JOBS)
	ctest --test-dir $(BUILD) -j $(JOBS) --output-on-failure

sim: build
	$(BIN)/tern_regress $(LIST) --out $(BUILD)/sim --bin-dir $(BIN) --config-dir configs \
	  --seed $(SEED) --waves $(WAVES) $(if $(TEST),--test $(TEST),--tags $(TAGS))

lint: configure
	cmake --build $(BUILD) --target tern -j $(JOBS)
	scripts/lint.sh
	QUICK=1 scripts/timing.sh

timing: configure
	cmake --build $(BUILD) --target tern -j $(JOBS)
	scripts/timing.sh

# RTL code coverage (docs/verification.md "Coverage"): every model verilated with --coverage in
# its own build directory (about an hour to build on two cores, once; the models run 4-6x
# slower, so the suite takes hours), make test's suite and the smoke regression run on it,
# merged into summary.json and an lcov HTML report.
COVERAGE_BUILD := $(BUILD)/coverage
coverage: bootstrap
	@cmake --build $(COVERAGE_BUILD) -- -n >/dev/null 2>&1 || \
	  cmake -S . -B $(COVERAGE_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DTERN_COVERAGE=ON \
	    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG"
	cmake --build $(COVERAGE_BUILD) -j $(JOBS)
	JOBS=$(JOBS) scripts/coverage.sh $(COVERAGE_BUILD)

# The properties of the small protocol blocks and the fp steps' equivalences (formal/), proven
# with Yosys and yosys-smtbmc: no build, so no configure.
formal: bootstrap
	scripts/formal.sh

fpga: configure
	cmake --build $(BUILD) --target tern -j $(JOBS)
	scripts/fpga.sh

# Every model the benches measure: the small core and the trn2 Tensor Engine and core.
bench-models: configure
	cmake -S . -B $(BUILD) -DTERN_SMALL_CORE=ON -DTERN_TRN2_CORE=ON

bench: bench-models
	cmake --build $(BUILD) -j $(JOBS)
	$(BIN)/tern_bench_mac_lane --out $(BUILD)/bench
	$(BIN)/tern_bench_pe_gemm --out $(BUILD)/bench
	$(BIN)/tern_bench_act_dve --out $(BUILD)/bench
	$(BIN)/tern_bench_e2e --out $(BUILD)/bench --config small
	$(MAKE) --no-print-directory bench-trn2
	$(BIN)/tern_bench_link --out $(BUILD)/bench
	$(BIN)/tern_bench_gpsimd --out $(BUILD)/bench --programs $(BUILD)/tests/gpsimd
	python3 scripts/perf_tables.py update --from $(BUILD)/bench

# The trn2 core is configured in (Verilator runs at configure time, about a minute) and built
# (about 12 minutes on one core, once) for these benches only; never by `make test`.
bench-trn2: bench-models
	cmake --build $(BUILD) --target tern_bench_e2e_trn2 tern_bench_sim_speed -j $(JOBS)
	$(BIN)/tern_bench_e2e_trn2 --out $(BUILD)/bench --config trn2
	$(BIN)/tern_bench_e2e_trn2 --out $(BUILD)/bench --config trn2 --sections workloads --rtl-max-cycles 30000
	$(BIN)/tern_bench_sim_speed --out $(BUILD)/bench
	python3 scripts/perf_tables.py update --from $(BUILD)/bench

clean:
	rm -rf $(BUILD)
