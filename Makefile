# The README's two commands: `make demo` and `make test`. Each installs what is
# missing (scripts/bootstrap), configures and builds into build/, then runs.
BUILD ?= build
JOBS ?= $(shell nproc)
# tests/fuzz/README.md: the libFuzzer harnesses, built by clang in their own
# tree, each fuzzing FUZZ_SECONDS (`make test` runs them 60 s each).
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60

.PHONY: all bootstrap configure build demo test fuzz fuzz-run bench conformance clean

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

test: bootstrap
	@$(MAKE) --no-print-directory build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory fuzz-run FUZZ_SECONDS=60

fuzz: bootstrap
	@$(MAKE) --no-print-directory fuzz-run

# Configures every time: FUZZ_SECONDS is a cache variable of the fuzz tree.
fuzz-run:
	CC=clang cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DASYMU_FUZZ=ON -DASYMU_FUZZ_SECONDS=$(FUZZ_SECONDS)
	cmake --build $(FUZZ_BUILD) -j $(JOBS)
	cd $(FUZZ_BUILD) && ctest --output-on-failure -j $(JOBS) -L fuzz

bench: bootstrap
	@$(MAKE) --no-print-directory build
	@./bench/run.sh $(BUILD)

# CPython's test suite under asymu and qemu-user (docs/conformance.md):
# MODULES="test_os test_json" and ISAS="arm64 armhf" pick a subset.
conformance: bootstrap
	@$(MAKE) --no-print-directory build
	./tests/conformance/run.py --build $(BUILD) --json docs/conformance.json --md docs/conformance.md \
		$(if $(MODULES),--modules "$(MODULES)") $(if $(ISAS),--isas "$(ISAS)")

clean:
	rm -rf $(BUILD) $(FUZZ_BUILD)
