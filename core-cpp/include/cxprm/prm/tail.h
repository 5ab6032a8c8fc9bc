/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Flexible array tails (flex.h says why): Tail<L, ElemBits>, entries of
 * ElemBits bits right after the fixed part of layout L.  Apart from flex.h
 * so that a generated layout header (tools/ifcgen/core_layouts.py) can
 * declare its tails without the cmd_pas layout flex.h also defines.
 */
#pragma once

#include "../layout.h"

namespace cxprm::prm {

template <class L, u32 ElemBits> struct Tail {
	using layout = L;
	static constexpr u32 offset = L::size_bits; /* bits */
	static constexpr u32 elem_bits = ElemBits;
	static constexpr u32 elem_bytes = ElemBits / 8;
	static_assert(ElemBits % 8 == 0, "tail entries must be whole bytes");

	/* Bytes of a message holding the fixed part and n entries. */
	static constexpr u32 bytes_for(u32 n) { return L::size_bytes + n * elem_bytes; }
	/* Entries that fit in a message of len bytes. */
	static constexpr u32 entries_in(u32 len)
	{
		return len < L::size_bytes ? 0 : (len - L::size_bytes) / elem_bytes;
	}
};

/* Entry i of tail T; the buffer must hold T::bytes_for(i + 1) bytes. */
template <class T> inline u8 *tail_entry(Ref<typename T::layout> r, u32 i)
{
	return r.p + T::layout::size_bytes + (usize)i * T::elem_bytes;
}

template <class T> inline const u8 *tail_entry(CRef<typename T::layout> r, u32 i)
{
	return r.p + T::layout::size_bytes + (usize)i * T::elem_bytes;
}

} // namespace cxprm::prm
