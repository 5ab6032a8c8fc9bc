// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Reserved-bit checks driven by the layout tables: every bit of a layout
// that no named field covers is reserved, and firmware wants it zero.  Only
// used on layouts whose field lists are complete (every non-reserved field
// of the mlx5_ifc.h struct is named), which holds for the *_in layouts,
// eqc and dctc the emulator checks; cmd_hca_cap is deliberately partial and
// is never checked this way.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "cxprm/layout.h"

namespace cxprm::emu {

// Byte mask of the named bits of L (bit numbering as mlx5_ifc.h: bit 0 is
// the MSB of byte 0).
template <class L> constexpr std::array<uint8_t, L::size_bytes> named_bits()
{
	std::array<uint8_t, L::size_bytes> m{};
	for (uint32_t i = 0; i < L::nfields; i++)
		for (uint32_t b = L::fields[i].offset; b < L::fields[i].offset + L::fields[i].width; b++)
			m[b / 8] |= (uint8_t)(0x80u >> (b % 8));
	return m;
}

// Whether no bit of p[0, n) is set where mask has none (mask at least n
// bytes).  Eight bytes a step: a QP command's input is 0x180 bytes or more.
inline bool only_masked_bits(const uint8_t *p, const uint8_t *mask, uint32_t n)
{
	uint32_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t v, m;
		std::memcpy(&v, p + i, 8);
		std::memcpy(&m, mask + i, 8);
		if (v & ~m)
			return false;
	}
	for (; i < n; i++)
		if (p[i] & (uint8_t)~mask[i])
			return false;
	return true;
}

// Whether the reserved bits of the first min(len, L::size_bytes) bytes of p are clear.
template <class L> bool reserved_clear(const uint8_t *p, uint32_t len = L::size_bytes)
{
	static constexpr std::array<uint8_t, L::size_bytes> named = named_bits<L>();
	return only_masked_bits(p, named.data(), len < L::size_bytes ? len : L::size_bytes);
}

// reserved_clear, but the command header's uid bits (0x10..0x1f, bytes 2-3)
// count as named whatever L calls them: firmware takes a uid in any
// command's header (fwctl/mlx5 sets it for every opcode; dispatch checks it).
template <class L> bool reserved_clear_any_uid(const uint8_t *p, uint32_t len = L::size_bytes)
{
	static constexpr std::array<uint8_t, L::size_bytes> named = [] {
		std::array<uint8_t, L::size_bytes> m = named_bits<L>();
		m[2] = m[3] = 0xff;
		return m;
	}();
	return only_masked_bits(p, named.data(), len < L::size_bytes ? len : L::size_bytes);
}

// Mask of the bits of F's dword that lie below F (CPU order).
template <class F> constexpr uint32_t low_bits_mask()
{
	constexpr uint32_t shift = 32 - F::offset % 32 - F::width;
	return shift == 0 ? 0 : (1u << shift) - 1;
}

// Reserved bits of the dword holding F below F (the low bits of a
// "pointer_31_9"-style field).
template <class F> uint32_t bits_below(const uint8_t *layout_base)
{
	return load_be32(layout_base + prm::dword_byte_offset<F>()) & low_bits_mask<F>();
}

} // namespace cxprm::emu
