// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The emulator's view of the BAR: 32-bit atomic accesses on big-endian
// dwords, and register-field access through the layout layer's field
// metadata (prm::dword_byte_offset / from_dword / to_dword), never through
// hand-written offsets.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cxprm/layout.h"

namespace cxprm::emu {

class Bar {
public:
	Bar(uint8_t *base, size_t size) : base_(base), size_(size) {}

	size_t size() const { return size_; }
	bool holds(uint64_t off, uint64_t len) const { return off <= size_ && len <= size_ - off; }

	// CPU-order value of the big-endian dword at byte offset off.
	uint32_t read32(uint32_t off) const
	{
		return __builtin_bswap32(__atomic_load_n(dw(off), __ATOMIC_ACQUIRE));
	}
	void write32(uint32_t off, uint32_t v)
	{
		__atomic_store_n(dw(off), __builtin_bswap32(v), __ATOMIC_RELEASE);
	}
	uint32_t exchange32(uint32_t off, uint32_t v)
	{
		return __builtin_bswap32(__atomic_exchange_n(dw(off), __builtin_bswap32(v), __ATOMIC_ACQ_REL));
	}
	// Atomically replaces the bits in 'mask' with those of 'bits' (CPU order).
	void update32(uint32_t off, uint32_t mask, uint32_t bits)
	{
		uint32_t *p = dw(off);
		uint32_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
		for (;;) {
			uint32_t nv = __builtin_bswap32((__builtin_bswap32(old) & ~mask) | (bits & mask));
			if (__atomic_compare_exchange_n(p, &old, nv, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
				return;
		}
	}

	// Field F of a layout placed at byte 'base' of the BAR.
	template <class F> uint32_t get(uint32_t base = 0) const
	{
		return prm::from_dword<F>(read32(base + prm::dword_byte_offset<F>()));
	}
	template <class F> void set(uint32_t v, uint32_t base = 0)
	{
		update32(base + prm::dword_byte_offset<F>(), prm::to_dword<F>(~0u), prm::to_dword<F>(v));
	}

	uint8_t *raw() { return base_; }

private:
	uint32_t *dw(uint32_t off) const { return reinterpret_cast<uint32_t *>(base_ + off); }

	uint8_t *base_;
	size_t size_;
};

} // namespace cxprm::emu
