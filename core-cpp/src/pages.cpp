// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * PageTracker: pages lent to firmware, by bus address (see pages.h).
 *
 * The table is open addressing with linear probing over bus >> 12 and
 * backward-shift deletion (no tombstones), kept at most half full.  Host
 * allocations (DMA pages, the table) happen outside the lock, since the
 * host lock may be a spinlock.
 */
#include "cxprm/pages.h"

#include "cxprm/commands/pages.h"
#include "cxprm/prm/transport.h"

namespace cxprm {

namespace {

constexpr u32 PAGE = prm::ADAPTER_PAGE_SIZE;
constexpr u32 MIN_TABLE = 64;

u32 hash_bus(u64 bus, u32 cap)
{
	u64 h = (bus >> 12) * 0x9e3779b97f4a7c15ull;
	return (u32)(h >> 32) & (cap - 1);
}

/* Errors after which firmware certainly did not take a GIVE's pages. */
bool give_not_executed(int err)
{
	switch (err) {
	case E_REMOTEIO: /* firmware ran it and refused */
	case E_IO:       /* delivery status: firmware did not run it */
	case E_BUSY:     /* no slot: never posted */
	case E_SHUTDOWN:
	case E_NOMEM:
	case E_INVAL:
	case E_RANGE:
		return true;
	default:         /* timeout, bad output, device gone: unknown */
		return false;
	}
}

} // namespace

int PageTracker::init(const cxprm_host *host, Cmdq *q, u16 function_id,
		      bool embedded_cpu_function)
{
	if (host_)
		return E_BUSY;
	if (!host || !host->ops || !q)
		return E_INVAL;
	int err = pool_.init_fw_pages(host);
	if (err)
		return err;
	void *l = host->ops->lock_create(host->ctx);
	if (!l) {
		pool_.destroy();
		return E_NOMEM;
	}
	host_ = host;
	q_ = q;
	lock_ = l;
	tab_ = nullptr;
	cap_ = used_ = 0;
	function_id_ = function_id;
	ecpf_ = embedded_cpu_function;
	chunk_limit_ = 0;
	st_ = PageStats{};
	for (FnCount &f : fns_)
		f = FnCount{NO_FN, 0};
	fns_[0].key = fn_key(own()); /* the own function keeps entry 0 */
	return OK;
}

u64 PageTracker::destroy()
{
	if (!host_)
		return 0;
	if (u64 n = live())
		return n;
	if (tab_)
		host_->ops->mem_free(host_->ctx, tab_);
	host_->ops->lock_destroy(host_->ctx, lock_);
	pool_.destroy();
	host_ = nullptr;
	q_ = nullptr;
	lock_ = nullptr;
	tab_ = nullptr;
	cap_ = used_ = 0;
	return 0;
}

void PageTracker::lock() const { host_->ops->lock(host_->ctx, lock_); }
void PageTracker::unlock() const { host_->ops->unlock(host_->ctx, lock_); }

long PageTracker::find_locked(u64 bus) const
{
	if (!cap_)
		return -1;
	for (u32 i = hash_bus(bus, cap_), n = 0; n < cap_; i = (i + 1) & (cap_ - 1), n++) {
		if (!tab_[i].buf.cpu)
			return -1;
		if (tab_[i].buf.bus == bus)
			return i;
	}
	return -1;
}

int PageTracker::insert_locked(const cxprm_dma_buf &b, u32 fn)
{
	if ((used_ + 1) * 2 > cap_)
		return E_NOMEM; /* grow first */
	FnCount *fc = fn_count_locked(fn, true);
	if (!fc)
		return E_NOMEM; /* MAX_FUNCTIONS functions hold pages already */
	u32 i = hash_bus(b.bus, cap_);
	while (tab_[i].buf.cpu) {
		if (tab_[i].buf.bus == b.bus)
			return E_PROTO; /* host handed out one address twice */
		i = (i + 1) & (cap_ - 1);
	}
	tab_[i].buf = b;
	tab_[i].fn = fn;
	fc->live++;
	used_++;
	return OK;
}

bool PageTracker::remove_locked(u64 bus, cxprm_dma_buf *out, u32 *fn)
{
	long at = find_locked(bus);
	if (at < 0)
		return false;
	*out = tab_[at].buf;
	if (fn)
		*fn = tab_[at].fn;
	if (FnCount *fc = fn_count_locked(tab_[at].fn, false))
		fc->live--;
	/* Backward-shift deletion keeps every probe chain unbroken. */
	u32 hole = (u32)at;
	for (u32 j = (hole + 1) & (cap_ - 1); tab_[j].buf.cpu; j = (j + 1) & (cap_ - 1)) {
		u32 home = hash_bus(tab_[j].buf.bus, cap_);
		/* Entry j may move to hole if its home is not in (hole, j]. */
		bool stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
		if (!stays) {
			tab_[hole] = tab_[j];
			hole = j;
		}
	}
	tab_[hole] = Slot{};
	used_--;
	return true;
}

/*
 * Makes room for 'extra' more entries, keeping the table at most half full.
 * Called without the lock: allocates, then rehashes and swaps under it.
 */
int PageTracker::reserve(u32 extra)
{
	lock();
	u64 need = ((u64)used_ + extra) * 2;
	u32 cap = cap_;
	unlock();
	if (need <= cap)
		return OK;
	u64 ncap = cap ? cap : MIN_TABLE;
	while (ncap < need)
		ncap *= 2;
	if (ncap > (1ull << 30))
		return E_NOMEM;
	Slot *nt = (Slot *)host_->ops->mem_alloc(host_->ctx, (usize)ncap * sizeof(Slot));
	if (!nt)
		return E_NOMEM;
	mem_zero(nt, (usize)ncap * sizeof(Slot));

	lock();
	Slot *old = tab_;
	u32 ocap = cap_;
	tab_ = nt;
	cap_ = (u32)ncap;
	used_ = 0;
	for (FnCount &f : fns_)
		f.live = 0;
	for (u32 i = 0; i < ocap; i++)
		if (old[i].buf.cpu)
			insert_locked(old[i].buf, old[i].fn);
	unlock();
	if (old)
		host_->ops->mem_free(host_->ctx, old);
	return OK;
}

void PageTracker::free_page(cxprm_dma_buf *b)
{
	pool_.free(b);
}

u32 PageTracker::chunk_pages() const
{
	u32 n = q_ ? cmd::manage_pages_max_entries(*q_) : 0;
	return chunk_limit_ ? min_of(n, chunk_limit_) : n;
}

/* Each page's address into the GIVE's mailboxes as it is mapped. */
int PageTracker::alloc_pages(cxprm_dma_buf *bufs, u32 n, cmd::ManagePagesGive *give)
{
	for (u32 i = 0; i < n; i++) {
		int err = pool_.alloc(&bufs[i]);
		if (!err && (err = give->add(bufs[i].bus)))
			free_page(&bufs[i]);
		if (err) {
			while (i--)
				free_page(&bufs[i]);
			return err < 0 ? err : E_NOMEM;
		}
	}
	return OK;
}

int PageTracker::give_chunk(const cmd::FunctionRef &fn, u32 n, CmdResult *res)
{
	cmd::HostMem scratch;
	int err = scratch.alloc(host_, (usize)n * sizeof(cxprm_dma_buf));
	if (err)
		return err;
	auto *bufs = (cxprm_dma_buf *)scratch.data();

	err = reserve(n);
	if (err)
		return err;
	/*
	 * The page slot's input chain is ours from here to the command (or
	 * give's destructor): the addresses are written into it as the pages
	 * are mapped, as mlx5_core's give_pages() fills its `in` while it
	 * allocates, so the command writes only the blocks' control bytes.
	 */
	cmd::ManagePagesGive give;
	err = give.begin(*q_, n);
	if (!err)
		err = alloc_pages(bufs, n, &give);
	if (err)
		return err;

	/* Remember the pages before firmware can see them. */
	lock();
	u32 ins = 0;
	for (; ins < n; ins++)
		if ((err = insert_locked(bufs[ins], fn_key(fn))))
			break;
	if (err)
		for (u32 i = 0; i < ins; i++)
			remove_locked(bufs[i].bus, &bufs[i]);
	else
		st_.given += n;
	unlock();
	if (err) {
		give.release();
		for (u32 i = 0; i < n; i++)
			free_page(&bufs[i]);
		return err;
	}

	err = give.exec(fn, res);
	if (err && give_not_executed(err)) {
		lock();
		for (u32 i = 0; i < n; i++)
			remove_locked(bufs[i].bus, &bufs[i]);
		st_.given -= n;
		st_.give_failed += n;
		unlock();
		for (u32 i = 0; i < n; i++)
			free_page(&bufs[i]);
	}
	return err;
}

int PageTracker::give(const cmd::FunctionRef &fn, u32 n, CmdResult *res)
{
	if (!host_)
		return E_INVAL;
	u32 chunk = chunk_pages();
	if (!chunk)
		return E_RANGE;
	while (n) {
		u32 k = min_of(n, chunk);
		int err = give_chunk(fn, k, res);
		if (err)
			return err;
		n -= k;
	}
	return OK;
}

int PageTracker::take(const cmd::FunctionRef &fn, u32 n, u32 *got, CmdResult *res)
{
	if (got)
		*got = 0;
	if (!host_)
		return E_INVAL;
	u32 chunk = chunk_pages();
	if (!chunk)
		return E_RANGE;
	/*
	 * The page list, 8 bytes a page: without memory for it, fewer pages a
	 * command (as for the output below), down to one.
	 */
	cmd::HostMem scratch;
	int err = OK;
	if (n) {
		chunk = min_of(n, chunk);
		while ((err = scratch.alloc(host_, (usize)chunk * sizeof(u64))) == E_NOMEM && chunk > 1)
			chunk /= 2;
	}
	if (err)
		return err;
	auto *pas = (u64 *)scratch.data();

	u32 returned = 0, freed = 0;
	bool proto = false;
	/* Bounded by what firmware returns: each round returns >= 1 or stops. */
	while (returned < n) {
		u32 k = min_of(n - returned, chunk), g = 0;
		err = cmd::manage_pages_take(*q_, fn, k, pas, &g, res);
		/*
		 * No memory for the output (buffer or mailbox chain, 8 bytes a
		 * page): nothing was sent, so ask for fewer pages at a time.
		 * Under memory pressure, getting pages back is what frees it.
		 */
		if (err == E_NOMEM && k > 1) {
			chunk = k / 2;
			continue;
		}
		if (err)
			break;
		if (!g)
			break;
		returned += g;
		for (u32 i = 0; i < g; i++) {
			/* A page of another function is as wrong as an unknown one. */
			if (release_for(fn_key(fn), pas[i]) == OK)
				freed++;
			else
				proto = true;
		}
	}
	if (got)
		*got = freed;
	if (err)
		return err;
	return proto ? E_PROTO : OK;
}

int PageTracker::cant_give(const cmd::FunctionRef &fn, CmdResult *res)
{
	lock();
	st_.cant_give++;
	unlock();
	return cmd::manage_pages_cant_give(*q_, fn, res);
}

int PageTracker::handle_page_request(const cmd::FunctionRef &fn, s32 num_pages, CmdResult *res)
{
	if (!host_)
		return E_INVAL;
	if (num_pages > 0) {
		int err = give(fn, (u32)num_pages, res);
		if (err == E_NOMEM) {
			cant_give(fn, nullptr);
			return E_NOMEM;
		}
		return err;
	}
	if (num_pages < 0)
		return take(fn, (u32)(-(s64)num_pages), nullptr, res);
	return OK;
}

int PageTracker::release(u64 bus)
{
	return release_for(NO_FN, bus);
}

/* Frees bus if we hold it for function key (any function: NO_FN). */
int PageTracker::release_for(u32 key, u64 bus)
{
	if (!host_)
		return E_INVAL;
	cxprm_dma_buf b{};
	lock();
	long at = find_locked(bus);
	bool found = at >= 0 && (key == NO_FN || tab_[at].fn == key);
	if (found)
		remove_locked(bus, &b);
	if (found)
		st_.reclaimed++;
	else
		st_.bad_returns++;
	unlock();
	if (!found)
		return E_PROTO;
	free_page(&b);
	return OK;
}

u64 PageTracker::free_all_live()
{
	if (!host_)
		return 0;
	lock();
	Slot *t = tab_;
	u32 cap = cap_, n = used_;
	tab_ = nullptr;
	cap_ = used_ = 0;
	for (FnCount &f : fns_)
		f.live = 0;
	st_.forced_free += n;
	unlock();
	for (u32 i = 0; i < cap; i++)
		if (t[i].buf.cpu)
			free_page(&t[i].buf);
	if (t)
		host_->ops->mem_free(host_->ctx, t);
	return n;
}

u64 PageTracker::live() const
{
	if (!host_)
		return 0;
	lock();
	u64 n = used_;
	unlock();
	return n;
}

bool PageTracker::holds(u64 bus) const
{
	if (!host_)
		return false;
	lock();
	bool h = find_locked(bus) >= 0;
	unlock();
	return h;
}

PageStats PageTracker::stats() const
{
	if (!host_)
		return PageStats{};
	lock();
	PageStats s = st_;
	s.live = used_;
	unlock();
	return s;
}

} // namespace cxprm
