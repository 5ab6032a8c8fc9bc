// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The Emulator's inspection getters: each takes the lock and reads the
// device model (emulator_impl.h).
#include "emulator_impl.h"

#include "cxprm/copy_fields.h"

namespace cxprm::emu {

// --- inspection ---

#define CXPRM_EMU_LOCKED_ std::lock_guard<std::mutex> g_(impl_->mu)

namespace {
// Whether objects holds key; if so and out is given, *out is part(its value).
template <class M, class K, class T, class Part> bool copy_found(const M &objects, const K &key, T *out, Part part)
{
	auto it = objects.find(key);
	if (it == objects.end())
		return false;
	if (out)
		*out = part(it->second);
	return true;
}
} // namespace

HcaState Emulator::hca_state() const { CXPRM_EMU_LOCKED_; return impl_->dev.state; }
uint16_t Emulator::current_issi() const { CXPRM_EMU_LOCKED_; return impl_->dev.issi; }
bool Emulator::initializing() const { CXPRM_EMU_LOCKED_; return impl_->initializing || impl_->cmdq_initializing; }
uint64_t Emulator::cmdq_address() const { CXPRM_EMU_LOCKED_; return impl_->last_cmdq_addr; }
bool Emulator::crashed() const { CXPRM_EMU_LOCKED_; return impl_->crashed; }
bool Emulator::sw_resetting() const { CXPRM_EMU_LOCKED_; return impl_->sw_reset; }
bool Emulator::gone() const { CXPRM_EMU_LOCKED_; return impl_->gone; }
uint32_t Emulator::health_counter() const { CXPRM_EMU_LOCKED_; return impl_->gone ? 0xffffff : impl_->iseg.health_counter(); }
uint64_t Emulator::pages_held() const { CXPRM_EMU_LOCKED_; return impl_->dev.pages.size(); }
uint64_t Emulator::pages_held(uint16_t function_id, bool ec_function) const
{
	CXPRM_EMU_LOCKED_;
	return impl_->dev.pages_held(Device::fn_key(function_id, ec_function));
}
bool Emulator::function_exists(uint16_t function_id, bool ec_function) const
{
	CXPRM_EMU_LOCKED_;
	uint32_t key = Device::fn_key(function_id, ec_function);
	return key == impl_->dev.self_key() || impl_->dev.other(key);
}
bool Emulator::function_enabled(uint16_t function_id, bool ec_function) const
{
	CXPRM_EMU_LOCKED_;
	uint32_t key = Device::fn_key(function_id, ec_function);
	if (key == impl_->dev.self_key())
		return impl_->dev.state != HcaState::DISABLED;
	const OtherFunction *f = impl_->dev.other(key);
	return f && f->enabled;
}
uint64_t Emulator::pages_given_total() const { CXPRM_EMU_LOCKED_; return impl_->dev.pages_given; }
uint64_t Emulator::pages_taken_total() const { CXPRM_EMU_LOCKED_; return impl_->dev.pages_taken; }
std::vector<uint64_t> Emulator::held_pages() const { CXPRM_EMU_LOCKED_; return impl_->dev.pages; }
int32_t Emulator::pages_wanted(uint16_t op_mod) const { CXPRM_EMU_LOCKED_; return impl_->dev.pages_wanted(op_mod); }
uint64_t Emulator::commands_processed() const { CXPRM_EMU_LOCKED_; return impl_->dev.counters.commands_processed; }
std::map<uint16_t, uint64_t> Emulator::opcode_counts() const { CXPRM_EMU_LOCKED_; return impl_->dev.opcode_counts; }
uint8_t Emulator::last_delivery_status() const { CXPRM_EMU_LOCKED_; return impl_->last_delivery; }
uint8_t Emulator::last_status() const { CXPRM_EMU_LOCKED_; return impl_->dev.last_status; }
uint32_t Emulator::last_syndrome() const { CXPRM_EMU_LOCKED_; return impl_->dev.last_syndrome; }
Counters Emulator::counters() const { CXPRM_EMU_LOCKED_; return impl_->dev.counters; }
uint32_t Emulator::uar_count() const { CXPRM_EMU_LOCKED_; return (uint32_t)impl_->dev.uars.size(); }
uint32_t Emulator::eq_count() const { CXPRM_EMU_LOCKED_; return (uint32_t)impl_->dev.eqs.size(); }
uint32_t Emulator::dct_count() const
{
	CXPRM_EMU_LOCKED_;
	uint32_t prov_dcts = 0, prov_ns = 0;
	impl_->dev.provisioned_alive(&prov_dcts, &prov_ns);
	return (uint32_t)impl_->dev.dcts.size() - prov_dcts;
}
bool Emulator::roce_enabled() const { CXPRM_EMU_LOCKED_; return impl_->dev.roce_en; }
uint32_t Emulator::gid_count() const { CXPRM_EMU_LOCKED_; return (uint32_t)impl_->dev.gids.size(); }

bool Emulator::gid_entry(uint8_t port, uint16_t index, std::array<uint8_t, 32> *out) const
{
	CXPRM_EMU_LOCKED_;
	auto it = impl_->dev.gids.find(std::make_pair(port, index));
	if (it == impl_->dev.gids.end())
		return false;
	if (out)
		*out = it->second;
	return true;
}

uint16_t Emulator::num_vfs() const { CXPRM_EMU_LOCKED_; return impl_->dev.num_vfs; }
uint32_t Emulator::nvmf_namespace_count() const
{
	CXPRM_EMU_LOCKED_;
	uint32_t prov_dcts = 0, prov_ns = 0;
	impl_->dev.provisioned_alive(&prov_dcts, &prov_ns);
	return (uint32_t)impl_->dev.namespaces.size() - prov_ns;
}

ObjectCounts Emulator::object_counts() const
{
	CXPRM_EMU_LOCKED_;
	const Device &d = impl_->dev;
	ObjectCounts p = d.provisioned_alive(nullptr, nullptr);
	return ObjectCounts{(uint32_t)d.pds.size() - p.pds,   (uint32_t)d.cqs.size() - p.cqs,
			    (uint32_t)d.srqs.size() - p.srqs, (uint32_t)d.xrqs.size() - p.xrqs,
			    (uint32_t)d.qps.size() - p.qps,   (uint32_t)d.backends.size() - p.backends};
}

bool Emulator::provisioned(Provisioned *out) const
{
	CXPRM_EMU_LOCKED_;
	if (out)
		*out = impl_->dev.prov;
	return impl_->dev.prov.active;
}

uint32_t Emulator::uctx_count() const { CXPRM_EMU_LOCKED_; return (uint32_t)impl_->dev.uctxs.size(); }

bool Emulator::uctx_cap(uint16_t uid, uint32_t *cap) const
{
	CXPRM_EMU_LOCKED_;
	return copy_found(impl_->dev.uctxs, uid, cap, [](const Uctx &u) { return u.cap; });
}
bool Emulator::checksums_enabled() const { CXPRM_EMU_LOCKED_; return impl_->dev.checksums_enabled(); }
std::array<uint32_t, 4> Emulator::last_sw_owner_id() const { CXPRM_EMU_LOCKED_; return impl_->dev.sw_owner_id; }

uint64_t Emulator::opcode_count(uint16_t opcode) const
{
	CXPRM_EMU_LOCKED_;
	auto it = impl_->dev.opcode_counts.find(opcode);
	return it == impl_->dev.opcode_counts.end() ? 0 : it->second;
}

bool Emulator::eq_info(uint8_t eqn, EqInfo *out) const
{
	CXPRM_EMU_LOCKED_;
	return copy_found(impl_->dev.eqs, eqn, out, [](const Eq &eq) {
		EqInfo i;
		CXPRM_COPY_FIELDS(i, eq, eqn, log_size, uar, intr, producer, consumer, armed, overruns);
		i.event_bitmask = eq.mask; // renamed
		return i;
	});
}

bool Emulator::dct_state(uint32_t dctn, DctState *out) const
{
	CXPRM_EMU_LOCKED_;
	return copy_found(impl_->dev.dcts, dctn, out, [](const Dct &d) { return d.state; });
}

bool Emulator::xrq_info(uint32_t xrqn, XrqInfo *out) const
{
	CXPRM_EMU_LOCKED_;
	return copy_found(impl_->dev.xrqs, xrqn, out, [](const Xrq &x) { return x.info; });
}

bool Emulator::nvmf_backend(uint32_t xrqn, uint16_t id, NvmfBackendInfo *out) const
{
	CXPRM_EMU_LOCKED_;
	return copy_found(impl_->dev.backends, std::make_pair(xrqn, id), out,
			  [](const NvmfBackendInfo &b) { return b; });
}

bool Emulator::nvme_queue(uint16_t qid, NvmeQueueInfo *out) const
{
	CXPRM_EMU_LOCKED_;
	return impl_->dev.ssd.queue(qid, out);
}

bool Emulator::nvme_take_queue(uint16_t qid, NvmeQueueInfo *out)
{
	CXPRM_EMU_LOCKED_;
	return impl_->dev.ssd.reset_queue(qid) && impl_->dev.ssd.queue(qid, out);
}

NvmeSsdStats Emulator::nvme_stats() const
{
	CXPRM_EMU_LOCKED_;
	return impl_->dev.ssd.stats();
}

bool Emulator::nvmf_counters(uint32_t xrqn, uint32_t nsid, NvmfCounters *out) const
{
	CXPRM_EMU_LOCKED_;
	return copy_found(impl_->dev.namespaces, std::make_pair(xrqn, nsid), out,
			  [](const Namespace &ns) { return ns.c; });
}

std::vector<uint8_t> Emulator::cap_cur(uint16_t type) const
{
	CXPRM_EMU_LOCKED_;
	auto it = impl_->dev.caps.find(type);
	if (it == impl_->dev.caps.end())
		return {};
	return std::vector<uint8_t>(it->second.cur.begin(), it->second.cur.end());
}

#undef CXPRM_EMU_LOCKED_

} // namespace cxprm::emu
