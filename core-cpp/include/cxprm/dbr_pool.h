/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Doorbell records of many queues carved from shared pages of coherent
 * DMA, as Linux's mlx5_db_alloc() does (lib/mlx5 pgdir: one page, a bitmap
 * of its records, the page freed when its last record comes back).  A
 * queue's create then takes one DMA allocation (its buffer), not two, and
 * 64 queues share a page where each record took a page of its own (the
 * kernel's dma_alloc_coherent() hands out whole pages).
 *
 * A record is zeroed when taken (the receive and send counters start at
 * 0: qpc.dbr_addr, cqc.dbr_addr) and is given back only when its queue's
 * memory is freed, after the device can no longer write it (QueueMem).
 */
#pragma once

#include "host.h"
#include "types.h"

namespace cxprm {

struct DbrPage;

/* One record: where the CPU and the device see it, and its page. */
struct Dbr {
	u8 *cpu = nullptr;
	u64 bus = 0;
	DbrPage *page = nullptr;
	u32 index = 0;
};

class DbrPool {
public:
	static constexpr u32 PAGE = 4096;
	/* A cache line each, as mlx5_db_alloc(), so two queues never share one. */
	static constexpr u32 RECORD_BYTES = 64;
	static constexpr u32 PER_PAGE = PAGE / RECORD_BYTES;
	static_assert(PER_PAGE == 64, "a page's records are one u64 mask");

	DbrPool() = default;
	~DbrPool() { fini(); }
	DbrPool(const DbrPool &) = delete;
	DbrPool &operator=(const DbrPool &) = delete;

	/* E_INVAL without a host, E_NOMEM without a lock. */
	int init(const cxprm_host *host);
	/*
	 * Frees every page.  Every record must be back (each queue's memory
	 * freed first); one that is not is counted in leaked() and its page
	 * freed all the same.
	 */
	void fini();

	/* A zeroed record: OK, E_INVAL before init, E_NOMEM. */
	int alloc(Dbr *out);
	/* Gives d back (no-op for an empty d); its page goes with its last record. */
	void free(Dbr *d);

	u32 pages() const { return pages_; }
	u32 in_use() const { return in_use_; }
	u32 leaked() const { return leaked_; }

private:
	bool take_locked(Dbr *out);

	const cxprm_host *host_ = nullptr;
	void *lock_ = nullptr;
	DbrPage *head_ = nullptr; /* pages with a free record first */
	u32 pages_ = 0;
	u32 in_use_ = 0;
	u32 leaked_ = 0;
};

} // namespace cxprm
