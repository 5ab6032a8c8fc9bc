/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Asynchronous events of an initialised device: one async EQ (ALLOC_UAR,
 * CREATE_EQ on an EqRing) subscribed to
 *   PAGE_REQUEST (0x0b)            always (unless caps say page_request_disable)
 *   ESW_FUNCTIONS_CHANGED (0x0e)   when the device is an ECPF eswitch manager and
 *                                  e_switch_cap.esw_functions_changed is set
 *   DCT_DRAINED (0x1c)             when cmd_hca_cap.dct
 *   CMD (0x0a)                     when command completion by events is wanted
 *   extra_mask                     whatever the host adds
 * and the dispatch of what arrives:
 *   CMD              -> Cmdq::complete_vector (the waiting thread wakes)
 *   PAGE_REQUEST     -> queued, one entry per event with the function it
 *                       names (function_id, ec_function) and release_all;
 *                       service() gives, takes or releases each for that
 *                       function in arrival order (MANAGE_PAGES needs a
 *                       context that may wait for a command, so never from
 *                       poll()).  The queue holds PAGE_QUEUE requests; when
 *                       it is full a request is merged into a queued one for
 *                       the same function in the same direction (a GIVE of
 *                       N1 + N2 instead of two), else dropped and counted in
 *                       page_requests_dropped (firmware asks again or stays
 *                       short, as with Linux when its work item cannot be
 *                       allocated); never a GIVE turned into a TAKE.
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
	/*
	 * The async EQ: 4096 entries, Linux's MLX5_NUM_ASYNC_EQE, so that a
	 * burst of events (a DCT_DRAINED per drained DCT) waits in the ring
	 * while the EQ is polled.  One contiguous DMA buffer (256 KiB):
	 * halved while the host cannot allocate it, down to MIN_LOG_EQ_SIZE.
	 */
	u8 log_eq_size = 12;
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
	u64 page_requests_merged;  /* queue full: added to a queued request */
	u64 page_requests_dropped; /* queue full and nothing to merge with */
	u64 page_release_all;      /* release_all requests served */
};

/* One PAGE_REQUEST as firmware sent it. */
struct PageRequest {
	u16 function_id;
	bool ec_function;
	bool release_all;
	s32 num_pages;  /* > 0 give, < 0 take, with release_all: ignored */
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

	/*
	 * After a DESTROY_EQ the device refused or never answered, the ring
	 * stays allocated (the device may still write EQEs into it) until the
	 * host has made that impossible (bus mastering off, function reset):
	 * then this frees it.  start() refuses (E_BUSY) while one is kept.
	 */
	void release_kept();
	bool ring_kept() const { return ring_kept_ || comp_kept_; }

	/*
	 * The completion EQ that CQs complete to (mlx5_core refuses a CQ on
	 * any other EQ, core/cq.c): CREATE_EQ with no async events on the
	 * first call, as Linux 6.5+ creates its completion EQs on demand
	 * (events_comp_eq.cpp); stop() destroys it before the async EQ
	 * (Linux destroy_comp_eqs, then destroy_async_eqs).
	 */
	int comp_eqn(u32 *eqn);
	static constexpr u32 NO_COMP_EQ = 0xffffffffu;
	/* Its number, or NO_COMP_EQ while there is none (any context, no lock). */
	u32 comp_eqn_now() const;

	const EqRing &ring() const { return ring_; }
	u32 eqn() const { return ring_.eqn(); }
	u32 uar() const { return uar_; }
	EventStats stats() const;
	u64 subscribed(u32 word) const { return word < 4 ? mask_[word] : 0; }
	/* Requests queued now. */
	u32 queued_page_requests() const;

	static constexpr u32 PAGE_QUEUE = 64;
	/* The smallest ring start() falls back to (256 entries). */
	static constexpr u32 MIN_LOG_EQ_SIZE = 8;
	/*
	 * The completion EQ's ring: 2^min(log_eq_size, this).  It carries one
	 * EQE per armed CQ, so it needs no async burst room.
	 */
	static constexpr u32 COMP_LOG_EQ_SIZE = 8;
	/* Pages of the largest ring (the pas[] of one CREATE_EQ). */
	static constexpr u32 MAX_EQ_PAGES = 64;

private:
	static void dispatch(void *ctx, const EqEvent &ev);
	static void pump(void *ctx);
	void queue_page_request_locked(const PageRequest &rq);
	bool pop_page_request(PageRequest *rq);
	int serve(const PageRequest &rq);
	void destroy_comp_eq();
	int create_ring_eq(EqRing &r, u32 log_size, const u64 *mask, u8 *eqn);

	Device *dev_ = nullptr;
	EventsConfig cfg_{};
	EqRing ring_;
	u32 uar_ = 0;
	bool uar_allocated_ = false;
	bool eq_created_ = false;
	bool ring_kept_ = false;
	bool running_ = false;
	void *poll_lock_ = nullptr; /* one poller at a time; guards comp_created_ */
	EqRing comp_;               /* the completion EQ */
	bool comp_created_ = false;
	bool comp_kept_ = false;    /* DESTROY_EQ failed: as ring_kept_ */
	u32 comp_eqn_pub_ = NO_COMP_EQ; /* comp_eqn_now(): atomic */
	void *comp_lock_ = nullptr; /* one creator at a time */
	u64 mask_[4] = {};
	void *lock_ = nullptr;     /* guards stats and the page-request queue */
	PageRequest queue_[PAGE_QUEUE] = {}; /* ring: head_, count_ */
	u32 head_ = 0;
	u32 count_ = 0;
	EventStats stats_{};
};

} // namespace cxprm
