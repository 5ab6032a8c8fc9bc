// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The device's health (health_monitor.h): the one failed word and its rule,
// the poller over the sensors of health.cpp, and the host's health_changed
// notice (once per change of the word).
#include "cxprm/health_monitor.h"

#include "cxprm/errors.h"
#include "cxprm/status.h"
#include "cxprm/text.h"

namespace cxprm {

void Health::start(const cxprm_host *host, u32 stall_polls, void (*wake)(void *ctx), void *wake_ctx)
{
	host_ = host;
	stall_polls_ = stall_polls;
	wake_ = wake;
	wake_ctx_ = wake_ctx;
	__atomic_store_n(&failed_, OK, __ATOMIC_RELEASE);
	__atomic_store_n(&found_by_, (u8)HealthSource::NONE, __ATOMIC_RELAXED);
	__atomic_store_n(&sensor_, (u8)HealthSensor::NONE, __ATOMIC_RELAXED);
	__atomic_store_n(&refused_, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&changes_, 0, __ATOMIC_RELAXED);
	have_counter_ = false;
	stalled_polls_ = last_counter_ = 0;
	last_synd_ = 0;
	last_ = HealthRead{};
	polls_ = stall_reports_ = synd_reports_ = 0;
	__atomic_store_n(&armed_, true, __ATOMIC_RELEASE);
}

void Health::stop()
{
	__atomic_store_n(&armed_, false, __ATOMIC_RELEASE);
	wake_ = nullptr;
	wake_ctx_ = nullptr;
}

void Health::log(int level, const char *msg) const
{
	if (host_ && host_->ops->log)
		host_->ops->log(host_->ctx, level, msg);
}

void Health::set_recovery(const cxprm_host *host, const RecoveryPolicy &p)
{
	clock_ = host;
	policy_ = p;
	if (!policy_.max_attempts)
		policy_.max_attempts = 1;
}

/*
 * Whether a new failure (was: failed() before it) is recovered: only dead
 * firmware from a working device, as Linux's fw_fatal reporter does it
 * (health.c mlx5_fw_fatal_reporter_err_work); a gone device is not (its
 * removal follows), nor a failure during a recovery (that one goes on),
 * nor the host's own release.
 */
Recovery Health::decide_recovery(int err, int was, HealthSource src)
{
	Recovery cur = recovery();
	/* The host's own release (fast_unload(): shutdown) is not a fault. */
	if (cur == Recovery::RUNNING || src == HealthSource::HOST)
		return cur;
	if (err == E_NODEV)
		return Recovery::GONE;
	if (was != OK)
		return cur;
	if (!policy_.enabled)
		return Recovery::OFF;
	u64 now = clock_ ? clock_->ops->now_ns(clock_->ctx) : 0;
	if (recovered_once_ && now - recovered_ns_ < policy_.grace_ns)
		return Recovery::GRACE;
	return Recovery::RUNNING;
}

void Health::end_recovery(Recovery outcome, int err)
{
	__atomic_store_n(&recovery_err_, outcome == Recovery::DONE ? OK : err, __ATOMIC_RELAXED);
	if (outcome == Recovery::DONE) {
		__atomic_add_fetch(&recoveries_, 1, __ATOMIC_RELAXED);
		recovered_ns_ = clock_ ? clock_->ops->now_ns(clock_->ctx) : 0;
		recovered_once_ = true;
	} else {
		/* A failed attempt's bring-up ran start(): failed for good again. */
		int cur = OK;
		__atomic_compare_exchange_n(&failed_, &cur, outcome == Recovery::GONE ? E_NODEV : E_HOSTDOWN,
					    false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	}
	__atomic_store_n(&recovery_, (u8)outcome, __ATOMIC_RELEASE);
}

int Health::request_recovery()
{
	int f = failed();
	if (f == E_NODEV)
		return E_NODEV;
	if (f == OK)
		return E_INVAL;
	u8 cur = __atomic_load_n(&recovery_, __ATOMIC_ACQUIRE);
	do {
		if (cur == (u8)Recovery::RUNNING)
			return E_BUSY;
	} while (!__atomic_compare_exchange_n(&recovery_, &cur, (u8)Recovery::RUNNING, false, __ATOMIC_ACQ_REL,
					      __ATOMIC_ACQUIRE));
	__atomic_store_n(&attempts_, 0, __ATOMIC_RELAXED);
	return OK;
}

void Health::cancel_recovery()
{
	u8 cur = (u8)Recovery::RUNNING;
	__atomic_compare_exchange_n(&recovery_, &cur, (u8)Recovery::CANCELED, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
}

void Health::notify(int err, HealthSource src, const HealthRead *r, HealthSensor s, bool recover) const
{
	if (!host_ || !host_->ops->health_changed)
		return;
	cxprm_health_change c{};
	c.err = err;
	c.recover = recover;
	c.source = (int)src;
	c.sensor = (u32)s;
	/* A gone device's reads are all ones: nothing worth reporting. */
	if (r && s != HealthSensor::PCI_COMM_ERR) {
		c.syndrome = r->synd;
		c.rfr = r->rfr;
		c.nic_interface = r->nic_state;
		c.counter = r->counter;
	}
	host_->ops->health_changed(host_->ctx, &c);
}

bool Health::mark_failed(int err, HealthSource src, const HealthRead *r, HealthSensor s)
{
	if (err != E_NODEV && err != E_HOSTDOWN)
		return false;
	int cur = OK;
	/* The first failure sticks; only "gone" replaces "dead firmware". */
	if (!__atomic_compare_exchange_n(&failed_, &cur, err, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		if (cur != E_HOSTDOWN || err != E_NODEV ||
		    !__atomic_compare_exchange_n(&failed_, &cur, err, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			return false;
	}
	__atomic_store_n(&found_by_, (u8)src, __ATOMIC_RELAXED);
	if (s != HealthSensor::NONE)
		__atomic_store_n(&sensor_, (u8)s, __ATOMIC_RELAXED);
	__atomic_add_fetch(&changes_, 1, __ATOMIC_RELAXED);
	Recovery before = recovery(), rec = decide_recovery(err, cur, src);
	bool recover = rec == Recovery::RUNNING && before != Recovery::RUNNING;
	if (recover)
		__atomic_store_n(&attempts_, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&recovery_, (u8)rec, __ATOMIC_RELEASE);
	if (armed()) {
		/* Wake every waiting command; each sees failed() and returns at once. */
		if (wake_)
			wake_(wake_ctx_);
		if (cur == OK)
			log(0, err == E_NODEV ? "cmdq: device gone (fw_rev reads all ones): device failed, "
						"every command now fails with ENODEV"
					      : "cmdq: firmware dead (fatal health sensor): "
						"device failed, every command now fails with EHOSTDOWN");
	}
	notify(err, src, r, s, recover);
	return true;
}

int Health::check_fatal()
{
	HealthRead r = health_read(host_);
	HealthSensor s = health_fatal_sensor(r);
	if (s == HealthSensor::NONE)
		return OK;
	bool first = failed() == OK;
	if (mark_failed(health_sensor_err(s), HealthSource::COMMAND, &r, s) && first) {
		char buf[160];
		Text t(buf, sizeof(buf));
		t.str("cmdq: fatal health sensor ").str(health_sensor_name(s)).str(": synd ").hex(r.synd, 2);
		t.str(" rfr ").dec(r.rfr).str(" nic_interface ").dec(r.nic_state);
		log(0, t.c_str());
	}
	return failed();
}

int Health::poll(u32 *found)
{
	u32 news = 0;
	if (found)
		*found = 0;
	if (!armed())
		return failed();
	polls_++;
	HealthRead r = health_read(host_);
	HealthSensor s = health_fatal_sensor(r);
	last_ = r;
	if (s == HealthSensor::PCI_COMM_ERR || (s != HealthSensor::NONE && !failed())) {
		if (mark_failed(health_sensor_err(s), HealthSource::POLLER, &r, s))
			news |= HEALTH_FOUND_FAILED;
		if (found)
			*found = news;
		return failed();
	}
	if (failed())
		return failed();
	/*
	 * Linux poll_health(): a miss is a poll that finds the counter where
	 * the last one left it; the warning fires once, when the misses reach
	 * the limit, and again only after the counter moved.
	 */
	if (have_counter_ && r.counter == last_counter_) {
		stalled_polls_++;
		if (stall_polls_ && stalled_polls_ == stall_polls_) {
			__atomic_add_fetch(&stall_reports_, 1, __ATOMIC_RELAXED);
			news |= HEALTH_FOUND_STALL;
			log(1, "cmdq: health counter stalled (firmware may be hung); the device is kept, "
			       "commands still go to it");
		}
	} else {
		stalled_polls_ = 0;
	}
	last_counter_ = r.counter;
	have_counter_ = true;
	/* A new syndrome without rfr: reported, not fatal (Linux: devlink report). */
	if (r.synd && r.synd != last_synd_) {
		__atomic_add_fetch(&synd_reports_, 1, __ATOMIC_RELAXED);
		news |= HEALTH_FOUND_SYNDROME;
		char buf[160];
		Text t(buf, sizeof(buf));
		t.str("cmdq: health syndrome ").hex(r.synd, 2).chr(' ').str(health_syndrome_name(r.synd));
		t.str(" without rfr (ext_synd ").hex(r.ext_synd, 4).str("): reported, the device is kept");
		log(1, t.c_str());
	}
	last_synd_ = r.synd;
	if (found)
		*found = news;
	return failed();
}

HealthStatus Health::status() const
{
	HealthStatus s{};
	s.failed = failed();
	s.state = (u8)state();
	s.found_by = __atomic_load_n(&found_by_, __ATOMIC_RELAXED);
	s.syndrome = last_.synd;
	s.rfr = last_.rfr;
	s.ext_synd = last_.ext_synd;
	s.nic_state = last_.nic_state;
	s.counter = last_counter_;
	s.stalled_polls = stalled_polls_;
	s.polls = polls_;
	s.refused = __atomic_load_n(&refused_, __ATOMIC_RELAXED);
	s.sensor = __atomic_load_n(&sensor_, __ATOMIC_RELAXED);
	s.stall_reports = __atomic_load_n(&stall_reports_, __ATOMIC_RELAXED);
	s.synd_reports = __atomic_load_n(&synd_reports_, __ATOMIC_RELAXED);
	s.changes = __atomic_load_n(&changes_, __ATOMIC_RELAXED);
	s.recovery = (u8)recovery();
	s.recoveries = __atomic_load_n(&recoveries_, __ATOMIC_RELAXED);
	s.attempts = __atomic_load_n(&attempts_, __ATOMIC_RELAXED);
	s.recovery_err = __atomic_load_n(&recovery_err_, __ATOMIC_RELAXED);
	return s;
}

} // namespace cxprm
