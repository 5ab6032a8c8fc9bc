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
	HEALTHY = 0,    /* failed() == OK: commands go to the device */
	FAILED = 1,     /* failed() != OK: every command fails with it at once */
	/*
	 * A fatal firmware error the host recovers from (recover.cpp, as
	 * Linux's health recovery): commands fail at once (failed() stays
	 * set until the recovery's bring-up), then HEALTHY again, or FAILED
	 * for good with the reason in recovery().
	 */
	RECOVERING = 2,
};

/* What became of the last fatal error (= enum cxprm_recovery of the UAPI). */
enum class Recovery : u8 {
	NONE = 0,
	RUNNING = 1,
	DONE = 2,
	OFF = 3,
	GRACE = 4,
	GONE = 5,
	NOT_READY = 6,
	BRINGUP = 7,
	AGAIN = 8,
	CANCELED = 9,
};

/* The automatic recovery's rules (the host's; kept across bring-ups). */
struct RecoveryPolicy {
	bool enabled = false;
	u32 max_attempts = 1; /* per fatal error */
	/*
	 * An error this soon after the last recovery is not recovered (Linux:
	 * the fw_fatal devlink reporter's grace period, 60 s for a PF).
	 */
	u64 grace_ns = 0;
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
	u8 recovery;         /* Recovery: the last fatal error's */
	u32 recoveries;      /* recoveries that brought the device back */
	u32 attempts;        /* attempts of the last recovery */
	int recovery_err;    /* the failing step's errno, or OK */
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
	/* RECOVERING while a recovery runs or is due, else by failed(). */
	HealthState state() const
	{
		if (recovery() == Recovery::RUNNING)
			return HealthState::RECOVERING;
		return failed() ? HealthState::FAILED : HealthState::HEALTHY;
	}
	Recovery recovery() const { return (Recovery)__atomic_load_n(&recovery_, __ATOMIC_ACQUIRE); }
	/*
	 * The recovery's rules; 'host' gives the clock for the grace period
	 * (the poller's host is set only by start()).
	 */
	void set_recovery(const cxprm_host *host, const RecoveryPolicy &p);
	const RecoveryPolicy &recovery_policy() const { return policy_; }
	/* An attempt of the running recovery begins (1, 2, ...). */
	void recovery_attempt(u32 n) { __atomic_store_n(&attempts_, n, __ATOMIC_RELAXED); }
	/*
	 * The running recovery ends: DONE counts a recovery (and starts the
	 * grace period); anything else leaves the device failed for good
	 * (failed() set again: a failed bring-up's start() had cleared it),
	 * with err the failing step's errno.
	 */
	void end_recovery(Recovery outcome, int err);
	/*
	 * The admin asks for a recovery of a device failed with dead firmware,
	 * whatever the policy and the grace period say (Linux: devlink health
	 * recover of the fw_fatal reporter).  OK: RUNNING now, the caller runs
	 * it; E_BUSY: one runs; E_NODEV: the device is gone; E_INVAL: the
	 * device has not failed.
	 */
	int request_recovery();
	/* A due recovery will not run (the host took the device out of service). */
	void cancel_recovery();
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
	void notify(int err, HealthSource src, const HealthRead *r, HealthSensor s, bool recover) const;

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
	/* Recovery: not reset by start() (a recovery's bring-up calls it). */
	Recovery decide_recovery(int err, int was, HealthSource src);
	const cxprm_host *clock_ = nullptr;
	RecoveryPolicy policy_{};
	u8 recovery_ = 0;             /* Recovery, atomic */
	u32 recoveries_ = 0;          /* atomic */
	u32 attempts_ = 0;            /* atomic */
	int recovery_err_ = OK;       /* atomic */
	u64 recovered_ns_ = 0;        /* when the last recovery ended well */
	bool recovered_once_ = false;
};

} // namespace cxprm
