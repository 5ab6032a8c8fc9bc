// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// NVMe-oF target offload namespaces: ATTACH / DETACH_NVMF_NAMESPACE and
// QUERY_NVMF_NAMESPACE_CONTEXT (layouts provisional, see prm/nvmf.h).
// The XRQ must have been created with NVMF offload (handlers_xrq.cpp) and
// ATTACH's backend_controller_id must name a controller on it; with the
// lenient object model (ObjectProfile::check_refs false) every xrqn in the
// profile's range exists and the controller id is not checked.  A
// namespace is (xrqn, frontend nsid); its counters move through
// simulate_nvmf_io() and a slow automatic tick (nvmf.auto_io_ms), only
// for namespaces attached: the commands go to the backend NVMe controller
// (nvmf_backend_io.cpp) and the counters move with what it answers.
// A namespace belongs to its XRQ's owner (uid: handlers_uctx.cpp).
#include "emu_device.h"

#include "cxprm/prm/nvmf.h"

namespace cxprm::emu {

using prm::CRef;
using prm::Ref;

namespace {
constexpr uint32_t NSID_BROADCAST = 0xffffffff;

bool nvmf_enabled(const Profile &prof, uint64_t cap_bit) { return prof.nvmf.supported && cap_bit; }
} // namespace

bool Device::xrq_exists(uint32_t xrqn) const
{
	if (xrqs.count(xrqn))
		return true;
	return !prof_.objects.check_refs && xrqn >= prof_.nvmf.first_xrqn &&
	       xrqn - prof_.nvmf.first_xrqn < prof_.nvmf.num_xrqs;
}

// What every namespace command checks first: NVMF offload on, the XRQ exists.
Result Device::nvmf_xrq(uint32_t xrqn) const
{
	if (!nvmf_enabled(prof_, cap_cur<prm::cmd_hca_cap::nvmf_target_offload>()))
		return fail(synd::FEATURE_OFF);
	if (prof_.objects.check_refs && srqs.count(xrqn))
		return fail(synd::NVMF_XRQN_IS_SRQ);
	if (!xrq_exists(xrqn))
		return fail(synd::NVMF_BAD_XRQN);
	return Result::ok();
}

Result Device::nvmf_xrq_owned(const Cmd &c, uint32_t xrqn) const
{
	if (Result r = nvmf_xrq(xrqn); r.status)
		return r;
	return owned(c, Obj::XRQ, xrqn, false);
}

Result Device::attach_nvmf_ns(Cmd &c)
{
	using in_t = prm::attach_nvmf_namespace_in;
	auto [r, in, xrqn] = nvmf_owned_in<in_t>(c);
	if (r.status)
		return r;
	uint32_t fe = (uint32_t)prm::get<in_t::frontend_namespace>(in);
	uint32_t be = (uint32_t)prm::get<in_t::backend_namespace>(in);
	if (fe == 0 || fe == NSID_BROADCAST || be == 0 || be == NSID_BROADCAST)
		return fail(synd::NVMF_BAD_NSID);
	// Bytes, as the vendor's nvmet passes it (prm/nvmf.h); log2 refused.
	uint64_t lba = prm::get<in_t::lba_data_size>(in);
	if (!lba || (prof_.nvmf.lba_size_in_bytes && (lba < 512 || (lba & (lba - 1)))))
		return fail(synd::NVMF_BAD_LBA_SIZE);
	uint16_t be_ctrl = (uint16_t)prm::get<in_t::backend_controller_id>(in);
	if (prof_.objects.check_refs && !backends.count({xrqn, be_ctrl}))
		return fail(synd::NVMF_NS_NO_BACKEND);
	if (namespaces.count({xrqn, fe}))
		return fail(synd::NVMF_NS_EXISTS);
	if (namespaces.size() >= prof_.nvmf.max_namespaces)
		return fail(synd::NVMF_NS_LIMIT);
	if (auto x = xrqs.find(xrqn); x != xrqs.end()) {
		uint64_t on_xrq = 0;
		for (const auto &[key, ns] : namespaces)
			on_xrq += key.first == xrqn;
		if (on_xrq >= (1ull << x->second.log_max_namespace))
			return fail(synd::NVMF_NS_LIMIT);
	}
	Namespace &ns = namespaces[{xrqn, fe}];
	ns.backend_nsid = be;
	ns.lba_data_size = (uint16_t)prm::get<in_t::lba_data_size>(in);
	ns.backend_ctrl = be_ctrl;
	return Result::ok();
}

Result Device::detach_nvmf_ns(Cmd &c)
{
	using in_t = prm::detach_nvmf_namespace_in;
	auto [r, in, xrqn] = nvmf_owned_in<in_t>(c);
	if (r.status)
		return r;
	if (!namespaces.erase({xrqn, (uint32_t)prm::get<in_t::frontend_namespace>(in)}))
		return fail(synd::NVMF_NS_UNKNOWN_DETACH);
	return Result::ok();
}

Result Device::query_nvmf_ns(Cmd &c)
{
	using in_t = prm::query_nvmf_namespace_in;
	using ctx_t = prm::nvmf_frontend_namespace_context;
	CRef<in_t> in(c.in);
	uint32_t xrqn = (uint32_t)prm::get<in_t::xrqn>(in);
	if (Result r = nvmf_xrq(xrqn); r.status)
		return r;
	auto it = namespaces.find({xrqn, (uint32_t)prm::get<in_t::frontend_namespace>(in)});
	if (Result r = known_owned(c, it != namespaces.end(), synd::NVMF_NS_UNKNOWN_QUERY, Obj::XRQ, xrqn, true);
	    r.status)
		return r;
	const NvmfCounters &k = it->second.c;
	Ref<ctx_t> ctx = prm::sub<prm::query_nvmf_namespace_out::ns_ctx, ctx_t>(Ref<prm::query_nvmf_namespace_out>(c.out));
#define CXPRM_EMU_SET64_(name, v)                                          \
	prm::set<ctx_t::name##_high>(ctx, (uint32_t)((v) >> 32));          \
	prm::set<ctx_t::name##_low>(ctx, (uint32_t)(v))
	CXPRM_EMU_SET64_(num_read_cmd, k.read_cmds);
	CXPRM_EMU_SET64_(num_read_blocks, k.read_blocks);
	CXPRM_EMU_SET64_(num_write_cmd, k.write_cmds);
	CXPRM_EMU_SET64_(num_write_blocks, k.write_blocks);
	CXPRM_EMU_SET64_(num_write_inline_cmd, k.write_inline_cmds);
	CXPRM_EMU_SET64_(num_flush_cmd, k.flush_cmds);
	CXPRM_EMU_SET64_(num_error_cmd, k.error_cmds);
	CXPRM_EMU_SET64_(num_backend_error_cmd, k.backend_error_cmds);
#undef CXPRM_EMU_SET64_
	prm::set<ctx_t::current_q_depth>(ctx, k.current_q_depth);
	if (cap_cur<prm::nvmf_cap::last_req_latency>()) {
		prm::set<ctx_t::last_read_req_latency>(ctx, k.last_read_latency);
		prm::set<ctx_t::last_write_req_latency>(ctx, k.last_write_latency);
	}
	return Result::ok();
}

bool Device::simulate_nvmf_io(uint32_t xrqn, uint32_t nsid, const NvmfIo &io)
{
	auto it = namespaces.find({xrqn, nsid});
	if (it == namespaces.end())
		return false;
	// Refused at the frontend (a bad capsule): never reach the backend.
	it->second.c.error_cmds += io.error_cmds;
	auto be = backends.find({xrqn, it->second.backend_ctrl});
	auto x = xrqs.find(xrqn);
	backend_io(it->second, be == backends.end() ? nullptr : &be->second,
		   x == xrqs.end() ? 0 : x->second.info.staging_pa, io);
	return true;
}

} // namespace cxprm::emu
