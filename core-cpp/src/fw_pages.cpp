// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* FwPagePool (fw_pages.h): 4 KiB firmware pages cut from system pages. */
#include "cxprm/fw_pages.h"

#include "cxprm/errors.h"

namespace cxprm {

int FwPagePool::init(const cxprm_host *host)
{
	if (!host || !host->ops)
		return E_INVAL;
	u32 shift = host->ops->page_shift ? host->ops->page_shift(host->ctx) : 12;
	/* 4 KiB to 256 KiB pages: at most 64 pieces, one mask word. */
	if (shift < 12 || shift > 18)
		return E_INVAL;
	void *l = host->ops->lock_create(host->ctx);
	if (!l)
		return E_NOMEM;
	host_ = host;
	lock_ = l;
	per_page_ = 1u << (shift - 12);
	partial_ = nullptr;
	pages_ = bad_frees_ = 0;
	return OK;
}

void FwPagePool::destroy()
{
	if (lock_)
		host_->ops->lock_destroy(host_->ctx, lock_);
	lock_ = nullptr;
	host_ = nullptr;
}

bool FwPagePool::host_fw_pages() const
{
	return host_->ops->fw_page_alloc && host_->ops->fw_page_free;
}

int FwPagePool::alloc_system(cxprm_dma_buf *b)
{
	usize bytes = (usize)per_page_ * PIECE;
	int err = host_fw_pages() ? host_->ops->fw_page_alloc(host_->ctx, b)
				  : host_->ops->dma_alloc(host_->ctx, bytes, PIECE, b);
	if (err)
		return err < 0 ? err : E_NOMEM;
	if (!b->cpu || b->bus % PIECE || b->size < bytes) {
		free_system(b); /* host broke its promise */
		return E_INVAL;
	}
	return OK;
}

void FwPagePool::free_system(cxprm_dma_buf *b)
{
	if (host_fw_pages())
		host_->ops->fw_page_free(host_->ctx, b);
	else
		host_->ops->dma_free(host_->ctx, b);
}

void FwPagePool::unlink(SysPage *p)
{
	if (p->prev)
		p->prev->next = p->next;
	else if (partial_ == p)
		partial_ = p->next;
	if (p->next)
		p->next->prev = p->prev;
	p->prev = p->next = nullptr;
}

void FwPagePool::push(SysPage *p)
{
	p->prev = nullptr;
	p->next = partial_;
	if (partial_)
		partial_->prev = p;
	partial_ = p;
}

int FwPagePool::alloc(cxprm_dma_buf *out)
{
	if (!host_ || !out)
		return E_INVAL;
	if (per_page_ == 1) { /* a system page is a firmware page */
		int err = alloc_system(out);
		if (!err) {
			host_->ops->lock(host_->ctx, lock_);
			pages_++;
			host_->ops->unlock(host_->ctx, lock_);
		}
		return err;
	}
	host_->ops->lock(host_->ctx, lock_);
	SysPage *p = partial_;
	int err = OK;
	if (!p) {
		p = static_cast<SysPage *>(host_->ops->mem_alloc(host_->ctx, sizeof(SysPage)));
		err = p ? alloc_system(&p->buf) : E_NOMEM;
		if (err) {
			if (p)
				host_->ops->mem_free(host_->ctx, p);
			host_->ops->unlock(host_->ctx, lock_);
			return err;
		}
		p->used = 0;
		p->prev = p->next = nullptr;
		pages_++;
		push(p);
	}
	u32 i = 0;
	while (p->used >> i & 1)
		i++;
	p->used |= 1ull << i;
	if (p->used == full_mask())
		unlink(p);
	host_->ops->unlock(host_->ctx, lock_);
	out->cpu = static_cast<u8 *>(p->buf.cpu) + (usize)i * PIECE;
	out->bus = p->buf.bus + (u64)i * PIECE;
	out->size = PIECE;
	out->cookie = p;
	return OK;
}

void FwPagePool::free(cxprm_dma_buf *piece)
{
	if (!host_ || !piece || !piece->cpu)
		return;
	if (per_page_ == 1) {
		free_system(piece);
		host_->ops->lock(host_->ctx, lock_);
		pages_--;
		host_->ops->unlock(host_->ctx, lock_);
		return;
	}
	SysPage *p = static_cast<SysPage *>(piece->cookie);
	host_->ops->lock(host_->ctx, lock_);
	u64 off = p ? piece->bus - p->buf.bus : ~0ull;
	u32 i = (u32)(off / PIECE);
	if (!p || off % PIECE || i >= per_page_ || !(p->used >> i & 1)) {
		bad_frees_++;
		host_->ops->unlock(host_->ctx, lock_);
		return;
	}
	bool was_full = p->used == full_mask();
	p->used &= ~(1ull << i);
	if (p->used && was_full)
		push(p);
	bool empty = !p->used;
	if (empty) {
		if (!was_full)
			unlink(p);
		pages_--;
	}
	host_->ops->unlock(host_->ctx, lock_);
	if (empty) {
		free_system(&p->buf);
		host_->ops->mem_free(host_->ctx, p);
	}
}

u64 FwPagePool::read_locked(const u64 &v) const
{
	if (!host_)
		return 0;
	host_->ops->lock(host_->ctx, lock_);
	u64 n = v;
	host_->ops->unlock(host_->ctx, lock_);
	return n;
}

} // namespace cxprm
