// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* QueueMem: a queue buffer and its doorbell record in coherent DMA. */
#include "cxprm/queue_mem.h"

#include "cxprm/errors.h"

namespace cxprm {

int QueueMem::init(const cxprm_host *host, usize bytes, PiecePool *pool)
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
	int err = pool ? pool->alloc(&dbr_)
		       : host->ops->dma_alloc(host->ctx, DBR_BYTES, DBR_BYTES, &dbr_);
	if (err) {
		dbr_ = {};
		fini();
		return E_NOMEM;
	}
	pool_ = pool;
	mem_zero(dbr_.cpu, DBR_BYTES);
	npages_ = (u32)pages;
	return OK;
}

void QueueMem::fini()
{
	if (pool_)
		pool_->free(&dbr_);
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
