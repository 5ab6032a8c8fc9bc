/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Checks for the C++ KUnit bodies (freestanding, compiled by the Kbuild
 * C++ rule into cxprm_kunit.ko).  Every failed check goes through the C
 * bridge (kunit/core/cxprm_kt_bridge.h) and becomes a KUnit
 * expectation failure at this file and line, counted against the case.
 *
 *   KT_EXPECT(t, cond)        KT_EXPECT_EQ(t, a, b)   KT_EXPECT_NE(t, a, b)
 *   KT_EXPECT_LE(t, a, b)     KT_ASSERT*(...)  = KT_EXPECT* + return on failure
 *
 * 't' is the struct kunit * the case got.  Both operands are compared and
 * printed as long long (a u64 above 2^63 compares equal correctly, not
 * ordered).
 */
#pragma once

#include "cxprm_kt_bridge.h"
#include "cxprm/types.h"

namespace cxprm::kt {

inline bool check(kunit *t, bool ok, const char *file, int line, const char *expr)
{
	if (!ok)
		cxprm_kt_fail(t, file, line, expr, 0, 0, 0);
	return ok;
}

enum class Op { EQ, NE, LE, LT, GE };

/* Operands arrive evaluated once (function arguments). */
inline bool check_cmp(kunit *t, Op op, long long a, long long b, const char *file, int line,
		      const char *expr)
{
	bool ok = op == Op::EQ ? a == b : op == Op::NE ? a != b : op == Op::LE ? a <= b
		: op == Op::LT ? a < b : a >= b;

	if (!ok)
		cxprm_kt_fail(t, file, line, expr, 1, a, b);
	return ok;
}

/* Placement new for objects built in memory the C side hands out. */
struct Placement {
	static void *operator new(usize, void *p) noexcept { return p; }
	static void operator delete(void *, void *) noexcept {}
};

/* Zeroed case-lifetime memory for an object of type T, constructed. */
template <class T> inline T *make(kunit *t)
{
	void *p = cxprm_kt_case_alloc(t, sizeof(T));
	return p ? new (p) T : nullptr;
}

/* Bytes 0..n-1 of a repeatable pattern, different per seed. */
inline void pattern(u8 *p, u32 n, u32 seed)
{
	for (u32 i = 0; i < n; i++)
		p[i] = (u8)(i * 7 + seed * 13 + 3);
}

/* The XOR of n bytes, written here, not taken from the core (types.h). */
inline u8 xor_bytes(const u8 *p, u32 n)
{
	u8 x = 0;

	for (u32 i = 0; i < n; i++)
		x = (u8)(x ^ p[i]);
	return x;
}

} // namespace cxprm::kt

#define KT_EXPECT(t, cond) ::cxprm::kt::check((t), !!(cond), __FILE__, __LINE__, #cond)
#define KT_CMP_(t, a, op, opname, b)                                                 \
	::cxprm::kt::check_cmp((t), ::cxprm::kt::Op::opname, (long long)(a), (long long)(b), \
			       __FILE__, __LINE__, #a " " #op " " #b)
#define KT_EXPECT_EQ(t, a, b) KT_CMP_(t, a, ==, EQ, b)
#define KT_EXPECT_NE(t, a, b) KT_CMP_(t, a, !=, NE, b)
#define KT_EXPECT_LE(t, a, b) KT_CMP_(t, a, <=, LE, b)
#define KT_EXPECT_LT(t, a, b) KT_CMP_(t, a, <, LT, b)
#define KT_EXPECT_GE(t, a, b) KT_CMP_(t, a, >=, GE, b)

#define KT_ASSERT(t, cond)                 \
	do {                               \
		if (!KT_EXPECT(t, cond))   \
			return;            \
	} while (0)
#define KT_ASSERT_EQ(t, a, b)              \
	do {                               \
		if (!KT_EXPECT_EQ(t, a, b)) \
			return;            \
	} while (0)
