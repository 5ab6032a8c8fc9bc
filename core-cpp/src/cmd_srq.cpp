// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* CREATE/DESTROY/QUERY_SRQ. */
#include "cmd_queue.h"

#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/srq.h"

namespace cxprm::cmd {

using namespace prm;

/* The srqc fields an SrqParams sets and an SrqInfo reads back, by one name. */
#define CXPRM_SRQC_FIELDS_(X) X(log_srq_size) X(log_rq_stride) X(pd) X(cqn) X(lwm)

int create_srq(Cmdq &q, const SrqParams &p, u32 *srqn, CmdResult *res)
{
	if (!srqn)
		return E_INVAL;
#define CXPRM_FITS_(f) fits<srqc::f>(p.f) &&
	if (!(CXPRM_SRQC_FIELDS_(CXPRM_FITS_) true))
		return E_RANGE;
#undef CXPRM_FITS_
	return create_queue_ctx<create_srq_in, create_srq_in_pas, create_srq_out, create_srq_out::srqn,
				create_srq_in::srq_context_entry, srqc>(
		q, op::CREATE_SRQ, p, queue_bytes(p.log_srq_size, 16u << p.log_rq_stride), [&p](Ref<srqc> c) {
#define CXPRM_SET_(f) set<srqc::f>(c, p.f);
			CXPRM_SRQC_FIELDS_(CXPRM_SET_)
#undef CXPRM_SET_
		},
		srqn, res);
}

CXPRM_DESTROY_AND_QUERY(srq, SRQ, srqn, SrqInfo)

int decode_query_srq(const void *out, u32 outlen, SrqInfo *info)
{
	return decode_sub<query_srq_out::srq_context_entry, srqc>(
		out, outlen, info, [](CRef<srqc> c, SrqInfo *i) {
			i->state = (u8)get<srqc::state>(c);
#define CXPRM_GET_(f) i->f = (decltype(i->f))get<srqc::f>(c);
			CXPRM_SRQC_FIELDS_(CXPRM_GET_)
#undef CXPRM_GET_
			i->wqe_cnt = (u16)get<srqc::wqe_cnt>(c);
			i->dbr_addr = get<srqc::dbr_addr>(c);
			return OK;
		});
}

} // namespace cxprm::cmd
