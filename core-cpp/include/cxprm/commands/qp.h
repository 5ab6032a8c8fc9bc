/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Queue pairs (prm/qp.h): CREATE_QP, RST2INIT/INIT2RTR/RTR2RTS, 2RST,
 * DESTROY_QP.  The QP's buffer (receive queue first, then the send queue
 * of 64-byte WQEBBs, as mlx5 lays it out) is one contiguous QueueMem.
 */
#pragma once

#include "common.h"
#include "../prm/qp.h"

namespace cxprm::cmd {

/* qpc.st (MLX5_QPC_ST_*: 4 is MLX, DCI is 5) */
enum : u8 { QP_ST_RC = 0, QP_ST_UC = 1, QP_ST_UD = 2, QP_ST_XRC = 3, QP_ST_DCI = 5 };
/* qpc.state */
enum : u8 { QP_STATE_RST = 0, QP_STATE_INIT = 1, QP_STATE_RTR = 2, QP_STATE_RTS = 3,
	    QP_STATE_ERR = 6 };
/* qpc.rq_type */
enum : u8 { QP_RQ_REGULAR = 0, QP_RQ_SRQ = 1, QP_RQ_ZERO = 3 };

struct QpParams {
	u8 st = QP_ST_RC;
	u32 pd = 0;
	u32 cqn_snd = 0, cqn_rcv = 0;
	u8 rq_type = QP_RQ_SRQ;
	u32 srqn = 0;           /* rq_type SRQ */
	u8 log_rq_size = 0;     /* rq_type REGULAR */
	u8 log_rq_stride = 0;
	u8 log_sq_size = 0;
	u32 uar_page = 0;
	u64 buf_bus = 0;        /* RQ then SQ, contiguous, 4 KiB aligned */
	u32 buf_pages = 0;
	u64 dbr_bus = 0;
	u16 uid = 0;
	/* qpc.ts_format: qp_default_ts() of the device's capabilities. */
	u8 ts_format = 0;
};

/*
 * The timestamp format a QP is created with, as Linux's
 * mlx5_get_qp_default_ts(): DEFAULT when the device supports real-time
 * timestamps at all (supported = its RoCE qp_ts_format with RoCE enabled,
 * else the general sq_ts_format), else FREE_RUNNING.  An adapter whose
 * real-time clock is enabled supports REAL_TIME only and refuses
 * FREE_RUNNING.
 */
u8 qp_default_ts(u8 supported_ts_cap);

/*
 * The context a transition sets (the fields mlx5_ib sets for RC over
 * RoCE): RST2INIT port, pkey and access; INIT2RTR path, MTU, remote QP and
 * receive PSN; RTR2RTS send PSN, retries and timeout.
 */
struct QpPath {
	u8 port = 1;              /* ads.vhca_port_num */
	/*
	 * INIT2RTR address path as mlx5_set_path: eth (RoCE) sends rmac,
	 * eth_prio = sl & 7 and, with a RoCE v2 source GID entry (roce_v2),
	 * dscp = tclass >> 2 and udp_sport; else (InfiniBand) rlid, sl and
	 * the grh bit.  The GRH fields (src_addr_index, hop_limit, tclass,
	 * flow_label, rgid) go with RoCE always, on IB only with grh.
	 */
	bool eth = true;
	bool roce_v2 = false;
	bool grh = false;         /* IB only */
	u16 rlid = 0;             /* IB only */
	u8 sl = 0;
	u8 tclass = 0;
	u32 flow_label = 0;       /* 0: rdma_calc_flow_label(qpn, remote_qpn) for udp_sport */
	u16 pkey_index = 0;
	bool rre = false, rwe = false, rae = false;
	u8 mtu = 5;               /* 4096 */
	u8 log_msg_max = 30;      /* INIT2RTR: the device's log_max_msg (mlx5_ib) */
	u32 remote_qpn = 0;
	u32 next_rcv_psn = 0;
	u8 log_rra_max = 0;
	u8 min_rnr_nak = 0;
	u8 src_addr_index = 0;
	u8 hop_limit = 64;
	u8 rgid[16] = {};
	u8 rmac[6] = {};
	u32 next_send_psn = 0;
	u8 retry_count = 7, rnr_retry = 7, ack_timeout = 14;
	u8 log_sra_max = 0;
};

/*
 * The RoCE v2 UDP source port of a QP (ib_verbs.h rdma_flow_label_to_udp_sport
 * of the flow label, or of rdma_calc_flow_label(lqpn, rqpn) when it is 0).
 */
u16 roce_udp_sport(u32 flow_label, u32 lqpn, u32 rqpn);

/* Whether every member of p fits its field (else the transitions are E_RANGE). */
bool qp_path_fits(const QpPath &p);

/* Bytes a QP's buffer needs for p's queues. */
u64 qp_buffer_bytes(const QpParams &p);

int create_qp(Cmdq &q, const QpParams &p, u32 *qpn, CmdResult *res = nullptr);
/*
 * CREATE_QP's input as create_qp() sends it: the fixed part at head
 * (CREATE_QP_IN_HEAD bytes), *src its message, whose fill writes the pas
 * list of p's buffer (src reads p: p outlives it).  The checks and errors
 * are create_qp's.  decode_create_qp: the new QP's number from the output
 * (CREATE_QP_OUT bytes).
 */
inline constexpr u32 CREATE_QP_IN_HEAD = prm::create_qp_in::size_bytes;
inline constexpr u32 CREATE_QP_OUT = prm::create_qp_out::size_bytes > prm::INLINE_BYTES
					     ? prm::create_qp_out::size_bytes
					     : prm::INLINE_BYTES;
int encode_create_qp(u8 *head, const QpParams &p, u32 max_msg_bytes, MsgSource *src);
int decode_create_qp(const void *out, u32 *qpn);
/*
 * A transition's input (opcode RST2INIT/INIT2RTR/RTR2RTS_QP or QP_2RST) at
 * in (QP_TRANSITION_IN_MAX bytes), *inlen its length; its output is
 * QP_TRANSITION_OUT bytes.  E_RANGE when qpn or p does not fit, E_INVAL
 * for another opcode.  qp_transition() runs it; the four below name it.
 */
inline constexpr u32 QP_TRANSITION_IN_MAX =
	max_of<u32>(max_of<u32>(prm::rst2init_qp_in::size_bytes, prm::init2rtr_qp_in::size_bytes),
		    max_of<u32>(prm::rtr2rts_qp_in::size_bytes, prm::qp_2rst_in::size_bytes));
inline constexpr u32 QP_TRANSITION_OUT = prm::INLINE_BYTES;
int encode_qp_transition(u8 *in, u16 opcode, u32 qpn, const QpPath &p, u16 uid, u32 *inlen);
int qp_transition(Cmdq &q, u16 opcode, u32 qpn, const QpPath &p, u16 uid = 0, CmdResult *res = nullptr);
int qp_rst2init(Cmdq &q, u32 qpn, const QpPath &p, u16 uid = 0, CmdResult *res = nullptr);
int qp_init2rtr(Cmdq &q, u32 qpn, const QpPath &p, u16 uid = 0, CmdResult *res = nullptr);
int qp_rtr2rts(Cmdq &q, u32 qpn, const QpPath &p, u16 uid = 0, CmdResult *res = nullptr);
int qp_2rst(Cmdq &q, u32 qpn, u16 uid = 0, CmdResult *res = nullptr);
int destroy_qp(Cmdq &q, u32 qpn, u16 uid = 0, CmdResult *res = nullptr);

} // namespace cxprm::cmd
