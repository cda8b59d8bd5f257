# The README's two commands: `make demo` and `make test`. Each installs what is
# missing (scripts/bootstrap), configures and builds into build/, then runs.
# `make test` runs the suite twice: the normal build, then the same tests on
# a build with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-sanitize/). `make test SANITIZE=address,undefined` runs only the
# sanitized suite, with those sanitizers.
BUILD ?= build
JOBS ?= $(shell nproc)
SANITIZE ?=
SAN_BUILD ?= build-sanitize
SAN_DEFAULT = address,undefined
# Stop at the first report, with a stack; LeakSanitizer ignores what
# Unicorn keeps for the life of the process.
# Left out of the sanitized suite: the mapping-limit split test, whose 500
# Unicorn region changes each memmove Unicorn's region tables through ASan's
# byte-by-byte copy (about 2 minutes per ISA instead of 3 seconds); the
# normal suite runs it.
SAN_SKIP ?= ^e2e-limits-split-
SAN_ENV = ASAN_OPTIONS=halt_on_error=1:print_stacktrace=1:detect_leaks=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitize/lsan.supp:print_suppressions=0

.PHONY: all bootstrap configure build demo test test-normal test-sanitized bench clean

all: build

bootstrap:
	@./scripts/bootstrap

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo

configure: $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: bootstrap
	@$(MAKE) --no-print-directory build
	@./examples/demo.sh $(BUILD)

ifeq ($(SANITIZE),)
test: bootstrap
	@$(MAKE) --no-print-directory test-normal
	@$(MAKE) --no-print-directory test-sanitized SANITIZE=$(SAN_DEFAULT)
else
test: bootstrap
	@$(MAKE) --no-print-directory test-sanitized
endif

test-normal: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The sanitized build: re-configured whenever SANITIZE names other sanitizers.
test-sanitized:
	cmake -S . -B $(SAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DASYMU_SANITIZE=$(or $(SANITIZE),$(SAN_DEFAULT))
	cmake --build $(SAN_BUILD) -j $(JOBS)
	cd $(SAN_BUILD) && $(SAN_ENV) ctest --output-on-failure -j $(JOBS) -E '$(SAN_SKIP)'

bench: bootstrap
	@$(MAKE) --no-print-directory build
	@./bench/run.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
