/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QUERY_ISSI / SET_ISSI: the interface step sequence id.
 * supported_issi_dw0 bit n set = ISSI n is supported.
 */
#pragma once

#include "transport.h"

namespace cxprm::prm {

CXPRM_LAYOUT(query_issi_in, 0x80, CXPRM_CMD_IN_HDR)

#define CXPRM_QUERY_ISSI_OUT(F)                                                 \
	CXPRM_CMD_OUT_HDR(F)                                                    \
	F(current_issi, 0x50, 0x10)                                             \
	F(supported_issi_dw0, 0x360, 0x20)
CXPRM_LAYOUT(query_issi_out, 0x380, CXPRM_QUERY_ISSI_OUT)

#define CXPRM_SET_ISSI_IN(F) CXPRM_CMD_IN_HDR(F) F(current_issi, 0x50, 0x10)
CXPRM_LAYOUT(set_issi_in, 0x80, CXPRM_SET_ISSI_IN)
CXPRM_LAYOUT(set_issi_out, 0x80, CXPRM_CMD_OUT_HDR)

} // namespace cxprm::prm
