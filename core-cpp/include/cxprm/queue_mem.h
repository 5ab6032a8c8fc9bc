/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The host memory of a work or completion queue the device writes: one
 * physically contiguous, 4 KiB-aligned buffer of whole pages (listed in a
 * CREATE command's pas[] as base + i * 4 KiB) and a 64-byte doorbell
 * record, both DMA-coherent from the host interface: the record from a
 * DbrPool when one is given (a page shared by many queues, as Linux's
 * mlx5_db_alloc()), else an allocation of its own.  The owner frees it
 * only after the device object using it is destroyed (or the device can no
 * longer write: FLR or bus mastering off), never earlier.
 */
#pragma once

#include "dbr_pool.h"
#include "host.h"
#include "types.h"

namespace cxprm {

class QueueMem {
public:
	static constexpr u32 PAGE = 4096;
	static constexpr u32 DBR_BYTES = DbrPool::RECORD_BYTES;
	/* At most 1 MiB of queue: the pas[] list fits one command. */
	static constexpr u32 MAX_PAGES = 256;

	QueueMem() = default;
	~QueueMem() { fini(); }
	QueueMem(const QueueMem &) = delete;
	QueueMem &operator=(const QueueMem &) = delete;

	/*
	 * Zeroed buffer of 'bytes' (rounded up to whole pages, at least one)
	 * and doorbell record (from pool, which must outlive this, when
	 * given).  E_INVAL without a host or 0 bytes, E_RANGE above
	 * MAX_PAGES, E_NOMEM; on failure nothing stays allocated.
	 */
	int init(const cxprm_host *host, usize bytes, DbrPool *pool = nullptr);
	void fini();
	bool ready() const { return buf_.cpu != nullptr; }

	u32 npages() const { return npages_; }
	u64 page_bus(u32 i) const { return buf_.bus + (u64)i * PAGE; }
	u64 dbr_bus() const { return pool_ ? rec_.bus : dbr_.bus; }
	u8 *buf() const { return (u8 *)buf_.cpu; }
	u8 *dbr() const { return pool_ ? rec_.cpu : (u8 *)dbr_.cpu; }

private:
	const cxprm_host *host_ = nullptr;
	cxprm_dma_buf buf_{};
	cxprm_dma_buf dbr_{}; /* without a pool */
	DbrPool *pool_ = nullptr;
	Dbr rec_{}; /* from pool_ */
	u32 npages_ = 0;
};

} // namespace cxprm
