# The README's two commands: `make demo` and `make test`. Each installs what is
# missing (scripts/bootstrap), configures and builds into build/, then runs.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: all bootstrap configure build demo test bench conformance clean

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
	rm -rf $(BUILD)
