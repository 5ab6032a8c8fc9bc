// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// QUERY_PAGES / MANAGE_PAGES: the firmware's demand for host memory.
//
// Demand is three counters: boot and init pages (owed from ENABLE_HCA on;
// INIT_HCA refuses while either is still owed) and regular pages (owed from
// INIT_HCA on, raised by positive request_pages()); negative requests add
// to owed_release, what TAKE may return, kept apart so that +N then -M is
// a GIVE of N and a TAKE of M.  QUERY_PAGES(REGULAR) answers the net.
// Other functions (VFs, an ECPF's host PF): handlers_other_functions.cpp.  GIVE pays boot first, then init (before INIT_HCA) or regular
// (after); pages beyond the demand are kept too.  TAKE returns pages only
// when firmware has some to give back: before INIT_HCA (ENABLED) and after
// TEARDOWN_HCA all of them (a bring-up that stops after the boot or init
// pages takes them back, as mlx5_core's error paths do; the pages taken in
// ENABLED are owed again, so INIT_HCA needs them given anew); while
// INITIALIZED only what a negative page request released.  Pages go back
// most recently given first.
#include <algorithm>
#include <unordered_set>
#include <vector>

#include "emu_device.h"

#include "cxprm/prm/eq.h"
#include "cxprm/prm/flex.h"
#include "cxprm/prm/pages.h"
#include "cxprm/prm/transport.h"
#include "layout_check.h"

namespace cxprm::emu {

using prm::CRef;
using prm::Ref;
namespace qp = prm::query_pages_op;
namespace mp = prm::manage_pages_op;

void Device::reset_pages()
{
	pages.clear();
	page_set.clear();
	owed_boot = prof_.boot_pages;
	owed_init = prof_.init_pages;
	owed_regular = 0;
	owed_release = 0;
}

int32_t Device::pages_wanted(uint16_t op_mod) const
{
	switch (state) {
	case HcaState::DISABLED:
		return 0;
	case HcaState::TORN_DOWN:
		// Strict: firmware says nothing about what it still holds (Linux
		// never asks; it TAKEs while its own list is not empty).
		if (!prof_.torn_down_query_reports_held)
			return 0;
		return op_mod == qp::REGULAR ? -(int32_t)pages.size() : 0;
	case HcaState::ENABLED:
	case HcaState::INITIALIZED:
		break;
	}
	switch (op_mod) {
	case qp::BOOT:
		return std::max(owed_boot, 0);
	case qp::INIT:
		return std::max(owed_init, 0);
	case qp::REGULAR:
		return owed_regular - owed_release;
	}
	return 0;
}

Result Device::query_pages(Cmd &c)
{
	CRef<prm::query_pages_in> in(c.in);
	if (c.op_mod < qp::BOOT || c.op_mod > qp::REGULAR)
		return fail(synd::QUERY_PAGES_BAD_OPMOD);
	uint16_t fid = (uint16_t)prm::get<prm::query_pages_in::function_id>(in);
	uint32_t key = fn_key(fid, prm::get<prm::query_pages_in::embedded_cpu_function>(in) != 0);
	const OtherFunction *f = key == self_key() ? nullptr : other(key);
	if (key != self_key() && !f)
		return fail(synd::QUERY_PAGES_BAD_FUNCTION);
	Ref<prm::query_pages_out> out(c.out);
	prm::set<prm::query_pages_out::function_id>(out, fid);
	// Another function has only what its page requests asked for.
	int32_t n = !f ? pages_wanted(c.op_mod) : c.op_mod == qp::REGULAR ? f->owed - f->release : 0;
	prm::set<prm::query_pages_out::num_pages>(out, (uint32_t)n);
	return Result::ok();
}

// The pages a GIVE of n entries lends (to any function), checked as
// firmware does: the entries fit the input, reserved bits clear, none held
// already or twice in the batch, every page reachable.  Nothing is taken
// unless all are good.
Result Device::given_pages(const Cmd &c, uint32_t n, std::vector<uint64_t> *held, std::set<uint64_t> *held_set)
{
	using tail_in = prm::manage_pages_in_pas;
	CRef<prm::manage_pages_in> in(c.in);
	if (n > tail_in::entries_in(c.inlen))
		return fail(synd::GIVE_INLEN);
	std::vector<uint64_t> batch;
	batch.reserve(n);
	// A set, not a search of batch: a 2^18-page GIVE must not be quadratic.
	std::unordered_set<uint64_t> in_batch;
	in_batch.reserve(n);
	std::vector<uint8_t> probe(prm::ADAPTER_PAGE_SIZE);
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *e = prm::tail_entry<tail_in>(in, i);
		if (!reserved_clear<prm::cmd_pas>(e))
			return fail(synd::GIVE_UNALIGNED);
		uint64_t pa = prm::get_pas<tail_in>(in, i);
		if (page_held(pa) || !in_batch.insert(pa).second)
			return fail(synd::GIVE_DUPLICATE);
		if (!p_.dma_read(pa, probe.data(), probe.size()))
			return fail(synd::GIVE_UNREACHABLE);
		batch.push_back(pa);
	}
	held->insert(held->end(), batch.begin(), batch.end());
	held_set->insert(batch.begin(), batch.end());
	return Result::ok();
}

Result Device::manage_pages(Cmd &c)
{
	using tail_out = prm::manage_pages_out_pas;
	CRef<prm::manage_pages_in> in(c.in);
	if (c.op_mod > mp::TAKE)
		return fail(synd::MANAGE_PAGES_BAD_OPMOD);
	uint32_t key = fn_key_of<prm::manage_pages_in>(c);
	if (key != self_key()) {
		OtherFunction *f = other(key);
		return f ? manage_other_pages(c, key, *f) : fail(synd::MANAGE_PAGES_BAD_FUNCTION);
	}
	const uint32_t n = (uint32_t)prm::get<prm::manage_pages_in::input_num_entries>(in);

	switch (c.op_mod) {
	case mp::CANT_GIVE:
		// The driver cannot satisfy a request: firmware stops asking.
		if (state == HcaState::INITIALIZED && owed_regular > 0)
			owed_regular = 0;
		return Result::ok();

	case mp::GIVE: {
		if (state == HcaState::TORN_DOWN)
			return fail(synd::GIVE_TORN_DOWN);
		if (Result r = given_pages(c, n, &pages, &page_set); r.status)
			return r;
		pages_given += n;
		int32_t left = (int32_t)n;
		auto pay = [&left](int32_t &owed) {
			int32_t k = std::min(left, std::max(owed, 0));
			owed -= k;
			left -= k;
		};
		if (state == HcaState::ENABLED) {
			pay(owed_boot);
			pay(owed_init);
		} else {
			pay(owed_regular);
		}
		return Result::ok();
	}

	case mp::TAKE: {
		uint32_t releasable = state == HcaState::INITIALIZED
					      ? (uint32_t)(owed_release + std::max(-owed_regular, 0))
					      : (uint32_t)pages.size();
		releasable = std::min<uint32_t>(releasable, (uint32_t)pages.size());
		uint32_t k = std::min(n, releasable);
		if (c.outlen < tail_out::bytes_for(k))
			return fail(synd::TAKE_OUTLEN);
		Ref<prm::manage_pages_out> out(c.out);
		for (uint32_t i = 0; i < k; i++) {
			uint64_t pa = pages.back();
			pages.pop_back();
			page_set.erase(pa);
			prm::set_pas<tail_out>(out, i, pa);
		}
		prm::set<prm::manage_pages_out::output_num_entries>(out, k);
		pages_taken += k;
		if (state == HcaState::INITIALIZED) {
			int32_t r = std::min((int32_t)k, owed_release);
			owed_release -= r;
			owed_regular += (int32_t)k - r;
		} else if (state == HcaState::ENABLED) {
			owe_again(k);
		}
		return Result::ok();
	}
	}
	return fail(synd::MANAGE_PAGES_BAD_OPMOD);
}

void Device::owe_again(uint32_t k)
{
	// What was given beyond the boot and init demand goes first, then the
	// init pages, then the boot pages (the reverse of the order GIVE pays).
	int64_t paid_boot = prof_.boot_pages - std::max(owed_boot, 0);
	int64_t paid_init = prof_.init_pages - std::max(owed_init, 0);
	int64_t extra = (int64_t)pages.size() + k - paid_boot - paid_init;
	int64_t left = (int64_t)k - std::min<int64_t>(std::max<int64_t>(extra, 0), k);
	int64_t from_init = std::min(left, std::max<int64_t>(paid_init, 0));
	owed_init += (int32_t)from_init;
	left -= from_init;
	owed_boot += (int32_t)std::min(left, std::max<int64_t>(paid_boot, 0));
}

bool Device::request_pages(int32_t n)
{
	if (state != HcaState::INITIALIZED || n == 0)
		return false;
	// Back at most what it holds or was promised by requests not served yet.
	if (n < 0 && (int64_t)owed_release - n > (int64_t)pages.size() + std::max(owed_regular, 0))
		return false;
	if (n > 0)
		owed_regular += n;
	else
		owed_release += -n;
	post_page_request(self_key(), n, false); // names the BAR's function (an ECPF: ec 1)
	return true;
}

} // namespace cxprm::emu
