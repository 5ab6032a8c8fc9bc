# cxprm top-level Makefile.
#
#   make deps         install build/test dependencies (Debian, needs root)
#   make              build the userspace parts (core, emulator, tools, tests)
#   make check        run every test
#   make layout-dump  print every PRM field the core defines
#
BUILD    ?= build
JOBS     ?= $(shell nproc)
CMAKE    ?= cmake
CTEST    ?= ctest
# Extra CMake options, e.g. CMAKE_ARGS=-DCXPRM_SANITIZE=ON
CMAKE_ARGS ?=

.PHONY: all deps userspace configure check check-userspace layout-dump clean

all: userspace

deps:
	./tools/install-deps.sh

$(BUILD)/CMakeCache.txt:
	$(CMAKE) -S . -B $(BUILD) $(CMAKE_ARGS)

configure: $(BUILD)/CMakeCache.txt

userspace: configure
	$(CMAKE) --build $(BUILD) -j$(JOBS)

check-userspace: userspace
	$(CTEST) --test-dir $(BUILD) --output-on-failure -j$(JOBS)

check: check-userspace

layout-dump: userspace
	@$(BUILD)/tools/layout-dump/cxprm-layout-dump

clean:
	rm -rf $(BUILD)
