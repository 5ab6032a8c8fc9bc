# cxprm top-level Makefile.
#
#   make deps         install build/test dependencies (Debian, needs root)
#   make              build the userspace parts (core, emulator, tools, tests)
#   make check        run every test
#   make layout-dump  print every PRM field the core defines
#   make deb          dist/cxprm-dkms_*.deb and dist/cxprm-tools_*.deb
#                     (Documentation/packaging.rst)
#   make install      the tools, man pages, completion, udev rule and the
#                     module through DKMS (PREFIX=/usr/local, DESTDIR=)
#   make uninstall    removes what make install installed
#   make check-handover  cxprm bind/unbind --restore with mlx5_core (QEMU)
#   make check-fwctl  the tool over fwctl beside mlx5_core (Linux 7.3 with
#                     fwctl.ko/mlx5_fwctl.ko, tools/kernel/build-fwctl.sh),
#                     its answers compared with cxprm.ko's (QEMU)
#   make check-deb    the packages installed, DKMS-built module in QEMU, purged
#   make module       build cxprm.ko against the installed kernel headers
#                     (KDIR=/path/to/kernel/build overrides)
#   make layouts      generate the core's PRM layouts for the module
#                     (core-cpp/generated/; make module does it first)
#   make module-arm64 cxprm.ko cross-built for arm64 (BlueField's Arm cores)
#                     for bookworm's 6.1 and the arm64 kernels of
#                     tools/kernel/kernels.list (trixie 6.12, 4K and 16K
#                     pages), W=1, fails on any warning
#   make guest-tools-arm64  the guest programs (static CLI, emuctl, the
#                     kselftests) cross-built for an arm64 guest, checked
#                     with file(1) (tools/qemu/build-guest-tools.sh)
#   make lint         W=1 + sparse (C=2) module build, checkpatch, shellcheck
#   make check-guest  the kselftests in a QEMU guest with the emulator
#   make check-guest-msix  the same on MSI-X (ivshmem-doorbell)
#   make check-mlx5   Linux's mlx5_core on the emulator (MSI-X), checked
#   make check-mlx5-vf  the same on the emulated ConnectX-7 VF (cx7vf)
#   make mlx5         the same, bound, its dmesg printed (MLX5_ARGS=...)
#   make check-kunit  the KUnit suites in the debug test kernel (QEMU)
#   make check-kernels  cxprm.ko W=1 + vermagic + DKMS on every supported
#                     kernel (tools/kernel/kernels.list), each in a chroot
#   make check-guest-linux-ID / check-guest-msix-linux-ID / check-mlx5-linux-ID
#                     the kselftests (polling / MSI-X) and mlx5_core on
#                     kernel ID of kernels.list (e.g. 5.10, 6.12, 7.3)
#   make check-matrix every stage on every kernel (long)
#   make check-guest-debug  the same on the debug test kernel
#   make check-failnth  kernel allocation fault injection (fail-nth), debug kernel
#   make test-kernel  build (once, cached) the KUnit/KASAN/kmemleak test kernel
#   make demo         boot QEMU with an emulated ConnectX-7 and run cxprm
#   make bench        benchmarks of the command path (not part of check;
#                     Documentation/performance.rst)
#   make fuzz         the libFuzzer targets in rounds of FUZZ_SECONDS (120)
#                     each on FUZZ_JOBS (one per CPU) workers until
#                     FUZZ_EXECS (10,000,000) inputs ran, clang build in
#                     build-fuzz/ (Documentation/fuzzing.rst)
#   make soak         SOAK_IOCTLS (100000) ioctls from 8 processes under
#                     random emulator faults, debug kernel, polled/events/
#                     MSI-X, then as many under SOAK_CRASHES (20) recovered
#                     firmware crashes (not part of check;
#                     Documentation/faults.rst)
#   make check-fuzz   the same, bounded (45 s each, fixed seed); fails on
#                     any crash, leak, UB report or hang
#
BUILD    ?= build
JOBS     ?= $(shell nproc)
CMAKE    ?= cmake
CTEST    ?= ctest
# Extra CMake options, e.g. CMAKE_ARGS=-DCXPRM_SANITIZE=ON
CMAKE_ARGS ?=

# The Debian kernel whose headers and image are installed (never `uname -r`:
# the host kernel is not the one we build for or boot in QEMU).
KVER ?= $(shell find /boot -maxdepth 1 -name 'vmlinuz-*' 2>/dev/null | sort -V | tail -n1 | sed 's|.*/vmlinuz-||')
KDIR ?= /lib/modules/$(KVER)/build
export KDIR KVER BUILD

.PHONY: all deps userspace configure check check-userspace layout-dump clean \
	layouts module lint check-module check-guest check-guest-msix check-mlx5 check-mlx5-vf mlx5 check-guest-debug check-failnth check-kunit test-kernel soak smoke demo \
	module-clean bench check-kernels check-kernels-amd64 check-matrix module-arm64 guest-tools-arm64

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

# The core's PRM layouts for the module, from layouts.sel and the host's
# newest mlx5_ifc.h (>= 6.1): core-cpp/generated/, which Kbuild includes
# and never writes (tools/ifcgen/gen-core-layouts.sh; rewritten only when
# it changes).
layouts:
	tools/ifcgen/gen-core-layouts.sh

module: layouts
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# 6.1 in .cache/arm64/6.1/mod (the host's amd64 kbuild tools and
# aarch64-linux-gnu-gcc-12), each arm64 id of kernels.list in
# .cache/kernels/<id>/mod (its chroot's aarch64-linux-gnu-gcc-14)
# (tools/kernel/build-arm64.sh); prints each module's vermagic and `file`
# line (ARM aarch64).
module-arm64:
	tools/kernel/build-arm64.sh

# Prints CLI=... EMUCTL=... SELFTESTS_DIR=... (paths under .cache).
guest-tools-arm64:
	tools/qemu/build-guest-tools.sh --arch arm64

# Packages and installation (tools/packaging/, debian/).
PREFIX  ?= /usr/local
DESTDIR ?=
VERSION := $(shell dpkg-parsechangelog -l debian/changelog -S Version 2>/dev/null)
.PHONY: deb install uninstall check-deb
deb:
	tools/packaging/deb.sh

install: configure
	$(CMAKE) --build $(BUILD) -j$(JOBS) --target cxprm cxprm-emud cxprm-docs cxprm-emud-man
	tools/packaging/install.sh tools "$(DESTDIR)" $(BUILD) $(PREFIX)
	tools/packaging/install.sh dkms "$(DESTDIR)" $(VERSION) $(BUILD)
	if [ -z "$(DESTDIR)" ] && command -v dkms >/dev/null; then \
		dkms install cxprm/$(VERSION) -k $(KVER); fi

uninstall:
	if command -v dkms >/dev/null && dkms status cxprm/$(VERSION) | grep -q .; then \
		dkms remove cxprm/$(VERSION) --all; fi
	tools/packaging/install.sh tools-remove "$(DESTDIR)" $(BUILD) $(PREFIX)
	rm -rf "$(DESTDIR)/usr/src/cxprm-$(VERSION)"

check-deb:
	tools/packaging/check-deb.sh

lint:
	tools/lint.sh

check-module: lint

# Boots the Debian kernel in QEMU (TCG) with cxprm-emud behind the ivshmem
# device and runs every kselftest in the guest; first the harness's own
# retry of a boot that dies before /init (tools/qemu/test-boot-retry.sh).
# (run.sh builds the module, a static cxprm-emud and cxprm CLI of its own,
# and the test programs.)
check-guest:
	tools/qemu/test-boot-retry.sh
	selftests/cxprm/run.sh -q --shutdown --vf
	selftests/cxprm/run.sh -q --no-build -- load lockdown

# The same guest in MSI-X mode: ivshmem-doorbell, cxprm-emud its ivshmem
# server; the MSI-X step list asserts interrupts were delivered.
check-guest-msix:
	selftests/cxprm/run.sh -q --msix 8 --shutdown

# Builds the debug test kernel (cached), cxprm.ko and cxprm_kunit.ko for it
# and a static cxprm-emud, boots it in QEMU (TCG) and runs the KUnit suites;
# kunit.py counts the results (Documentation/kunit.rst).
check-kunit:
	tools/kernel/run-kunit.sh

smoke: userspace module
	tools/qemu/smoke.sh --no-build

demo:
	tools/demo/demo.sh

# Own Release tree (build-bench/); prints the table, writes the plot.
bench:
	tools/bench/bench.sh

# libFuzzer targets (fuzz/, clang + ASan/UBSan in build-fuzz/): one summary
# line per target (executions, corpus, crashes).  The committed corpus and
# regressions also replay in check-userspace (CTest fuzz_replay_*).
# make fuzz runs rounds of FUZZ_SECONDS per target until FUZZ_EXECS inputs
# ran in all (Documentation/fuzzing.rst, "Speed and volume").
FUZZ_SECONDS ?= 120
FUZZ_EXECS ?= 10000000
FUZZ_JOBS ?= $(shell nproc)
.PHONY: fuzz check-fuzz
fuzz:
	tools/fuzz/run.sh --seconds $(FUZZ_SECONDS) --execs $(FUZZ_EXECS) --jobs $(FUZZ_JOBS)

# One target per CPU at a time: each still has a CPU and its 45 s.
check-fuzz:
	tools/fuzz/run.sh --seconds 45 --seed 1 --parallel $(JOBS)

# Linux's own mlx5_core (Debian's, unmodified) on the emulated ConnectX-7,
# on MSI-X: bind, unbind, rebind, rmmod; one summary line
# (tools/qemu/run-mlx5.sh --check).  `make mlx5` binds it and prints its
# dmesg (MLX5_ARGS: more run-mlx5.sh options, e.g. --mlx5-ko PATH).
MLX5_ARGS ?=
check-mlx5:
	tools/qemu/run-mlx5.sh --check -q $(MLX5_ARGS)

mlx5:
	tools/qemu/run-mlx5.sh $(MLX5_ARGS)

# The same check on a VF (profile cx7vf, PCI id 0x101e): mlx5_core takes it
# for a VF by its own id table (cxswap.c) and skips what a VF may not do.
check-mlx5-vf:
	tools/qemu/run-mlx5.sh --check -q --profile cx7vf $(MLX5_ARGS)

# cxprm bind takes the emulated function from mlx5_core, unbind --restore
# gives it back (tools/qemu/guest/handover-check.sh).
.PHONY: check-handover
check-handover:
	tools/qemu/run-mlx5.sh --handover -q $(MLX5_ARGS)

# mlx5_core keeps the emulated BlueField-3, the tool reaches it over fwctl
# and then over cxprm.ko; the answers must match (tools/qemu/guest/fwctl-check.sh).
.PHONY: check-fwctl
check-fwctl:
	tools/qemu/run-mlx5.sh --fwctl -q $(MLX5_ARGS)

# The debug-kernel run of the same kselftests (built and cached by
# tools/kernel/build-test-kernel.sh); the guest adds its checker steps.
check-guest-debug:
	selftests/cxprm/run.sh -q --debug-kernel

# The soak (Documentation/faults-soak.rst): SOAK_IOCTLS mixed ioctls from 8
# processes under random emulator faults, on the debug test kernel
# (kmemleak, KASAN, lockdep, DMA-API debug), with command completion by
# polling and by events, then on MSI-X; not part of `make check` (its
# guest stages run the short soak, 3000 ioctls).  Then, polled, the same
# number of ioctls under SOAK_CRASHES firmware crashes the driver recovers
# from (step soak-crash:N,C; the guest stages run it with 3000 and 3),
# after each of the two runs.
# Each run's console is kept as .cache/selftests/soak-{plain,msix}.log and
# its figures printed.
SOAK_IOCTLS ?= 100000
SOAK_CRASHES ?= 20
define soak_figures
	@cp .cache/selftests/console.log .cache/selftests/soak-$(1).log
	@tr -d '\r' <.cache/selftests/soak-$(1).log | \
		grep -aoE 'mixed_ioctls_under_(random_faults|recoverable_crashes):(seed .*|[0-9]+ ioctls in .*|faults: .*|crashes: .*|device .*)' | \
		sed 's/^mixed_ioctls_under_random_faults:/soak $(1): /; s/^mixed_ioctls_under_recoverable_crashes:/soak-crash $(1): /'
endef
soak:
	selftests/cxprm/run.sh -q --debug-kernel --timeout 7200 -- debug-start load soak:$(SOAK_IOCTLS) \
		unload load:cmd_mode=events soak:$(SOAK_IOCTLS) unload soak-crash:$(SOAK_IOCTLS),$(SOAK_CRASHES) debug-check
	$(call soak_figures,plain)
	selftests/cxprm/run.sh -q --debug-kernel --no-build --msix 8 --timeout 7200 -- debug-start \
		load soak:$(SOAK_IOCTLS) unload load:cmd_mode=events soak:$(SOAK_IOCTLS) unload \
		soak-crash:$(SOAK_IOCTLS),$(SOAK_CRASHES) debug-check
	$(call soak_figures,msix)

# Kernel allocation fault injection on the debug kernel (fail-nth): every
# path's n-th allocation fails, n = 1, 2, ...; then the checkers
# (Documentation/faults.rst, "Kernel allocation faults").  Few firmware
# pages, so that probe has few injection points.
check-failnth:
	selftests/cxprm/run.sh -q --debug-kernel --timeout 1500 \
		--emud-args "--boot-pages 4 --init-pages 4" -- debug-start load failnth debug-check

# The debug test kernel alone (cached; prints where it is).
test-kernel:
	tools/kernel/build-test-kernel.sh --print

# Every stage (tools/check.sh prints a summary line per stage);
# `make check STAGES="userspace module"` runs only those.
check:
	tools/check.sh $(STAGES)

# Every kernel of tools/kernel/kernels.list (Documentation/kernels.rst): the compile matrix (W=1, vermagic, DKMS, each in
# its release's chroot), and for each kernel other than the host's, the
# kselftests booted on it (polling; MSI-X in check-matrix) and its own
# mlx5_core on the emulator.  check-matrix runs all of it, MSI-X too.
check-kernels:
	tools/kernel/check-kernels.sh $(KERNELS)

check-kernels-amd64:
	tools/kernel/check-kernels.sh $$(tools/kernel/kernel-env.sh --list-arch amd64)

check-guest-linux-%:
	selftests/cxprm/run.sh -q --linux $*

check-guest-msix-linux-%:
	selftests/cxprm/run.sh -q --linux $* --msix 8

# An arm64 kernel (kernel-env.sh --list-arch arm64) under qemu-system-aarch64:
# the kselftests, the power-off with the function bound (0 pages held at
# the emulator's exit) and the demo's CLI session; MSI-X in check-matrix.
check-arm64-linux-%:
	selftests/cxprm/run.sh -q --linux $* --shutdown
	tools/demo/demo.sh --linux $*

check-arm64-msix-linux-%:
	selftests/cxprm/run.sh -q --linux $* --msix 8 --shutdown
	tools/demo/demo.sh --linux $* --msix 8

check-mlx5-linux-%:
	tools/qemu/run-mlx5.sh --check -q --linux $* $(MLX5_ARGS)

check-mlx5-vf-linux-%:
	tools/qemu/run-mlx5.sh --check -q --profile cx7vf --linux $* $(MLX5_ARGS)

check-matrix:
	tools/check.sh --matrix $(STAGES)

layout-dump: userspace
	@$(BUILD)/tools/layout-dump/cxprm-layout-dump

# Not `make -C $(KDIR) M=. clean`: it deletes every *.o below the tree,
# CMake's build directory included.
module-clean:
	rm -rf cxprm.ko cxprm.o cxprm.mod cxprm.mod.[co] .cxprm*.cmd Module.symvers \
		modules.order drivers/*.o drivers/.*.cmd drivers/core-obj drivers/generated core-cpp/generated \
		kunit/obj kunit/*/*.o kunit/*/.*.cmd

clean: module-clean
	rm -rf $(BUILD) .cache
