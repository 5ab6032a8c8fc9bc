// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CREATE/DESTROY/QUERY_RMP: an SRQ at ISSI 1 (prm/rmp.h).  The fields are
 * the ones Linux's mlx5_ib fills (ib/srq_cmd.c create_rmp_cmd, set_wq):
 * rmpc.state RDY, and in the wq log_wq_stride = log2 of the stride in
 * bytes (the srqc's 16-byte-unit log + 4), log_wq_sz, lwm, pd, dbr_addr,
 * log_wq_pg_sz 0 (4 KiB pages); wq_type stays 0 (linked list).
 */
#include "cmd_queue.h"

#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/rmp.h"

namespace cxprm::cmd {

using namespace prm;

namespace {
constexpr u32 SRQC_STRIDE_TO_WQ = 4; /* srqc log_rq_stride counts 16-byte units */
}

int create_rmp(Cmdq &q, const SrqParams &p, u32 *rmpn, CmdResult *res)
{
	if (!rmpn)
		return E_INVAL;
	if (!fits<wq::log_wq_sz>(p.log_srq_size) ||
	    !fits<wq::log_wq_stride>(p.log_rq_stride + SRQC_STRIDE_TO_WQ) || !fits<wq::pd>(p.pd))
		return E_RANGE;
	/* An RMP belongs to no CQ (rmpc has no cqn). */
	if (p.cqn)
		return E_INVAL;
	return create_queue<create_rmp_in, create_rmp_in_pas, create_rmp_out, create_rmp_out::rmpn>(
		q, op::CREATE_RMP, p, queue_bytes(p.log_srq_size, 16u << p.log_rq_stride),
		[&p](Ref<create_rmp_in> r) {
			auto c = sub<create_rmp_in::ctx, rmpc>(r);
			set<rmpc::state>(c, RMP_STATE_RDY);
			auto w = sub<rmpc::wq, wq>(c);
			set<wq::log_wq_stride>(w, p.log_rq_stride + SRQC_STRIDE_TO_WQ);
			set<wq::log_wq_sz>(w, p.log_srq_size);
			set<wq::lwm>(w, p.lwm);
			set<wq::pd>(w, p.pd);
			set<wq::dbr_addr>(w, p.dbr_bus);
		},
		rmpn, res);
}

/* QUERY_RMP: 272 bytes of output on the stack, as QUERY_CQ's and QUERY_SRQ's. */
CXPRM_DESTROY_AND_QUERY(rmp, RMP, rmpn, SrqInfo)

int decode_query_rmp(const void *out, u32 outlen, SrqInfo *info)
{
	return decode_sub<query_rmp_out::rmp_context, rmpc>(out, outlen, info, [](CRef<rmpc> c, SrqInfo *i) {
		auto w = sub<rmpc::wq, wq>(c);
		u32 stride = (u32)get<wq::log_wq_stride>(w);
		/* Firmware reporting a stride below 16 bytes breaks the protocol. */
		if (stride < SRQC_STRIDE_TO_WQ)
			return E_PROTO;
		*i = {};
		i->state = (u8)get<rmpc::state>(c);
		i->log_srq_size = (u8)get<wq::log_wq_sz>(w);
		i->log_rq_stride = (u8)(stride - SRQC_STRIDE_TO_WQ);
		i->pd = (u32)get<wq::pd>(w);
		i->lwm = (u16)get<wq::lwm>(w);
		i->wqe_cnt = (u16)get<wq::hw_counter>(w);
		i->dbr_addr = get<wq::dbr_addr>(w);
		return OK;
	});
}

} // namespace cxprm::cmd
