// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CREATE/DESTROY_XRQ with the NVMF offload context and CREATE/DESTROY
 * _NVMF_BACKEND_CTRL (provisional vendor layouts, prm/nvmf.h).
 */
#include "cxprm/commands/nvmf.h"

#include "cmd_queue.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/srq.h"

namespace cxprm::cmd {

using namespace prm;

namespace {

bool page_aligned(u64 a) { return a && !(a & (ADAPTER_PAGE_SIZE - 1)); }

/* CREATE_XRQ's context and pas[] (the HostMem is zeroed). */
void set_xrq_nvmf(Ref<create_xrq_in> r, const XrqNvmfParams &p)
{
	auto c = sub<create_xrq_in::xrq_context, xrqc>(r);
	set<xrqc::offload>(c, XRQ_OFFLOAD_NVMF);
	set<xrqc::cqn>(c, p.cqn);
	auto n = sub<xrqc::nvme_offload_context, nvme_offload_context>(c);
	set<nvme_offload_context::nvmf_offload_type>(n, NVMF_OFFLOAD_READ_WRITE_FLUSH);
	set<nvme_offload_context::log_max_namespace>(n, p.log_max_namespace);
	set<nvme_offload_context::ioccsz>(n, p.ioccsz);
	set<nvme_offload_context::log_max_io_size>(n, p.log_max_io_size);
	set<nvme_offload_context::nvme_queue_size>(n, p.nvme_queue_size);
	/* 4 KiB staging pages: staging_buffer_log_page_size stays 0. */
	set<nvme_offload_context::staging_buffer_number_of_pages>(n, p.staging_pages);
	/* wq_type stays 0, LINKED_LIST: Linux's set_wq never sets it. */
	auto w = sub<xrqc::wq, wq>(c);
	set<wq::pd>(w, p.pd);
	set<wq::dbr_addr>(w, p.dbr_bus);
	set<wq::log_wq_stride>(w, p.log_wq_stride);
	set<wq::log_wq_sz>(w, p.log_wq_sz);
	/* wq's pas[] is the command's tail: the queue's, then the staging buffer's. */
	set_contiguous_pas<create_xrq_in_pas>(r, p.buf_bus, p.buf_pages);
	u32 first = xrq_nvmf_staging_entry(p.buf_pages);
	for (u32 i = 0; i < p.staging_pages; i++)
		set_pas<create_xrq_in_pas>(r, first + i, p.staging_bus + (u64)i * ADAPTER_PAGE_SIZE);
}

} // namespace

int create_xrq_nvmf(Cmdq &q, const XrqNvmfParams &p, u32 *xrqn, CmdResult *res)
{
	if (!xrqn)
		return E_INVAL;
	if (!fits<xrqc::cqn>(p.cqn) || !fits<wq::pd>(p.pd) || !fits<wq::log_wq_sz>(p.log_wq_sz) ||
	    !fits<wq::log_wq_stride>(p.log_wq_stride) ||
	    !fits<nvme_offload_context::log_max_namespace>(p.log_max_namespace) ||
	    !fits<nvme_offload_context::log_max_io_size>(p.log_max_io_size) ||
	    !fits<nvme_offload_context::staging_buffer_number_of_pages>(p.staging_pages))
		return E_RANGE;
	if (p.log_wq_stride < XRQ_MIN_LOG_STRIDE)
		return E_INVAL;
	u64 bytes = queue_bytes(p.log_wq_sz, 1u << p.log_wq_stride);
	/* The vendor driver always passes a staging buffer (rdma_offload.c). */
	if (!queue_and_dbr_ok(p.buf_bus, p.buf_pages, bytes, p.dbr_bus) ||
	    !queue_buffer_ok(p.staging_bus, p.staging_pages, (u64)p.staging_pages * ADAPTER_PAGE_SIZE))
		return E_INVAL;
	u32 npas = xrq_nvmf_pas_entries(p.buf_pages, p.staging_pages);
	return exec_create_pas<create_xrq_in, create_xrq_in_pas, create_xrq_out, create_xrq_out::xrqn>(
		q, op::CREATE_XRQ, p.uid, npas, [&p](Ref<create_xrq_in> r) { set_xrq_nvmf(r, p); },
		xrqn, res);
}

int destroy_xrq(Cmdq &q, u32 xrqn, u16 uid, CmdResult *res)
{
	return object_cmd<destroy_xrq_in, destroy_xrq_out, destroy_xrq_in::xrqn>(
		q, op::DESTROY_XRQ, xrqn, uid, res);
}

int create_nvmf_backend_ctrl(Cmdq &q, const NvmfBackendParams &p, u16 *id, CmdResult *res)
{
	using L = create_nvmf_be_ctrl_in;
	using T = create_nvmf_be_ctrl_in_addrs;
	if (!id)
		return E_INVAL;
	if (!fits<L::xrqn>(p.xrqn) || !fits<nvmf_be_ctrl::log_cmd_timeout_us>(p.log_cmd_timeout_us))
		return E_RANGE;
	/* NVMe doorbells are 32-bit registers; queues page aligned (offset 0). */
	if (!page_aligned(p.cq_bus) || !page_aligned(p.sq_bus) || !p.cqh_db_bus || (p.cqh_db_bus & 3) ||
	    !p.sqt_db_bus || (p.sqt_db_bus & 3) || p.queue_depth < 2)
		return E_INVAL;
	u8 in[T::bytes_for(1)], out[out_size<create_nvmf_be_ctrl_out>()];
	auto r = begin_in<L>(in, op::CREATE_NVMF_BACKEND_CTRL);
	mem_zero(in + L::size_bytes, sizeof(in) - L::size_bytes);
	set<L::xrqn>(r, p.xrqn);
	auto c = sub<L::nvmf_be_ctrl_entry, nvmf_be_ctrl>(r);
	set<nvmf_be_ctrl::log_cmd_timeout_us>(c, p.log_cmd_timeout_us);
	set<nvmf_be_ctrl::cq_log_page_size>(c, nvme_queue_log_pages(p.queue_depth * NVME_CQE_BYTES));
	set<nvmf_be_ctrl::sq_log_page_size>(c, nvme_queue_log_pages(p.queue_depth * NVME_SQE_BYTES));
	set<nvmf_be_ctrl::cqh_dbr_addr>(c, p.cqh_db_bus);
	set<nvmf_be_ctrl::sqt_dbr_addr>(c, p.sqt_db_bus);
	Ref<nvmf_be_ctrl_addrs> a(tail_entry<T>(r, 0));
	set<nvmf_be_ctrl_addrs::cq_addr>(a, p.cq_bus);
	set<nvmf_be_ctrl_addrs::sq_addr>(a, p.sq_bus);
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
