// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Dynamically Connected Targets: CREATE / DESTROY / DRAIN / QUERY_DCT and
// ARM_DCT_FOR_KEY_VIOLATION.  DCT numbers come from the profile's range;
// DRAIN_DCT moves ACTIVE -> DRAINING, and a later step (after
// dct.drain_delay_us) moves it to DRAINED and posts DCT_DRAINED (0x1c) with
// the DCT number.  The PD, CQ and SRQ (or XRQ) a DCT names must exist
// (handlers_objects.cpp; lenient object model: any nonzero number), and
// cannot be destroyed while it does.  Unknown DCT numbers answer BAD_RES.
#include <algorithm>
#include <cstring>

#include "emu_device.h"

#include "cxprm/prm/dct.h"
#include "layout_check.h"

namespace cxprm::emu {

using prm::CRef;
using prm::dctc;
using prm::Ref;

namespace {

constexpr uint32_t MTU_MIN = 1, MTU_MAX = 5; // 256 .. 4096

// The DCT a command names in its input field F, which the command's uid
// may act on (a QUERY: query), or dcts.end() with *r the failure: DCTs off
// (FEATURE_OFF), a number not in use ('unknown') or not the uid's.
template <class F> auto named_dct(Device &d, const Cmd &c, uint32_t unknown, bool query, Result *r)
{
	if (!d.cap_cur<prm::cmd_hca_cap::dct>()) {
		*r = fail(synd::FEATURE_OFF);
		return d.dcts.end();
	}
	uint32_t dctn = (uint32_t)prm::get<F>(CRef<typename F::layout>(c.in));
	auto it = d.dcts.find(dctn);
	*r = d.known_owned(c, it != d.dcts.end(), unknown, Obj::DCT, dctn, query);
	return r->status ? d.dcts.end() : it;
}

// What DESTROY, DRAIN, QUERY and ARM answer: act(the DCT's iterator) for
// the DCT named_dct() finds, else its failure.
template <class F, class Act> Result on_dct(Device &d, const Cmd &c, uint32_t unknown, bool query, Act act)
{
	Result r;
	auto it = named_dct<F>(d, c, unknown, query, &r);
	return it == d.dcts.end() ? r : act(it);
}

} // namespace

Result Device::create_dct(Cmd &c)
{
	if (!cap_cur<prm::cmd_hca_cap::dct>())
		return fail(synd::FEATURE_OFF);
	CRef<prm::create_dct_in> in(c.in);
	CRef<dctc> ctx = prm::sub<prm::create_dct_in::dct_context_entry, dctc>(in);
	if (!reserved_clear<dctc>(ctx.p))
		return fail(synd::DCTC_RESERVED);
	if (prm::get<dctc::state>(ctx) != (uint32_t)DctState::ACTIVE)
		return fail(synd::DCT_BAD_STATE_IN);
	if (!prm::get<dctc::pd>(ctx))
		return fail(synd::DCT_BAD_PD);
	if (!prm::get<dctc::cqn>(ctx))
		return fail(synd::DCT_BAD_CQN);
	if (!prm::get<dctc::srqn_xrqn>(ctx))
		return fail(synd::DCT_BAD_SRQN);
	if (!have_pd((uint32_t)prm::get<dctc::pd>(ctx)))
		return fail(synd::DCT_NO_PD);
	if (!have_cq((uint32_t)prm::get<dctc::cqn>(ctx)))
		return fail(synd::DCT_NO_CQ);
	if (!have_srq_or_xrq((uint32_t)prm::get<dctc::srqn_xrqn>(ctx)))
		return fail(synd::DCT_NO_SRQ);
	uint64_t mtu = prm::get<dctc::mtu>(ctx);
	if (mtu < MTU_MIN || mtu > MTU_MAX)
		return fail(synd::DCT_BAD_MTU);
	uint64_t port = prm::get<dctc::port>(ctx);
	if (port < 1 || port > cap_cur<prm::cmd_hca_cap::num_ports>())
		return fail(synd::DCT_BAD_PORT);
	Result rr = roce_path_ok(port, prm::get<dctc::my_addr_index>(ctx));
	if (rr.status)
		return rr;

	uint32_t dctn = dctn_floor.take(prof_.dct.first_dctn, prof_.dct.max_dcts, dcts, qps);
	if (!dctn)
		return fail(synd::DCT_EXHAUSTED);

	Dct &d = dcts[dctn];
	own(Obj::DCT, dctn, c.uid);
	std::memcpy(d.ctx.data(), ctx.p, d.ctx.size());
	d.state = DctState::ACTIVE;
	Ref<prm::create_dct_out> out(c.out);
	prm::set<prm::create_dct_out::dctn>(out, dctn);
	// ECE: echo the requested options when the device negotiates ECE.
	if (cap_cur<prm::cmd_hca_cap::ece_support>())
		prm::set<prm::create_dct_out::ece>(out, prm::get<dctc::ece>(ctx));
	else
		prm::set<dctc::ece>(Ref<dctc>(d.ctx.data()), 0);
	return Result::ok();
}

Result Device::destroy_dct(Cmd &c)
{
	return on_dct<prm::destroy_dct_in::dctn>(*this, c, synd::DCT_UNKNOWN_DESTROY, false, [&](auto it) {
		// Strict: Linux always drains and waits for DCT_DRAINED first, so
		// nothing shows firmware destroying an active DCT.
		if (prof_.dct.destroy_requires_drained && it->second.state != DctState::DRAINED)
			return fail(synd::DCT_NOT_DRAINED);
		disown(Obj::DCT, it->first);
		qpn_freed(it->first);
		dcts.erase(it);
		return Result::ok();
	});
}

Result Device::drain_dct(Cmd &c)
{
	return on_dct<prm::drain_dct_in::dctn>(*this, c, synd::DCT_UNKNOWN_DRAIN, false, [&](auto it) {
		if (it->second.state != DctState::ACTIVE)
			return fail(synd::DCT_DRAIN_NOT_ACTIVE);
		it->second.state = DctState::DRAINING;
		it->second.drained_at_ns = now_ns + (uint64_t)prof_.dct.drain_delay_us * 1000;
		next_drained_ns = std::min(next_drained_ns, it->second.drained_at_ns);
		return Result::ok();
	});
}

Result Device::query_dct(Cmd &c)
{
	return on_dct<prm::query_dct_in::dctn>(*this, c, synd::DCT_UNKNOWN_QUERY, true, [&](auto it) {
		Ref<dctc> ctx =
			prm::sub<prm::query_dct_out::dct_context_entry, dctc>(Ref<prm::query_dct_out>(c.out));
		std::memcpy(ctx.p, it->second.ctx.data(), it->second.ctx.size());
		prm::set<dctc::state>(ctx, (uint32_t)it->second.state);
		return Result::ok();
	});
}

// ARM_DCT_FOR_KEY_VIOLATION: named_dct()'s checks, nothing more.
Result Device::arm_dct(Cmd &c)
{
	return on_dct<prm::arm_dct_in::dct_number>(*this, c, synd::DCT_UNKNOWN_ARM, false,
						   [](auto) { return Result::ok(); });
}

} // namespace cxprm::emu
