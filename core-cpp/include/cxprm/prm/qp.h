/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Queue pairs: ads (an address path), qpc, CREATE_QP, the transitions
 * RST2INIT/INIT2RTR/RTR2RTS/2RST and DESTROY_QP.  Every transition input
 * has the same shape (qpn, opt_param_mask, ece, qpc) but its own layout,
 * as in mlx5_ifc.h; 2RST carries no context.  Only the qpc fields cxprm
 * sets or reads are named (reserved and unused bits stay zero).
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

/* ads: rgid_rip: 16 bytes; for RoCE the destination GID. */

/*
 * qpc: state: 0 RST, 1 INIT, 2 RTR, 3 RTS, 4 SQER, 5 SQD, 6 ERR (mlx5_ifc.h
 * MLX5_QPC_STATE_*).  st: 0 RC, 1 UC, 2 UD, 3 XRC, 5 DCI (QPC_ST_*;
 * 4 is MLX).  ts_format: 0 FREE_RUNNING, 1 DEFAULT, 2 REAL_TIME
 * (MLX5_TIMESTAMP_FORMAT_*).
 * pm_state: 3 MIGRATED.  rq_type: 0 regular, 1 SRQ, 2 XRC, 3 zero size.
 * mtu: 1 256 .. 5 4096.  log_rq_stride: log2(stride / 16 B).
 */

/* qpc.ts_format (MLX5_TIMESTAMP_FORMAT_*). */
namespace ts_format {
enum : u8 { FREE_RUNNING = 0, DEFAULT = 1, REAL_TIME = 2 };
}
/*
 * What a device's sq_ts_format / rq_ts_format (cmd_hca_cap) and RoCE
 * qp_ts_format capabilities say it supports (MLX5_TIMESTAMP_FORMAT_CAP_*):
 * REAL_TIME alone on an adapter whose real-time clock is enabled
 * (REAL_TIME_CLOCK_ENABLE), which then refuses FREE_RUNNING.
 */
namespace ts_format_cap {
enum : u8 { FREE_RUNNING = 0, REAL_TIME = 1, FREE_RUNNING_AND_REAL_TIME = 2 };
}

/*
 * CREATE_QP and the transitions RST2INIT/INIT2RTR/RTR2RTS carry after the
 * QP number the optional-parameter mask, ECE and the context
 * (rst2init_qp_in, init2rtr_qp_in, rtr2rts_qp_in: one shape, three
 * layouts); 2RST_QP and DESTROY_QP (qp_2rst_in, destroy_qp_in) the qpn only.
 */

} // namespace cxprm::prm
