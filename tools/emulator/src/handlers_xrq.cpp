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
constexpr uint32_t BE_PAGES = 2; // the backend's CQ page and SQ page
} // namespace

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
	uint64_t bytes = (16ull << prm::get<prm::wq::log_wq_stride>(wq)) << prm::get<prm::wq::log_wq_sz>(wq);
	std::vector<uint64_t> pas;
	if (!read_pas(c, in_t::size_bytes, (bytes + prm::ADAPTER_PAGE_SIZE - 1) / prm::ADAPTER_PAGE_SIZE, &pas))
		return fail(synd::XRQ_PAS_INLEN);
	uint32_t xrqn = 0;
	for (uint32_t n = prof_.nvmf.first_xrqn; n - prof_.nvmf.first_xrqn < prof_.nvmf.num_xrqs; n++)
		if (!xrqs.count(n) && !srqs.count(n)) {
			xrqn = n;
			break;
		}
	if (!xrqn || !prm::fits<prm::create_xrq_out::xrqn>(xrqn))
		return fail(synd::XRQ_EXHAUSTED);
	xrqs[xrqn] = x;
	prm::set<prm::create_xrq_out::xrqn>(Ref<prm::create_xrq_out>(c.out), xrqn);
	return Result::ok();
}

Result Device::destroy_xrq(Cmd &c)
{
	uint32_t xrqn = (uint32_t)prm::get<prm::destroy_xrq_in::xrqn>(CRef<prm::destroy_xrq_in>(c.in));
	if (!xrqs.count(xrqn))
		return fail(synd::XRQ_UNKNOWN_DESTROY);
	bool used = srq_in_use(xrqn);
	for (const auto &[key, ns] : namespaces)
		used |= key.first == xrqn;
	for (const auto &be : backends)
		used |= be.first == xrqn;
	if (used)
		return fail(synd::XRQ_IN_USE);
	xrqs.erase(xrqn);
	return Result::ok();
}

Result Device::create_nvmf_be(Cmd &c)
{
	using in_t = prm::create_nvmf_be_ctrl_in;
	CRef<in_t> in(c.in);
	uint32_t xrqn = (uint32_t)prm::get<in_t::xrqn>(in);
	if (Result r = nvmf_xrq(xrqn); r.status)
		return r;
	CRef<prm::nvmf_be_ctrl> be = prm::sub<in_t::nvmf_be_ctrl_entry, prm::nvmf_be_ctrl>(in);
	uint64_t cqh = prm::get<prm::nvmf_be_ctrl::cqh_dbr_addr>(be);
	uint64_t sqt = prm::get<prm::nvmf_be_ctrl::sqt_dbr_addr>(be);
	if (!cqh || (cqh & 7) || !sqt || (sqt & 7))
		return fail(synd::QUEUE_BAD_DBR);
	std::vector<uint64_t> pas;
	if (!read_pas(c, in_t::size_bytes, BE_PAGES, &pas))
		return fail(synd::NVMF_BE_PAS_INLEN);
	uint16_t id = 1;
	while (id <= MAX_BACKENDS_PER_XRQ && backends.count({xrqn, id}))
		id++;
	if (id > MAX_BACKENDS_PER_XRQ)
		return fail(synd::NVMF_BE_EXHAUSTED);
	backends.insert({xrqn, id});
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
	if (!backends.count({xrqn, id}))
		return fail(synd::NVMF_BE_UNKNOWN);
	for (const auto &[key, ns] : namespaces)
		if (key.first == xrqn && ns.backend_ctrl == id)
			return fail(synd::NVMF_BE_IN_USE);
	backends.erase({xrqn, id});
	return Result::ok();
}

} // namespace cxprm::emu
