// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device teardown and the unwinding of a failed bring-up (device.h):
 * TEARDOWN_HCA, page reclaim, DISABLE_HCA, the page policy, Cmdq::fini.
 */
#include "cxprm/device.h"

#include "cxprm/health.h"
#include "cxprm/prm/transport.h"
#include "cxprm/text.h"

namespace cxprm {

namespace {

constexpr u32 RECLAIM_POLL_US = 1000;

} // namespace

/*
 * Device gone, a fatal health sensor fires (health.h: nic_interface
 * DISABLED/SW_RESET, rfr && synd), or the device was marked failed: it
 * answers nothing.  A syndrome without rfr or a stalled counter is not
 * death (Linux keeps sending commands then).
 */
bool Device::fw_dead() const
{
	if (device_gone() || (cmdq_up_ && health_.failed()))
		return true;
	return health_fatal_sensor(health_read(host_)) != HealthSensor::NONE;
}

/*
 * After TEARDOWN_HCA, as Linux mlx5_reclaim_startup_pages: MANAGE_PAGES(TAKE)
 * rounds for as long as our own books still hold pages for the function.
 * QUERY_PAGES is not asked (nothing says what it answers after teardown).
 * A round that returns nothing is retried until reclaim_timeout_ns (5 s)
 * passes without progress (every page back resets it); a transport error
 * or a firmware error status stops it.  What firmware keeps is stranded by
 * finish_pages(), never freed while it may still use it.
 */
int Device::reclaim_function(cmd::FunctionRef fn, u64 *freed, CmdResult *r)
{
	int err = OK;
	u64 last_progress = host_->ops->now_ns(host_->ctx);

	*freed = 0;
	*r = CmdResult{};
	while (u64 live = pages_.live(fn)) {
		u32 got = 0;
		/* A round of at most RECLAIM_ROUND_PAGES, as Linux; take() halves
		 * its chunk under memory pressure and stops at a round of none. */
		u32 want = (u32)min_of<u64>(live, cmd::RECLAIM_ROUND_PAGES);
		*r = CmdResult{};
		int e = pages_.take(fn, want, &got, r);
		*freed += got;
		if (e == E_PROTO) {
			err = E_PROTO; /* bad addresses were counted, not freed */
		} else if (e) {
			err = e;
			break;
		}
		u64 now = host_->ops->now_ns(host_->ctx);
		if (got) {
			last_progress = now;
			continue;
		}
		if (now - last_progress > cfg_.reclaim_timeout_ns) {
			err = E_TIMEDOUT;
			break;
		}
		host_->ops->sleep_us(host_->ctx, RECLAIM_POLL_US);
	}
	return err;
}

void Device::reclaim_pages()
{
	CmdResult r;
	u64 freed;
	int err = reclaim_function(own_function(), &freed, &r);
	step(Step::RECLAIM_PAGES, err, &r, (s64)freed);
}

/*
 * Pages firmware did not return: freed only when the device is gone (it
 * cannot write memory any more).  Otherwise stranded, even after DISABLE_HCA
 * answered OK (Linux leaks them with a WARN): the host frees them with
 * release_stranded_pages() once it reset the function or turned its bus
 * mastering off.  'released' (DISABLE_HCA OK) only changes the message.
 */
void Device::finish_pages(bool released)
{
	if (!pages_.initialized())
		return;
	if (u64 live = pages_.live()) {
		/* Released by fast_unload(): the host frees them, bus mastering off. */
		if (fast_unloaded_ && !device_gone())
			return;
		if (!device_gone()) {
			step(Step::FREE_STRANDED_PAGES, E_BUSY, nullptr, (s64)live);
			if (host_->ops->log) {
				char buf[128];
				Text t(buf, sizeof(buf));
				t.str("cxprm: ").dec(live).str(released ? " pages firmware never returned"
									   : " pages lent to firmware");
				t.str(" stay allocated until the function is reset");
				host_->ops->log(host_->ctx, 1, t.c_str());
			}
			return;
		}
		pages_.free_all_live();
		step(Step::FREE_STRANDED_PAGES, OK, nullptr, (s64)live);
	}
	pages_.destroy();
}

void Device::unwind()
{
	CmdResult r{};
	/* Events were not stopped first (they do it, before DESTROY_EQ). */
	disable_host_pf();
	bool dead = cmdq_up_ && fw_dead();
	if (hca_initialized_) {
		u8 st = 0;
		int err = dead ? E_HOSTDOWN : cmd::teardown_hca(cmdq_, cmd::TeardownProfile::GRACEFUL, &st, &r);
		step(Step::TEARDOWN_GRACEFUL, err, &r, st);
		bool ok = !err && st == prm::teardown_state::SUCCESS;
		if (!ok && !dead && !fw_dead() && caps_cur_.force_teardown) {
			r = CmdResult{};
			err = cmd::teardown_hca(cmdq_, cmd::TeardownProfile::FORCE, &st, &r);
			step(Step::TEARDOWN_FORCE, err, &r, st);
		}
		hca_initialized_ = false;
	}
	dead = dead || (cmdq_up_ && fw_dead());
	if (cmdq_up_ && pages_.initialized() && pages_.live(own_function()) && !dead)
		reclaim_pages();
	if (cmdq_up_ && pages_.initialized() && !dead && !fw_dead())
		reclaim_other_functions();

	bool released = !hca_enabled_; /* never enabled: firmware never had pages */
	if (hca_enabled_) {
		dead = dead || fw_dead();
		r = CmdResult{};
		int err = dead ? E_HOSTDOWN : cmd::disable_hca(cmdq_, own_function(), &r);
		step(Step::DISABLE_HCA, err, &r);
		released = !err;
		hca_enabled_ = false;
	}
	finish_pages(released);
	if (cmdq_up_) {
		/* A quarantined command may still complete: its DMA stays. */
		cmdq_.fini(true);
		step(Step::CMDQ_FINI, OK, nullptr, (s64)cmdq_.stranded_buffers());
		cmdq_up_ = false;
	}
	state_ = pages_.initialized() || cmdq_.stranded_buffers() ? DeviceState::STRANDED
								  : DeviceState::OFF;
}

void Device::stop()
{
	if (state_ != DeviceState::UP && !cmdq_up_)
		return;
	unwind();
}

TeardownReport Device::teardown()
{
	PageStats before = pages_.stats();
	u32 from = trace_.n;
	bool was_up = state_ == DeviceState::UP;
	stop();

	TeardownReport r{};
	r.failed_step = "";
	r.pages_given = before.given;
	r.pages_reclaimed = before.reclaimed;
	r.pages_freed = before.forced_free;
	for (u32 i = from; i < trace_.n; i++) {
		const StepRecord &s = trace_.rec[i];
		if (s.step == Step::RECLAIM_PAGES && s.value > 0)
			r.pages_reclaimed += (u64)s.value;
		if (s.step == Step::FREE_STRANDED_PAGES && s.err == OK && s.value > 0)
			r.pages_freed += (u64)s.value;
		/* A failed graceful teardown that force fixed still counts. */
		if (s.err && !r.err && s.step != Step::QUERY_RECLAIM_PAGES) {
			r.err = s.err;
			r.failed_step = step_name(s.step);
		}
	}
	r.pages_stranded = stranded_pages();
	r.cmdq_stranded = stranded_cmdq_buffers();
	r.steps = trace_.n - from;
	if (was_up || !torn_down_) {
		last_teardown_ = r;
		teardown_trace_from_ = from;
		torn_down_ = true;
	}
	return r;
}

u64 Device::release_stranded_pages()
{
	/* Only after teardown: while UP, firmware owns these pages. */
	if (state_ != DeviceState::STRANDED)
		return 0;
	u64 n = 0;
	if (pages_.initialized()) {
		n = pages_.free_all_live();
		pages_.destroy();
	}
	if (n)
		trace_.add(Step::FREE_STRANDED_PAGES, OK, nullptr, (s64)n);
	if (u32 bufs = cmdq_.release_stranded())
		trace_.add(Step::FREE_STRANDED_CMDQ, OK, nullptr, (s64)bufs);
	if (!cmdq_up_)
		state_ = DeviceState::OFF;
	last_teardown_.pages_freed += n;
	last_teardown_.pages_stranded = stranded_pages();
	last_teardown_.cmdq_stranded = stranded_cmdq_buffers();
	return n;
}

} // namespace cxprm
