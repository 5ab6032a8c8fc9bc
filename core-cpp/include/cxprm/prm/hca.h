/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ENABLE_HCA, DISABLE_HCA, INIT_HCA, TEARDOWN_HCA.
 * teardown_hca_in.profile / teardown_hca_out.state values: teardown_profile
 * and teardown_state in opcodes.h.
 */
#pragma once

#include "transport.h"

namespace cxprm::prm {

/*
 * The function a command addresses (ENABLE/DISABLE_HCA, QUERY/MANAGE_PAGES):
 * function_id, of the embedded CPU's functions when embedded_cpu_function
 * is set.  CXPRM_FUNCTION_IN: an input that is the header and these.
 */
#define CXPRM_FUNCTION_ID(F) F(embedded_cpu_function, 0x40, 1) F(function_id, 0x50, 0x10)
#define CXPRM_FUNCTION_IN(F) CXPRM_CMD_IN_HDR(F) CXPRM_FUNCTION_ID(F)
CXPRM_LAYOUT(enable_hca_in, 0x80, CXPRM_FUNCTION_IN)
CXPRM_LAYOUT(enable_hca_out, 0x60, CXPRM_CMD_OUT_HDR)
CXPRM_LAYOUT(disable_hca_in, 0x80, CXPRM_FUNCTION_IN)
CXPRM_LAYOUT(disable_hca_out, 0x60, CXPRM_CMD_OUT_HDR)

/* sw_owner_id: 128 bits, written only when cmd_hca_cap.sw_owner_id is set. */
#define CXPRM_INIT_HCA_IN(F)                                                    \
	CXPRM_CMD_IN_HDR(F)                                                     \
	F(sw_vhca_id, 0x62, 0xe)                                                \
	F(sw_owner_id, 0x80, 0x80)
CXPRM_LAYOUT(init_hca_in, 0x100, CXPRM_INIT_HCA_IN)
CXPRM_LAYOUT(init_hca_out, 0x80, CXPRM_CMD_OUT_HDR)

#define CXPRM_TEARDOWN_HCA_IN(F) CXPRM_CMD_IN_HDR(F) F(profile, 0x50, 0x10)
CXPRM_LAYOUT(teardown_hca_in, 0x80, CXPRM_TEARDOWN_HCA_IN)

#define CXPRM_TEARDOWN_HCA_OUT(F) CXPRM_CMD_OUT_HDR(F) F(state, 0x7f, 1)
CXPRM_LAYOUT(teardown_hca_out, 0x80, CXPRM_TEARDOWN_HCA_OUT)

/* NOP and SET_DRIVER_VERSION (driver_version: a NUL-padded string). */
CXPRM_LAYOUT(nop_in, 0x80, CXPRM_CMD_IN_HDR)
CXPRM_LAYOUT(nop_out, 0x80, CXPRM_CMD_OUT_HDR)

#define CXPRM_SET_DRIVER_VERSION_IN(F) CXPRM_CMD_IN_HDR(F) F(driver_version, 0x80, 0x200)
CXPRM_LAYOUT(set_driver_version_in, 0x280, CXPRM_SET_DRIVER_VERSION_IN)
CXPRM_LAYOUT(set_driver_version_out, 0x80, CXPRM_CMD_OUT_HDR)


} // namespace cxprm::prm
