// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* DbrPool: doorbell records from shared pages (dbr_pool.h). */
#include "cxprm/dbr_pool.h"

#include "cxprm/errors.h"

namespace cxprm {

struct DbrPage {
	static void *operator new(usize, void *p) noexcept { return p; }
	static void operator delete(void *, void *) noexcept {}
	cxprm_dma_buf buf{};
	u64 free = ~0ull; /* bit i: record i is free */
	DbrPage *prev = nullptr, *next = nullptr;
};

int DbrPool::init(const cxprm_host *host)
{
	if (!host || !host->ops || host_)
		return E_INVAL;
	lock_ = host->ops->lock_create(host->ctx);
	if (!lock_)
		return E_NOMEM;
	host_ = host;
	return OK;
}

void DbrPool::fini()
{
	if (!host_)
		return;
	while (DbrPage *p = head_) {
		head_ = p->next;
		for (u64 out = ~p->free; out; out &= out - 1) /* no libgcc popcount */
			leaked_++;
		host_->ops->dma_free(host_->ctx, &p->buf);
		p->~DbrPage();
		host_->ops->mem_free(host_->ctx, p);
	}
	host_->ops->lock_destroy(host_->ctx, lock_);
	host_ = nullptr;
	lock_ = nullptr;
	pages_ = in_use_ = 0;
}

/* The first free record of the first page that has one; false if none. */
bool DbrPool::take_locked(Dbr *out)
{
	for (DbrPage *p = head_; p; p = p->next) {
		if (!p->free)
			continue;
		u32 i = (u32)__builtin_ctzll(p->free);
		p->free &= ~(1ull << i);
		out->page = p;
		out->index = i;
		out->cpu = (u8 *)p->buf.cpu + i * RECORD_BYTES;
		out->bus = p->buf.bus + (u64)i * RECORD_BYTES;
		in_use_++;
		return true;
	}
	return false;
}

int DbrPool::alloc(Dbr *out)
{
	if (!out)
		return E_INVAL;
	*out = {};
	if (!host_)
		return E_INVAL;
	const cxprm_host_ops *o = host_->ops;
	o->lock(host_->ctx, lock_);
	bool got = take_locked(out);
	o->unlock(host_->ctx, lock_);
	if (!got) {
		/* A new page, allocated without the lock (the host's may sleep). */
		void *mem = o->mem_alloc(host_->ctx, sizeof(DbrPage));
		if (!mem)
			return E_NOMEM;
		auto *p = new (mem) DbrPage;
		if (o->dma_alloc(host_->ctx, PAGE, PAGE, &p->buf)) {
			p->~DbrPage();
			o->mem_free(host_->ctx, mem);
			return E_NOMEM;
		}
		o->lock(host_->ctx, lock_);
		p->next = head_;
		if (head_)
			head_->prev = p;
		head_ = p;
		pages_++;
		take_locked(out);
		o->unlock(host_->ctx, lock_);
	}
	/* A record given back holds its last queue's counters. */
	mem_zero(out->cpu, RECORD_BYTES);
	return OK;
}

void DbrPool::free(Dbr *d)
{
	if (!d || !d->page || !host_)
		return;
	DbrPage *p = d->page, *gone = nullptr;
	const cxprm_host_ops *o = host_->ops;
	o->lock(host_->ctx, lock_);
	p->free |= 1ull << d->index;
	in_use_--;
	if (p->free == ~0ull) {
		/* Its last record: the page goes, as mlx5_db_free() frees it. */
		(p->prev ? p->prev->next : head_) = p->next;
		if (p->next)
			p->next->prev = p->prev;
		pages_--;
		gone = p;
	}
	o->unlock(host_->ctx, lock_);
	if (gone) {
		o->dma_free(host_->ctx, &gone->buf);
		gone->~DbrPage();
		o->mem_free(host_->ctx, gone);
	}
	*d = {};
}

} // namespace cxprm
