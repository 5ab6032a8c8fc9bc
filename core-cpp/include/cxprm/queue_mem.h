/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The host memory of a work or completion queue the device writes: one
 * physically contiguous, 4 KiB-aligned buffer of whole pages (listed in a
 * CREATE command's pas[] as base + i * 4 KiB) and a 64-byte doorbell
 * record, both DMA-coherent from the host interface: the record from a
 * pool of doorbell records when one is given (PiecePool: a page shared by
 * many queues, as Linux's mlx5_db_alloc()), else an allocation of its own.
 * The record is zeroed when taken: the receive and send counters start at
 * 0 (qpc.dbr_addr, cqc.dbr_addr), and a pooled one held its last queue's.
 * The owner frees it only after the device object using it is destroyed
 * (or the device can no longer write: FLR or bus mastering off), never
 * earlier.
 */
#pragma once

#include "host.h"
#include "piece_pool.h"
#include "types.h"

namespace cxprm {

class QueueMem {
public:
	static constexpr u32 PAGE = 4096;
	static constexpr u32 DBR_BYTES = PiecePool::DOORBELL_BYTES;
	/* At most 1 MiB of queue: the pas[] list fits one command. */
	static constexpr u32 MAX_PAGES = 256;

	QueueMem() = default;
	~QueueMem() { fini(); }
	QueueMem(const QueueMem &) = delete;
	QueueMem &operator=(const QueueMem &) = delete;

	/*
	 * Zeroed buffer of 'bytes' (rounded up to whole pages, at least one)
	 * and zeroed doorbell record (from pool, a PiecePool of doorbell
	 * records that must outlive this, when given).  E_INVAL without a
	 * host or 0 bytes, E_RANGE above MAX_PAGES, E_NOMEM; on failure
	 * nothing stays allocated.
	 */
	int init(const cxprm_host *host, usize bytes, PiecePool *pool = nullptr);
	void fini();
	bool ready() const { return buf_.cpu != nullptr; }

	u32 npages() const { return npages_; }
	u64 page_bus(u32 i) const { return buf_.bus + (u64)i * PAGE; }
	u64 dbr_bus() const { return dbr_.bus; }
	u8 *buf() const { return (u8 *)buf_.cpu; }
	u8 *dbr() const { return (u8 *)dbr_.cpu; }

private:
	const cxprm_host *host_ = nullptr;
	cxprm_dma_buf buf_{};
	cxprm_dma_buf dbr_{};
	PiecePool *pool_ = nullptr; /* dbr_ is its piece */
	u32 npages_ = 0;
};

} // namespace cxprm
