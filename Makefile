# SPDX-License-Identifier: GPL-2.0-or-later
# The README's two commands: `make demo` and `make test`. Each installs what is
# missing (scripts/bootstrap), configures and builds into build/, then runs.
# `make test` runs the suite twice: the normal build, then the same tests on
# a clang build with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-sanitize/), only those needed to reach every edge of asymu that the
# whole suite reaches (tests/sanitize/README.md), with the libFuzzer
# harnesses of that tree. `make test SANITIZE=address,undefined` runs only
# the sanitized suite and the fuzzers.
BUILD ?= build
# The guest programs (tests/guest, examples; cross-compiled for AArch64 and
# AArch32, more compile time than asymu itself) do not depend on sanitizers
# or the compiler of asymu: built once here, and every tree make configures
# (build/, build-sanitize/) links them from here
# (cmake/GuestPrograms.cmake, ASYMU_GUEST_BUILD), as it does busybox.
GUEST_BUILD ?= build-guests
GUESTS = -DASYMU_GUEST_BUILD=$(CURDIR)/$(GUEST_BUILD)
# Warnings are errors in every tree make configures (CMake's ASYMU_WERROR).
WERROR = -DASYMU_WERROR=ON
JOBS ?= $(shell nproc)
# tests/fuzz/README.md: the libFuzzer harnesses, built by clang in the
# sanitized tree (their code is compiled once for both), each fuzzing
# FUZZ_SECONDS from FUZZ_SEED (0: libFuzzer picks one). `make test` runs
# them 30 s each from seed 1, so that its verdict repeats, beside the
# sanitized suite; `make fuzz` runs only them, 60 s each by default.
FUZZ_SECONDS ?= 60
FUZZ_SEED ?= 0


SANITIZE ?=
SAN_BUILD ?= build-sanitize
SAN_DEFAULT = address,undefined
# Stop at the first report, with a stack; LeakSanitizer ignores what
# Unicorn keeps for the life of the process.
# Left out of the sanitized suite, which the normal suite runs: the
# mapping-limit split test, whose 500 Unicorn region changes each memmove
# Unicorn's region tables through ASan's byte-by-byte copy (about 2 minutes
# per ISA instead of 3 seconds); and the suites that test the guests rather
# than asymu's own code paths: conformance (Debian's programs), bench-smoke
# and the replay of every example scenario (e2e-scenario-determinism); and
# the tests that bound asymu's own peak host memory (*-host-rss-*), which
# AddressSanitizer's shadow and quarantine inflate by hundreds of MB; and
# the Debian package's build, which compiles asymu again without sanitizers.
# The many-task policy tests run there with 40 processes instead of 200
# (tests/e2e/policies.cmake, POL_MANY_TASKS).
SAN_SKIP ?= ^e2e-limits-split-|^conformance-|^bench-|^e2e-scenario-determinism$$|-host-rss-|^e2e-package-deb$$
# tests/sanitize/README.md: of the rest, the sanitized suite leaves out the
# tests SAN_PLAN names, whose every edge of asymu the tests it runs reach
# too (measured per test on a coverage-map build, COV_BUILD, by `make
# sanitize-plan`); it says how many on one line. SAN_ALL=1 runs them too.
SAN_PLAN = tests/sanitize/plan.txt
SAN_ALL ?=
COV_BUILD ?= build-covmap
SAN_ENV = ASAN_OPTIONS=halt_on_error=1:print_stacktrace=1:detect_leaks=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	LSAN_OPTIONS=print_suppressions=0

.PHONY: all bootstrap guests configure build install demo test test-normal test-sanitized san-configure sanitize-plan fuzz bench conformance conformance-programs conformance-programs-run clean

all: build

bootstrap:
	@./scripts/bootstrap

$(GUEST_BUILD)/build.ninja:
	cmake -S . -B $(GUEST_BUILD) -G Ninja -DASYMU_GUESTS_ONLY=ON

guests: $(GUEST_BUILD)/build.ninja
	cmake --build $(GUEST_BUILD) -j $(JOBS)

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(WERROR) $(GUESTS)

configure: $(BUILD)/build.ninja

build: guests configure
	cmake --build $(BUILD) -j $(JOBS)

# `make install PREFIX=DIR` (default /usr/local): the binary, the manual
# pages asymu(1) and asymu-scenario(5), the bash completion, the docs, and
# the example scenarios with the programs they run (cli/CMakeLists.txt).
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

demo: bootstrap
	@$(MAKE) --no-print-directory build
	@./examples/demo.sh $(BUILD)

# What the tests take from the machine's apt sources, Debian's busybox and
# the conformance tests' guest roots (tests/conformance/build-root.py;
# together a minute or two, much of it waiting on the mirror), is fetched
# in the background while the trees compile; the busybox-fetch and
# conformance-roots fixtures then find it there, or wait on its lock for
# what is still under way (and fetch what failed, with its message). The
# log: $(BUILD)/background-fetch.log.
ROOTS_DIR = $(BUILD)/conformance

ifeq ($(SANITIZE),)
test: bootstrap
	@mkdir -p $(ROOTS_DIR)
	@(sh scripts/fetch-busybox $(GUEST_BUILD); \
	  for isa in arm64 armhf; do /usr/bin/python3 tests/conformance/build-root.py $$isa $(ROOTS_DIR) || break; done) \
	    > $(BUILD)/background-fetch.log 2>&1 &
	@$(MAKE) --no-print-directory test-normal
	@$(MAKE) --no-print-directory test-sanitized SANITIZE=$(SAN_DEFAULT)
else
test: bootstrap
	@$(MAKE) --no-print-directory test-sanitized
endif

test-normal: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The sanitized tree, built by clang with the libFuzzer harnesses beside the
# test suite. Configured every time: SANITIZE, FUZZ_SECONDS and FUZZ_SEED
# are cache variables of the tree.
san-configure: guests
	CC=clang cmake -S . -B $(SAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(WERROR) $(GUESTS) \
		-DASYMU_SANITIZE=$(or $(SANITIZE),$(SAN_DEFAULT)) \
		-DASYMU_FUZZ=ON -DASYMU_FUZZ_SECONDS=$(FUZZ_SECONDS) -DASYMU_FUZZ_SEED=$(FUZZ_SEED)
	cmake --build $(SAN_BUILD) -j $(JOBS)

# The sanitized suite and the fuzzers (label fuzz) in one ctest run, so
# that the two cores stay busy to its end: 30 s per harness from seed 1.
test-sanitized:
	@$(MAKE) --no-print-directory san-configure FUZZ_SECONDS=30 FUZZ_SEED=1
ifeq ($(SAN_ALL),)
	./tests/sanitize/plan.py select $(SAN_BUILD) $(SAN_PLAN) --exclude '$(SAN_SKIP)' > $(SAN_BUILD)/sanitize-plan.args
else
	@echo "sanitized suite: every test (SAN_ALL=1), $(SAN_PLAN) not applied" && : > $(SAN_BUILD)/sanitize-plan.args
endif
	cd $(SAN_BUILD) && $(SAN_ENV) ctest --output-on-failure -j $(JOBS) -E '$(SAN_SKIP)' $$(cat sanitize-plan.args)

fuzz: bootstrap
	@$(MAKE) --no-print-directory san-configure
	cd $(SAN_BUILD) && ctest --output-on-failure -j $(JOBS) -L fuzz

# The plan of the sanitized suite (tests/sanitize/README.md): a clang build
# recording each test's edges (COV_BUILD), every test SAN_SKIP leaves run
# alone there, and the covering subset picked from the maps. Each run
# measures every test again; SAN_PLAN_RESUME=1 goes on with an interrupted
# run (tests measured with the same asymu binary are not run again).
sanitize-plan: guests
	CC=clang cmake -S . -B $(COV_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(WERROR) $(GUESTS) \
		-DASYMU_COVERAGE_MAP=ON
	cmake --build $(COV_BUILD) -j $(JOBS)
	$(if $(SAN_PLAN_RESUME),,rm -rf $(COV_BUILD)/sanitize-plan-data)
	./tests/sanitize/plan.py measure $(COV_BUILD) $(COV_BUILD)/sanitize-plan-data --exclude '$(SAN_SKIP)' -j $(JOBS)
	./tests/sanitize/plan.py pick $(COV_BUILD)/sanitize-plan-data $(SAN_PLAN) \
		--commit "$$(git rev-parse --short HEAD)$$(git diff --quiet HEAD -- . ':!$(SAN_PLAN)' || echo ' with changes')"

bench: bootstrap
	@$(MAKE) --no-print-directory build
	@./bench/run.sh $(BUILD)

# CPython's test suite under asymu and qemu-user (docs/conformance.md):
# MODULES="test_os test_json" and ISAS="arm64 armhf" pick a subset.
# Then the programs table (Node, the JRE, Go, gcc, git, ... in a root of
# their own): `make conformance-programs` alone, ROWS="perl git" a subset.
conformance: bootstrap
	@$(MAKE) --no-print-directory build
	./tests/conformance/run.py --build $(BUILD) --json docs/conformance.json --md docs/conformance.md \
		$(if $(MODULES),--modules "$(MODULES)") $(if $(ISAS),--isas "$(ISAS)")
	@$(MAKE) --no-print-directory conformance-programs-run

conformance-programs: bootstrap
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory conformance-programs-run

conformance-programs-run:
	./tests/conformance/programs.py --build $(BUILD) --json docs/conformance.json --md docs/conformance.md \
		$(if $(ROWS),--rows "$(ROWS)") $(if $(ISAS),--isas "$(ISAS)")

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(COV_BUILD) $(GUEST_BUILD)
