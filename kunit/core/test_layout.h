/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The layout the layout-layer tests exercise, shared by the hosted test
 * (core-cpp/tests/layout_test.cpp) and the KUnit suite
 * (kunit/core/layout_kt.cpp): a byte, a bit, 23 bits crossing byte
 * boundaries, a dword, a quad and a 16-byte region.
 */
#pragma once

#include "cxprm/layout.h"

namespace cxprm::test {

#define CXPRM_TEST_LAYOUT(F)                                                   \
	F(top_byte, 0x00, 8)                                                   \
	F(one_bit, 0x08, 1)                                                    \
	F(low_23, 0x09, 23)                                                    \
	F(whole_dword, 0x20, 32)                                               \
	F(quad, 0x40, 64)                                                      \
	F(blob, 0x80, 0x80)
CXPRM_LAYOUT(test_layout, 0x100, CXPRM_TEST_LAYOUT)

/*
 * The placement case of both suites: these values set into a zeroed
 * test_layout give the first 16 bytes placed_bytes (0x123456 in 23 bits
 * from bit 9 shares byte 1 with one_bit).
 */
inline constexpr u8 placed_bytes[16] = {0xab, 0x92, 0x34, 0x56, 0xde, 0xad, 0xbe, 0xef,
					1,    2,    3,    4,    5,    6,    7,    8};

inline void place_values(prm::Ref<test_layout> r)
{
	prm::set<test_layout::top_byte>(r, 0xab);
	prm::set<test_layout::one_bit>(r, 1);
	prm::set<test_layout::low_23>(r, 0x123456);
	prm::set<test_layout::whole_dword>(r, 0xdeadbeef);
	prm::set<test_layout::quad>(r, 0x0102030405060708ull);
}

} // namespace cxprm::test
