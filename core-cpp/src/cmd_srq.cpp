// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* CREATE/DESTROY/QUERY_SRQ. */
#include "cmd_queue.h"

#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/srq.h"

namespace cxprm::cmd {

using namespace prm;

int create_srq(Cmdq &q, const SrqParams &p, u32 *srqn, CmdResult *res)
{
	if (!srqn)
		return E_INVAL;
	if (!fits<srqc::log_srq_size>(p.log_srq_size) ||
	    !fits<srqc::log_rq_stride>(p.log_rq_stride) || !fits<srqc::pd>(p.pd) ||
	    !fits<srqc::cqn>(p.cqn))
		return E_RANGE;
	return create_queue<create_srq_in, create_srq_in_pas, create_srq_out, create_srq_out::srqn>(
		q, op::CREATE_SRQ, p, queue_bytes(p.log_srq_size, 16u << p.log_rq_stride),
		[&p](Ref<create_srq_in> r) {
			auto c = sub<create_srq_in::srq_context_entry, srqc>(r);
			set<srqc::log_srq_size>(c, p.log_srq_size);
			set<srqc::log_rq_stride>(c, p.log_rq_stride);
			set<srqc::pd>(c, p.pd);
			set<srqc::cqn>(c, p.cqn);
			set<srqc::lwm>(c, p.lwm);
			set<srqc::dbr_addr>(c, p.dbr_bus);
		},
		srqn, res);
}

CXPRM_DESTROY_AND_QUERY(srq, SRQ, srqn, SrqInfo)

int decode_query_srq(const void *out, u32 outlen, SrqInfo *info)
{
	if (!out || !info || outlen < query_srq_out::size_bytes)
		return E_INVAL;
	auto c = sub<query_srq_out::srq_context_entry, srqc>(CRef<query_srq_out>(out));
	info->state = (u8)get<srqc::state>(c);
	info->log_srq_size = (u8)get<srqc::log_srq_size>(c);
	info->log_rq_stride = (u8)get<srqc::log_rq_stride>(c);
	info->pd = (u32)get<srqc::pd>(c);
	info->cqn = (u32)get<srqc::cqn>(c);
	info->lwm = (u16)get<srqc::lwm>(c);
	info->wqe_cnt = (u16)get<srqc::wqe_cnt>(c);
	info->dbr_addr = get<srqc::dbr_addr>(c);
	return OK;
}

} // namespace cxprm::cmd
