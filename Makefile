# The README's two commands: `make demo` and `make test`. Each installs what is
# missing (scripts/bootstrap), configures and builds into build/, then runs.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: all bootstrap configure build demo test bench clean

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

clean:
	rm -rf $(BUILD)
