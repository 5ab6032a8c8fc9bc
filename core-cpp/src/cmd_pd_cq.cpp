// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* ALLOC_PD / DEALLOC_PD, CREATE/DESTROY/QUERY_CQ. */
#include "cmd_queue.h"

#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pd_cq.h"

namespace cxprm::cmd {

using namespace prm;

namespace {

constexpr u32 CQE_BYTES = 64;

} // namespace

/* The cqc fields a CqParams sets and a CqInfo reads back: X(field, member). */
#define CXPRM_CQC_FIELDS_(X) X(log_cq_size, log_cq_size) X(uar_page, uar_page) X(c_eqn_or_apu_element, eqn)

bool queue_buffer_ok(u64 bus, u32 pages, u64 bytes)
{
	return bus && pages && !(bus & (ADAPTER_PAGE_SIZE - 1)) &&
	       (u64)pages * ADAPTER_PAGE_SIZE >= bytes;
}

int alloc_pd(Cmdq &q, u32 *pd, u16 uid, CmdResult *res)
{
	if (!pd)
		return E_INVAL;
	u8 in[alloc_pd_in::size_bytes];
	auto r = begin_in<alloc_pd_in>(in, op::ALLOC_PD);
	set<alloc_pd_in::uid>(r, uid);
	return exec_create<alloc_pd_out, alloc_pd_out::pd>(q, in, sizeof(in), pd, res);
}

int dealloc_pd(Cmdq &q, u32 pd, u16 uid, CmdResult *res)
{
	return object_cmd<dealloc_pd_in, dealloc_pd_out, dealloc_pd_in::pd>(q, op::DEALLOC_PD, pd,
									  uid, res);
}

int create_cq(Cmdq &q, const CqParams &p, u32 *cqn, CmdResult *res)
{
	if (!cqn)
		return E_INVAL;
#define CXPRM_FITS_(f, m) fits<cqc::f>(p.m) &&
	if (!(CXPRM_CQC_FIELDS_(CXPRM_FITS_) p.log_cq_size <= 24))
		return E_RANGE;
#undef CXPRM_FITS_
	return create_queue_ctx<create_cq_in, create_cq_in_pas, create_cq_out, create_cq_out::cqn,
				create_cq_in::cq_context, cqc>(
		q, op::CREATE_CQ, p, queue_bytes(p.log_cq_size, CQE_BYTES), [&p](Ref<cqc> c) {
#define CXPRM_SET_(f, m) set<cqc::f>(c, p.m);
			CXPRM_CQC_FIELDS_(CXPRM_SET_)
#undef CXPRM_SET_
		},
		cqn, res);
}

/* QUERY_CQ: the pas[] tail that follows query_cq_out is not read. */
CXPRM_DESTROY_AND_QUERY(cq, CQ, cqn, CqInfo)

int decode_query_cq(const void *out, u32 outlen, CqInfo *info)
{
	return decode_sub<query_cq_out::cq_context, cqc>(out, outlen, info, [](CRef<cqc> c, CqInfo *i) {
		i->status = (u8)get<cqc::status>(c);
		i->st = (u8)get<cqc::st>(c);
#define CXPRM_GET_(f, m) i->m = (decltype(i->m))get<cqc::f>(c);
		CXPRM_CQC_FIELDS_(CXPRM_GET_)
#undef CXPRM_GET_
		i->consumer_counter = (u32)get<cqc::consumer_counter>(c);
		i->producer_counter = (u32)get<cqc::producer_counter>(c);
		i->dbr_addr = get<cqc::dbr_addr>(c);
		return OK;
	});
}

} // namespace cxprm::cmd
