// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Guest-physical address -> offset in QEMU's guest-RAM file (one
// memory-backend-file holding all RAM), see
// Documentation/qemu-harness.rst "Guest-physical addresses and the RAM
// file".  x86 q35, QEMU 7.2 hw/i386/pc_q35.c:
//
//   lowmem   = ram_size >= 0xb0000000 ? 0x80000000 : 0xb0000000
//   below_4g = min(ram_size, lowmem)
//   gpa <  below_4g  -> offset gpa
//   gpa >= 4 GiB     -> offset below_4g + (gpa - 4 GiB)   (RAM above 4 GiB)
//   anything else (the PCI hole, beyond the RAM): not RAM
//
// arm64 virt (hw/arm/virt.c, VIRT_MEM): all RAM in one piece from the RAM
// base, 0x40000000 (1 GiB), with no hole:
//
//   base <= gpa < base + ram_size -> offset gpa - base
//
// Without a virtual IOMMU the DMA bus address is the guest-physical one.
// Header-only, shared by the daemon and its tests.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cxprm::emud {

class GuestRam {
public:
	static constexpr uint64_t FOUR_G = 1ull << 32;

	// q35's split for a guest of ram_size bytes.
	static uint64_t q35_below_4g(uint64_t ram_size)
	{
		uint64_t lowmem = ram_size >= 0xb0000000ull ? 0x80000000ull : 0xb0000000ull;
		return ram_size < lowmem ? ram_size : lowmem;
	}

	// QEMU's arm64 virt machine puts RAM here (VIRT_MEM).
	static constexpr uint64_t VIRT_RAM_BASE = 0x40000000ull;

	GuestRam() = default;
	// q35: below_4g is clamped to ram_size and to 4 GiB.
	GuestRam(uint64_t ram_size, uint64_t below_4g) : size_(ram_size)
	{
		if (below_4g > ram_size)
			below_4g = ram_size;
		if (below_4g > FOUR_G)
			below_4g = FOUR_G;
		below_ = below_4g;
	}

	// All RAM contiguous from base (arm64 virt: VIRT_RAM_BASE).  base is
	// at most 4 GiB here, so a RAM that crosses 4 GiB stays one region.
	static GuestRam contiguous(uint64_t ram_size, uint64_t base)
	{
		GuestRam r;
		r.size_ = ram_size;
		r.below_ = ram_size;
		r.base_ = base;
		return r;
	}

	uint64_t size() const { return size_; }
	// The guest-physical address of the file's first byte.
	uint64_t base() const { return base_; }
	// Bytes of the first region ([base, base + low_size())).
	uint64_t low_size() const { return below_; }
	// Bytes mapped at 4 GiB after the q35 hole (0 for a contiguous RAM).
	uint64_t above_4g() const { return size_ - below_; }

	// File offset of [gpa, gpa + len) when the whole range is RAM of one
	// region (a range may not straddle the hole); len 0 is refused.
	bool to_offset(uint64_t gpa, uint64_t len, uint64_t *off) const
	{
		if (len == 0)
			return false;
		if (gpa >= base_ && gpa - base_ < below_) {
			if (len > below_ - (gpa - base_))
				return false;
			*off = gpa - base_;
			return true;
		}
		if (gpa >= FOUR_G && above_4g()) {
			uint64_t hi = gpa - FOUR_G;
			if (hi >= above_4g() || len > above_4g() - hi)
				return false;
			*off = below_ + hi;
			return true;
		}
		return false;
	}

	// The guest-physical address of file offset off (the inverse).
	uint64_t to_gpa(uint64_t off) const { return off < below_ ? base_ + off : FOUR_G + (off - below_); }

private:
	uint64_t size_ = 0;
	uint64_t below_ = 0;
	uint64_t base_ = 0;
};

} // namespace cxprm::emud
