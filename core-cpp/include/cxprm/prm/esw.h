/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QUERY_ESW_FUNCTIONS: the host PF/VF situation an ECPF eswitch manager
 * re-reads on event::ESW_FUNCTIONS_CHANGED (that event has no payload of
 * its own in mlx5_ifc.h; the capability bit is e_switch_cap
 * esw_functions_changed).
 */
#pragma once

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

CXPRM_LAYOUT(query_esw_functions_in, 0x80, CXPRM_CMD_IN_HDR)

/*
 * host_pf_not_exist is in the 6.1 header used here (Debian 6.1.x) although
 * it arrived upstream later; host_sf_enable[] (64-bit bitmaps) follows.
 */
#define CXPRM_HOST_PARAMS_CONTEXT(F)                                            \
	F(host_number, 0x0, 8)                                                  \
	F(host_pf_not_exist, 0xd, 1)                                            \
	F(host_pf_disabled, 0xf, 1)                                             \
	F(host_num_of_vfs, 0x10, 0x10)                                          \
	F(host_total_vfs, 0x20, 0x10)                                           \
	F(host_pci_bus, 0x30, 0x10)                                             \
	F(host_pci_device, 0x50, 0x10)                                          \
	F(host_pci_function, 0x70, 0x10)
CXPRM_LAYOUT(host_params_context, 0x200, CXPRM_HOST_PARAMS_CONTEXT)

#define CXPRM_QUERY_ESW_FUNCTIONS_OUT(F) CXPRM_CMD_OUT_HDR(F) F(host_params_context, 0x80, 0x200)
CXPRM_LAYOUT(query_esw_functions_out, 0x400, CXPRM_QUERY_ESW_FUNCTIONS_OUT)

using query_esw_functions_out_host_sf_enable = Tail<query_esw_functions_out, 0x40>;

} // namespace cxprm::prm
