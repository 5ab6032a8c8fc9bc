/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Queue pairs: ads (an address path), qpc, CREATE_QP, the transitions
 * RST2INIT/INIT2RTR/RTR2RTS/2RST and DESTROY_QP.  Every transition input
 * has the same shape (qpn, opt_param_mask, ece, qpc) but its own layout,
 * as in mlx5_ifc.h; 2RST carries no context.  Only the qpc fields cxprm
 * sets or reads are named (reserved and unused bits stay zero).
 */
#pragma once

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

/* rgid_rip: 16 bytes; for RoCE the destination GID. */
#define CXPRM_ADS(F)                                                            \
	F(fl, 0x0, 1)                                                           \
	F(free_ar, 0x1, 1)                                                      \
	F(pkey_index, 0x10, 0x10)                                               \
	F(grh, 0x28, 1)                                                         \
	F(mlid, 0x29, 7)                                                        \
	F(rlid, 0x30, 0x10)                                                     \
	F(ack_timeout, 0x40, 5)                                                 \
	F(src_addr_index, 0x48, 8)                                              \
	F(stat_rate, 0x54, 4)                                                   \
	F(hop_limit, 0x58, 8)                                                   \
	F(tclass, 0x64, 8)                                                      \
	F(flow_label, 0x6c, 0x14)                                               \
	F(rgid_rip, 0x80, 0x80)                                                 \
	F(dscp, 0x10a, 6)                                                       \
	F(udp_sport, 0x110, 0x10)                                               \
	F(eth_prio, 0x121, 3)                                                   \
	F(sl, 0x124, 4)                                                         \
	F(vhca_port_num, 0x128, 8)                                              \
	F(rmac_47_32, 0x130, 0x10)                                              \
	F(rmac_31_0, 0x140, 0x20)
CXPRM_LAYOUT(ads, 0x160, CXPRM_ADS)

/*
 * state: 0 RST, 1 INIT, 2 RTR, 3 RTS, 4 SQER, 5 SQD, 6 ERR (mlx5_ifc.h
 * MLX5_QPC_STATE_*).  st: 0 RC, 1 UC, 2 UD, 3 XRC, 5 DCI (QPC_ST_*;
 * 4 is MLX).  ts_format: 0 FREE_RUNNING, 1 DEFAULT, 2 REAL_TIME
 * (MLX5_TIMESTAMP_FORMAT_*).
 * pm_state: 3 MIGRATED.  rq_type: 0 regular, 1 SRQ, 2 XRC, 3 zero size.
 * mtu: 1 256 .. 5 4096.  log_rq_stride: log2(stride / 16 B).
 */
#define CXPRM_QPC(F)                                                            \
	F(state, 0x0, 4)                                                        \
	F(st, 0x8, 8)                                                           \
	F(pm_state, 0x13, 2)                                                    \
	F(pd, 0x28, 0x18)                                                       \
	F(mtu, 0x40, 3)                                                         \
	F(log_msg_max, 0x43, 5)                                                 \
	F(log_rq_size, 0x49, 4)                                                 \
	F(log_rq_stride, 0x4d, 3)                                               \
	F(no_sq, 0x50, 1)                                                       \
	F(log_sq_size, 0x51, 4)                                                 \
	F(ts_format, 0x58, 2)                                                   \
	F(rlky, 0x5b, 1)                                                        \
	F(counter_set_id, 0x60, 8)                                              \
	F(uar_page, 0x68, 0x18)                                                 \
	F(user_index, 0x88, 0x18)                                               \
	F(log_page_size, 0xa3, 5)                                               \
	F(remote_qpn, 0xa8, 0x18)                                               \
	F(primary_address_path, 0xc0, 0x160)                                    \
	F(log_ack_req_freq, 0x380, 4)                                           \
	F(log_sra_max, 0x388, 3)                                                \
	F(retry_count, 0x38d, 3)                                                \
	F(rnr_retry, 0x390, 3)                                                  \
	F(next_send_psn, 0x3c8, 0x18)                                           \
	F(cqn_snd, 0x3e8, 0x18)                                                 \
	F(log_rra_max, 0x488, 3)                                                \
	F(atomic_mode, 0x48c, 4)                                                \
	F(rre, 0x490, 1)                                                        \
	F(rwe, 0x491, 1)                                                        \
	F(rae, 0x492, 1)                                                        \
	F(page_offset, 0x494, 6)                                                \
	F(min_rnr_nak, 0x4a3, 5)                                                \
	F(next_rcv_psn, 0x4a8, 0x18)                                            \
	F(cqn_rcv, 0x4e8, 0x18)                                                 \
	F(dbr_addr, 0x500, 0x40)                                                \
	F(q_key, 0x540, 0x20)                                                   \
	F(rq_type, 0x565, 3)                                                    \
	F(srqn_rmpn_xrqn, 0x568, 0x18)
CXPRM_LAYOUT(qpc, 0x740, CXPRM_QPC)

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
 * What CREATE_QP and the transitions RST2INIT/INIT2RTR/RTR2RTS carry after
 * the QP number: the optional-parameter mask, ECE and the context.
 */
#define CXPRM_QP_ATTRS(F)                                                       \
	F(opt_param_mask, 0x80, 0x20)                                           \
	F(ece, 0xa0, 0x20)                                                      \
	F(qpc, 0xc0, 0x740)

#define CXPRM_CREATE_QP_IN(F)                                                   \
	CXPRM_CMD_IN_UID_OBJ(F, input_qpn)                                      \
	CXPRM_QP_ATTRS(F)                                                       \
	F(wq_umem_valid, 0x860, 1)
CXPRM_LAYOUT(create_qp_in, 0x880, CXPRM_CREATE_QP_IN)

using create_qp_in_pas = Tail<create_qp_in, 0x40>;

#define CXPRM_CREATE_QP_OUT(F) CXPRM_CMD_OUT_OBJ(F, qpn) F(ece, 0x60, 0x20)
CXPRM_LAYOUT(create_qp_out, 0x80, CXPRM_CREATE_QP_OUT)

/* 2RST_QP and DESTROY_QP: qpn only; the transitions below start the same way. */
#define CXPRM_QPN_ONLY_IN(F) CXPRM_CMD_IN_UID_OBJ(F, qpn)
CXPRM_LAYOUT(qp_2rst_in, 0x80, CXPRM_QPN_ONLY_IN)
CXPRM_LAYOUT(qp_2rst_out, 0x80, CXPRM_CMD_OUT_HDR)
CXPRM_LAYOUT(destroy_qp_in, 0x80, CXPRM_QPN_ONLY_IN)
CXPRM_LAYOUT(destroy_qp_out, 0x80, CXPRM_CMD_OUT_HDR)

/* RST2INIT, INIT2RTR and RTR2RTS: one shape, three layouts. */
#define CXPRM_QP_TRANSITION_IN(F)                                               \
	CXPRM_QPN_ONLY_IN(F)                                                    \
	CXPRM_QP_ATTRS(F)
#define CXPRM_QP_TRANSITION_OUT(F) CXPRM_CMD_OUT_HDR(F) F(ece, 0x60, 0x20)
CXPRM_LAYOUT(rst2init_qp_in, 0x880, CXPRM_QP_TRANSITION_IN)
CXPRM_LAYOUT(rst2init_qp_out, 0x80, CXPRM_QP_TRANSITION_OUT)
CXPRM_LAYOUT(init2rtr_qp_in, 0x880, CXPRM_QP_TRANSITION_IN)
CXPRM_LAYOUT(init2rtr_qp_out, 0x80, CXPRM_QP_TRANSITION_OUT)
CXPRM_LAYOUT(rtr2rts_qp_in, 0x880, CXPRM_QP_TRANSITION_IN)
CXPRM_LAYOUT(rtr2rts_qp_out, 0x80, CXPRM_QP_TRANSITION_OUT)

} // namespace cxprm::prm
