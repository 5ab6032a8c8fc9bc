/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The layout the layout-layer tests exercise, shared by the hosted test
 * (core-cpp/tests/layout_test.cpp) and the KUnit suite
 * (core-cpp/ktests/layout_kt.cpp): a byte, a bit, 23 bits crossing byte
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

} // namespace cxprm::test
