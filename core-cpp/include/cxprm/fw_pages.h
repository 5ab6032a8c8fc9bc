/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * FwPagePool: the 4 KiB pages firmware is lent (MANAGE_PAGES), cut from
 * the host's own pages as mlx5_core does (core/pagealloc.c
 * alloc_system_page / alloc_4k / free_4k: one system page mapped once,
 * its 4 KiB pieces handed out and taken back, the page unmapped and freed
 * when no piece of it is lent).  On a 4 KiB-page host a system page is
 * one firmware page and the pool only passes calls through; on 16 KiB or
 * 64 KiB pages it spends 1/4 or 1/16 of the memory one page per firmware
 * page would.
 *
 * System pages come from host->ops->fw_page_alloc (one host page, not
 * zeroed) where the host has it, else from dma_alloc (1 << page_shift
 * bytes, 4 KiB aligned).  A piece's cookie names its system page's
 * bookkeeping (host mem_alloc memory, so it does not move); pages with a
 * free piece are on a list, as mlx5's free_list.  Under a host lock: the
 * page tracker gives and takes from one worker, but free_all_live() and
 * release_all may run beside it.
 */
#pragma once

#include "host.h"
#include "types.h"

namespace cxprm {

class FwPagePool {
public:
	static constexpr u32 PIECE = 4096;

	FwPagePool() = default;
	~FwPagePool() = default; /* call destroy() */
	FwPagePool(const FwPagePool &) = delete;
	FwPagePool &operator=(const FwPagePool &) = delete;

	int init(const cxprm_host *host);
	/* Frees the lock; system pages still held stay (pieces still lent). */
	void destroy();

	/* One 4 KiB piece, 4 KiB aligned: OK, E_NOMEM or E_INVAL (host broke alignment). */
	int alloc(cxprm_dma_buf *out);
	/* A piece alloc() gave; a buffer it did not give is ignored and counted. */
	void free(cxprm_dma_buf *piece);

	u32 pieces_per_page() const { return per_page_; }
	u64 system_pages() const { return read_locked(pages_); } /* held now */
	u64 bad_frees() const { return read_locked(bad_frees_); }

private:
	struct SysPage {
		cxprm_dma_buf buf;
		u64 used;          /* bit i: piece i is lent */
		SysPage *prev, *next; /* on partial_ while a piece is free */
	};
	bool host_fw_pages() const;
	u64 read_locked(const u64 &v) const; /* a counter, under the lock */
	int alloc_system(cxprm_dma_buf *b);
	void free_system(cxprm_dma_buf *b);
	void unlink(SysPage *p);
	void push(SysPage *p);
	u64 full_mask() const { return per_page_ == 64 ? ~0ull : (1ull << per_page_) - 1; }

	const cxprm_host *host_ = nullptr;
	void *lock_ = nullptr;
	u32 per_page_ = 1;
	SysPage *partial_ = nullptr;
	u64 pages_ = 0, bad_frees_ = 0;
};

} // namespace cxprm
