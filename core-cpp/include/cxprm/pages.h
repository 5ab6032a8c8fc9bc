/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * PageTracker: the 4 KiB pages the driver lends to firmware (MANAGE_PAGES).
 *
 * Pages come from host->ops->dma_alloc (4096 bytes, 4096-aligned) and are
 * remembered by bus address in an open-addressing hash table that lives in
 * host->ops->mem_alloc memory and doubles when half full.  give() hands
 * pages over in MANAGE_PAGES GIVE commands no larger than the engine's
 * message size; take() asks firmware for pages back (TAKE) and frees each
 * bus address firmware returns.  A returned address we never gave, or one
 * returned twice, is a protocol error: counted in bad_returns(), never
 * freed, and the call answers E_PROTO after processing the rest.
 *
 * Ownership rules:
 *  - A page is "live" from the GIVE we sent until firmware returns it.
 *  - GIVE rejected by firmware (E_REMOTEIO): the pages never left us and
 *    are freed at once.  GIVE lost in transport (timeout, bad signature..):
 *    firmware may own them, so they stay live.
 *  - destroy() frees the table; it refuses (returns the live count) while
 *    pages are live.  free_all_live() frees them without asking firmware:
 *    only for a device that is gone or that the host has reset (FLR), since
 *    firmware may still write to a page it was lent.
 *
 * Thread-safety: the table and counters are under a host lock; commands are
 * issued outside it.  give()/take() may run from the page-request handler
 * while other commands run, but not two of them at once for one tracker,
 * and only from a context that may sleep (they allocate and wait for
 * commands): a PAGE_REQUEST event defers to a worker.
 */
#pragma once

#include "cmdq.h"
#include "host.h"
#include "types.h"

namespace cxprm {

struct PageStats {
	u64 given;       /* pages firmware accepted (GIVE OK or unknown) */
	u64 reclaimed;   /* pages firmware returned and we freed */
	u64 live;        /* given - reclaimed - freed without firmware */
	u64 bad_returns; /* addresses returned that we never gave / twice */
	u64 give_failed; /* pages freed because a GIVE was rejected */
	u64 forced_free; /* pages freed by free_all_live() */
	u64 cant_give;   /* CANT_GIVE answers sent to firmware */
};

class PageTracker {
public:
	PageTracker() = default;
	~PageTracker() = default; /* call destroy(); no hidden frees */
	PageTracker(const PageTracker &) = delete;
	PageTracker &operator=(const PageTracker &) = delete;

	/* Pages for function_id (0 = this function) of 'q'. */
	int init(const cxprm_host *host, Cmdq *q, u16 function_id = 0,
		 bool embedded_cpu_function = false);
	/*
	 * Frees the table and lock.  With pages still live it frees nothing
	 * and returns how many are live (call free_all_live() first if the
	 * device is gone).  0 when done.
	 */
	u64 destroy();

	/*
	 * Allocates n pages and gives them to firmware in as many MANAGE_PAGES
	 * GIVE commands as the message size needs.  E_NOMEM when an allocation
	 * fails (pages given so far stay given), or the command's error.
	 */
	int give(u32 n, CmdResult *res = nullptr);
	/*
	 * Asks firmware for up to n pages back (TAKE, in chunks) until n came
	 * back or firmware returns none; *got (optional) = pages freed.
	 * E_PROTO when firmware returned more than asked or unknown/duplicate
	 * addresses (still frees the valid ones).
	 */
	int take(u32 n, u32 *got = nullptr, CmdResult *res = nullptr);
	/*
	 * PAGE_REQUEST event: num_pages > 0 gives (on E_NOMEM it tells firmware
	 * CANT_GIVE), < 0 takes -num_pages, 0 does nothing.
	 */
	int handle_page_request(s32 num_pages, CmdResult *res = nullptr);

	/*
	 * Frees a page firmware handed back (bus address from a TAKE answer).
	 * E_PROTO (counted) if we do not hold it.
	 */
	int release(u64 bus);
	/* Frees every live page without asking firmware (see above). */
	u64 free_all_live();

	u64 live() const;
	PageStats stats() const;
	bool holds(u64 bus) const;
	u16 function_id() const { return function_id_; }
	bool initialized() const { return host_ != nullptr; }

	/*
	 * Pages one MANAGE_PAGES carries: what the engine's message size
	 * allows, lowered to 'limit' when set (0 = no limit of our own).
	 */
	u32 chunk_pages() const;
	void set_chunk_limit(u32 limit) { chunk_limit_ = limit; }

private:
	struct Slot {
		cxprm_dma_buf buf; /* buf.cpu == nullptr: empty */
	};

	void lock() const;
	void unlock() const;
	int insert_locked(const cxprm_dma_buf &b);
	bool remove_locked(u64 bus, cxprm_dma_buf *out);
	long find_locked(u64 bus) const;
	int reserve(u32 extra);
	void free_page(cxprm_dma_buf *b);
	int alloc_pages(cxprm_dma_buf *bufs, u64 *pas, u32 n);
	int give_chunk(u32 n, CmdResult *res);
	int cant_give(CmdResult *res);

	const cxprm_host *host_ = nullptr;
	Cmdq *q_ = nullptr;
	void *lock_ = nullptr;
	Slot *tab_ = nullptr;
	u32 cap_ = 0;   /* power of two, or 0 */
	u32 used_ = 0;  /* live entries */
	u32 chunk_limit_ = 0;
	u16 function_id_ = 0;
	bool ecpf_ = false;
	PageStats st_{};
};

} // namespace cxprm
