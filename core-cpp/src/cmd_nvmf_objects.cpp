// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CREATE/DESTROY_XRQ with the NVMF offload context and CREATE/DESTROY
 * _NVMF_BACKEND_CTRL (provisional vendor layouts, prm/nvmf.h).
 */
#include "cxprm/commands/nvmf.h"

#include "cxprm/commands/objects.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/srq.h"

namespace cxprm::cmd {

using namespace prm;

namespace {

constexpr u8 NVMF_OFFLOAD_TYPE_TARGET = 1; /* vendor nvmf.c */
constexpr u8 WQ_TYPE_CYCLIC = 1;
constexpr u32 BE_PAGES = 2;              /* CQ page, SQ page */

bool page_aligned(u64 a) { return a && !(a & (ADAPTER_PAGE_SIZE - 1)); }
bool dbr_ok(u64 a) { return a && !(a & 7); }

} // namespace

int create_xrq_nvmf(Cmdq &q, const XrqNvmfParams &p, u32 *xrqn, CmdResult *res)
{
	if (!xrqn)
		return E_INVAL;
	if (!fits<xrqc::cqn>(p.cqn) || !fits<wq::pd>(p.pd) || !fits<wq::log_wq_sz>(p.log_wq_sz) ||
	    !fits<wq::log_wq_stride>(p.log_wq_stride) ||
	    !fits<nvme_offload_context::log_max_namespace>(p.log_max_namespace) ||
	    !fits<nvme_offload_context::log_max_io_size>(p.log_max_io_size))
		return E_RANGE;
	u64 bytes = queue_bytes(p.log_wq_sz, 16u << p.log_wq_stride);
	if (!queue_buffer_ok(p.buf_bus, p.buf_pages, bytes) || !dbr_ok(p.dbr_bus))
		return E_INVAL;
	if (p.buf_pages > create_xrq_in_pas::entries_in(q.config().max_msg_bytes))
		return E_RANGE;

	u32 inlen = create_xrq_in_pas::bytes_for(p.buf_pages);
	HostMem in;
	int err = in.alloc(q.host(), inlen);
	if (err)
		return err;
	auto r = begin_in<create_xrq_in>(in.data(), op::CREATE_XRQ);
	set<create_xrq_in::uid>(r, p.uid);
	auto c = sub<create_xrq_in::xrq_context, xrqc>(r);
	set<xrqc::offload>(c, XRQ_OFFLOAD_NVMF);
	set<xrqc::cqn>(c, p.cqn);
	auto n = sub<xrqc::nvme_offload_context, nvme_offload_context>(c);
	set<nvme_offload_context::nvmf_offload_type>(n, NVMF_OFFLOAD_TYPE_TARGET);
	set<nvme_offload_context::log_max_namespace>(n, p.log_max_namespace);
	set<nvme_offload_context::ioccsz>(n, p.ioccsz);
	set<nvme_offload_context::log_max_io_size>(n, p.log_max_io_size);
	set<nvme_offload_context::nvme_queue_size>(n, p.nvme_queue_size);
	auto w = sub<xrqc::wq, wq>(c);
	set<wq::wq_type>(w, WQ_TYPE_CYCLIC);
	set<wq::pd>(w, p.pd);
	set<wq::dbr_addr>(w, p.dbr_bus);
	set<wq::log_wq_stride>(w, p.log_wq_stride);
	set<wq::log_wq_sz>(w, p.log_wq_sz);
	/* wq's pas[] is the last thing in the message: the command's tail. */
	set_contiguous_pas<create_xrq_in_pas>(r, p.buf_bus, p.buf_pages);

	return exec_create<create_xrq_out, create_xrq_out::xrqn>(q, in.data(), inlen, xrqn, res);
}

int destroy_xrq(Cmdq &q, u32 xrqn, u16 uid, CmdResult *res)
{
	return object_cmd<destroy_xrq_in, destroy_xrq_out, destroy_xrq_in::xrqn>(
		q, op::DESTROY_XRQ, xrqn, uid, res);
}

int create_nvmf_backend_ctrl(Cmdq &q, const NvmfBackendParams &p, u16 *id, CmdResult *res)
{
	using L = create_nvmf_be_ctrl_in;
	using T = create_nvmf_be_ctrl_in_pas;
	if (!id)
		return E_INVAL;
	if (!fits<L::xrqn>(p.xrqn) || !fits<nvmf_be_ctrl::log_cmd_timeout_us>(p.log_cmd_timeout_us))
		return E_RANGE;
	if (!page_aligned(p.cq_bus) || !page_aligned(p.sq_bus) || !dbr_ok(p.cqh_dbr_bus) ||
	    !dbr_ok(p.sqt_dbr_bus))
		return E_INVAL;
	u8 in[T::bytes_for(BE_PAGES)], out[out_size<create_nvmf_be_ctrl_out>()];
	auto r = begin_in<L>(in, op::CREATE_NVMF_BACKEND_CTRL);
	mem_zero(in + L::size_bytes, sizeof(in) - L::size_bytes);
	set<L::xrqn>(r, p.xrqn);
	auto c = sub<L::nvmf_be_ctrl_entry, nvmf_be_ctrl>(r);
	set<nvmf_be_ctrl::log_cmd_timeout_us>(c, p.log_cmd_timeout_us);
	set<nvmf_be_ctrl::cqh_dbr_addr>(c, p.cqh_dbr_bus);
	set<nvmf_be_ctrl::sqt_dbr_addr>(c, p.sqt_dbr_bus);
	set_pas<T>(r, 0, p.cq_bus);
	set_pas<T>(r, 1, p.sq_bus);
	int err = exec(q, in, sizeof(in), out, sizeof(out), res);
	if (err)
		return err;
	*id = (u16)get<create_nvmf_be_ctrl_out::backend_controller_id>(
		CRef<create_nvmf_be_ctrl_out>(out));
	return OK;
}

int destroy_nvmf_backend_ctrl(Cmdq &q, u32 xrqn, u16 id, CmdResult *res)
{
	using L = destroy_nvmf_be_ctrl_in;
	if (!fits<L::xrqn>(xrqn))
		return E_RANGE;
	u8 in[L::size_bytes], out[out_size<destroy_nvmf_be_ctrl_out>()];
	auto r = begin_in<L>(in, op::DESTROY_NVMF_BACKEND_CTRL);
	set<L::xrqn>(r, xrqn);
	set<L::backend_controller_id>(r, id);
	return exec(q, in, sizeof(in), out, sizeof(out), res);
}

} // namespace cxprm::cmd
