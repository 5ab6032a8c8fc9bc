/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * PiecePool: equal pieces cut from pages the host maps once, each page
 * freed with its last piece.  Two users, one mechanism:
 *
 *  - firmware pages (MANAGE_PAGES): 4 KiB pieces of host pages, as
 *    mlx5_core's core/pagealloc.c does (alloc_system_page, alloc_4k,
 *    free_4k).  Pages come from host->ops->fw_page_alloc where the host
 *    has it (one host page, not zeroed), else dma_alloc.  On a 4 KiB-page
 *    host a host page is one firmware page and the pool passes calls
 *    through; on 16 or 64 KiB pages it spends 1/4 or 1/16 of the memory.
 *  - doorbell records: 64-byte pieces of a 4 KiB coherent page, as Linux's
 *    mlx5_db_alloc() (one page, a bitmap of its records, the page freed
 *    with its last record).  A queue's create then takes one DMA
 *    allocation, not two, and 64 queues share a page.  A record is a cache
 *    line of its own; the queue zeroes it (QueueMem).
 *
 * A piece's cookie names its page's bookkeeping (host mem_alloc memory, so
 * it does not move); pages with a free piece are on a list, as mlx5's
 * free_list.  The lowest free piece of the newest such page is taken.  A
 * new page is allocated outside the lock (the host's may sleep).  Under a
 * host lock: the page tracker gives and takes from one worker while
 * free_all_live() or release_all may run beside it, and queues of many
 * callers take records at once.
 */
#pragma once

#include "host.h"
#include "types.h"

namespace cxprm {

class PiecePool {
public:
	enum class Source : u8 {
		HOST_PAGES, /* fw_page_alloc when the host has it, else dma_alloc */
		COHERENT,   /* dma_alloc */
	};
	static constexpr u32 FW_PAGE = 4096;
	/* A cache line each, as mlx5_db_alloc(), so two queues never share one. */
	static constexpr u32 DOORBELL_BYTES = 64;
	static constexpr u32 DOORBELL_PAGE = 4096;
	static constexpr u32 MAX_PIECES = 64; /* per page: one u64 mask */

	PiecePool() = default;
	~PiecePool() { destroy(); }
	PiecePool(const PiecePool &) = delete;
	PiecePool &operator=(const PiecePool &) = delete;

	/*
	 * Pieces of 1 << piece_shift bytes from pages of 1 << page_shift;
	 * E_INVAL without a host, pieces under 64 bytes, more than MAX_PIECES
	 * a page, or HOST_PAGES not of the host's page size; E_NOMEM.
	 */
	int init(const cxprm_host *host, u32 piece_shift, u32 page_shift, Source src);
	int init_fw_pages(const cxprm_host *host);
	int init_doorbell_records(const cxprm_host *host);
	/*
	 * Frees the lock.  A page with a piece still out stays allocated (the
	 * device may still write to it) and the pieces are counted in leaked().
	 */
	void destroy();

	/* One piece, aligned to its size: OK, E_NOMEM, E_INVAL (before init, or the host broke alignment). */
	int alloc(cxprm_dma_buf *out);
	/* A piece alloc() gave, then *piece = {}; one it did not give is ignored and counted. */
	void free(cxprm_dma_buf *piece);

	u32 piece_bytes() const { return 1u << piece_shift_; }
	u32 pieces_per_page() const { return per_page_; }
	u64 system_pages() const { return read_locked(pages_); } /* held now */
	u64 in_use() const { return read_locked(in_use_); }
	u64 bad_frees() const { return read_locked(bad_frees_); }
	u64 leaked() const { return leaked_; }

private:
	struct SysPage {
		cxprm_dma_buf buf;
		u64 used;             /* bit i: piece i is out */
		SysPage *prev, *next; /* on partial_ while a piece is free */
	};
	u64 read_locked(const u64 &v) const; /* a counter, under the lock */
	int alloc_system(cxprm_dma_buf *b);
	void free_system(cxprm_dma_buf *b);
	bool take_locked(cxprm_dma_buf *out);
	void unlink(SysPage *p);
	void push(SysPage *p);
	void count(s64 pages, s64 pieces);
	u64 full_mask() const { return per_page_ == 64 ? ~0ull : (1ull << per_page_) - 1; }

	const cxprm_host *host_ = nullptr;
	void *lock_ = nullptr;
	u32 piece_shift_ = 12;
	u32 per_page_ = 1;
	bool host_pages_ = false; /* from fw_page_alloc */
	SysPage *partial_ = nullptr;
	u64 pages_ = 0, in_use_ = 0, bad_frees_ = 0, leaked_ = 0;
};

} // namespace cxprm
