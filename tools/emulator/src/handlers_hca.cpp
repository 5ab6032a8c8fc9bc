// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The HCA life cycle: ENABLE_HCA, QUERY/SET_ISSI, QUERY/SET_HCA_CAP,
// INIT_HCA, TEARDOWN_HCA, DISABLE_HCA; QUERY_ADAPTER, SET_DRIVER_VERSION, NOP.
//
//   DISABLED --ENABLE_HCA--> ENABLED --INIT_HCA--> INITIALIZED
//   INITIALIZED --TEARDOWN_HCA--> TORN_DOWN --DISABLE_HCA--> DISABLED
//   ENABLED --DISABLE_HCA--> DISABLED
#include <algorithm>
#include <cstring>

#include "emu_device.h"

#include "cxprm/prm/adapter.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/issi.h"

namespace cxprm::emu {

using prm::CRef;
using prm::Ref;

void Device::drop_objects()
{
	// ProvisionProfile's objects are not the driver's: never leaked.
	// User contexts left alive are (a driver destroys what it creates).
	uint32_t prov_dcts = 0, prov_ns = 0;
	uint64_t theirs = provisioned_alive(&prov_dcts, &prov_ns).total() + prov_dcts + prov_ns;
	counters.objects_leaked += eqs.size() + uars.size() + dcts.size() + namespaces.size() + pds.size() +
				   cqs.size() + srqs.size() + xrqs.size() + qps.size() + backends.size() +
				   uctxs.size() - theirs;
	uctxs.clear();
	owners.clear();
	prov = Provisioned{};
	eqs.clear();
	uars.clear();
	dcts.clear();
	namespaces.clear();
	pds.clear();
	cqs.clear();
	srqs.clear();
	xrqs.clear();
	qps.clear();
	qpn_floor = dctn_floor = NumberFloor{};
	backends.clear();
	roce_en = false;
	gids.clear();
}

Result Device::enable_hca(Cmd &c)
{
	uint32_t key = fn_key_of<prm::enable_hca_in>(c);
	if (key != self_key()) {
		OtherFunction *f = other(key);
		return f ? enable_other(*f) : fail(synd::ENABLE_BAD_FUNCTION);
	}
	if (state != HcaState::DISABLED)
		return fail(synd::WRONG_STATE);
	// A fresh function: default ISSI, the profile's capabilities, page demand.
	state = HcaState::ENABLED;
	issi = 0;
	caps = prof_.caps;
	reset_pages();
	return Result::ok();
}

Result Device::disable_hca(Cmd &c)
{
	uint32_t key = fn_key_of<prm::disable_hca_in>(c);
	if (key != self_key()) {
		OtherFunction *f = other(key);
		return f ? disable_other(key, *f) : fail(synd::DISABLE_BAD_FUNCTION);
	}
	if (state != HcaState::ENABLED && state != HcaState::TORN_DOWN)
		return fail(synd::WRONG_STATE);
	release_function();
	return Result::ok();
}

void Device::release_function(bool reset)
{
	// Pages the driver did not reclaim at DISABLE_HCA: an error (the
	// daemon's exit line shows it).  A function reset just drops them.
	if (reset)
		counters.pages_dropped_at_reset += pages.size();
	else
		counters.pages_leaked += pages.size();
	pages.clear();
	page_set.clear();
	drop_other_pages();
	drop_objects();
	state = HcaState::DISABLED;
	owed_boot = owed_init = owed_regular = owed_release = 0;
}

void Device::function_reset()
{
	release_function(true);
	fatal_synd = 0;
	issi = 0;
}

Result Device::query_issi(Cmd &c)
{
	Ref<prm::query_issi_out> out(c.out);
	prm::set<prm::query_issi_out::current_issi>(out, issi);
	prm::set<prm::query_issi_out::supported_issi_dw0>(out, prof_.issi_mask);
	return Result::ok();
}

Result Device::set_issi(Cmd &c)
{
	uint32_t v = (uint32_t)prm::get<prm::set_issi_in::current_issi>(CRef<prm::set_issi_in>(c.in));
	if (v >= 32 || !(prof_.issi_mask & (1u << v)))
		return fail(synd::SET_ISSI_UNSUPPORTED);
	issi = (uint16_t)v;
	return Result::ok();
}

Result Device::init_hca(Cmd &c)
{
	CRef<prm::init_hca_in> in(c.in);
	if (prof_.init_requires_issi && (prof_.issi_mask & 0x2) && issi != 1)
		return fail(synd::INIT_ISSI_NOT_SET);
	if (owed_boot > 0)
		return fail(synd::INIT_BOOT_PAGES_MISSING);
	if (owed_init > 0)
		return fail(synd::INIT_INIT_PAGES_MISSING);
	const uint8_t *owner = prm::bytes<prm::init_hca_in::sw_owner_id>(in);
	bool owner_set = false;
	for (uint32_t i = 0; i < prm::init_hca_in::sw_owner_id::width / 8; i++)
		owner_set |= owner[i] != 0;
	if (owner_set && !cap_cur<prm::cmd_hca_cap::sw_owner_id>())
		return fail(synd::INIT_BAD_SW_OWNER);
	for (uint32_t i = 0; i < 4; i++)
		sw_owner_id[i] = load_be32(owner + 4 * i);
	state = HcaState::INITIALIZED;
	owed_regular = prof_.regular_pages;
	if (prof_.provision.enabled)
		provision();
	return Result::ok();
}

Result Device::teardown_hca(Cmd &c)
{
	uint32_t profile = (uint32_t)prm::get<prm::teardown_hca_in::profile>(CRef<prm::teardown_hca_in>(c.in));
	Ref<prm::teardown_hca_out> out(c.out);
	switch (profile) {
	case prm::teardown_profile::GRACEFUL_CLOSE:
	case prm::teardown_profile::FORCE_CLOSE:
		// Objects the driver did not destroy die with the HCA (counted).
		drop_objects();
		state = HcaState::TORN_DOWN;
		owed_boot = owed_init = owed_regular = owed_release = 0;
		prm::set<prm::teardown_hca_out::state>(out, prm::teardown_state::SUCCESS);
		return Result::ok();
	case prm::teardown_profile::PREPARE_FAST_TEARDOWN:
		// mlx5_cmd_fast_teardown_hca: SUCCESS here, then the driver writes
		// nic_interface = DISABLED into cmdq_addr_l_sz and polls it back;
		// the emulator's step sees the write and completes the teardown
		// (finish_fast_teardown).  Only with the capability.
		if (!cap_cur<prm::cmd_hca_cap::fast_teardown>())
			return fail(synd::TEARDOWN_FAST_UNSUPPORTED);
		fast_teardown_prepared = true;
		prm::set<prm::teardown_hca_out::state>(out, prm::teardown_state::SUCCESS);
		return Result::ok();
	}
	return fail(synd::TEARDOWN_BAD_PROFILE);
}

void Device::finish_fast_teardown()
{
	// Firmware stops using host memory: the pages are released (not
	// leaked, mlx5_core never takes them back after a fast teardown), the
	// objects die with the function, which is DISABLED until the driver
	// programs the command queue again.
	counters.pages_released_fast_teardown += pages.size();
	pages.clear();
	page_set.clear();
	uint64_t leaked = counters.objects_leaked;
	drop_objects();
	counters.objects_leaked = leaked;
	state = HcaState::DISABLED;
	owed_boot = owed_init = owed_regular = 0;
	fast_teardown_prepared = false;
	counters.fast_teardowns++;
}

Result Device::query_hca_cap(Cmd &c)
{
	CRef<prm::query_hca_cap_in> in(c.in);
	uint16_t type = c.op_mod >> 1;
	bool cur = c.op_mod & 1;
	auto it = caps.find(type);
	if (it == caps.end())
		return fail(synd::QUERY_CAP_BAD_TYPE);
	uint32_t fn = (uint32_t)prm::get<prm::query_hca_cap_in::function_id>(in);
	if (prm::get<prm::query_hca_cap_in::other_function>(in)) {
		// An eswitch manager may read the (identical) caps of the
		// functions it manages: its VFs, and on an ECPF the external
		// host PF (function_id 0; Linux 7.x eswitch init,
		// mlx5_esw_vport_caps_get for the PF vport).
		bool host_pf = fn == 0 && other(fn_key(0, false)) != nullptr;
		if (!cap_cur<prm::cmd_hca_cap::vport_group_manager>() || (fn == 0 && !host_pf) || fn > num_vfs)
			return fail(synd::QUERY_CAP_BAD_FUNCTION);
	} else if (fn != 0) {
		return fail(synd::QUERY_CAP_BAD_FUNCTION);
	}
	const auto &img = cur ? it->second.cur : it->second.max;
	static_assert(sizeof(img) == prm::HCA_CAP_BYTES);
	std::memcpy(prm::bytes<prm::query_hca_cap_out::capability>(Ref<prm::query_hca_cap_out>(c.out)), img.data(),
		    img.size());
	return Result::ok();
}

namespace {

// One settable field: take the driver's value if it is within MAX.
template <class F> bool take_le_max(const CapImages &img, const uint8_t *want, uint8_t *next)
{
	using L = typename F::layout;
	uint64_t v = prm::get<F>(CRef<L>(want));
	if (v > prm::get<F>(CRef<L>(img.max.data())))
		return false;
	prm::set<F>(Ref<L>(next), v);
	return true;
}

template <class... Fs> bool take_all_le_max(const CapImages &img, const uint8_t *want, uint8_t *next)
{
	return (take_le_max<Fs>(img, want, next) && ...);
}

} // namespace

Result Device::set_hca_cap(Cmd &c)
{
	CRef<prm::set_hca_cap_in> in(c.in);
	uint16_t type = c.op_mod >> 1;
	auto it = caps.find(type);
	if (it == caps.end())
		return fail(synd::SET_CAP_BAD_TYPE);
	if (prm::get<prm::set_hca_cap_in::other_function>(in) || prm::get<prm::set_hca_cap_in::function_id>(in))
		return fail(synd::SET_CAP_OTHER_FUNCTION);
	const uint8_t *want = prm::bytes<prm::set_hca_cap_in::capability>(in);
	CapImages &img = it->second;
	std::array<uint8_t, 4096> next = img.cur;

	// Settable fields are taken within MAX; every other field keeps its
	// CUR value whatever the driver wrote (drivers echo CUR back).
	if (type == prm::cap::GENERAL) {
		using cap = prm::cmd_hca_cap;
		uint64_t csum = prm::get<cap::cmdif_checksum>(CRef<cap>(want));
		if (csum != 0 && csum != prm::get<cap::cmdif_checksum>(CRef<cap>(img.max.data())))
			return fail(synd::SET_CAP_BAD_CHECKSUM);
		prm::set<cap::cmdif_checksum>(Ref<cap>(next.data()), csum);
		if (!take_all_le_max<cap::log_uar_page_sz, cap::uar_4k, cap::pkey_table_size, cap::log_max_qp,
				     cap::cache_line_128byte, cap::dct, cap::roce, cap::atomic,
				     cap::release_all_pages, cap::event_cap, cap::num_vhca_ports,
				     cap::relaxed_ordering_write, cap::relaxed_ordering_read>(img, want,
											      next.data()))
			return fail(synd::SET_CAP_ABOVE_MAX);
		// uar_4k only makes sense with system pages over 4 KiB (Linux sets
		// it only then); uar_4k + 4 KiB pages is refused when strict.
		if (prof_.strict_uar_page_size && prm::get<cap::uar_4k>(CRef<cap>(next.data())) &&
		    prm::get<cap::log_uar_page_sz>(CRef<cap>(next.data())) == 0)
			return fail(synd::SET_CAP_UAR_4K_SMALL_PAGE);
		// UAR pages of the system page size (no uar_4k, log_uar_page_sz > 0:
		// a ConnectX-4 on a 16/64 KiB host) would move every UAR in the BAR;
		// the emulator's BAR map has 4 KiB UAR pages only.  Every profile
		// offers uar_4k, which Linux then sets, so only a driver that
		// departs from Linux gets here.
		if (!prm::get<cap::uar_4k>(CRef<cap>(next.data())) &&
		    prm::get<cap::log_uar_page_sz>(CRef<cap>(next.data())) != 0)
			return fail(synd::SET_CAP_UAR_PAGE_NOT_MODELLED);
	}
	img.cur = next;
	return Result::ok();
}

Result Device::query_adapter(Cmd &c)
{
	using pb = prm::query_adapter_param_block;
	Ref<pb> blk = prm::sub<prm::query_adapter_out::query_adapter_struct, pb>(Ref<prm::query_adapter_out>(c.out));
	prm::set<pb::ieee_vendor_id>(blk, prof_.ieee_vendor_id);
	prm::set<pb::vsd_vendor_id>(blk, prof_.vendor_id);
	std::memcpy(prm::bytes<pb::vsd>(blk), prof_.vsd.data(),
		    std::min<size_t>(prof_.vsd.size(), pb::vsd::width / 8));
	std::memcpy(prm::bytes<pb::vsd_contd_psid>(blk), prof_.psid.data(),
		    std::min<size_t>(prof_.psid.size(), pb::vsd_contd_psid::width / 8));
	return Result::ok();
}

Result Device::set_driver_version(Cmd &c)
{
	(void)c;
	if (!cap_cur<prm::cmd_hca_cap::driver_version>())
		return fail(synd::FEATURE_OFF);
	return Result::ok();
}

Result Device::nop(Cmd &c)
{
	(void)c;
	return Result::ok();
}

} // namespace cxprm::emu
