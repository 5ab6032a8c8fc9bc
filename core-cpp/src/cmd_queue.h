/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* What the CREATE commands of queues (CQ, SRQ, RMP, XRQ, QP) check alike. */
#pragma once

#include "cxprm/commands/objects.h"

namespace cxprm::cmd {

/*
 * queue_buffer_ok(bus, pages, bytes) and a doorbell record at dbr:
 * nonzero and 8-byte aligned.
 */
inline bool queue_and_dbr_ok(u64 bus, u32 pages, u64 bytes, u64 dbr)
{
	return queue_buffer_ok(bus, pages, bytes) && dbr && !(dbr & 7);
}

/*
 * The CREATE of a queue on one contiguous buffer (CQ, SRQ, RMP), once the
 * caller has checked num and the ranges: E_INVAL unless P's buffer of
 * 'bytes' and doorbell record are sound (queue_and_dbr_ok); then fill(r)
 * writes the context and pas[] gets the buffer's pages.  P carries uid,
 * buf_bus, buf_pages and dbr_bus.
 */
template <class In, class Pas, class Out, class Num, class P, class Fill>
inline int create_queue(Cmdq &q, u16 opcode, const P &p, u64 bytes, Fill fill, u32 *num,
			CmdResult *res)
{
	if (!queue_and_dbr_ok(p.buf_bus, p.buf_pages, bytes, p.dbr_bus))
		return E_INVAL;
	return exec_create_pas<In, Pas, Out, Num>(
		q, opcode, p.uid, p.buf_pages,
		[&p, &fill](prm::Ref<In> r) {
			fill(r);
			set_contiguous_pas<Pas>(r, p.buf_bus, p.buf_pages);
		},
		num, res);
}

/*
 * create_queue for a queue whose context is field CtxField of In, laid out
 * as Ctx with its doorbell record at Ctx::dbr_addr (CQ, SRQ): fill(c)
 * writes the rest of the context.
 */
template <class In, class Pas, class Out, class Num, class CtxField, class Ctx, class P, class Fill>
inline int create_queue_ctx(Cmdq &q, u16 opcode, const P &p, u64 bytes, Fill fill, u32 *num,
			    CmdResult *res)
{
	return create_queue<In, Pas, Out, Num>(
		q, opcode, p, bytes,
		[&p, &fill](prm::Ref<In> r) {
			auto c = prm::sub<CtxField, Ctx>(r);
			fill(c);
			prm::set<typename Ctx::dbr_addr>(c, p.dbr_bus);
		},
		num, res);
}

/*
 * destroy_<obj> and query_<obj> of an object the command names by its
 * number num (DESTROY_<OBJ>, QUERY_<OBJ>): object_cmd and query_object
 * on the prm layouts <cmd>_<obj>_in/_out, decoded by decode_query_<obj>.
 */
#define CXPRM_DESTROY_AND_QUERY(obj, OBJ, num, Info)                                               \
	int destroy_##obj(Cmdq &q, u32 num, u16 uid, CmdResult *res)                               \
	{                                                                                           \
		return object_cmd<destroy_##obj##_in, destroy_##obj##_out, destroy_##obj##_in::num>( \
			q, op::DESTROY_##OBJ, num, uid, res);                                        \
	}                                                                                           \
	int query_##obj(Cmdq &q, u32 num, Info *info, CmdResult *res)                              \
	{                                                                                           \
		return query_object<query_##obj##_in, query_##obj##_out, query_##obj##_in::num>(    \
			q, op::QUERY_##OBJ, num, info, decode_query_##obj, res);                     \
	}

} // namespace cxprm::cmd
