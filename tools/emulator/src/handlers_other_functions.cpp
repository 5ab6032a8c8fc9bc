// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Functions other than the BAR's own (B5): the VFs of a PF (function_id
// 1..FunctionsProfile::num_vfs, embedded_cpu_function 0) and, on an ECPF,
// the external host PF (function_id 0, embedded_cpu_function 0).  The BAR's
// own function is function_id 0 with embedded_cpu_function = the profile's
// embedded_cpu; anything else does not exist (BAD_PARAM, the command's
// *_BAD_FUNCTION syndrome).
//
//  - ENABLE_HCA / DISABLE_HCA of another function need the BAR's function
//    INITIALIZED (FUNCTION_MANAGER_DOWN), and the other function in the
//    opposite state (FUNCTION_STATE).  The host PF starts enabled (its own
//    host driver) unless FunctionsProfile::host_pf_enabled is false.
//  - Its pages are asked for by PAGE_REQUEST events that name it (test
//    hooks request_pages(n, key), release_all_pages(key)); GIVE needs it
//    enabled and the BAR's function INITIALIZED (GIVE_FUNCTION_DOWN).
//  - TAKE returns what it asked back (owed < 0), everything once it is
//    disabled or the BAR's function is torn down.
//  - DISABLE_HCA of it with pages held asks for them back (a negative
//    PAGE_REQUEST for that function), as firmware does when a VF goes.
//  - The BAR's function's DISABLE_HCA or reset drops what the others still
//    hold (counted in pages_leaked) and disables the VFs.
#include <algorithm>

#include "emu_device.h"

#include "cxprm/prm/eq.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/pages.h"
#include "cxprm/prm/transport.h"
#include "layout_check.h"

namespace cxprm::emu {

using prm::CRef;
using prm::Ref;
namespace mp = prm::manage_pages_op;

uint32_t Device::self_key() const { return fn_key(0, prof_.functions.embedded_cpu); }

OtherFunction *Device::other(uint32_t key)
{
	auto it = others.find(key);
	return it == others.end() ? nullptr : &it->second;
}

const OtherFunction *Device::other(uint32_t key) const
{
	auto it = others.find(key);
	return it == others.end() ? nullptr : &it->second;
}

bool Device::page_held(uint64_t pa) const
{
	if (page_set.count(pa))
		return true;
	for (const auto &kv : others)
		if (kv.second.page_set.count(pa))
			return true;
	return false;
}

uint64_t Device::pages_held(uint32_t key) const
{
	if (key == self_key())
		return pages.size();
	const OtherFunction *f = other(key);
	return f ? f->pages.size() : 0;
}

void Device::init_functions()
{
	others.clear();
	const FunctionsProfile &fp = prof_.functions;
	for (uint32_t vf = 1; vf <= fp.num_vfs; vf++)
		others[fn_key(vf, false)] = OtherFunction{};
	if (fp.embedded_cpu && fp.external_host_pf)
		others[fn_key(0, false)].enabled = fp.host_pf_enabled;
}

void Device::drop_other_pages()
{
	for (auto &kv : others) {
		OtherFunction &f = kv.second;
		counters.pages_leaked += f.pages.size();
		f.pages.clear();
		f.page_set.clear();
		f.owed = f.release = 0;
		if (kv.first != fn_key(0, false) || !prof_.functions.embedded_cpu)
			f.enabled = false; // VFs go with their PF; the host PF is the host's
	}
}

Result Device::enable_other(OtherFunction &f)
{
	if (state != HcaState::INITIALIZED)
		return fail(synd::FUNCTION_MANAGER_DOWN);
	if (f.enabled)
		return fail(synd::FUNCTION_STATE);
	f.enabled = true;
	f.owed = f.release = 0;
	return Result::ok();
}

Result Device::disable_other(uint32_t key, OtherFunction &f)
{
	if (state != HcaState::INITIALIZED)
		return fail(synd::FUNCTION_MANAGER_DOWN);
	if (!f.enabled)
		return fail(synd::FUNCTION_STATE);
	f.enabled = false;
	f.owed = 0;
	if (!f.pages.empty()) {
		f.release = (int32_t)f.pages.size();
		post_page_request(key, -f.release, false);
	}
	return Result::ok();
}

void Device::post_page_request(uint32_t key, int32_t n, bool release_all)
{
	uint8_t data[prm::pages_req_event::size_bytes] = {};
	Ref<prm::pages_req_event> ev(data);
	prm::set<prm::pages_req_event::function_id>(ev, key & 0xffff);
	prm::set<prm::pages_req_event::ec_function>(ev, key >> 16 ? 1 : 0);
	prm::set<prm::pages_req_event::release_all>(ev, release_all ? 1 : 0);
	prm::set<prm::pages_req_event::num_pages>(ev, (uint32_t)n);
	post_event(prm::event::PAGE_REQUEST, 0, data);
}

Result Device::manage_other_pages(Cmd &c, uint32_t key, OtherFunction &f)
{
	(void)key;
	using tail_out = prm::manage_pages_out_pas;
	CRef<prm::manage_pages_in> in(c.in);
	const uint32_t n = (uint32_t)prm::get<prm::manage_pages_in::input_num_entries>(in);
	switch (c.op_mod) {
	case mp::CANT_GIVE:
		if (f.owed > 0)
			f.owed = 0;
		return Result::ok();
	case mp::GIVE: {
		if (state != HcaState::INITIALIZED || !f.enabled)
			return fail(synd::GIVE_FUNCTION_DOWN);
		if (Result r = given_pages(c, n, &f.pages, &f.page_set); r.status)
			return r;
		pages_given += n;
		f.owed -= std::min((int32_t)n, std::max(f.owed, 0));
		return Result::ok();
	}
	case mp::TAKE: {
		uint32_t releasable = (state == HcaState::TORN_DOWN || !f.enabled)
					      ? (uint32_t)f.pages.size()
					      : (uint32_t)std::max(f.release, 0);
		releasable = std::min<uint32_t>(releasable, (uint32_t)f.pages.size());
		uint32_t k = std::min(n, releasable);
		if (c.outlen < tail_out::bytes_for(k))
			return fail(synd::TAKE_OUTLEN);
		Ref<prm::manage_pages_out> out(c.out);
		for (uint32_t i = 0; i < k; i++) {
			uint64_t pa = f.pages.back();
			f.pages.pop_back();
			f.page_set.erase(pa);
			prm::set_pas<tail_out>(out, i, pa);
		}
		prm::set<prm::manage_pages_out::output_num_entries>(out, k);
		pages_taken += k;
		f.release -= std::min((int32_t)k, f.release);
		return Result::ok();
	}
	}
	return fail(synd::MANAGE_PAGES_BAD_OPMOD);
}

bool Device::request_pages(int32_t n, uint32_t key)
{
	if (key == self_key())
		return request_pages(n);
	OtherFunction *f = other(key);
	if (!f || !f->enabled || state != HcaState::INITIALIZED || n == 0)
		return false;
	if (n < 0 && (int64_t)f->release - n > (int64_t)f->pages.size() + std::max(f->owed, 0))
		return false;
	if (n > 0)
		f->owed += n;
	else
		f->release += -n;
	post_page_request(key, n, false);
	return true;
}

bool Device::release_all_pages(uint32_t key)
{
	OtherFunction *f = other(key);
	// Firmware says "release all" only to a driver that took
	// release_all_pages in SET_HCA_CAP (Linux does when MAX has it).
	if (!f || state != HcaState::INITIALIZED || !cap_cur<prm::cmd_hca_cap::release_all_pages>())
		return false;
	f->pages.clear();
	f->page_set.clear();
	f->owed = f->release = 0;
	post_page_request(key, 0, true);
	return true;
}

} // namespace cxprm::emu
