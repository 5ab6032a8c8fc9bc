// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* CREATE_DCT, QUERY_DCT, DRAIN_DCT, DESTROY_DCT. */
#include "cxprm/commands/dct.h"

#include "cxprm/prm/opcodes.h"

namespace cxprm::cmd {

using namespace prm;

int encode_dctc(const DctContext &c, u8 *buf)
{
	/* Check every member first so nothing half-written escapes. */
#define CXPRM_DCTC_FITS_(name, off, width)     \
	if (!fits<dctc::name>(c.name))          \
		return E_RANGE;
	CXPRM_DCTC(CXPRM_DCTC_FITS_)
#undef CXPRM_DCTC_FITS_
	mem_zero(buf, dctc::size_bytes);
	Ref<dctc> r(buf);
#define CXPRM_DCTC_SET_(name, off, width) set<dctc::name>(r, c.name);
	CXPRM_DCTC(CXPRM_DCTC_SET_)
#undef CXPRM_DCTC_SET_
	/* Read-only in CREATE_DCT: firmware owns them. */
	set<dctc::state>(r, 0);
	set<dctc::dc_access_key_violation_count>(r, 0);
	return OK;
}

void decode_dctc(const u8 *buf, DctContext *c)
{
	CXPRM_GET_FIELDS(CXPRM_DCTC, dctc, buf, c);
}

int create_dct(Cmdq &q, const DctContext &c, u32 *dctn, u32 *ece, u16 uid, CmdResult *res)
{
	if (!dctn)
		return E_INVAL;
	u8 in[create_dct_in::size_bytes], out[out_size<create_dct_out>()];
	int err = encode_create_dct(in, c, uid);
	if (err)
		return err;
	err = exec(q, in, sizeof(in), out, sizeof(out), res);
	if (err)
		return err;
	u32 e = 0;
	err = decode_create_dct(out, sizeof(out), dctn, &e);
	if (ece)
		*ece = e;
	return err;
}

int encode_create_dct(u8 *in, const DctContext &c, u16 uid)
{
	auto r = begin_in<create_dct_in>(in, op::CREATE_DCT);
	set<create_dct_in::uid>(r, uid);
	return encode_dctc(c, bytes<create_dct_in::dct_context_entry>(r));
}

int decode_create_dct(const void *out, u32 outlen, u32 *dctn, u32 *ece)
{
	if (!out || !dctn || outlen < create_dct_out::size_bytes)
		return E_INVAL;
	CRef<create_dct_out> o(out);
	*dctn = (u32)get<create_dct_out::dctn>(o);
	if (ece)
		*ece = (u32)get<create_dct_out::ece>(o);
	return OK;
}

int query_dct(Cmdq &q, u32 dctn, DctContext *c, CmdResult *res)
{
	return query_object<query_dct_in, query_dct_out, query_dct_in::dctn>(
		q, op::QUERY_DCT, dctn, c, decode_query_dct, res);
}

int encode_query_dct(u8 *in, u32 dctn)
{
	return encode_num_cmd<query_dct_in, query_dct_in::dctn>(in, op::QUERY_DCT, dctn);
}

int decode_query_dct(const void *out, u32 outlen, DctContext *c)
{
	if (!out || !c || outlen < query_dct_out::size_bytes)
		return E_INVAL;
	decode_dctc(bytes<query_dct_out::dct_context_entry>(CRef<query_dct_out>(out)), c);
	return OK;
}

int encode_drain_dct(u8 *in, u32 dctn)
{
	return encode_object_cmd<drain_dct_in, drain_dct_in::dctn>(in, op::DRAIN_DCT, dctn, 0);
}

int drain_dct(Cmdq &q, u32 dctn, u16 uid, CmdResult *res)
{
	return object_cmd<drain_dct_in, drain_dct_out, drain_dct_in::dctn>(q, op::DRAIN_DCT, dctn,
									uid, res);
}

int destroy_dct(Cmdq &q, u32 dctn, u16 uid, CmdResult *res)
{
	return object_cmd<destroy_dct_in, destroy_dct_out, destroy_dct_in::dctn>(q, op::DESTROY_DCT,
									  dctn, uid, res);
}

} // namespace cxprm::cmd

namespace cxprm::cmd {

/*
 * As Linux ib/qpc.c _mlx5_core_destroy_dct: DRAIN_DCT, wait until the DCT is
 * DRAINED, then DESTROY_DCT.  The wait polls QUERY_DCT's dctc.state (the
 * DCT_DRAINED event needs the event queue, which may not run), backing off
 * from 10 us to 10 ms, for at most timeout_ns; then DESTROY_DCT is sent
 * anyway and firmware's answer decides (Linux waits forever).  A DCT
 * already draining (the DRAIN ioctl) or drained is not drained again.
 */
int destroy_dct_drained(Cmdq &q, u32 dctn, u64 timeout_ns, CmdResult *res, u16 *failed_op)
{
	const cxprm_host *h = q.host();
	CmdResult local{};
	CmdResult *r = res ? res : &local;
	u16 op = prm::op::QUERY_DCT;
	DctContext c{};
	int err = query_dct(q, dctn, &c, r);
	if (!err && c.state == DCT_STATE_ACTIVE) {
		op = prm::op::DRAIN_DCT;
		err = drain_dct(q, dctn, 0, r);
		c.state = DCT_STATE_DRAINING;
	}
	if (!err && c.state != DCT_STATE_DRAINED) {
		op = prm::op::QUERY_DCT;
		u64 deadline = h->ops->now_ns(h->ctx) + timeout_ns;
		u32 sleep_us = 10;
		while (!err && c.state != DCT_STATE_DRAINED && h->ops->now_ns(h->ctx) < deadline) {
			h->ops->sleep_us(h->ctx, sleep_us);
			sleep_us = min_of<u32>(sleep_us * 2, 10000);
			err = query_dct(q, dctn, &c, r);
		}
	}
	if (err) {
		if (failed_op)
			*failed_op = op;
		return err;
	}
	if (failed_op)
		*failed_op = prm::op::DESTROY_DCT;
	return destroy_dct(q, dctn, 0, r);
}

} // namespace cxprm::cmd
