/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The device's health (one per Device, next to its Cmdq): whether the
 * device has failed and why, and the poller that watches the sensors of
 * health.h.  The command engine only consults it: exec() refuses at once
 * while failed(), a waiting command wakes when the device fails, and a
 * command that finds the firmware dead or the device gone marks it here.
 *
 * One atomic word holds the failure (OK, E_HOSTDOWN or E_NODEV).  The rule:
 * the first failure sticks; only E_NODEV (gone) replaces E_HOSTDOWN (dead
 * firmware); nothing else replaces a failure.  It is reset to OK by
 * start() (the queue's bring-up, Cmdq::init).  Every change of it is told
 * to the host once, through its health_changed op, with who found it.
 *
 * The host (kernel: its health work item) calls poll() from one context
 * at a time; failed() and mark_failed() may run from any thread.
 */
#pragma once

#include "errors.h"
#include "health.h"
#include "host.h"
#include "types.h"

namespace cxprm {

/* What the state machine says about the device. */
enum class HealthState : u8 {
	HEALTHY = 0, /* failed() == OK: commands go to the device */
	FAILED = 1,  /* failed() != OK: every command fails with it at once */
	/*
	 * RECOVERING (the next issue, "Reliability III"): after FAILED, fail
	 * the commands in flight, stop the EQs, forget firmware state, wait
	 * for the device to be ready and bring it up again; then HEALTHY.
	 * Not set by anything yet.
	 */
	RECOVERING = 2,
};

/* Who found the failure (cxprm_host_ops.health_changed 'source'). */
enum class HealthSource : u8 {
	NONE = 0,
	COMMAND = 1, /* a waiting command read a fatal sensor */
	POLLER = 2,  /* poll() */
	HOST = 3,    /* the device's own code: fast_unload() released it */
};
static_assert((int)HealthSource::COMMAND == CXPRM_HEALTH_BY_COMMAND &&
	      (int)HealthSource::POLLER == CXPRM_HEALTH_BY_POLLER &&
	      (int)HealthSource::HOST == CXPRM_HEALTH_BY_HOST);

/* What poll() found new this time (bits of its 'found'; = CXPRM_CORE_HEALTH_*). */
enum : u32 {
	HEALTH_FOUND_FAILED = 1u << 0,   /* this poll failed the device */
	HEALTH_FOUND_SYNDROME = 1u << 1, /* a new syndrome without rfr */
	HEALTH_FOUND_STALL = 1u << 2,    /* the counter reached stall_polls misses */
};

/* A snapshot (Health::status()). */
struct HealthStatus {
	int failed;          /* OK, or the device's failure (see failed()) */
	u8 state;            /* HealthState */
	u8 found_by;         /* HealthSource of the current failure */
	u32 syndrome;        /* health buffer synd at the last poll */
	u32 counter;         /* initial_seg.health_counter */
	u32 stalled_polls;   /* consecutive polls without the counter moving */
	u64 polls;           /* poll() calls since start() */
	u64 refused;         /* commands refused at once because the device failed */
	u8 rfr;              /* health buffer rfr at the last poll */
	u8 nic_state;        /* nic_interface (bits 10:8) at the last poll */
	u8 sensor;           /* HealthSensor that failed the device, or NONE */
	u16 ext_synd;
	u64 stall_reports;   /* times the counter reached stall_polls misses */
	u64 synd_reports;    /* new syndromes seen without rfr (not fatal) */
	u64 changes;         /* times failed() changed since start() */
};

class Health {
public:
	/*
	 * Resets everything (HEALTHY, counters zero) and arms the poller:
	 * 'stall_polls' consecutive polls without the health counter moving
	 * are a warning (Linux MAX_MISSES; 0: not watched).  'wake', when
	 * set, is called on every change of failed() while armed: the queue
	 * wakes its waiting commands (Cmdq::init passes it).
	 */
	void start(const cxprm_host *host, u32 stall_polls, void (*wake)(void *ctx) = nullptr,
		   void *wake_ctx = nullptr);
	/* Disarms: poll() reads nothing; the failure and counters stay readable. */
	void stop();
	bool armed() const { return __atomic_load_n(&armed_, __ATOMIC_ACQUIRE); }

	/* OK, or why the device failed (no lock, no sleep, no device access). */
	int failed() const { return __atomic_load_n(&failed_, __ATOMIC_ACQUIRE); }
	/*
	 * Today the failed word alone says it; RECOVERING, when it comes,
	 * needs a word of its own (failed() stays set while recovering, so
	 * commands keep failing at once until the device is up again).
	 */
	HealthState state() const { return failed() ? HealthState::FAILED : HealthState::HEALTHY; }
	/*
	 * Marks the device failed (err: E_HOSTDOWN or E_NODEV, anything else
	 * is ignored) by the rule above.  On a change: the waiting commands
	 * are woken, the host is told once (health_changed).  'r' and 's' are
	 * what the finder read (for the host's message), or null / NONE.
	 * Returns true when failed() changed.
	 */
	bool mark_failed(int err, HealthSource src, const HealthRead *r = nullptr,
			 HealthSensor s = HealthSensor::NONE);
	/*
	 * A waiting command's check: reads the fatal sensors and marks the
	 * device failed (COMMAND) when one fires.  Returns failed().
	 */
	int check_fatal();
	/*
	 * The poller: reads the sensors, fails the device on a fatal one (all
	 * ones -> E_NODEV; nic_interface DISABLED/SW_RESET or rfr && synd ->
	 * E_HOSTDOWN), else counts a new syndrome without rfr and a stalled
	 * counter as warnings.  *found (may be null) gets HEALTH_FOUND_* of
	 * what is new since the last poll.  Returns failed().
	 */
	int poll(u32 *found = nullptr);
	/* The engine refused a command because the device had failed. */
	void note_refused() { __atomic_add_fetch(&refused_, 1, __ATOMIC_RELAXED); }
	HealthStatus status() const;
	u32 stall_polls() const { return stall_polls_; }

private:
	void log(int level, const char *msg) const;
	void notify(int err, HealthSource src, const HealthRead *r, HealthSensor s) const;

	const cxprm_host *host_ = nullptr;
	void (*wake_)(void *ctx) = nullptr;
	void *wake_ctx_ = nullptr;
	bool armed_ = false;          /* atomic */
	int failed_ = OK;             /* atomic: the one failed word */
	u8 found_by_ = 0;             /* HealthSource, atomic */
	u8 sensor_ = 0;               /* HealthSensor, atomic */
	u32 stall_polls_ = 3;
	u32 last_counter_ = 0;        /* poll() state (one caller) */
	bool have_counter_ = false;
	u32 stalled_polls_ = 0;
	u8 last_synd_ = 0;
	HealthRead last_{};
	u64 polls_ = 0;
	u64 stall_reports_ = 0;       /* atomic */
	u64 synd_reports_ = 0;        /* atomic */
	u64 refused_ = 0;             /* atomic */
	u64 changes_ = 0;             /* atomic */
};

} // namespace cxprm
