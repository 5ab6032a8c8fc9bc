// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* CREATE/DESTROY/QUERY_SRQ. */
#include "cxprm/commands/objects.h"

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
	u64 bytes = queue_bytes(p.log_srq_size, 16u << p.log_rq_stride);
	if (!queue_buffer_ok(p.buf_bus, p.buf_pages, bytes) || !p.dbr_bus || (p.dbr_bus & 7))
		return E_INVAL;
	if (p.buf_pages > create_srq_in_pas::entries_in(q.config().max_msg_bytes))
		return E_RANGE;

	u32 inlen = create_srq_in_pas::bytes_for(p.buf_pages);
	HostMem in;
	int err = in.alloc(q.host(), inlen);
	if (err)
		return err;
	auto r = begin_in<create_srq_in>(in.data(), op::CREATE_SRQ);
	set<create_srq_in::uid>(r, p.uid);
	auto c = sub<create_srq_in::srq_context_entry, srqc>(r);
	set<srqc::log_srq_size>(c, p.log_srq_size);
	set<srqc::log_rq_stride>(c, p.log_rq_stride);
	set<srqc::pd>(c, p.pd);
	set<srqc::cqn>(c, p.cqn);
	set<srqc::lwm>(c, p.lwm);
	set<srqc::dbr_addr>(c, p.dbr_bus);
	set_contiguous_pas<create_srq_in_pas>(r, p.buf_bus, p.buf_pages);

	return exec_create<create_srq_out, create_srq_out::srqn>(q, in.data(), inlen, srqn, res);
}

int destroy_srq(Cmdq &q, u32 srqn, u16 uid, CmdResult *res)
{
	return object_cmd<destroy_srq_in, destroy_srq_out, destroy_srq_in::srqn>(
		q, op::DESTROY_SRQ, srqn, uid, res);
}

int query_srq(Cmdq &q, u32 srqn, SrqInfo *info, CmdResult *res)
{
	if (!info)
		return E_INVAL;
	if (!fits<query_srq_in::srqn>(srqn))
		return E_RANGE;
	u8 in[query_srq_in::size_bytes];
	auto r = begin_in<query_srq_in>(in, op::QUERY_SRQ);
	set<query_srq_in::srqn>(r, srqn);
	u8 out[query_srq_out::size_bytes];
	int err = exec(q, in, sizeof(in), out, sizeof(out), res);
	return err ? err : decode_query_srq(out, sizeof(out), info);
}

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
