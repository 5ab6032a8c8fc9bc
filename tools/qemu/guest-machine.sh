# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by run-guest.sh: the QEMU machine of each guest architecture.
#
#   machine_setup ARCH RAM_BYTES   sets
#     qemu_bin        the QEMU program
#     machine_args    -accel/-machine/-cpu (an array; the RAM backend is
#                     the caller's memory-backend-file id "mem")
#     console_dev     the kernel's console device
#     ram_env         the emulator's view of guest RAM (an array of
#                     VAR=VALUE for cxprm-emud: CXPRM_RAM_BELOW_4G on q35,
#                     CXPRM_RAM_BASE on virt)
#   pvh_vmlinux IMAGE              x86: the uncompressed vmlinux of a bzImage
#                                  with a PVH entry, extracted once (cached)
#
# x86_64: q35, which puts RAM below 4 GiB up to 2.75 GiB; above that the
# first 2 GiB stay low and the rest starts at 4 GiB (hw/i386/pc_q35.c).
# arm64: virt with GICv3 (its ITS takes the ivshmem-doorbell's MSI-X) and
# -cpu max, the one TCG CPU with every page granule (cortex-a57/a72 have
# no 16 KiB granule; Debian's -arm64-16k kernel needs one); pointer
# authentication with QEMU's cheap implementation-defined algorithm
# (pauth-impdef) so a kernel built with PAC does not pay the
# architected QARMA under TCG.  RAM is one piece at 1 GiB (hw/arm/virt.c
# VIRT_MEM), which the emulator must add to every DMA address it maps.

# shellcheck disable=SC2034,SC2054 # set for the caller; the commas are QEMU's
machine_setup() {
	local arch=$1 ram_bytes=$2 lowmem below_4g
	case "$arch" in
	x86_64)
		qemu_bin=qemu-system-x86_64
		machine_args=(-accel tcg -machine q35,memory-backend=mem)
		console_dev=ttyS0
		if [ "$ram_bytes" -ge $((0xb0000000)) ]; then lowmem=$((0x80000000)); else lowmem=$((0xb0000000)); fi
		below_4g=$((ram_bytes < lowmem ? ram_bytes : lowmem))
		ram_env=("CXPRM_RAM_BELOW_4G=$below_4g")
		;;
	arm64)
		qemu_bin=qemu-system-aarch64
		machine_args=(-accel tcg -machine virt,gic-version=3,memory-backend=mem -cpu max,pauth-impdef=on)
		console_dev=ttyAMA0
		ram_env=("CXPRM_RAM_BASE=$((0x40000000))")
		;;
	*)
		echo "run-guest: unknown --arch $arch (x86_64, arm64)" >&2
		return 1
		;;
	esac
}

# A bzImage spends seconds decompressing itself under TCG.  QEMU can start
# the uncompressed vmlinux directly at its PVH entry (CONFIG_PVH, an ELF
# note of type 0x12), so extract it once (like scripts/extract-vmlinux).
pvh_vmlinux() {
	local img=$1 cache key out magic off tmp
	cache=${CXPRM_QEMU_CACHE:-$repo/.cache/qemu}
	key=$(stat -L -c '%s-%Y' "$img")
	out=$cache/vmlinux-$(basename "$img")-$key
	if [ -s "$out" ]; then
		echo "$out"
		return 0
	fi
	mkdir -p "$cache" || return 1
	tmp=$(mktemp "$cache/.vmlinux.XXXXXXXX") || return 1
	for magic in '\xfd7zXZ\x00:xz -dc' '\x28\xb5\x2f\xfd:zstd -qdc' '\x1f\x8b\x08:gzip -dc'; do
		for off in $(LC_ALL=C grep -obUaP "${magic%%:*}" "$img" 2>/dev/null | head -n 4 | cut -d: -f1); do
			tail -c +$((off + 1)) "$img" | ${magic#*:} >"$tmp" 2>/dev/null || true
			if [ "$(head -c 4 "$tmp" | od -An -c | tr -d ' ')" = '177ELF' ] &&
				readelf -n "$tmp" 2>/dev/null | grep -q 'Unknown note type: (0x00000012)'; then
				mv "$tmp" "$out"
				echo "$out"
				return 0
			fi
		done
	done
	rm -f "$tmp"
	return 1
}
