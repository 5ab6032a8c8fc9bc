// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* QueueMem: a queue buffer and its doorbell record in coherent DMA. */
#include "cxprm/queue_mem.h"

#include "cxprm/errors.h"

namespace cxprm {

int QueueMem::init(const cxprm_host *host, usize bytes, DbrPool *pool)
{
	if (!host || !host->ops || !bytes || ready())
		return E_INVAL;
	usize pages = (bytes + PAGE - 1) / PAGE;
	if (pages > MAX_PAGES)
		return E_RANGE;
	host_ = host;
	if (host->ops->dma_alloc(host->ctx, pages * PAGE, PAGE, &buf_)) {
		buf_ = {};
		return E_NOMEM;
	}
	if (pool) {
		pool_ = pool;
		if (pool->alloc(&rec_)) {
			fini();
			return E_NOMEM;
		}
	} else if (host->ops->dma_alloc(host->ctx, DBR_BYTES, DBR_BYTES, &dbr_)) {
		dbr_ = {};
		fini();
		return E_NOMEM;
	}
	npages_ = (u32)pages;
	return OK;
}

void QueueMem::fini()
{
	if (pool_)
		pool_->free(&rec_);
	else if (dbr_.cpu)
		host_->ops->dma_free(host_->ctx, &dbr_);
	if (buf_.cpu)
		host_->ops->dma_free(host_->ctx, &buf_);
	dbr_ = {};
	pool_ = nullptr;
	buf_ = {};
	npages_ = 0;
}

} // namespace cxprm
