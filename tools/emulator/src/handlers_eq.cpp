// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ALLOC_UAR / DEALLOC_UAR and CREATE / DESTROY / QUERY_EQ.
//
// UAR page i is BAR bytes [i * 4096, + 4096) (indices from FIRST_UAR); an EQ's doorbell is
// at +0x40 (arm) / +0x48 (no arm) of its uar_page.  An EQ ring is
// 2^log_eq_size 64-byte entries in host memory, described by pas[] entries
// of 4 KiB << log_page_size each (page_offset must be 0).
#include <algorithm>

#include "emu_device.h"

#include "cxprm/prm/eq.h"
#include "cxprm/prm/transport.h"
#include "cxprm/prm/flex.h"
#include "layout_check.h"

namespace cxprm::emu {

using prm::CRef;
using prm::Ref;

namespace {
constexpr uint16_t SHARED_RESOURCE_UID = 0xffff;
constexpr uint8_t EQ_STATE_ARMED = 0x9, EQ_STATE_FIRED = 0xa;
constexpr uint32_t MAX_LOG_PAGE_SIZE = 18; // 1 GiB pages

// Whether a CQ the driver made (a provisioned one's EQ and UAR are not
// modelled) has field f (its UAR or EQ) at v: that UAR or EQ is in use.
bool driver_cq_on(const std::map<uint32_t, Cq> &cqs, uint32_t Cq::*f, uint32_t v)
{
	for (const auto &[cqn, cq] : cqs)
		if (cq.*f == v && !cq.provisioned)
			return true;
	return false;
}

// DEALLOC_UAR and DESTROY_EQ: number n leaves 'objects' (a set or a map)
// unless it is not there ('unknown') or in use ('busy').
template <class M, class N> Result release_unused(M &objects, N n, uint32_t unknown, bool in_use, uint32_t busy)
{
	if (!objects.count(n))
		return fail(unknown);
	if (in_use)
		return fail(busy);
	objects.erase(n);
	return Result::ok();
}
} // namespace

Result Device::alloc_uar(Cmd &c)
{
	uint32_t lim = uar_limit();
	uint32_t idx = bar_map::FIRST_UAR;
	while (idx < bar_map::FIRST_UAR + lim && uars.count(idx))
		idx++;
	if (idx >= bar_map::FIRST_UAR + lim)
		return fail(synd::UAR_EXHAUSTED);
	uars.insert(idx);
	uint32_t base = idx * bar_map::UAR_SIZE;
	bar_.write32(base + bar_map::UAR_EQ_DB_ARM, bar_map::EQ_DB_IDLE);
	bar_.write32(base + bar_map::UAR_EQ_DB_NOARM, bar_map::EQ_DB_IDLE);
	prm::set<prm::alloc_uar_out::uar>(Ref<prm::alloc_uar_out>(c.out), idx);
	return Result::ok();
}

Result Device::dealloc_uar(Cmd &c)
{
	uint32_t idx = (uint32_t)prm::get<prm::dealloc_uar_in::uar>(CRef<prm::dealloc_uar_in>(c.in));
	// In use while an EQ, or a CQ the driver made, is on it.
	bool used = std::any_of(eqs.begin(), eqs.end(), [idx](const auto &e) { return e.second.uar == idx; }) ||
		    driver_cq_on(cqs, &Cq::uar, idx);
	return release_unused(uars, idx, synd::UAR_UNKNOWN, used, synd::UAR_IN_USE);
}

Result Device::create_eq(Cmd &c)
{
	using tail = prm::create_eq_in_pas;
	using eqc = prm::eqc;
	CRef<prm::create_eq_in> in(c.in);
	CRef<eqc> ctx = prm::sub<prm::create_eq_in::eq_context_entry, eqc>(in);

	if (c.uid != 0 && c.uid != SHARED_RESOURCE_UID)
		return fail(synd::EQ_BAD_UID);
	if (!reserved_clear<eqc>(ctx.p))
		return fail(synd::EQC_RESERVED);
	Eq eq;
	eq.uid = c.uid;
	eq.log_size = (uint8_t)prm::get<eqc::log_eq_size>(ctx);
	eq.log_page_size = (uint8_t)prm::get<eqc::log_page_size>(ctx);
	eq.uar = (uint32_t)prm::get<eqc::uar_page>(ctx);
	eq.intr = (uint16_t)prm::get<eqc::intr>(ctx);
	eq.oi = prm::get<eqc::oi>(ctx);
	eq.ec = prm::get<eqc::ec>(ctx);
	eq.armed = prm::get<eqc::st>(ctx) == EQ_STATE_ARMED;

	if (eq.log_size > cap_cur<prm::cmd_hca_cap::log_max_eq_sz>())
		return fail(synd::EQ_BAD_LOG_SIZE);
	if (!uars.count(eq.uar))
		return fail(synd::EQ_BAD_UAR);
	if (eq.intr >= prof_.num_irq_vectors)
		return fail(synd::EQ_BAD_INTR);
	if (prm::get<eqc::page_offset>(ctx) != 0)
		return fail(synd::EQ_BAD_PAGE_OFFSET);
	if (eq.log_page_size > MAX_LOG_PAGE_SIZE)
		return fail(synd::EQ_BAD_LOG_PAGE_SIZE);

	const uint64_t ring = (uint64_t)prm::EQE_BYTES << eq.log_size;
	const uint64_t pgsz = (uint64_t)prm::ADAPTER_PAGE_SIZE << eq.log_page_size;
	const uint64_t npas = (ring + pgsz - 1) / pgsz;
	if (npas > tail::entries_in(c.inlen))
		return fail(synd::EQ_PAS_INLEN);
	for (uint32_t i = 0; i < npas; i++) {
		if (!reserved_clear<prm::cmd_pas>(prm::tail_entry<tail>(in, i)))
			return fail(synd::EQ_PAS_UNALIGNED);
		uint64_t pa = prm::get_pas<tail>(in, i);
		if (pa & (pgsz - 1))
			return fail(synd::EQ_PAS_UNALIGNED);
		eq.pas.push_back(pa);
	}

	const uint8_t *mask = prm::bytes<prm::create_eq_in::event_bitmask>(in);
	for (uint32_t i = 0; i < eq.mask.size(); i++)
		eq.mask[i] = load_be64(mask + 8 * i);

	uint32_t max_eqs = (uint32_t)cap_cur<prm::cmd_hca_cap::max_num_eqs>();
	if (!max_eqs)
		max_eqs = 1u << cap_cur<prm::cmd_hca_cap::log_max_eq>();
	max_eqs = std::min<uint32_t>(max_eqs, 0xff); // eqn 0xff never: EQ_DB_IDLE
	uint32_t eqn = 0;
	while (eqn < max_eqs && eqs.count((uint8_t)eqn))
		eqn++;
	if (eqn >= max_eqs)
		return fail(synd::EQ_NO_EQN);
	eq.eqn = (uint8_t)eqn;
	eqs[eq.eqn] = std::move(eq);
	prm::set<prm::create_eq_out::eq_number>(Ref<prm::create_eq_out>(c.out), eqn);
	return Result::ok();
}

Result Device::destroy_eq(Cmd &c)
{
	uint8_t eqn = (uint8_t)prm::get<prm::destroy_eq_in::eq_number>(CRef<prm::destroy_eq_in>(c.in));
	return release_unused(eqs, eqn, synd::EQ_UNKNOWN_DESTROY, driver_cq_on(cqs, &Cq::eqn, eqn), synd::EQ_IN_USE);
}

Result Device::query_eq(Cmd &c)
{
	using tail = prm::query_eq_out_pas;
	using eqc = prm::eqc;
	uint8_t eqn = (uint8_t)prm::get<prm::query_eq_in::eq_number>(CRef<prm::query_eq_in>(c.in));
	auto it = eqs.find(eqn);
	// EQs are the kernel's (CREATE_EQ is: handlers_uctx.cpp).
	if (Result r = known_owned(c, it != eqs.end(), synd::EQ_UNKNOWN_QUERY, Obj::EQ, eqn, true); r.status)
		return r;
	const Eq &eq = it->second;
	Ref<prm::query_eq_out> out(c.out);
	Ref<eqc> ctx = prm::sub<prm::query_eq_out::eq_context_entry, eqc>(out);
	prm::set<eqc::ec>(ctx, eq.ec);
	prm::set<eqc::oi>(ctx, eq.oi);
	prm::set<eqc::st>(ctx, eq.armed ? EQ_STATE_ARMED : EQ_STATE_FIRED);
	prm::set<eqc::log_eq_size>(ctx, eq.log_size);
	prm::set<eqc::uar_page>(ctx, eq.uar);
	prm::set<eqc::intr>(ctx, eq.intr);
	prm::set<eqc::log_page_size>(ctx, eq.log_page_size);
	prm::set<eqc::consumer_counter>(ctx, eq.consumer);
	prm::set<eqc::producer_counter>(ctx, eq.producer); // set<> keeps the low 24 bits
	prm::set<prm::query_eq_out::event_bitmask>(out, eq.mask[0]);
	uint32_t fit = std::min<uint32_t>((uint32_t)eq.pas.size(), tail::entries_in(c.outlen));
	for (uint32_t i = 0; i < fit; i++)
		prm::set_pas<tail>(out, i, eq.pas[i]);
	return Result::ok();
}

} // namespace cxprm::emu
