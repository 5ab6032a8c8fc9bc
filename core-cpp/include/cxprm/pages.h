/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * PageTracker: the 4 KiB pages the driver lends to firmware (MANAGE_PAGES).
 *
 * Pages (4096 bytes, 4096-aligned) come from a PiecePool (piece_pool.h:
 * cut from host pages as mlx5_core does, host->ops->fw_page_alloc where
 * the host has it, not zeroed, else dma_alloc), and are remembered by bus
 * address in an open-addressing
 * hash table that lives in host->ops->mem_alloc memory and doubles when
 * half full.  give() hands pages over in MANAGE_PAGES GIVE commands no
 * larger than the engine's message size; take() asks firmware for pages
 * back (TAKE) and frees each bus address firmware returns.  A returned
 * address we never gave, or one returned twice, is a protocol error:
 * counted in bad_returns(), never freed, and the call answers E_PROTO
 * after processing the rest.
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
 * Functions: every page belongs to one function (function_id and
 * embedded_cpu_function, Linux's get_function key).  The tracker's own
 * function is the one init() names; give/take/handle_page_request with a
 * FunctionRef serve another (a VF, or the external host PF an ECPF
 * provides pages for).  A TAKE answer for one function that returns a page
 * of another is a protocol error (bad_returns), like an unknown address.
 * At most MAX_FUNCTIONS functions hold pages at once; a GIVE for one more
 * answers E_NOMEM (handle_page_request then sends CANT_GIVE for it).
 *
 * Thread-safety: the table and counters are under a host lock; commands are
 * issued outside it.  give()/take() may run from the page-request handler
 * while other commands run, but not two of them at once for one tracker,
 * and only from a context that may sleep (they allocate and wait for
 * commands): a PAGE_REQUEST event defers to a worker.
 */
#pragma once

#include "cmdq.h"
#include "commands/pages.h"
#include "host.h"
#include "piece_pool.h"
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
	static constexpr u32 MAX_FUNCTIONS = 32;

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
	int give(u32 n, CmdResult *res = nullptr) { return give(own(), n, res); }
	int give(const cmd::FunctionRef &fn, u32 n, CmdResult *res = nullptr);
	/*
	 * Asks firmware for up to n pages back (TAKE, in chunks) until n came
	 * back or firmware returns none; *got (optional) = pages freed.
	 * E_PROTO when firmware returned more than asked or unknown/duplicate
	 * addresses (still frees the valid ones).
	 */
	int take(u32 n, u32 *got = nullptr, CmdResult *res = nullptr)
	{
		return take(own(), n, got, res);
	}
	int take(const cmd::FunctionRef &fn, u32 n, u32 *got = nullptr, CmdResult *res = nullptr);
	/*
	 * PAGE_REQUEST event: num_pages > 0 gives (on E_NOMEM it tells firmware
	 * CANT_GIVE), < 0 takes -num_pages, 0 does nothing.
	 */
	int handle_page_request(s32 num_pages, CmdResult *res = nullptr)
	{
		return handle_page_request(own(), num_pages, res);
	}
	int handle_page_request(const cmd::FunctionRef &fn, s32 num_pages,
				CmdResult *res = nullptr);
	/*
	 * PAGE_REQUEST with release_all: firmware has already dropped every
	 * page of fn (the function was reset), so they are freed without a
	 * command (Linux release_all_pages).  Returns how many.
	 */
	u64 release_all(const cmd::FunctionRef &fn);

	/*
	 * Frees a page firmware handed back (bus address from a TAKE answer).
	 * E_PROTO (counted) if we do not hold it.
	 */
	int release(u64 bus);
	/* Frees every live page without asking firmware (see above). */
	u64 free_all_live();

	u64 live() const;
	/* Pages of one function. */
	u64 live(const cmd::FunctionRef &fn) const;
	/*
	 * Functions that hold pages now, own function first when it does;
	 * fills up to max of out[] and returns how many there are.
	 */
	u32 functions(cmd::FunctionRef *out, u32 max) const;
	cmd::FunctionRef own() const { return cmd::FunctionRef{function_id_, ecpf_}; }
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
		u32 fn;            /* function key (fn_key) */
	};
	struct FnCount {
		u32 key;  /* fn_key; NO_FN when the entry is free */
		u64 live; /* pages of the function in the table */
	};
	static constexpr u32 NO_FN = 0xffffffffu;
	static u32 fn_key(const cmd::FunctionRef &fn)
	{
		return (u32)fn.function_id | (fn.embedded_cpu_function ? 1u << 16 : 0);
	}
	static cmd::FunctionRef fn_ref(u32 key)
	{
		return cmd::FunctionRef{(u16)key, (key >> 16) != 0};
	}

	void lock() const;
	void unlock() const;
	int insert_locked(const cxprm_dma_buf &b, u32 fn);
	bool remove_locked(u64 bus, cxprm_dma_buf *out, u32 *fn = nullptr);
	/* The count entry of key; with create, a free one is claimed (or null). */
	FnCount *fn_count_locked(u32 key, bool create);
	int release_for(u32 key, u64 bus);
	long find_locked(u64 bus) const;
	int reserve(u32 extra);
	void free_page(cxprm_dma_buf *b);
	int alloc_pages(cxprm_dma_buf *bufs, u32 n, cmd::ManagePagesGive *give);
	int give_chunk(const cmd::FunctionRef &fn, u32 n, CmdResult *res);
	int cant_give(const cmd::FunctionRef &fn, CmdResult *res);

	const cxprm_host *host_ = nullptr;
	Cmdq *q_ = nullptr;
	void *lock_ = nullptr;
	Slot *tab_ = nullptr;
	u32 cap_ = 0;   /* power of two, or 0 */
	u32 used_ = 0;  /* live entries */
	u32 chunk_limit_ = 0;
	u16 function_id_ = 0;
	bool ecpf_ = false;
	FnCount fns_[MAX_FUNCTIONS] = {};
	PageStats st_{};
	PiecePool pool_;

public:
	/* The pool's system pages held now, and firmware pages per one (piece_pool.h). */
	u64 system_pages() const { return pool_.system_pages(); }
	u32 pieces_per_page() const { return pool_.pieces_per_page(); }
};

} // namespace cxprm
