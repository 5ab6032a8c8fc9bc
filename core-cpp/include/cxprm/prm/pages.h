/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QUERY_PAGES / MANAGE_PAGES: the firmware's demand for host memory.
 * op_mod values: query_pages_op and manage_pages_op in opcodes.h; the
 * function asked about: CXPRM_FUNCTION_ID (hca.h).  The page address
 * arrays follow the fixed parts (flex.h).
 */
#pragma once

#include "flex.h"
#include "hca.h"

namespace cxprm::prm {

CXPRM_LAYOUT(query_pages_in, 0x80, CXPRM_FUNCTION_IN)

/* num_pages is signed: negative = firmware has pages to return. */
#define CXPRM_QUERY_PAGES_OUT(F)                                                \
	CXPRM_CMD_OUT_HDR(F)                                                    \
	CXPRM_FUNCTION_ID(F)                                                    \
	F(num_pages, 0x60, 0x20)
CXPRM_LAYOUT(query_pages_out, 0x80, CXPRM_QUERY_PAGES_OUT)

#define CXPRM_MANAGE_PAGES_IN(F) CXPRM_FUNCTION_IN(F) F(input_num_entries, 0x60, 0x20)
CXPRM_LAYOUT(manage_pages_in, 0x80, CXPRM_MANAGE_PAGES_IN)

using manage_pages_in_pas = Tail<manage_pages_in, 0x40>;

#define CXPRM_MANAGE_PAGES_OUT(F) CXPRM_CMD_OUT_HDR(F) F(output_num_entries, 0x40, 0x20)
CXPRM_LAYOUT(manage_pages_out, 0x80, CXPRM_MANAGE_PAGES_OUT)

using manage_pages_out_pas = Tail<manage_pages_out, 0x40>;

} // namespace cxprm::prm
