/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Dynamically Connected Targets: dctc, CREATE/DESTROY/DRAIN/QUERY_DCT and
 * ARM_DCT_FOR_KEY_VIOLATION (arm_dct_in/out).  DRAIN_DCT completes with
 * event::DCT_DRAINED (eq.h dct_events), after which DESTROY_DCT is safe.
 */
#pragma once

#include "transport.h"

namespace cxprm::prm {

/* state: 0 ACTIVE, 1 DRAINING, 2 DRAINED (mlx5_ifc.h MLX5_DCTC_STATE_*). */
#define CXPRM_DCTC(F)                                                           \
	F(state, 0x4, 4)                                                        \
	F(user_index, 0x28, 0x18)                                               \
	F(cqn, 0x48, 0x18)                                                      \
	F(counter_set_id, 0x60, 8)                                              \
	F(atomic_mode, 0x68, 4)                                                 \
	F(rre, 0x6c, 1)                                                         \
	F(rwe, 0x6d, 1)                                                         \
	F(rae, 0x6e, 1)                                                         \
	F(atomic_like_write_en, 0x6f, 1)                                        \
	F(latency_sensitive, 0x70, 1)                                           \
	F(rlky, 0x71, 1)                                                        \
	F(free_ar, 0x72, 1)                                                     \
	F(cs_res, 0x88, 8)                                                      \
	F(min_rnr_nak, 0x93, 5)                                                 \
	F(srqn_xrqn, 0xa8, 0x18)                                                \
	F(pd, 0xc8, 0x18)                                                       \
	F(tclass, 0xe0, 8)                                                      \
	F(flow_label, 0xec, 0x14)                                               \
	F(dc_access_key, 0x100, 0x40)                                           \
	F(mtu, 0x145, 3)                                                        \
	F(port, 0x148, 8)                                                       \
	F(pkey_index, 0x150, 0x10)                                              \
	F(my_addr_index, 0x168, 8)                                              \
	F(hop_limit, 0x178, 8)                                                  \
	F(dc_access_key_violation_count, 0x180, 0x20)                           \
	F(dei_cfi, 0x1b4, 1)                                                    \
	F(eth_prio, 0x1b5, 3)                                                   \
	F(ecn, 0x1b8, 2)                                                        \
	F(dscp, 0x1ba, 6)                                                       \
	F(ece, 0x1e0, 0x20)
CXPRM_LAYOUT(dctc, 0x200, CXPRM_DCTC)

#define CXPRM_CREATE_DCT_IN(F) CXPRM_CMD_IN_UID_HDR(F) F(dct_context_entry, 0x80, 0x200)
CXPRM_LAYOUT(create_dct_in, 0x400, CXPRM_CREATE_DCT_IN)

#define CXPRM_CREATE_DCT_OUT(F) CXPRM_CMD_OUT_OBJ(F, dctn) F(ece, 0x60, 0x20)
CXPRM_LAYOUT(create_dct_out, 0x80, CXPRM_CREATE_DCT_OUT)

/* DESTROY_DCT and DRAIN_DCT: dctn only. */
#define CXPRM_DCTN_ONLY_IN(F) CXPRM_CMD_IN_UID_OBJ(F, dctn)
CXPRM_LAYOUT(destroy_dct_in, 0x80, CXPRM_DCTN_ONLY_IN)
CXPRM_LAYOUT(destroy_dct_out, 0x80, CXPRM_CMD_OUT_HDR)
CXPRM_LAYOUT(drain_dct_in, 0x80, CXPRM_DCTN_ONLY_IN)
CXPRM_LAYOUT(drain_dct_out, 0x80, CXPRM_CMD_OUT_HDR)

#define CXPRM_QUERY_DCT_IN(F) CXPRM_CMD_IN_OBJ(F, dctn)
CXPRM_LAYOUT(query_dct_in, 0x80, CXPRM_QUERY_DCT_IN)

#define CXPRM_QUERY_DCT_OUT(F) CXPRM_CMD_OUT_HDR(F) F(dct_context_entry, 0x80, 0x200)
CXPRM_LAYOUT(query_dct_out, 0x400, CXPRM_QUERY_DCT_OUT)

/* ARM_DCT_FOR_KEY_VIOLATION (mlx5_ifc.h names its layouts arm_dct_in/out). */
#define CXPRM_ARM_DCT_IN(F) CXPRM_CMD_IN_OBJ(F, dct_number)
CXPRM_LAYOUT(arm_dct_in, 0x80, CXPRM_ARM_DCT_IN)
CXPRM_LAYOUT(arm_dct_out, 0x80, CXPRM_CMD_OUT_HDR)

} // namespace cxprm::prm
