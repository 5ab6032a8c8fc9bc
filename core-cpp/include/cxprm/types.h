/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Fixed-width types and byte-order helpers for the cxprm core.
 *
 * The core builds hosted (userspace) and freestanding (kernel module) from
 * the same sources, so it includes no library header at all: every type
 * comes from the compiler's predefined macros and every helper is a builtin.
 */
#pragma once

namespace cxprm {

using u8 = __UINT8_TYPE__;
using u16 = __UINT16_TYPE__;
using u32 = __UINT32_TYPE__;
using u64 = __UINT64_TYPE__;
using s32 = __INT32_TYPE__;
using s64 = __INT64_TYPE__;
using usize = __SIZE_TYPE__;

inline constexpr u32 be32_to_cpu(u32 v) { return __builtin_bswap32(v); }
inline constexpr u32 cpu_to_be32(u32 v) { return __builtin_bswap32(v); }

/* Big-endian loads and stores on byte buffers (no alignment assumed). */
inline u32 load_be32(const void *p)
{
	u32 v;
	__builtin_memcpy(&v, p, 4);
	return __builtin_bswap32(v);
}

inline void store_be32(void *p, u32 v)
{
	v = __builtin_bswap32(v);
	__builtin_memcpy(p, &v, 4);
}

inline u64 load_be64(const void *p)
{
	return (u64)load_be32(p) << 32 | load_be32((const u8 *)p + 4);
}

inline void store_be64(void *p, u64 v)
{
	store_be32(p, (u32)(v >> 32));
	store_be32((u8 *)p + 4, (u32)v);
}

inline void mem_zero(void *p, usize n) { __builtin_memset(p, 0, n); }
inline void mem_copy(void *d, const void *s, usize n) { __builtin_memcpy(d, s, n); }

/*
 * XOR of n bytes, used by the command-interface signatures.  Eight bytes
 * at a time, folded at the end: XOR does not care about byte order, so the
 * result is the byte-wise XOR at an eighth of the loop iterations.
 */
inline u8 xor8(const void *p, usize n)
{
	const u8 *b = (const u8 *)p;
	u64 w = 0;
	usize i = 0;

	for (; i + 8 <= n; i += 8) {
		u64 v;
		__builtin_memcpy(&v, b + i, 8);
		w ^= v;
	}
	w ^= w >> 32;
	w ^= w >> 16;
	w ^= w >> 8;
	u8 x = (u8)w;
	for (; i < n; i++)
		x ^= b[i];
	return x;
}

template <class T> constexpr T min_of(T a, T b) { return a < b ? a : b; }
template <class T> constexpr T max_of(T a, T b) { return a > b ? a : b; }

/* The first row of table whose member Key equals k, or null. */
template <auto Key, class Row, usize N, class K> constexpr const Row *find_row(const Row (&table)[N], K k)
{
	for (const Row &r : table)
		if (r.*Key == k)
			return &r;
	return nullptr;
}

} // namespace cxprm
