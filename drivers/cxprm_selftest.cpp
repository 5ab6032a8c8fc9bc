// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Shim self-test in freestanding C++ (see cxprm_selftest.h).  It uses what
// the core will use: classes, templates, virtual calls, RAII, constinit
// objects (no global constructors), and only the host interface.

#include "cxprm/errors.h"
#include "cxprm/host.h"
#include "cxprm/types.h"

#include "cxprm_selftest.h"

namespace {

using cxprm::u32;
using cxprm::u64;
using cxprm::u8;

u32 fnv1a(const void *p, cxprm::usize n)
{
	const u8 *b = static_cast<const u8 *>(p);
	u32 h = 0x811c9dc5u;

	for (cxprm::usize i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x01000193u;
	}
	return h;
}

class Host {
public:
	explicit Host(const cxprm_host *h) : h_(h) {}

	const cxprm_host_ops &ops() const { return *h_->ops; }
	void *ctx() const { return h_->ctx; }

	u32 rd(u32 off) const { return ops().ioread32be(ctx(), off); }
	void wr(u32 off, u32 v) const { ops().iowrite32be(ctx(), off, v); }
	u64 now() const { return ops().now_ns(ctx()); }
	void log(int level, const char *msg) const
	{
		if (ops().log)
			ops().log(ctx(), level, msg);
	}

private:
	const cxprm_host *h_;
};

// RAII over a host lock.
class Guard {
public:
	Guard(const Host &h, void *lock) : h_(h), lock_(lock) { h_.ops().lock(h_.ctx(), lock_); }
	~Guard() { h_.ops().unlock(h_.ctx(), lock_); }
	Guard(const Guard &) = delete;
	Guard &operator=(const Guard &) = delete;

private:
	const Host &h_;
	void *lock_;
};

// Host objects created and destroyed in pairs.
template <class Create, class Destroy>
class Owned {
public:
	Owned(const Host &h, Create c, Destroy d) : h_(h), d_(d), p_(c(h.ctx())) {}
	~Owned()
	{
		if (p_)
			d_(h_.ctx(), p_);
	}
	Owned(const Owned &) = delete;
	Owned &operator=(const Owned &) = delete;
	void *get() const { return p_; }

private:
	const Host &h_;
	Destroy d_;
	void *p_;
};

struct Step {
	const char *name;
	constexpr explicit Step(const char *n) : name(n) {}
	virtual int run(const Host &h, cxprm_selftest *st) const = 0;
};

struct ReadInitSeg final : Step {
	constexpr ReadInitSeg() : Step("init segment read") {}
	int run(const Host &h, cxprm_selftest *st) const override
	{
		st->fw_rev = h.rd(0x0);
		st->cmdif_rev_fw_sub = h.rd(0x4);
		// All ones: the function fell off the bus (or is not mapped).
		return st->fw_rev == 0xffffffffu ? cxprm::E_NODEV : cxprm::OK;
	}
};

struct MemAlloc final : Step {
	constexpr MemAlloc() : Step("mem_alloc") {}
	int run(const Host &h, cxprm_selftest *) const override
	{
		const cxprm::usize n = 3 * 4096 + 5;
		u8 *p = static_cast<u8 *>(h.ops().mem_alloc(h.ctx(), n));
		int rc = cxprm::OK;

		if (!p)
			return cxprm::E_NOMEM;
		for (cxprm::usize i = 0; i < n; i++)
			if (p[i])
				rc = cxprm::E_IO; // not zeroed
		h.ops().mem_free(h.ctx(), p);
		return rc;
	}
};

struct LockAndWaiter final : Step {
	constexpr LockAndWaiter() : Step("lock/waiter") {}
	int run(const Host &h, cxprm_selftest *) const override
	{
		const cxprm_host_ops &o = h.ops();
		Owned lock(h, o.lock_create, o.lock_destroy);

		if (!lock.get())
			return cxprm::E_NOMEM;
		{
			Guard g(h, lock.get());
		}
		if (!o.waiter_create)
			return cxprm::OK;

		Owned w(h, o.waiter_create, o.waiter_destroy);

		if (!w.get())
			return cxprm::E_NOMEM;
		// Nobody signals: must time out, and not much earlier than asked.
		u64 t0 = h.now();
		if (o.waiter_wait(h.ctx(), w.get(), 2000000) != cxprm::E_TIMEDOUT)
			return cxprm::E_PROTO;
		if (h.now() - t0 < 2000000)
			return cxprm::E_PROTO;
		// Signalled first: returns at once.
		o.waiter_signal(h.ctx(), w.get());
		if (o.waiter_wait(h.ctx(), w.get(), 1000000000) != cxprm::OK)
			return cxprm::E_PROTO;
		return cxprm::OK;
	}
};

struct SleepAndClock final : Step {
	constexpr SleepAndClock() : Step("sleep_us/now_ns") {}
	int run(const Host &h, cxprm_selftest *) const override
	{
		u64 t0 = h.now();

		h.ops().relax(h.ctx());
		h.ops().sleep_us(h.ctx(), 200);
		return h.now() - t0 >= 200000 ? cxprm::OK : cxprm::E_PROTO;
	}
};

struct DmaAlign final : Step {
	constexpr DmaAlign() : Step("dma_alloc alignment") {}
	int run(const Host &h, cxprm_selftest *) const override
	{
		static constexpr struct {
			cxprm::usize size, align;
		} cases[] = { { 64, 64 }, { 100, 4096 }, { 4096, 4096 }, { 8192, 4096 }, { 24, 8 } };

		for (const auto &c : cases) {
			cxprm_dma_buf b{};

			if (h.ops().dma_alloc(h.ctx(), c.size, c.align, &b))
				return cxprm::E_NOMEM;
			bool ok = b.cpu && b.size == c.size && !(b.bus & (c.align - 1)) &&
				  fnv1a(b.cpu, c.size) == fnv1a_zero(c.size);
			h.ops().dma_free(h.ctx(), &b);
			if (!ok)
				return cxprm::E_PROTO;
		}
		return cxprm::OK;
	}

	static u32 fnv1a_zero(cxprm::usize n)
	{
		u32 h = 0x811c9dc5u;

		for (cxprm::usize i = 0; i < n; i++)
			h *= 0x01000193u;
		return h;
	}
};

constinit const ReadInitSeg step_iseg;
constinit const MemAlloc step_mem;
constinit const LockAndWaiter step_lock;
constinit const SleepAndClock step_sleep;
constinit const DmaAlign step_dma;

const Step *const steps[] = { &step_iseg, &step_mem, &step_lock, &step_sleep, &step_dma };

// Scratch mode: publish a pattern buffer and wait for the host's hash.
int scratch_publish(const Host &h, cxprm_selftest *st)
{
	int rc = h.ops().dma_alloc(h.ctx(), CXPRM_PATTERN_LEN, 4096, &st->dma);

	if (rc)
		return rc;

	u8 *p = static_cast<u8 *>(st->dma.cpu);
	const char str[] = CXPRM_PATTERN_STR;

	cxprm::mem_copy(p, str, sizeof(str));
	for (u32 i = sizeof(str) / 4; i < CXPRM_PATTERN_LEN / 4; i++) {
		u32 v = CXPRM_PATTERN_BASE | i;

		cxprm::mem_copy(p + 4 * i, &v, 4);
	}
	st->fnv = fnv1a(p, CXPRM_PATTERN_LEN);

	h.wr(CXPRM_SCRATCH_ACK_MAGIC, 0);
	h.wr(CXPRM_SCRATCH_DMA_HI, static_cast<u32>(st->dma.bus >> 32));
	h.wr(CXPRM_SCRATCH_DMA_LO, static_cast<u32>(st->dma.bus));
	h.wr(CXPRM_SCRATCH_DMA_LEN, CXPRM_PATTERN_LEN);
	// Buffer and address before the flag that hands them over.
	h.ops().wmb(h.ctx());
	h.wr(CXPRM_SCRATCH_MAGIC, CXPRM_SCRATCH_MAGIC_VAL);

	u64 t0 = h.now();

	while (h.rd(CXPRM_SCRATCH_ACK_MAGIC) != CXPRM_SCRATCH_ACK_MAGIC_VAL) {
		if (h.now() - t0 > CXPRM_SCRATCH_ACK_TIMEOUT_NS)
			return cxprm::E_TIMEDOUT;
		h.ops().sleep_us(h.ctx(), 1000);
	}
	h.ops().rmb(h.ctx());
	st->ack = h.rd(CXPRM_SCRATCH_ACK);
	st->ack_ns = h.now() - t0;
	return st->ack == st->fnv ? cxprm::OK : cxprm::E_IO;
}

} // namespace

extern "C" int cxprm_selftest_run(const cxprm_host *host, int scratch, cxprm_selftest *st)
{
	Host h(host);

	st->host_rc = cxprm::OK;
	st->host_fail = nullptr;
	st->scratch = scratch;
	st->ack_rc = cxprm::OK;
	for (const Step *s : steps) {
		int rc = s->run(h, st);

		if (rc) {
			st->host_rc = rc;
			st->host_fail = s->name;
			h.log(0, s->name);
			return rc;
		}
	}
	h.log(3, "selftest: host interface checks passed");
	if (scratch)
		st->ack_rc = scratch_publish(h, st);
	return cxprm::OK;
}

extern "C" void cxprm_selftest_fini(const cxprm_host *host, cxprm_selftest *st)
{
	Host h(host);

	if (st->scratch) {
		h.wr(CXPRM_SCRATCH_MAGIC, 0);
		h.wr(CXPRM_SCRATCH_DMA_HI, 0);
		h.wr(CXPRM_SCRATCH_DMA_LO, 0);
		h.wr(CXPRM_SCRATCH_DMA_LEN, 0);
		st->scratch = 0;
	}
	if (st->dma.cpu)
		h.ops().dma_free(h.ctx(), &st->dma);
}
