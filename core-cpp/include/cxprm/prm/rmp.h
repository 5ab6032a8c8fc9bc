/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Receive memory pools: rmpc and CREATE/DESTROY/QUERY_RMP.  At ISSI 1 an
 * SRQ is an RMP: Linux's mlx5_ib sends CREATE_RMP, never CREATE_SRQ, once
 * the function runs ISSI 1 (ib/srq_cmd.c create_srq_split), and a qpc or
 * dctc names the rmpn where it would name an srqn.  The queue is
 * described by the wq inside rmpc (srq.h wq: wq_type linked list, stride
 * log2 bytes); its pas[] is the command's tail.
 */
#pragma once

#include "flex.h"
#include "transport.h"
#include "srq.h"

namespace cxprm::prm {

/* state: RMP_STATE_RDY / _ERR (rmpc.state). */
inline constexpr u8 RMP_STATE_RDY = 1;
inline constexpr u8 RMP_STATE_ERR = 3;

#define CXPRM_RMPC(F)                                                           \
	F(state, 0x8, 4)                                                        \
	F(basic_cyclic_rcv_wqe, 0x20, 1)                                        \
	F(wq, 0x180, 0x600)
CXPRM_LAYOUT(rmpc, 0x780, CXPRM_RMPC)

#define CXPRM_CREATE_RMP_IN(F) CXPRM_CMD_IN_UID_HDR(F) F(ctx, 0x100, 0x780)
CXPRM_LAYOUT(create_rmp_in, 0x880, CXPRM_CREATE_RMP_IN)

/* ctx.wq.pas[]: the 64-bit page addresses after the fixed part. */
using create_rmp_in_pas = Tail<create_rmp_in, 0x40>;

#define CXPRM_CREATE_RMP_OUT(F) CXPRM_CMD_OUT_OBJ(F, rmpn)
CXPRM_LAYOUT(create_rmp_out, 0x80, CXPRM_CREATE_RMP_OUT)

#define CXPRM_DESTROY_RMP_IN(F) CXPRM_CMD_IN_UID_OBJ(F, rmpn)
CXPRM_LAYOUT(destroy_rmp_in, 0x80, CXPRM_DESTROY_RMP_IN)
CXPRM_LAYOUT(destroy_rmp_out, 0x80, CXPRM_CMD_OUT_HDR)

#define CXPRM_QUERY_RMP_IN(F) CXPRM_CMD_IN_OBJ(F, rmpn)
CXPRM_LAYOUT(query_rmp_in, 0x80, CXPRM_QUERY_RMP_IN)

#define CXPRM_QUERY_RMP_OUT(F) CXPRM_CMD_OUT_HDR(F) F(rmp_context, 0x100, 0x780)
CXPRM_LAYOUT(query_rmp_out, 0x880, CXPRM_QUERY_RMP_OUT)

} // namespace cxprm::prm
