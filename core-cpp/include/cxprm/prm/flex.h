/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Flexible array tails.
 *
 * Several commands end in a flexible array (mlx5_ifc.h: "u8 pas[][0x40]",
 * "struct mlx5_ifc_cmd_pas_bits pas[]").  A layout's size is its fixed part,
 * as sizeof() of the mlx5_ifc struct is, so the array cannot be a field of
 * the layout: it is described as a Tail (tail.h), entries of ElemBits
 * bits starting right after the fixed part of L.  Here: the pas entry and
 * the helpers that fill and read a pas tail.
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "tail.h"

namespace cxprm::prm {

/*
 * cmd_pas: a physical address entry (mlx5_ifc.h cmd_pas: pa_h, then pa_l =
 * address bits 31:12; the low 12 bits are reserved).  Pages are 4 KiB
 * aligned, so the entry is the big-endian 64-bit address.
 */

template <class T> inline void set_pas(Ref<typename T::layout> r, u32 i, u64 addr)
{
	static_assert(T::elem_bits == cmd_pas::size_bits, "not a pas tail");
	store_be64(tail_entry<T>(r, i), addr & ~(u64)0xfff);
}

/*
 * Bytes [off, off + n) of a message whose pas tail T holds entry i =
 * addr(i) (off at or past the fixed part): the fill of a MsgSource that
 * writes a pas list straight into mailbox blocks.  Whole entries are one
 * big-endian store.
 */
template <class T, class Addr> inline void fill_pas_of(Addr addr, u32 off, u8 *dst, u32 n)
{
	static_assert(T::elem_bits == cmd_pas::size_bits, "not a pas tail");
	constexpr u32 E = T::elem_bytes;
	constexpr u64 MASK = ~(u64)0xfff;
	u32 pos = off - T::layout::size_bytes;
	u32 i = pos / E, k = pos % E;
	u8 e[E];

	if (k) { /* the range starts inside entry i */
		u32 take = min_of(E - k, n);
		store_be64(e, addr(i++) & MASK);
		mem_copy(dst, e + k, take);
		dst += take;
		n -= take;
	}
	for (; n >= E; n -= E, dst += E)
		store_be64(dst, addr(i++) & MASK);
	if (n) { /* and ends inside one */
		store_be64(e, addr(i) & MASK);
		mem_copy(dst, e, n);
	}
}

template <class T> inline u64 get_pas(CRef<typename T::layout> r, u32 i)
{
	static_assert(T::elem_bits == cmd_pas::size_bits, "not a pas tail");
	return load_be64(tail_entry<T>(r, i)) & ~(u64)0xfff;
}

} // namespace cxprm::prm
