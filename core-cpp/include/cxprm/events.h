/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Asynchronous events of an initialised device: one async EQ (ALLOC_UAR,
 * CREATE_EQ on an EqRing) subscribed to
 *   PAGE_REQUEST (0x0b)            always (unless caps say page_request_disable)
 *   ESW_FUNCTIONS_CHANGED (0x0e)   when the device is the eswitch manager and
 *                                  e_switch_cap.esw_functions_changed is set
 *   DCT_DRAINED (0x1c)             when cmd_hca_cap.dct
 *   CMD (0x0a)                     when command completion by events is wanted
 *   extra_mask                     whatever the host adds
 * and the dispatch of what arrives:
 *   CMD              -> Cmdq::complete_vector (the waiting thread wakes)
 *   PAGE_REQUEST     -> queued; service() gives or reclaims the pages
 *                       (issuing MANAGE_PAGES needs a context that may wait
 *                       for a command, so never from poll())
 *   everything       -> the listener callback (the shim's event files)
 *
 * The EQ doorbell is in the UAR page ALLOC_UAR returned: BAR offset
 * uar * 4096 (as on a ConnectX, and as the emulator maps it).
 *
 * poll() never sends a command: it reads the ring, signals waiters and
 * calls the listener.  It takes the host's locks (host.h: usable where the
 * host issues commands), so in the kernel it runs from a worker that the
 * interrupt handler or a timer schedules, not in hard-IRQ context.
 */
#pragma once

#include "device.h"
#include "eq_ring.h"

namespace cxprm {

struct EventsConfig {
	u8 log_eq_size = 8;          /* 256 entries (Linux's cmd EQ size) */
	u16 intr = 0;                /* MSI-X vector of the EQ */
	bool command_events = false; /* subscribe CMD and switch the Cmdq to EVENTS */
	u64 extra_mask[4] = {};
	/* Called for every event (may be null). */
	void (*listener)(void *ctx, const EqEvent &ev) = nullptr;
	void *listener_ctx = nullptr;
};

struct EventStats {
	u64 total;
	u64 by_type[64];         /* types 0..63 */
	u64 page_requests;       /* PAGE_REQUEST events seen */
	s64 pages_requested;     /* sum of their num_pages */
	u64 page_request_errors; /* service() failures */
	u64 cmd_completions;     /* CMD events */
};

class Events {
public:
	int start(Device &dev, const EventsConfig &cfg);
	void stop();
	bool running() const { return running_; }

	/*
	 * Handles up to 'budget' EQEs and re-arms; returns how many.  Pollers
	 * take turns (a lock of their own), so every caller leaves the ring
	 * empty of what was there when it came.
	 */
	u32 poll(u32 budget = 128);
	/* Runs queued page requests (sleepable context). */
	int service();
	/* Whether service() has work. */
	bool pending() const;

	const EqRing &ring() const { return ring_; }
	u32 eqn() const { return ring_.eqn(); }
	u32 uar() const { return uar_; }
	EventStats stats() const;
	u64 subscribed(u32 word) const { return word < 4 ? mask_[word] : 0; }

private:
	static void dispatch(void *ctx, const EqEvent &ev);
	static void pump(void *ctx);

	Device *dev_ = nullptr;
	EventsConfig cfg_{};
	EqRing ring_;
	u32 uar_ = 0;
	bool uar_allocated_ = false;
	bool eq_created_ = false;
	bool running_ = false;
	void *poll_lock_ = nullptr; /* one poller at a time */
	u64 mask_[4] = {};
	void *lock_ = nullptr;     /* guards stats and the page-request queue */
	s64 pending_pages_ = 0;    /* +give / -reclaim, summed */
	EventStats stats_{};
};

} // namespace cxprm
