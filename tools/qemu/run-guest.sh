#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a Debian kernel in QEMU (TCG) with a busybox initramfs holding
# cxprm.ko, an ivshmem-plain device whose BAR is a shared file, and guest RAM
# in a shared file; run a host-side program ("the emulator", by default
# cxprm-emud, the ConnectX firmware emulator) on both files;
# load the module, bind the ivshmem device to cxprm, run a command in the
# guest, power off, and exit with the command's exit status.
#
#   tools/qemu/run-guest.sh [options] [--] [GUEST COMMAND...]
#
# See --help and Documentation/qemu-harness.rst.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

usage() {
	cat <<'EOF'
usage: run-guest.sh [options] [--] [GUEST COMMAND...]

Guest contents
  --ko PATH            cxprm.ko to put in the guest (default: <repo>/cxprm.ko)
  --no-module          no cxprm.ko at all (implies --no-load)
  --no-load            put cxprm.ko in /cxprm/cxprm.ko but do not insmod it
  --no-bind            insmod cxprm.ko but do not bind the ivshmem device
  --modparams STRING   cxprm.ko parameters for insmod, e.g. "allow_raw_write=1"
  --cmd STRING         guest shell command (or give it after the options)
  --script FILE        guest shell script to run instead of a command
  --file SRC[:DEST]    copy a host file into the guest (default DEST
                       /cxprm/<basename>); repeatable; host programs must
                       be static
  --module NAME|PATH   extra kernel module, insmod'ed before cxprm.ko;
                       a NAME is looked up (with its dependencies) in
                       modules.dep of --moddir; repeatable
  --modules-list FILE  one --module argument per line (# comments)
Kernel and machine
  --arch ARCH          x86_64 (q35, the default) or arm64 (virt, GICv3,
                       -cpu max: 4K and 16K kernels); arm64 needs --kernel,
                       an aarch64 cxprm.ko and aarch64 --file programs
  --kver VERSION       kernel release (default: cxprm.ko's vermagic, else
                       the newest /boot/vmlinuz-*)
  --kernel PATH        kernel image (default: /boot/vmlinuz-<kver>)
  --no-pvh             boot the compressed bzImage through SeaBIOS instead of
                       the extracted vmlinux through its PVH entry (the
                       default; about 4 s faster under TCG, cached in
                       $CXPRM_QEMU_CACHE, default <repo>/.cache/qemu)
  --moddir DIR         module tree for --module NAME (/lib/modules/<kver>)
  --mem MB             guest RAM in MiB (default 512)
  --smp N              vCPUs (default 2)
  --bar-size SIZE      ivshmem BAR size, power of two (default 1M)
  --msix N             ivshmem-doorbell with N MSI-X vectors (1..64) instead
                       of ivshmem-plain (no interrupts): the host program is
                       its ivshmem server (cxprm-emud --ivshmem-server
                       $CXPRM_IVSHMEM_SOCK --vectors N; a --emulator CMD
                       must serve $CXPRM_IVSHMEM_SOCK itself)
  --cxswap PATH        cxswap.ko (tools/qemu/guest/) for the guest's
                       /bin/mlx5-bind: /cxprm/cxswap.ko
  --append ARGS        extra kernel command-line arguments (repeatable)
  --verbose            all kernel messages on the console (default: only
                       warnings and worse; dmesg in the guest has all)
Host side
  --emud               run cxprm-emud, the firmware emulator (the default
                       unless --emulator or --no-emulator; see --emud-bin)
  --emud-bin PATH      the cxprm-emud binary (default $CXPRM_EMUD, else
                       <repo>/build/tools/emulator/daemon/cxprm-emud)
  --profile NAME       emulated adapter (cxprm-emud --profile; default cx7;
                       the names: cxprm-emud --list-profiles)
  --emud-args STRING   more cxprm-emud options (split by the shell), e.g.
                       "--init-delay-ms 5000 --boot-pages 8 --verbose"
  --emulator CMD       any host program, run as: CMD RAM_FILE BAR_FILE (CMD
                       is split by the shell); must create $CXPRM_READY_FILE
                       once the BAR is set up
  --no-emulator        no host program (the BAR stays zero)
  --ready-timeout S    wait this long for $CXPRM_READY_FILE (default 30)
Run control
  --timeout S          kill the guest after S seconds (default 300)
  --allow-splats       do not fail on a kernel report (below)
  --console-log FILE   save the guest console output
  --emulator-log FILE  save the host program's output
  --keep               keep the work directory (initramfs, logs)
  -q, --quiet          do not stream the console (printed on failure)
  -h, --help

Exit status: the guest command's exit status; 124 timeout; 125 harness,
QEMU or guest setup failure (no exit marker, insmod or bind failed);
126 emulator failure; 120 kernel report (with a zero guest status, unless
--allow-splats).  A kernel report is any of: a WARNING/BUG/Oops/KASAN/
UBSAN/lockdep/kmemleak report in the guest's dmesg at the end of the run
or anywhere in the console log (messages of warning level and up reach the
console, even those a guest script erased from dmesg with dmesg -c, or
that scrolled out of the log buffer), or the kernel tainted at the end of
the run by a bad page (B, KASAN), a die (D, Oops), a WARN (W) or a soft
lockup (L); O and E (an out-of-tree, unsigned module: ours) do not count.
A guest kernel that panics while it boots, before /init (so before any of
cxprm is loaded: the stock kernel's or QEMU's failure), is booted once
more with a fresh host program; the run says so, and a second such death
fails with 125.

The guest command runs with CXPRM_BDF (the ivshmem device) in its
environment; /bin/cxprm-bind [BDF] and /bin/cxprm-unbind [BDF] bind and
unbind by hand; /bin/emuctl (tools/emulator/emuctl, built static here)
talks to cxprm-emud through the control page in the BAR (emuctl --help;
the kernel runs with iomem=relaxed so emuctl maps the BAR while cxprm.ko
holds it).
EOF
}

die() {
	echo "run-guest: $*" >&2
	exit 125
}

ko="$repo/cxprm.ko"
with_module=1 load=1 bind=1 modparams=""
guest_cmd="" guest_script=""
files=() extra_modules=()
arch=x86_64 kver="" kernel="" moddir="" pvh=1
mem=512 smp=2 bar_size=1M append="" verbose=0 msix=0 cxswap_ko=""
emulator="" with_emulator=1 ready_timeout=30
host_kind="" emud_bin=${CXPRM_EMUD:-} emud_profile="" emud_args=""
timeout_s=300 allow_splats=0 console_log="" emulator_log="" keep=0 quiet=0

while [ $# -gt 0 ]; do
	case "$1" in
	--ko) ko=$2; shift ;;
	--no-module) with_module=0; load=0; bind=0 ;;
	--no-load) load=0; bind=0 ;;
	--no-bind) bind=0 ;;
	--modparams) modparams=$2; shift ;;
	--cmd) guest_cmd=$2; shift ;;
	--script) guest_script=$2; shift ;;
	--file) files+=("$2"); shift ;;
	--module) extra_modules+=("$2"); shift ;;
	--modules-list)
		while read -r line; do
			line=${line%%#*}
			line=$(echo "$line" | xargs)
			[ -n "$line" ] && extra_modules+=("$line")
		done <"$2"
		shift ;;
	--arch) arch=$2; shift ;;
	--kver) kver=$2; shift ;;
	--kernel) kernel=$2; shift ;;
	--moddir) moddir=$2; shift ;;
	--no-pvh) pvh=0 ;;
	--mem) mem=$2; shift ;;
	--smp) smp=$2; shift ;;
	--bar-size) bar_size=$2; shift ;;
	--msix) msix=$2; shift ;;
	--cxswap) cxswap_ko=$2; shift ;;
	--append) append="${append:+$append }$2"; shift ;;
	--verbose) verbose=1 ;;
	--emulator) emulator=$2; host_kind=custom; shift ;;
	--no-emulator) with_emulator=0 ;;
	--emud) host_kind=emud ;;
	--emud-bin) emud_bin=$2; shift ;;
	--profile) emud_profile=$2; shift ;;
	--emud-args) emud_args=$2; shift ;;
	--ready-timeout) ready_timeout=$2; shift ;;
	--timeout) timeout_s=$2; shift ;;
	--allow-splats) allow_splats=1 ;;
	--console-log) console_log=$2; shift ;;
	--emulator-log) emulator_log=$2; shift ;;
	--keep) keep=1 ;;
	-q | --quiet) quiet=1 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	-*) echo "run-guest: unknown option $1" >&2; usage >&2; exit 125 ;;
	*) break ;;
	esac
	shift
done
if [ $# -gt 0 ]; then
	[ -z "$guest_cmd" ] || die "give the guest command either with --cmd or after the options"
	guest_cmd="$*"
fi
[ -z "$guest_cmd" ] || [ -z "$guest_script" ] || die "--cmd and --script are exclusive"
case "$msix" in
'' | *[!0-9]*) die "--msix needs a number of vectors (1..64)" ;;
esac
[ "$msix" -le 64 ] || die "--msix needs a number of vectors (1..64)"
if [ "$msix" -gt 0 ] && [ "$with_emulator" = 0 ]; then
	die "--msix needs a host program to be the ivshmem server (not --no-emulator)"
fi
[ -z "$cxswap_ko" ] || [ -f "$cxswap_ko" ] || die "--cxswap $cxswap_ko: no such file"

# The host program: cxprm-emud unless another one was given.
[ -n "$emud_bin" ] || emud_bin=$repo/build/tools/emulator/daemon/cxprm-emud
[ -n "$host_kind" ] || host_kind=emud
if [ "$with_emulator" = 1 ] && [ "$host_kind" = emud ]; then
	[ -x "$emud_bin" ] || die "no cxprm-emud at $emud_bin: build it (cmake -S . -B build && cmake --build build --target cxprm-emud) or give --emud-bin"
	# The profile names are the emulator's (Profile::names()).
	profiles=$("$emud_bin" --list-profiles | cut -f1) || die "$emud_bin --list-profiles failed"
	echo "$profiles" | grep -qxF -- "${emud_profile:-cx7}" ||
		die "--profile must be one of: $(echo "$profiles" | paste -sd' ') (cxprm-emud --list-profiles)"
	emulator="$emud_bin --profile ${emud_profile:-cx7} $emud_args"
elif [ -n "$emud_profile$emud_args" ] && [ "$with_emulator" = 1 ]; then
	die "--profile/--emud-args need cxprm-emud (--emud)"
fi

# shellcheck source=tools/qemu/guest-machine.sh
. "$here/guest-machine.sh"
[ "$arch" != aarch64 ] || arch=arm64
[ "$arch" != amd64 ] || arch=x86_64
ram_bytes=$((mem * 1024 * 1024))
machine_setup "$arch" "$ram_bytes" || exit 125
for tool in "$qemu_bin" cpio timeout; do
	command -v "$tool" >/dev/null || die "$tool not found (make deps)"
done
busybox=$("$here/guest-busybox.sh" "$arch") || die "no static busybox for $arch"

# --- kernel ----------------------------------------------------------------
if [ "$with_module" = 1 ]; then
	[ -f "$ko" ] || die "$ko not found: build the module first (make module)"
	if [ -z "$kver" ]; then
		kver=$(modinfo -F vermagic "$ko" 2>/dev/null | awk '{print $1}' || true)
	fi
fi
if [ -z "$kver" ] && [ -z "$kernel" ]; then
	[ "$arch" = x86_64 ] || die "--arch $arch needs --kernel (the host's /boot is x86_64)"
	newest=$(find /boot -maxdepth 1 -name 'vmlinuz-*' 2>/dev/null | sort -V | tail -n 1)
	[ -n "$newest" ] || die "no /boot/vmlinuz-*: give --kernel"
	kver=${newest#/boot/vmlinuz-}
fi
[ -n "$kernel" ] || kernel=/boot/vmlinuz-$kver
[ -r "$kernel" ] || die "cannot read kernel image $kernel"
[ -n "$moddir" ] || moddir=/lib/modules/$kver

boot_image=$kernel
if [ "$arch" != x86_64 ]; then
	:	# arm64: QEMU loads the Image (gzip'd or not) itself
elif [ "$(head -c 4 "$kernel" | od -An -c | tr -d ' ')" = '177ELF' ]; then
	:	# already an ELF vmlinux: QEMU boots it at its PVH entry
elif [ "$pvh" = 1 ]; then
	if vmlinux=$(pvh_vmlinux "$kernel"); then
		boot_image=$vmlinux
	else
		echo "run-guest: no PVH-bootable vmlinux in $kernel, booting it through the BIOS" >&2
	fi
fi

# --- work area and shared files ----------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/cxprm-qemu.XXXXXXXX")
shm_base=$(mktemp /dev/shm/cxprm-qemu.XXXXXXXX)
ram_file=$shm_base.ram
bar_file=$shm_base.bar
qemu_pid="" tail_pid="" emu_pid=""

# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	local rc=$?
	trap - EXIT INT TERM HUP
	if [ -n "$qemu_pid" ] && kill -0 "$qemu_pid" 2>/dev/null; then
		kill -TERM "$qemu_pid" 2>/dev/null || true
		wait "$qemu_pid" 2>/dev/null || true
	fi
	if [ -n "$tail_pid" ]; then
		kill "$tail_pid" 2>/dev/null || true
		wait "$tail_pid" 2>/dev/null || true
	fi
	if [ -n "$emu_pid" ] && kill -0 "$emu_pid" 2>/dev/null; then
		# Its own process group (setsid): stop it and its children.
		kill -TERM -- "-$emu_pid" 2>/dev/null || true
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$emu_pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL -- "-$emu_pid" 2>/dev/null || true
		wait "$emu_pid" 2>/dev/null || true
	fi
	rm -f "$shm_base" "$ram_file" "$bar_file"
	if [ "$keep" = 1 ]; then
		echo "run-guest: work directory kept: $work" >&2
	else
		rm -rf "$work"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# --- initramfs -------------------------------------------------------------
root=$work/root
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,run,cxprm,lib/modules/extra}
cp "$busybox" "$root/bin/busybox"
# The host's busybox-static lists the applets (same package and config as
# the guest's on any architecture: guest-busybox.sh).
for app in $(busybox --list); do
	[ -e "$root/bin/$app" ] || ln -s busybox "$root/bin/$app"
done
# The kernel opens /dev/console before init runs.
mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || true

# Extra modules: resolve names with their dependencies, in load order.
modorder=$root/cxprm/modules.list
: >"$modorder"
add_module_file() {
	local src=$1 name
	name=$(basename "$src")
	name=${name%.xz}; name=${name%.zst}; name=${name%.gz}
	grep -qx "$name" "$modorder" && return 0
	case "$src" in
	*.xz) xz -dc "$src" >"$root/lib/modules/extra/$name" ;;
	*.zst) zstd -qdc "$src" >"$root/lib/modules/extra/$name" ;;
	*.gz) gzip -dc "$src" >"$root/lib/modules/extra/$name" ;;
	*) cp "$src" "$root/lib/modules/extra/$name" ;;
	esac
	echo "$name" >>"$modorder"
}
resolve_module() {
	local want=$1 line path deps dep i
	if [ -f "$want" ]; then
		add_module_file "$want"
		return
	fi
	[ -f "$moddir/modules.dep" ] || die "no $moddir/modules.dep to look up module $want"
	want=${want//-/_}
	line=$(awk -F: -v w="$want" '{
		n = $1; sub(/.*\//, "", n); sub(/\.ko(\.[a-z]+)?$/, "", n); gsub(/-/, "_", n)
		if (n == w) { print; exit }
	}' "$moddir/modules.dep")
	if [ -z "$line" ]; then
		if tr '-' '_' <"$moddir/modules.builtin" 2>/dev/null | grep -q "/${want}\.ko\$"; then
			echo "run-guest: module $1 is built into the kernel" >&2
			return
		fi
		die "module $1 not found in $moddir"
	fi
	path=${line%%:*}
	read -r -a deps <<<"${line#*:}"
	# modules.dep lists dependencies so that the last one loads first.
	for ((i = ${#deps[@]} - 1; i >= 0; i--)); do
		dep=${deps[i]}
		add_module_file "$moddir/$dep"
	done
	add_module_file "$moddir/$path"
}
for m in "${extra_modules[@]+"${extra_modules[@]}"}"; do
	resolve_module "$m"
done

[ "$with_module" = 1 ] && cp "$ko" "$root/cxprm/cxprm.ko"

for spec in "${files[@]+"${files[@]}"}"; do
	src=${spec%%:*}
	dest=/cxprm/$(basename "$src")
	[ "$spec" = "$src" ] || dest=${spec#*:}
	[ -e "$src" ] || die "--file $src: no such file"
	mkdir -p "$root$(dirname "$dest")"
	cp -a "$src" "$root$dest"
done

if [ -n "$guest_script" ]; then
	cp "$guest_script" "$root/cxprm/cmd.sh"
else
	printf '%s\n' "${guest_cmd:-true}" >"$root/cxprm/cmd.sh"
fi

# Kernel reports (SPLAT_RE): the one list, in the guest library, which the
# guest's finish greps its dmesg for and the host the console log (kernel
# lines only, those with a printk timestamp).
# shellcheck source=tools/qemu/guest/lib.sh
. "$here/guest/lib.sh"
cp "$here/guest/lib.sh" "$root/cxprm/lib.sh"

cat >"$root/cxprm/config" <<EOF
CXPRM_LOAD=$load
CXPRM_BIND=$bind
CXPRM_MODPARAMS='$modparams'
CXPRM_MSIX=$msix
EOF

# The guest side of cxprm-emud's control page: the C client, static.
emuctl_dir=${CXPRM_QEMU_CACHE:-$repo/.cache/qemu}/emuctl
emuctl_cc=()
if [ "$arch" = arm64 ]; then
	emuctl_dir=$emuctl_dir-arm64
	emuctl_cc=(CC=aarch64-linux-gnu-gcc-12)
fi
make -s --no-print-directory -C "$repo/tools/emulator/emuctl" OUTPUT="$emuctl_dir" \
	"${emuctl_cc[@]+"${emuctl_cc[@]}"}" >&2 || die "emuctl (tools/emulator/emuctl) did not build for $arch"
cp "$emuctl_dir/emuctl" "$root/bin/emuctl"

# Guest helpers: bind/unbind cxprm (and mlx5_core, tools/qemu/guest/).
for g in cxprm-bind cxprm-unbind mlx5-bind mlx5-unbind; do
	cp "$here/guest/$g.sh" "$root/bin/$g"
done
[ -z "$cxswap_ko" ] || cp "$cxswap_ko" "$root/cxprm/cxswap.ko"

# The guest's init (boot, load, bind, run the command, report, power off).
cp "$here/guest/init.sh" "$root/init"
chmod +x "$root/init" "$root/bin/cxprm-bind" "$root/bin/cxprm-unbind" "$root/bin/mlx5-bind" \
	"$root/bin/mlx5-unbind" "$root/bin/emuctl" "$root/cxprm/cmd.sh"

initrd=$work/initramfs.cpio
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet --owner=0:0) >"$initrd"

# --- shared memory files ------------------------------------------------------
case "$bar_size" in
*[kK]) bar_bytes=$((${bar_size%?} * 1024)) ;;
*[mM]) bar_bytes=$((${bar_size%?} * 1024 * 1024)) ;;
*) bar_bytes=$bar_size ;;
esac
if [ $((bar_bytes & (bar_bytes - 1))) != 0 ] || [ "$bar_bytes" -lt 4096 ]; then
	die "--bar-size must be a power of two of at least 4K"
fi

# --- host program and boot ---------------------------------------------------
# One boot: fresh shared files, the host program started and ready, QEMU run
# to its end.  Sets qemu_rc, emu_died, start and end.
boot_once() {
	truncate -s "$ram_bytes" "$ram_file"
	truncate -s "$bar_bytes" "$bar_file"

	# The host program.
	emu_log=$work/emulator.log
	: >"$emu_log"
	if [ "$with_emulator" = 1 ]; then
		export CXPRM_READY_FILE=$work/emulator.ready
		export CXPRM_RAM_FILE=$ram_file CXPRM_BAR_FILE=$bar_file
		export CXPRM_RAM_SIZE=$ram_bytes CXPRM_BAR_SIZE=$bar_bytes
		# Where guest RAM sits in guest-physical space (guest-machine.sh).
		export "${ram_env[@]}"
		if [ "$msix" -gt 0 ]; then
			# In the run's own directory: parallel runs never share a socket.
			export CXPRM_IVSHMEM_SOCK=$work/ivshmem.sock CXPRM_IVSHMEM_VECTORS=$msix
			[ "${#CXPRM_IVSHMEM_SOCK}" -lt 108 ] ||
				die "ivshmem socket path $CXPRM_IVSHMEM_SOCK is too long: set a shorter TMPDIR"
			[ "$host_kind" != emud ] ||
				emulator="$emulator --ivshmem-server $CXPRM_IVSHMEM_SOCK --vectors $msix"
		fi
		# Own process group, so cleanup stops it and anything it starts.
		setsid bash -c "exec $emulator \"\$@\"" emulator "$ram_file" "$bar_file" \
			</dev/null >"$emu_log" 2>&1 &
		emu_pid=$!
		waited=0
		until [ -e "$CXPRM_READY_FILE" ]; do
			if ! kill -0 "$emu_pid" 2>/dev/null; then
				sed 's/^/[emulator] /' "$emu_log" >&2
				echo "run-guest: emulator exited before it was ready" >&2
				exit 126
			fi
			if [ "$waited" -ge $((ready_timeout * 10)) ]; then
				sed 's/^/[emulator] /' "$emu_log" >&2
				echo "run-guest: emulator not ready after ${ready_timeout}s" >&2
				exit 126
			fi
			sleep 0.1
			waited=$((waited + 1))
		done
	fi

	# The boot.
	loglevel=5
	[ "$verbose" = 1 ] && loglevel=8
	# iomem=relaxed: emuctl may map the BAR (sysfs resource2) while cxprm.ko
	# has requested it (CONFIG_IO_STRICT_DEVMEM would refuse).
	cmdline="console=$console_dev panic=-1 loglevel=$loglevel iomem=relaxed $append"
	# ivshmem-plain: the BAR is a file QEMU maps itself.  ivshmem-doorbell: the
	# BAR is the descriptor the ivshmem server (the host program) sends.
	if [ "$msix" -gt 0 ]; then
		[ -S "$CXPRM_IVSHMEM_SOCK" ] || die "the host program did not create the ivshmem socket $CXPRM_IVSHMEM_SOCK"
		ivshmem_args=(-chardev "socket,path=$CXPRM_IVSHMEM_SOCK,id=ivsh"
			-device "ivshmem-doorbell,chardev=ivsh,vectors=$msix")
	else
		# shellcheck disable=SC2054 # the commas are QEMU's
		ivshmem_args=(-object "memory-backend-file,id=bar,size=$bar_bytes,share=on,mem-path=$bar_file"
			-device ivshmem-plain,memdev=bar)
	fi
	log=$work/console.log
	: >"$log"
	start=$(date +%s.%N)
	timeout --kill-after=10 "$timeout_s" "$qemu_bin" \
		"${machine_args[@]}" -m "${mem}M" -smp "$smp" \
		-nographic -nodefaults -no-user-config -no-reboot -serial stdio \
		-object "memory-backend-file,id=mem,size=${mem}M,share=on,mem-path=$ram_file" \
		"${ivshmem_args[@]}" \
		-kernel "$boot_image" -initrd "$initrd" -append "$cmdline" \
		</dev/null >"$log" 2>&1 &
	qemu_pid=$!
	if [ "$quiet" = 0 ]; then
		tail -n +1 -s 0.1 -f --pid="$qemu_pid" "$log" &
		tail_pid=$!
	fi

	emu_died=0
	while kill -0 "$qemu_pid" 2>/dev/null; do
		if [ -n "$emu_pid" ] && ! kill -0 "$emu_pid" 2>/dev/null; then
			# An ivshmem server exits when QEMU disconnects: QEMU
			# ending within 2 s means it went first.
			for _ in 1 2 3 4 5 6 7 8 9 10; do
				kill -0 "$qemu_pid" 2>/dev/null || break 2
				sleep 0.2
			done
			emu_died=1
			kill -TERM "$qemu_pid" 2>/dev/null || true
			break
		fi
		sleep 0.2
	done
	qemu_rc=0
	wait "$qemu_pid" || qemu_rc=$?
	qemu_pid=""
	end=$(date +%s.%N)
	if [ -n "$tail_pid" ]; then
		wait "$tail_pid" 2>/dev/null || true
		tail_pid=""
	fi
}

# Whether the guest kernel panicked before /init printed its first line
# (no timeout, the host program alive): nothing of cxprm has run, so the
# stock kernel or QEMU failed (Documentation/qemu-harness.rst: a stale int3
# of a static-key patch under multi-threaded TCG, Linux 7.3).
died_before_init() {
	[ "$qemu_rc" != 124 ] && [ "$qemu_rc" != 137 ] && [ "$emu_died" = 0 ] || return 1
	tr -d '\r' <"$log" | grep -aqE '^CXPRM-EXIT [0-9]+$' && return 1
	tr -d '\r' <"$log" | grep -aq '^CXPRM-GUEST: init at' && return 1
	tr -d '\r' <"$log" | grep -aq 'Kernel panic'
}

# Stops the host program (its process group) and waits for its last words.
stop_emulator() {
	if [ -n "$emu_pid" ]; then
		kill -TERM -- "-$emu_pid" 2>/dev/null || true
		wait "$emu_pid" 2>/dev/null || true
		emu_pid=""
	fi
}

# Stops the host program of a boot that is over and clears what it left.
stop_host_program() {
	stop_emulator
	rm -f "${CXPRM_READY_FILE:-}" "${CXPRM_IVSHMEM_SOCK:-}"
	: >"$ram_file"
	: >"$bar_file"
}

boot_once
if died_before_init; then
	# Once: a second death is reported as any other failure.
	echo "run-guest: the guest kernel died while booting, before /init (nothing of cxprm ran); its console:" >&2
	tr -d '\r' <"$log" | grep -aE 'Kernel panic|RIP:|Oops|BUG:|int3' | head -n 8 | sed 's/^/  /' >&2
	cp "$log" "$work/console.boot1.log"
	echo "run-guest: booting once more" >&2
	stop_host_program
	boot_once
fi

[ -z "$console_log" ] || cp "$log" "$console_log"
if [ -s "$emu_log" ]; then
	# Let the host program print its last words before showing them.
	stop_emulator
	sed 's/^/[emulator] /' "$emu_log"
	[ -z "$emulator_log" ] || cp "$emu_log" "$emulator_log"
fi

marker=$(tr -d '\r' <"$log" | grep -aE '^CXPRM-EXIT [0-9]+$' | tail -n 1 || true)
elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
if [ -z "$marker" ]; then
	[ "$quiet" = 1 ] && tr -d '\r' <"$log"
	if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
		echo "run-guest: timed out after ${timeout_s}s" >&2
		exit 124
	fi
	if [ "$emu_died" = 1 ]; then
		echo "run-guest: the emulator exited while the guest ran" >&2
		exit 126
	fi
	echo "run-guest: guest ended without an exit marker (qemu status $qemu_rc)" >&2
	exit 125
fi
rc=${marker#CXPRM-EXIT }
splat=0
tr -d '\r' <"$log" | grep -aqx 'CXPRM-KERNEL-SPLAT' && splat=1
# The whole console too: what reached it before a guest script cleared
# dmesg (a report during probe) or what dmesg lost when its buffer wrapped.
# Kernel lines only (a printk timestamp before the header), so the output
# of the guest's own scripts does not count.
console_splats=$(tr -d '\r' <"$log" | grep -aE "\[ *[0-9]+\.[0-9]+\] .*($SPLAT_RE)" | head -n 20 || true)
if [ -n "$console_splats" ]; then
	splat=1
	echo "run-guest: kernel reports in the console log:" >&2
	printf '%s\n' "$console_splats" >&2
fi
taint_line=$(tr -d '\r' <"$log" | grep -a '^CXPRM-KERNEL-TAINTED ' | tail -n 1 || true)
[ -z "$taint_line" ] || echo "run-guest: guest kernel tainted: ${taint_line#CXPRM-KERNEL-TAINTED }" >&2
if [ "$quiet" = 1 ] && { [ "$rc" != 0 ] || [ "$splat" = 1 ]; }; then
	tr -d '\r' <"$log"
fi
echo "run-guest: guest exit status $rc, QEMU ran ${elapsed}s" >&2
if [ "$splat" = 1 ] && [ "$allow_splats" = 0 ] && [ "$rc" = 0 ]; then
	echo "run-guest: kernel WARNING/BUG/Oops/KASAN/lockdep report or taint in the guest" >&2
	exit 120
fi
exit "$rc"
