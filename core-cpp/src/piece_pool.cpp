// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* PiecePool (piece_pool.h): firmware pages and doorbell records cut from host pages. */
#include "cxprm/piece_pool.h"

#include "cxprm/errors.h"

namespace cxprm {

namespace {

u32 host_page_shift(const cxprm_host *host)
{
	return host->ops->page_shift ? host->ops->page_shift(host->ctx) : 12;
}

} // namespace

int PiecePool::init(const cxprm_host *host, u32 piece_shift, u32 page_shift, Source src)
{
	if (!host || !host->ops || host_)
		return E_INVAL;
	/* 64-byte pieces at least; at most 64 to a page, one mask word. */
	if (piece_shift < 6 || page_shift < piece_shift || page_shift - piece_shift > 6 ||
	    page_shift > 30)
		return E_INVAL;
	bool host_pages = src == Source::HOST_PAGES && host->ops->fw_page_alloc &&
			  host->ops->fw_page_free;
	if (host_pages && page_shift != host_page_shift(host))
		return E_INVAL; /* fw_page_alloc gives one host page */
	void *l = host->ops->lock_create(host->ctx);
	if (!l)
		return E_NOMEM;
	host_ = host;
	lock_ = l;
	piece_shift_ = piece_shift;
	per_page_ = 1u << (page_shift - piece_shift);
	host_pages_ = host_pages;
	partial_ = nullptr;
	pages_ = in_use_ = bad_frees_ = leaked_ = 0;
	return OK;
}

int PiecePool::init_fw_pages(const cxprm_host *host)
{
	if (!host || !host->ops)
		return E_INVAL;
	return init(host, (u32)__builtin_ctz(FW_PAGE), host_page_shift(host), Source::HOST_PAGES);
}

int PiecePool::init_doorbell_records(const cxprm_host *host)
{
	static_assert(DOORBELL_PAGE / DOORBELL_BYTES == MAX_PIECES, "a page's records are one mask");
	return init(host, (u32)__builtin_ctz(DOORBELL_BYTES), (u32)__builtin_ctz(DOORBELL_PAGE),
		    Source::COHERENT);
}

void PiecePool::destroy()
{
	if (!host_)
		return;
	/* Pages with a piece out stay: the device may still write to them. */
	leaked_ = in_use_;
	host_->ops->lock_destroy(host_->ctx, lock_);
	lock_ = nullptr;
	host_ = nullptr;
	partial_ = nullptr;
}

int PiecePool::alloc_system(cxprm_dma_buf *b)
{
	usize bytes = (usize)per_page_ << piece_shift_;
	usize piece = piece_bytes();
	/* Each piece aligned to its size; a page to 4 KiB where it spans one. */
	usize align = piece > 4096 ? piece : min_of(bytes, (usize)4096);
	int err = host_pages_ ? host_->ops->fw_page_alloc(host_->ctx, b)
			      : host_->ops->dma_alloc(host_->ctx, bytes, align, b);
	if (err) {
		*b = {};
		return err < 0 ? err : E_NOMEM;
	}
	if (!b->cpu || b->bus % align || b->size < bytes) {
		free_system(b); /* host broke its promise */
		*b = {};
		return E_INVAL;
	}
	return OK;
}

void PiecePool::free_system(cxprm_dma_buf *b)
{
	if (host_pages_)
		host_->ops->fw_page_free(host_->ctx, b);
	else
		host_->ops->dma_free(host_->ctx, b);
}

void PiecePool::unlink(SysPage *p)
{
	if (p->prev)
		p->prev->next = p->next;
	else if (partial_ == p)
		partial_ = p->next;
	if (p->next)
		p->next->prev = p->prev;
	p->prev = p->next = nullptr;
}

void PiecePool::push(SysPage *p)
{
	p->prev = nullptr;
	p->next = partial_;
	if (partial_)
		partial_->prev = p;
	partial_ = p;
}

void PiecePool::count(s64 pages, s64 pieces)
{
	host_->ops->lock(host_->ctx, lock_);
	pages_ += (u64)pages;
	in_use_ += (u64)pieces;
	host_->ops->unlock(host_->ctx, lock_);
}

/* The lowest free piece of the first page with one; false if none. */
bool PiecePool::take_locked(cxprm_dma_buf *out)
{
	SysPage *p = partial_;
	if (!p)
		return false;
	u32 i = (u32)__builtin_ctzll(~p->used);
	p->used |= 1ull << i;
	if (p->used == full_mask())
		unlink(p);
	in_use_++;
	out->cpu = static_cast<u8 *>(p->buf.cpu) + ((usize)i << piece_shift_);
	out->bus = p->buf.bus + ((u64)i << piece_shift_);
	out->size = piece_bytes();
	out->cookie = p;
	return true;
}

int PiecePool::alloc(cxprm_dma_buf *out)
{
	if (!out)
		return E_INVAL;
	*out = {};
	if (!host_)
		return E_INVAL;
	if (per_page_ == 1) { /* a page is a piece */
		int err = alloc_system(out);
		if (!err)
			count(1, 1);
		return err;
	}
	const cxprm_host_ops *o = host_->ops;
	o->lock(host_->ctx, lock_);
	bool got = take_locked(out);
	o->unlock(host_->ctx, lock_);
	if (got)
		return OK;
	auto *p = static_cast<SysPage *>(o->mem_alloc(host_->ctx, sizeof(SysPage)));
	if (!p)
		return E_NOMEM;
	int err = alloc_system(&p->buf);
	if (err) {
		o->mem_free(host_->ctx, p);
		return err;
	}
	p->used = 0;
	o->lock(host_->ctx, lock_);
	pages_++;
	push(p);
	take_locked(out); /* from p: it is first on the list */
	o->unlock(host_->ctx, lock_);
	return OK;
}

void PiecePool::free(cxprm_dma_buf *piece)
{
	if (!host_ || !piece || !piece->cpu)
		return;
	if (per_page_ == 1) {
		free_system(piece);
		*piece = {};
		count(-1, -1);
		return;
	}
	auto *p = static_cast<SysPage *>(piece->cookie);
	host_->ops->lock(host_->ctx, lock_);
	u64 off = p ? piece->bus - p->buf.bus : ~0ull;
	u64 i = off >> piece_shift_;
	if (!p || off & (piece_bytes() - 1) || i >= per_page_ || !(p->used >> i & 1)) {
		bad_frees_++;
		host_->ops->unlock(host_->ctx, lock_);
		return;
	}
	bool was_full = p->used == full_mask();
	p->used &= ~(1ull << i);
	in_use_--;
	if (p->used && was_full)
		push(p);
	bool empty = !p->used;
	if (empty) {
		if (!was_full)
			unlink(p);
		pages_--;
	}
	host_->ops->unlock(host_->ctx, lock_);
	*piece = {};
	if (empty) {
		free_system(&p->buf);
		host_->ops->mem_free(host_->ctx, p);
	}
}

u64 PiecePool::read_locked(const u64 &v) const
{
	if (!host_)
		return 0;
	host_->ops->lock(host_->ctx, lock_);
	u64 n = v;
	host_->ops->unlock(host_->ctx, lock_);
	return n;
}

} // namespace cxprm
