// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// XRQs with NVMe-oF target offload (CREATE / DESTROY_XRQ, xrqc.offload =
// NVMF) and their backend NVMe controllers (CREATE / DESTROY_NVMF_BACKEND
// _CTRL): the objects the namespace commands (handlers_nvmf.cpp) hang off.
// Layouts provisional (vendor header, prm/nvmf.h).  Only NVMF XRQs are
// emulated; their numbers come from NvmfProfile's XRQ range.  Controller
// ids are per XRQ, from 1.
#include "emu_device.h"

#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/srq.h"
#include "cxprm/prm/transport.h"

namespace cxprm::emu {

using prm::CRef;
using prm::Ref;

namespace {
constexpr uint16_t MAX_BACKENDS_PER_XRQ = 64;
constexpr uint8_t LOG_DATA_SEG = 4;   // a WQE holds at least one 16-byte data segment
constexpr uint8_t LOG_LINUX_WQE = 5;  // Linux's smallest receive WQE (ib/srq.c): 32 B
} // namespace

// The NVMF part of CREATE_XRQ (prm-notes-nvmf.rst, "NVMF offload"): the wq as
// Linux sets it (set_wq), the offload context as nvmet fills it.
Result Device::check_xrq_nvmf(CRef<prm::xrqc> ctx, XrqInfo *x) const
{
	CRef<prm::wq> wq = prm::sub<prm::xrqc::wq, prm::wq>(ctx);
	CRef<prm::nvme_offload_context> nv =
		prm::sub<prm::xrqc::nvme_offload_context, prm::nvme_offload_context>(ctx);
	const NvmfProfile &np = prof_.nvmf;
	x->log_stride = (uint8_t)prm::get<prm::wq::log_wq_stride>(wq);
	x->wq_type = (uint8_t)prm::get<prm::wq::wq_type>(wq);
	x->offload_type = (uint8_t)prm::get<prm::nvme_offload_context::nvmf_offload_type>(nv);
	x->staging_pages = (uint32_t)prm::get<prm::nvme_offload_context::staging_buffer_number_of_pages>(nv);
	x->nvme_queue_size = (uint16_t)prm::get<prm::nvme_offload_context::nvme_queue_size>(nv);
	uint8_t min_stride = np.xrq_min_stride_32 ? LOG_LINUX_WQE : LOG_DATA_SEG;
	if (x->log_stride < min_stride || (1u << x->log_stride) > cap_cur<prm::cmd_hca_cap::max_wqe_sz_rq>())
		return fail(synd::XRQ_BAD_STRIDE);
	if (x->wq_type != prm::WQ_TYPE_LINKED_LIST &&
	    (np.xrq_linked_list_only || x->wq_type != prm::WQ_TYPE_CYCLIC))
		return fail(synd::XRQ_NOT_LINKED_LIST);
	bool rwf = x->offload_type == prm::NVMF_OFFLOAD_READ_WRITE_FLUSH;
	if (!rwf && (np.xrq_rwf_offload_only || x->offload_type < 1 || x->offload_type > 4))
		return fail(synd::XRQ_BAD_OFFLOAD_TYPE);
	if (!x->staging_pages && np.xrq_requires_staging)
		return fail(synd::XRQ_NO_STAGING);
	return Result::ok();
}

Result Device::create_xrq(Cmd &c)
{
	using in_t = prm::create_xrq_in;
	if (!prof_.nvmf.supported || !cap_cur<prm::cmd_hca_cap::nvmf_target_offload>())
		return fail(synd::FEATURE_OFF);
	CRef<prm::xrqc> ctx = prm::sub<in_t::xrq_context, prm::xrqc>(CRef<in_t>(c.in));
	if (prm::get<prm::xrqc::offload>(ctx) != prm::XRQ_OFFLOAD_NVMF)
		return fail(synd::XRQ_BAD_OFFLOAD);
	CRef<prm::wq> wq = prm::sub<prm::xrqc::wq, prm::wq>(ctx);
	CRef<prm::nvme_offload_context> nv =
		prm::sub<prm::xrqc::nvme_offload_context, prm::nvme_offload_context>(ctx);
	Xrq x;
	x.pd = (uint32_t)prm::get<prm::wq::pd>(wq);
	x.cqn = (uint32_t)prm::get<prm::xrqc::cqn>(ctx);
	x.log_max_namespace = (uint8_t)prm::get<prm::nvme_offload_context::log_max_namespace>(nv);
	if (!have_pd(x.pd))
		return fail(synd::XRQ_NO_PD);
	if (!have_cq(x.cqn))
		return fail(synd::XRQ_NO_CQ);
	uint64_t dbr = prm::get<prm::wq::dbr_addr>(wq);
	if (!dbr || (dbr & 7))
		return fail(synd::QUEUE_BAD_DBR);
	if (Result r = check_xrq_nvmf(ctx, &x.info); r.status)
		return r;
	// wq.log_wq_stride: log2 bytes (Linux ib/srq_cmd.c set_wq).
	uint64_t bytes = 1ull << (x.info.log_stride + prm::get<prm::wq::log_wq_sz>(wq));
	x.info.queue_pages = (uint32_t)((bytes + prm::ADAPTER_PAGE_SIZE - 1) / prm::ADAPTER_PAGE_SIZE);
	std::vector<uint64_t> pas;
	if (!read_pas(c, in_t::size_bytes, x.info.queue_pages, &pas))
		return fail(synd::XRQ_PAS_INLEN);
	// The staging pas follow, both lists padded to 64 bytes (prm/nvmf.h).
	if (x.info.staging_pages) {
		uint32_t all = prm::xrq_nvmf_pas_entries(x.info.queue_pages, x.info.staging_pages);
		if (!read_pas(c, in_t::size_bytes, all, &pas))
			return fail(synd::XRQ_STAGING_INLEN);
		x.info.staging_pa = pas[prm::xrq_nvmf_staging_entry(x.info.queue_pages)];
	}
	// XRQs and SRQs share the numbers.
	uint32_t xrqn = free_number(prof_.nvmf.first_xrqn, prof_.nvmf.num_xrqs, xrqs, srqs);
	if (!xrqn)
		return fail(synd::XRQ_EXHAUSTED);
	xrqs[xrqn] = x;
	own(Obj::XRQ, xrqn, c.uid);
	prm::set<prm::create_xrq_out::xrqn>(Ref<prm::create_xrq_out>(c.out), xrqn);
	return Result::ok();
}

Result Device::destroy_xrq(Cmd &c)
{
	uint32_t xrqn = (uint32_t)prm::get<prm::destroy_xrq_in::xrqn>(CRef<prm::destroy_xrq_in>(c.in));
	// Named by a QP or DCT, or with namespaces or backends on it.
	bool used = srq_in_use(xrqn);
	for (const auto &[key, ns] : namespaces)
		used |= key.first == xrqn;
	for (const auto &be : backends)
		used |= be.first.first == xrqn;
	return destroy_object(c, xrqs, Obj::XRQ, xrqn, xrqs.count(xrqn), synd::XRQ_UNKNOWN_DESTROY, used,
			      synd::XRQ_IN_USE);
}

Result Device::create_nvmf_be(Cmd &c)
{
	using in_t = prm::create_nvmf_be_ctrl_in;
	auto [r, in, xrqn] = nvmf_owned_in<in_t>(c);
	if (r.status)
		return r;
	CRef<prm::nvmf_be_ctrl> be = prm::sub<in_t::nvmf_be_ctrl_entry, prm::nvmf_be_ctrl>(in);
	NvmfBackendInfo info;
	info.cqh_db = prm::get<prm::nvmf_be_ctrl::cqh_dbr_addr>(be);
	info.sqt_db = prm::get<prm::nvmf_be_ctrl::sqt_dbr_addr>(be);
	// NVMe doorbells are 32-bit registers (the SSD's BAR, not records).
	if (!info.cqh_db || (info.cqh_db & 3) || !info.sqt_db || (info.sqt_db & 3))
		return fail(synd::NVMF_BE_BAD_DOORBELL);
	// The address list: 2 x 64 bytes, CQ at +0, SQ at +64 (prm/nvmf.h).
	using addrs_t = prm::create_nvmf_be_ctrl_in_addrs;
	if (c.inlen < addrs_t::bytes_for(1))
		return fail(synd::NVMF_BE_PAS_INLEN);
	CRef<prm::nvmf_be_ctrl_addrs> a(prm::tail_entry<addrs_t>(in, 0));
	info.cq = prm::get<prm::nvmf_be_ctrl_addrs::cq_addr>(a);
	info.sq = prm::get<prm::nvmf_be_ctrl_addrs::sq_addr>(a);
	info.cq_log_pages = (uint8_t)prm::get<prm::nvmf_be_ctrl::cq_log_page_size>(be);
	info.sq_log_pages = (uint8_t)prm::get<prm::nvmf_be_ctrl::sq_log_page_size>(be);
	// The queues hold the XRQ's nvme_queue_size entries (the vendor's
	// nvmet refuses an NVMe queue of another depth; the firmware takes the
	// depth from the XRQ, the page sizes from here).
	auto x = xrqs.find(xrqn);
	info.depth = x != xrqs.end() ? x->second.info.nvme_queue_size : prof_.nvmf.ssd.queue_depth;
	bool too_small = (4096ull << info.sq_log_pages) < info.depth * 64ull ||
			 (4096ull << info.cq_log_pages) < info.depth * 16ull;
	if (info.depth < 2 || (too_small && prof_.nvmf.be_queue_size_checked))
		return fail(synd::NVMF_BE_QUEUE_SIZE);
	uint16_t id = 1;
	while (id <= MAX_BACKENDS_PER_XRQ && backends.count({xrqn, id}))
		id++;
	if (id > MAX_BACKENDS_PER_XRQ)
		return fail(synd::NVMF_BE_EXHAUSTED);
	backends[{xrqn, id}] = info;
	own(Obj::NVMF_BE, be_key(xrqn, id), c.uid);
	prm::set<prm::create_nvmf_be_ctrl_out::backend_controller_id>(Ref<prm::create_nvmf_be_ctrl_out>(c.out),
								      id);
	return Result::ok();
}

Result Device::destroy_nvmf_be(Cmd &c)
{
	using in_t = prm::destroy_nvmf_be_ctrl_in;
	CRef<in_t> in(c.in);
	uint32_t xrqn = (uint32_t)prm::get<in_t::xrqn>(in);
	uint16_t id = (uint16_t)prm::get<in_t::backend_controller_id>(in);
	if (Result r = nvmf_xrq(xrqn); r.status)
		return r;
	bool known = backends.count({xrqn, id});
	if (Result r = known_owned(c, known, synd::NVMF_BE_UNKNOWN, Obj::NVMF_BE, be_key(xrqn, id), false); r.status)
		return r;
	for (const auto &[key, ns] : namespaces)
		if (key.first == xrqn && ns.backend_ctrl == id)
			return fail(synd::NVMF_BE_IN_USE);
	backends.erase({xrqn, id});
	disown(Obj::NVMF_BE, be_key(xrqn, id));
	return Result::ok();
}

} // namespace cxprm::emu
