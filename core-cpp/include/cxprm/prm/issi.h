/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QUERY_ISSI / SET_ISSI: the interface step sequence id.
 * supported_issi_dw0 bit n set = ISSI n is supported.
 */
#pragma once

#include "../layout.h"

namespace cxprm::prm {

#define CXPRM_QUERY_ISSI_IN(F)                                                  \
	F(opcode, 0x0, 0x10)                                                    \
	F(op_mod, 0x30, 0x10)
CXPRM_LAYOUT(query_issi_in, 0x80, CXPRM_QUERY_ISSI_IN)

#define CXPRM_QUERY_ISSI_OUT(F)                                                 \
	F(status, 0x0, 8)                                                       \
	F(syndrome, 0x20, 0x20)                                                 \
	F(current_issi, 0x50, 0x10)                                             \
	F(supported_issi_dw0, 0x360, 0x20)
CXPRM_LAYOUT(query_issi_out, 0x380, CXPRM_QUERY_ISSI_OUT)

#define CXPRM_SET_ISSI_IN(F)                                                    \
	F(opcode, 0x0, 0x10)                                                    \
	F(op_mod, 0x30, 0x10)                                                   \
	F(current_issi, 0x50, 0x10)
CXPRM_LAYOUT(set_issi_in, 0x80, CXPRM_SET_ISSI_IN)

#define CXPRM_SET_ISSI_OUT(F)                                                   \
	F(status, 0x0, 8)                                                       \
	F(syndrome, 0x20, 0x20)
CXPRM_LAYOUT(set_issi_out, 0x80, CXPRM_SET_ISSI_OUT)

} // namespace cxprm::prm
