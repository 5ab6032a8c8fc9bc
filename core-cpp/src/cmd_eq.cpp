// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* CREATE_EQ / DESTROY_EQ, ALLOC_UAR / DEALLOC_UAR. */
#include "cxprm/commands/eq.h"

#include "cxprm/prm/eq.h"
#include "cxprm/prm/opcodes.h"

namespace cxprm::cmd {

using namespace prm;

namespace {

/* Pages of 4 KiB << log_page_size that hold the queue (at least one). */
u64 pages_needed(const EqParams &p)
{
	u64 bytes = (u64)EQE_BYTES << p.log_eq_size;
	u64 page = (u64)ADAPTER_PAGE_SIZE << p.log_page_size;
	u64 n = (bytes + (u64)p.page_offset * EQE_BYTES + page - 1) / page;
	return n ? n : 1;
}

} // namespace

/* The eqc fields an EqParams carries by the same name: range-checked, then written. */
#define CXPRM_EQC_FIELDS_(X) X(log_eq_size) X(uar_page) X(intr) X(log_page_size) X(page_offset) X(oi) X(ec)

int create_eq(Cmdq &q, const EqParams &p, u8 *eqn, CmdResult *res)
{
	if (!eqn || !p.pas || !p.npas)
		return E_INVAL;
#define CXPRM_FITS_(f) fits<eqc::f>(p.f) &&
	if (!(CXPRM_EQC_FIELDS_(CXPRM_FITS_) p.log_page_size <= 20))
		return E_RANGE;
#undef CXPRM_FITS_
	if (p.npas < pages_needed(p))
		return E_INVAL;
	if (p.npas > create_eq_in_pas::entries_in(q.config().max_msg_bytes))
		return E_RANGE;
	for (u32 i = 0; i < p.npas; i++)
		if (p.pas[i] & (((u64)ADAPTER_PAGE_SIZE << p.log_page_size) - 1))
			return E_INVAL;

	HostMem in;
	int err = build_pas_in<create_eq_in, create_eq_in_pas>(
		q, in, op::CREATE_EQ, p.uid, p.npas, [&p](Ref<create_eq_in> r) {
			auto c = sub<create_eq_in::eq_context_entry, eqc>(r);
#define CXPRM_SET_(f) set<eqc::f>(c, p.f);
			CXPRM_EQC_FIELDS_(CXPRM_SET_)
#undef CXPRM_SET_
			/*
			 * event_bitmask[4][0x40]: mlx5_ifc.h's word i carries types
			 * 64*i..; Linux writes word i with
			 * MLX5_ARRAY_SET64(.., event_bitmask, i, mask[i]).
			 */
			u8 *mask = bytes<create_eq_in::event_bitmask>(r);
			for (u32 i = 0; i < 4; i++)
				store_be64(mask + 8 * i, p.event_bitmask[i]);
			for (u32 i = 0; i < p.npas; i++)
				set_pas<create_eq_in_pas>(r, i, p.pas[i]);
		});
	return err ? err
		   : exec_decode<create_eq_out>(q, in.data(), (u32)in.size(), eqn,
						decode_create_eq, res);
}

int decode_create_eq(const void *out, u32 outlen, u8 *eqn)
{
	if (!out || !eqn || outlen < create_eq_out::size_bytes)
		return E_INVAL;
	*eqn = (u8)get<create_eq_out::eq_number>(CRef<create_eq_out>(out));
	return OK;
}

int destroy_eq(Cmdq &q, u8 eqn, CmdResult *res)
{
	u8 in[destroy_eq_in::size_bytes];
	set<destroy_eq_in::eq_number>(begin_in<destroy_eq_in>(in, op::DESTROY_EQ), eqn);
	return exec_status<destroy_eq_out>(q, in, sizeof(in), res);
}

int alloc_uar(Cmdq &q, u32 *uar, CmdResult *res)
{
	if (!uar)
		return E_INVAL;
	u8 in[alloc_uar_in::size_bytes], out[out_size<alloc_uar_out>()];
	begin_in<alloc_uar_in>(in, op::ALLOC_UAR);
	int err = exec(q, in, sizeof(in), out, sizeof(out), res);
	if (!err)
		*uar = (u32)get<alloc_uar_out::uar>(CRef<alloc_uar_out>(out));
	return err;
}

int dealloc_uar(Cmdq &q, u32 uar, CmdResult *res)
{
	if (!fits<dealloc_uar_in::uar>(uar))
		return E_RANGE;
	u8 in[dealloc_uar_in::size_bytes];
	set<dealloc_uar_in::uar>(begin_in<dealloc_uar_in>(in, op::DEALLOC_UAR), uar);
	return exec_status<dealloc_uar_out>(q, in, sizeof(in), res);
}

} // namespace cxprm::cmd
