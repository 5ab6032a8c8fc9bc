/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QUERY_ADAPTER: vendor id, VSD and PSID of the adapter.
 */
#pragma once

#include "transport.h"

namespace cxprm::prm {

CXPRM_LAYOUT(query_adapter_in, 0x80, CXPRM_CMD_IN_HDR)

#define CXPRM_QUERY_ADAPTER_OUT(F) CXPRM_CMD_OUT_HDR(F) F(query_adapter_struct, 0x80, 0x800)
CXPRM_LAYOUT(query_adapter_out, 0x880, CXPRM_QUERY_ADAPTER_OUT)

/*
 * vsd: 208 bytes of vendor-specific data (ASCII); vsd_contd_psid: the
 * 16-byte PSID, a NUL-padded ASCII board id.
 */
#define CXPRM_QUERY_ADAPTER_PARAM_BLOCK(F)                                      \
	F(ieee_vendor_id, 0xc8, 0x18)                                           \
	F(vsd_vendor_id, 0xf0, 0x10)                                            \
	F(vsd, 0x100, 0x680)                                                    \
	F(vsd_contd_psid, 0x780, 0x80)
CXPRM_LAYOUT(query_adapter_param_block, 0x800, CXPRM_QUERY_ADAPTER_PARAM_BLOCK)

} // namespace cxprm::prm
