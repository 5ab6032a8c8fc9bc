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

#include <cxprm/prm/layouts_gen.h>

#include "flex.h"
#include "transport.h"
#include "srq.h"

namespace cxprm::prm {

/* state: RMP_STATE_RDY / _ERR (rmpc.state). */
inline constexpr u8 RMP_STATE_RDY = 1;
inline constexpr u8 RMP_STATE_ERR = 3;

/*
 * create_rmp_in: ctx.wq.pas[]: the 64-bit page addresses after the fixed
 * part.
 */

} // namespace cxprm::prm
