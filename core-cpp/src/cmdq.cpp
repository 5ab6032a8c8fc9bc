// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The command engine (see cmdq.h).  One command per slot; the slot's entry
// and mailbox chains belong to the issuing thread from alloc_slot() (or
// reserve(), cmdq_page_slot.cpp) to the statistics record that frees it,
// so only those take the lock.
#include "cxprm/cmdq.h"
#include "cxprm/wire.h"

namespace cxprm {

using prm::cmd_queue_entry;

namespace {
constexpr u32 ENTRY_BYTES = cmd_queue_entry::size_bytes; /* 64 */
constexpr u32 OWNER_BYTE = cmd_queue_entry::ownership::offset / 8;
/* status_own is the last byte of its big-endian dword (post() stores it alone). */
static_assert(cmd_queue_entry::ownership::offset % 32 >= 24 &&
	      cmd_queue_entry::status::offset / 8 == OWNER_BYTE, "status_own byte");
constexpr u64 HEALTH_CHECK_NS = 1000 * 1000; /* device gone / dead fw check */
/*
 * Polling for a completion: spin for SPIN_NS, then sleep 1/POLL_SLEEP_FRACTION
 * of the time waited so far (at most MAX_SLEEP_US), so a completion is
 * seen at most about 1/POLL_SLEEP_FRACTION late (twice that with the sleep's
 * slack), however long the command takes (tests/cmdq_poll_test.cpp).  A
 * doubling sleep saw it up to 100% late: a 300 us command at 517 us, and
 * the boot's MANAGE_PAGES took 2.5x as long as under Linux's busy-polling
 * mlx5_core on the same emulator (Documentation/performance-mlx5.rst).
 * A host with a yield op (the kernel) busy-polls with it for BUSY_POLL_NS
 * first, as mlx5_core's poll_timeout() does with cond_resched() for the
 * whole command: a sleeping vCPU is woken late on
 * a loaded host, and the boot's MANAGE_PAGES (about 3 ms here) was seen
 * 1.3-1.6x as late as mlx5_core saw it.
 */
constexpr u64 SPIN_NS = 10 * 1000;
constexpr u64 BUSY_POLL_NS = 5 * 1000 * 1000;
constexpr u32 MAX_SLEEP_US = 1000;

/* A loop: __builtin_popcount would need libgcc's __popcountdi2 in the kernel. */
u32 popcount(u32 v)
{
	u32 n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}
} // namespace

void Cmdq::log(int level, const char *msg) const
{
	if (host_->ops->log)
		host_->ops->log(host_->ctx, level, msg);
}

int Cmdq::init(const cxprm_host *host, const CmdqConfig &cfg)
{
	if (!host || !host->ops || page_.cpu || stranded_bufs_)
		return E_INVAL;
	host_ = host;
	cfg_ = cfg;
	if (cfg_.max_msg_bytes < prm::INLINE_BYTES)
		return E_INVAL;

	u32 v = host->ops->ioread32be(host->ctx, prm::iseg::CMDQ_ADDR_L_SZ);
	if (v == 0xffffffffu)
		return E_NODEV;
	using iseg_t = prm::initial_seg;
	u32 log_sz = prm::from_dword<iseg_t::log_cmdq_size>(v);
	u32 log_stride = prm::from_dword<iseg_t::log_cmdq_stride>(v);
	if ((1u << log_sz) > prm::MAX_CMDQ_ENTRIES || log_sz + log_stride > 12 ||
	    (1u << log_stride) < ENTRY_BYTES) {
		log(0, "cmdq: firmware reports an unusable queue geometry");
		return E_PROTO;
	}
	nent_ = 1u << log_sz;
	log_stride_ = log_stride;

	int err = host->ops->dma_alloc(host->ctx, prm::ADAPTER_PAGE_SIZE, prm::ADAPTER_PAGE_SIZE, &page_);
	if (err)
		return err < 0 ? err : E_NOMEM;
	if (page_.bus & (prm::ADAPTER_PAGE_SIZE - 1)) {
		err = E_NOMEM;
		goto free_page;
	}
	lock_ = host->ops->lock_create(host->ctx);
	if (!lock_) {
		err = E_NOMEM;
		goto free_page;
	}
	if (host->ops->waiter_create) {
		for (u32 i = 0; i < nent_; i++) {
			slots_[i].waiter = host->ops->waiter_create(host->ctx);
			if (!slots_[i].waiter) {
				err = E_NOMEM;
				goto free_waiters;
			}
		}
	}
	if (host->ops->waiter_create) {
		slot_freed_ = host->ops->waiter_create(host->ctx);
		if (!slot_freed_) {
			err = E_NOMEM;
			goto free_waiters;
		}
	}
	slot_waiters_ = 0;
	slot_waits_ = slot_wakes_ = 0;
	busy_mask_ = 0;
	stuck_mask_ = 0;
	shutting_down_ = false;
	__atomic_store_n(&mode_, (u8)CmdqMode::POLLING, __ATOMIC_RELAXED);
	/* Healthy again: a failure is sticky only until the next bring-up. */
	health_.start(host, cfg_.health_stall_polls, &Cmdq::wake_waiters, this);

	/* cmdq_phy_addr_63_32, then the low half (size/stride bits are firmware's). */
	host->ops->iowrite32be(host->ctx, prm::iseg::CMDQ_ADDR_H, (u32)(page_.bus >> 32));
	host->ops->iowrite32be(host->ctx, prm::iseg::CMDQ_ADDR_L_SZ, (u32)page_.bus);
	host->ops->wmb(host->ctx);
	return OK;

free_waiters:
	for (u32 i = 0; i < nent_; i++) {
		if (slots_[i].waiter)
			host->ops->waiter_destroy(host->ctx, slots_[i].waiter);
		slots_[i].waiter = nullptr;
	}
	host->ops->lock_destroy(host->ctx, lock_);
	lock_ = nullptr;
free_page:
	host->ops->dma_free(host->ctx, &page_);
	page_ = {};
	return err;
}

void Cmdq::wake_waiters(void *self)
{
	Cmdq *q = (Cmdq *)self;
	if (!q->page_.cpu)
		return;
	for (u32 i = 0; i < q->nent_; i++)
		if (q->slots_[i].waiter)
			q->host_->ops->waiter_signal(q->host_->ctx, q->slots_[i].waiter);
	if (q->slot_freed_)
		q->host_->ops->waiter_signal(q->host_->ctx, q->slot_freed_);
}

Cmdq::SlotWaits Cmdq::slot_waits() const
{
	SlotWaits w{};
	if (!lock_)
		return w;
	host_->ops->lock(host_->ctx, lock_);
	w = {slot_waits_, slot_wakes_, slot_waiters_};
	host_->ops->unlock(host_->ctx, lock_);
	return w;
}

bool Cmdq::device_gone() const
{
	return host_->ops->ioread32be(host_->ctx, prm::iseg::FW_REV) == 0xffffffffu;
}

void Cmdq::fini(bool strand_stuck)
{
	if (!page_.cpu)
		return;
	const cxprm_dma_buf none{};
	host_->ops->lock(host_->ctx, lock_);
	shutting_down_ = true;
	host_->ops->unlock(host_->ctx, lock_);
	if (slot_freed_)
		host_->ops->waiter_signal(host_->ctx, slot_freed_);

	/*
	 * Let commands in flight finish; each is bounded by its own timeout.
	 * A caller waiting for a slot leaves at the signal with E_SHUTDOWN:
	 * slot_freed_ goes only after the last one.  A slot reserve() holds
	 * is written to until its holder runs or releases it: waited for.
	 */
	u64 deadline = host_->ops->now_ns(host_->ctx) + cfg_.timeout_ns + HEALTH_CHECK_NS;
	for (;;) {
		host_->ops->lock(host_->ctx, lock_);
		u32 waiters = slot_waiters_ + reserved_, active = 0;
		for (u32 i = 0; i < nent_; i++)
			if ((busy_mask_ & (1u << i)) && !slots_[i].stuck)
				active++;
		host_->ops->unlock(host_->ctx, lock_);
		/* Slot waiters always leave (signalled, each wait bounded); reservations end. */
		if (!waiters && (!active || host_->ops->now_ns(host_->ctx) > deadline))
			break;
		host_->ops->sleep_us(host_->ctx, 100);
	}
	/* No more wakes or polls (the waiters go now); the failure stays readable. */
	health_.stop();
	bool strand = false;
	if (strand_stuck && !device_gone())
		for (u32 i = 0; i < nent_; i++)
			strand = strand || slots_[i].stuck;
	for (u32 i = 0; i < nent_; i++) {
		Slot &s = slots_[i];
		if (s.waiter)
			host_->ops->waiter_destroy(host_->ctx, s.waiter);
		s.waiter = nullptr;
		if (strand && s.stuck) {
			stranded_bufs_ += (s.in.capacity() ? 1 : 0) + (s.out.capacity() ? 1 : 0);
			continue; /* its chains stay until release_stranded() */
		}
		s.in.release(host_);
		s.out.release(host_);
		s = Slot{};
	}
	if (slot_freed_)
		host_->ops->waiter_destroy(host_->ctx, slot_freed_);
	slot_freed_ = nullptr;
	host_->ops->lock_destroy(host_->ctx, lock_);
	lock_ = nullptr;
	if (strand) {
		stranded_page_ = page_;
		stranded_bufs_++;
		log(1, "cmdq: the queue page and the chains of quarantined slots stay "
		       "allocated until the function is reset");
	} else {
		host_->ops->dma_free(host_->ctx, &page_);
	}
	page_ = none;
	nent_ = 0;
	busy_mask_ = 0;
	stuck_mask_ = 0;
}

u32 Cmdq::release_stranded()
{
	u32 n = stranded_bufs_;

	if (!n)
		return 0;
	for (Slot &s : slots_) {
		s.in.release(host_);
		s.out.release(host_);
		s = Slot{};
	}
	host_->ops->dma_free(host_->ctx, &stranded_page_);
	stranded_page_ = {};
	stranded_bufs_ = 0;
	return n;
}

/* Readers lock only while the queue is up; after fini() nothing writes. */
void Cmdq::reader_lock() const
{
	if (lock_)
		host_->ops->lock(host_->ctx, lock_);
}

void Cmdq::reader_unlock() const
{
	if (lock_)
		host_->ops->unlock(host_->ctx, lock_);
}

u32 Cmdq::in_flight() const
{
	reader_lock();
	u32 n = popcount(busy_mask_);
	reader_unlock();
	return n;
}

const u8 *Cmdq::slot_bytes(u32 i) const
{
	return i < nent_ ? entry(i) : nullptr;
}

/*
 * A slot that timed out is reused only once the device has handed it back.
 * Returns the slots still quarantined.  Walks stuck_mask_, not every slot:
 * with none stuck (the usual case) it costs one test per command.
 */
u32 Cmdq::reclaim_stuck_locked()
{
	for (u32 m = stuck_mask_; m; m &= m - 1) {
		u32 i = (u32)__builtin_ctz(m);
		if (!(owner_byte(i) & 1)) {
			slots_[i].stuck = false;
			stuck_mask_ &= ~(1u << i);
			busy_mask_ &= ~(1u << i);
		}
	}
	return stuck_mask_;
}

/* A free slot and the command's token, under one lock. */
int Cmdq::alloc_slot(u32 flags, u32 *slot, u8 *token)
{
	/* The last slot is kept for MANAGE_PAGES so page supply never starves. */
	u32 regular = regular_slots();
	u64 deadline = 0; /* read from the clock only once a slot must be waited for */
	u32 sleep = 10;

	for (;;) {
		host_->ops->lock(host_->ctx, lock_);
		if (shutting_down_) {
			host_->ops->unlock(host_->ctx, lock_);
			return E_SHUTDOWN;
		}
		if (int f = failed()) {
			host_->ops->unlock(host_->ctx, lock_);
			return f;
		}
		u32 stuck = reclaim_stuck_locked();
		u32 candidates = regular >= 32 ? ~0u : (1u << regular) - 1;
		if (flags & EXEC_PAGE_SLOT)
			candidates |= 1u << (nent_ - 1);
		u32 free = candidates & ~busy_mask_;
		if (free) {
			/* Prefer the page slot only when it is the one asked for. */
			u32 i = (flags & EXEC_PAGE_SLOT) && (free & (1u << (nent_ - 1)))
					? nent_ - 1
					: (u32)__builtin_ctz(free);
			busy_mask_ |= 1u << i;
			reserved_ += (flags & SLOT_RESERVE) != 0;
			if (++next_token_ == 0) /* token 0 is never used */
				next_token_ = 1;
			*token = next_token_;
			host_->ops->unlock(host_->ctx, lock_);
			*slot = i;
			return OK;
		}
		/*
		 * Every slot we could use is quarantined: no command in flight
		 * will free one, only the device handing one back can.  Fail at
		 * once rather than make every caller wait slot_wait_ns.
		 */
		bool all_stuck = (candidates & ~stuck) == 0;
		if ((flags & EXEC_NO_WAIT) && !all_stuck) {
			host_->ops->unlock(host_->ctx, lock_);
			return E_AGAIN;
		}
		u64 now = host_->ops->now_ns(host_->ctx);
		bool late = deadline && now > deadline;
		if (!deadline)
			deadline = now + cfg_.slot_wait_ns;
		bool wait = slot_freed_ && !all_stuck && !late;
		slot_waiters_ += wait;
		slot_waits_ += !all_stuck && !late;
		host_->ops->unlock(host_->ctx, lock_);
		if (all_stuck) {
			log(1, "cmdq: every usable slot holds a timed-out command: E_BUSY at once");
			return E_BUSY;
		}
		if (late)
			return E_BUSY;
		if (!wait) {
			host_->ops->sleep_us(host_->ctx, sleep);
		} else {
			/* Woken by a freed slot, a failure or fini(); the timeout
			 * still looks for a quarantined slot handed back. */
			host_->ops->waiter_wait(host_->ctx, slot_freed_, (u64)sleep * 1000);
			host_->ops->lock(host_->ctx, lock_);
			slot_waiters_--;
			host_->ops->unlock(host_->ctx, lock_);
		}
		sleep = min_of(sleep * 2, MAX_SLEEP_US);
	}
}

int Cmdq::post(u32 slot, u8 token, const MsgSource &msg, u32 outlen)
{
	const u8 *in = msg.head;
	const u32 inlen = msg.len;
	Slot &s = slots_[slot];
	int err = s.in.reserve(host_, prm::mailbox_blocks(inlen));
	if (!err)
		err = s.out.reserve(host_, prm::mailbox_blocks(outlen));
	if (err)
		return err;
	s.in.format(msg, token, cfg_.verify_signatures);
	s.out.format(nullptr, outlen, token, cfg_.verify_signatures);

	u8 *e = entry(slot);
	/* The entry whole but its owner byte (wire.cpp), then that byte alone. */
	u8 own = cmd_entry_format(e, in, inlen, outlen, s.in.first_bus(), s.out.first_bus(), token);
	__atomic_store_n(e + OWNER_BYTE, own, __ATOMIC_RELEASE);

	return OK;
}

/* Entry and mailboxes are visible to the device before the doorbell. */
void Cmdq::ring(u32 slot)
{
	host_->ops->wmb(host_->ctx);
	host_->ops->iowrite32be(host_->ctx, prm::iseg::DOORBELL, 1u << slot);
}

int Cmdq::completed()
{
	host_->ops->rmb(host_->ctx);
	/* Take our completion event (and any others) off the EQ. */
	if (mode() == CmdqMode::EVENTS && pump_)
		pump_(pump_ctx_);
	return OK;
}

int Cmdq::wait_slow(u32 slot, u64 start_ns)
{
	__atomic_or_fetch(&waiting_, 1u << slot, __ATOMIC_RELAXED);
	int err = wait_loop(slot, start_ns, host_->ops->now_ns(host_->ctx));
	__atomic_and_fetch(&waiting_, ~(1u << slot), __ATOMIC_RELAXED);
	leave_poll(slot);
	return err;
}

/* Timeout from the doorbell (start_ns); spin and sleeps from the wait's start (from_ns). */
int Cmdq::wait_loop(u32 slot, u64 start_ns, u64 from_ns)
{
	const u64 deadline = start_ns + cfg_.timeout_ns;
	u64 next_check = start_ns + HEALTH_CHECK_NS;

	for (;;) {
		if (!(owner_byte(slot) & 1))
			return completed();
		/* Marked failed (health poller, another command): give up now. */
		if (int f = failed())
			return f;
		u64 now = host_->ops->now_ns(host_->ctx);
		if (now >= deadline)
			return E_TIMEDOUT;
		if (now >= next_check) {
			next_check = now + HEALTH_CHECK_NS;
			if (int f = health_.check_fatal())
				return f;
		}
		if (mode() == CmdqMode::EVENTS && slots_[slot].waiter) {
			if (pump_) {
				pump_(pump_ctx_);
				if (!(owner_byte(slot) & 1))
					continue;
			}
			u64 left = min_of<u64>(deadline - now, HEALTH_CHECK_NS);
			host_->ops->waiter_wait(host_->ctx, slots_[slot].waiter, left);
		} else if (int p = slots_[slot].waiter ? shared_poll(slot, now - from_ns, deadline - now) : 0;
			   p == SHARED_WAITED) {
			/* Another waiter polls for this one (cmdq_shared_poll.cpp). */
		} else if (now - from_ns < SPIN_NS || (p == SHARED_POLLER && now - from_ns < BUSY_POLL_NS)) {
			/* Polling for others too: as the kernel's busy-poll, in any host. */
			host_->ops->relax(host_->ctx);
		} else if (host_->ops->yield && now - from_ns < BUSY_POLL_NS) {
			host_->ops->yield(host_->ctx);
		} else {
			u64 us = (now - from_ns) / 1000 / POLL_SLEEP_FRACTION;
			host_->ops->sleep_us(host_->ctx, (u32)max_of<u64>(1, min_of<u64>(us, MAX_SLEEP_US)));
		}
	}
}

int Cmdq::run(const MsgSource &in, const OutBuf &out, CmdResult *res, u32 flags, CmdCapture *cap, Reserved *r)
{
	Posted p;
	int err = submit(in, out, res, flags, cap, &p, r);
	return err ? err : complete(&p);
}

int Cmdq::exec(const MsgSource &msg, void *out_, u32 outlen, CmdResult *res, u32 flags,
	       CmdCapture *cap)
{
	return run(msg, OutBuf::flat(out_, outlen), res, flags, cap);
}

int Cmdq::exec_split(const MsgSource &msg, u8 *head, u8 *tail, u32 outlen, CmdResult *res, u32 flags)
{
	return run(msg, {head, tail, outlen}, res, flags, nullptr);
}

int Cmdq::submit(const MsgSource &msg, void *out_, u32 outlen, CmdResult *res, u32 flags, Posted *p)
{
	return submit(msg, OutBuf::flat(out_, outlen), res, flags, nullptr, p);
}

int Cmdq::submit(const MsgSource &msg, const OutBuf &out, CmdResult *res_, u32 flags, CmdCapture *cap,
		 Posted *p, Reserved *r)
{
	/* The head holds the inline bytes, so cmd_in and the record come from it. */
	const u8 *in = msg.head;
	const u32 inlen = msg.len;
	const u32 outlen = out.len;
	CmdResult *res = res_ ? res_ : &p->local;
	*res = {};
	if (in && inlen >= prm::cmd_in::size_bytes) {
		prm::CRef<prm::cmd_in> ih(in);
		res->st.opcode = (u16)prm::get<prm::cmd_in::opcode>(ih);
		res->op_mod = (u16)prm::get<prm::cmd_in::op_mod>(ih);
	}

	/* Refused before posting: the output is zeroed all the same (cmdq.h). */
	const bool out_ok = out.head && (outlen <= prm::INLINE_BYTES || out.tail);
	if (!page_.cpu)
		return refused(out_ok, out, E_SHUTDOWN);
	/* A failed device gets no more commands: fail fast, touch no queue. */
	if (int f = failed()) {
		health_.note_refused();
		return refused(out_ok, out, f);
	}
	/* A tail in place only in the reserved slot's blocks (cmdq_page_slot.cpp). */
	const bool in_place = msg.fill == MsgSource::in_place;
	if (!msg.valid() || in_place != (r != nullptr) || !out_ok || inlen < prm::cmd_in::size_bytes ||
	    outlen < prm::cmd_out::size_bytes || inlen > cfg_.max_msg_bytes || outlen > cfg_.max_msg_bytes)
		return refused(out_ok, out, E_INVAL);

	u32 slot;
	u8 token;
	int err = r ? take_reserved(r, &slot, &token) : alloc_slot(flags, &slot, &token);
	if (err) {
		if (err == failed())
			health_.note_refused();
		return refused(out_ok, out, err);
	}

	res->slot = (u8)slot;
	res->token = token;
	err = post(slot, token, msg, outlen);
	if (err) {
		out.zero();
		finish(slot, in, inlen, out, err, *res, host_->ops->now_ns(host_->ctx));
		return err;
	}
	if (cap) {
		cap->hdr = {};
		cap->hdr.slot = slot;
		mem_copy(cap->hdr.entry_posted, entry(slot), ENTRY_BYTES);
		capture_blocks(slots_[slot].in, cap, &cap->hdr.in_blocks);
	}
	/* res may be p->local: filled member by member. */
	p->in = in;
	p->inlen = inlen;
	p->slot = slot;
	p->res = res;
	p->cap = cap;
	p->out = out;
	/* Latency and the timeout count from the doorbell. */
	p->start = host_->ops->now_ns(host_->ctx);
	ring(slot);
	return OK;
}

int Cmdq::complete(Posted *p)
{
	const u32 slot = p->slot;
	CmdResult *res = p->res;
	int err = wait_done(slot, p->start);
	u64 now = host_->ops->now_ns(host_->ctx);
	res->st.latency_ns = now - p->start;
	if (!err)
		err = collect(slot, p->out, res);
	else
		p->out.zero();
	if (p->cap && err != E_TIMEDOUT && err != E_NODEV && err != E_HOSTDOWN) {
		mem_copy(p->cap->hdr.entry_completed, entry(slot), ENTRY_BYTES);
		capture_blocks(slots_[slot].out, p->cap, &p->cap->hdr.out_blocks);
	}
	finish(slot, p->in, p->inlen, p->out, err, *res, now);
	return err;
}

void Cmdq::complete_vector(u32 mask)
{
	if (!page_.cpu)
		return;
	for (u32 i = 0; i < nent_; i++)
		if ((mask & (1u << i)) && slots_[i].waiter)
			host_->ops->waiter_signal(host_->ctx, slots_[i].waiter);
}

int Cmdq::set_mode(CmdqMode mode)
{
	if (mode == CmdqMode::EVENTS && (!host_ || !host_->ops->waiter_wait || !slots_[0].waiter))
		return E_NOTSUP;
	__atomic_store_n(&mode_, (u8)mode, __ATOMIC_RELAXED);
	return OK;
}

void Cmdq::set_event_pump(void (*pump)(void *ctx), void *ctx)
{
	pump_ctx_ = ctx;
	pump_ = pump;
}

} // namespace cxprm
