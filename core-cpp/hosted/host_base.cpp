// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "host_base.h"
#include "parallel_pool.h"

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <random>
#include <unistd.h>
#include <thread>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace cxprm::hosted {

namespace {

HostBase *self(void *ctx) { return static_cast<HostBase *>(ctx); }

// sleep_us(us) sleeps about us, as the kernel's fsleep() does: a thread's
// default timer slack (50 us) would add more than the short sleeps of a
// command wait ask for.  Set once per thread.
void sleep_us(cxprm_u32 us)
{
#ifdef __linux__
	thread_local bool slack_set = false;
	if (!slack_set) {
		prctl(PR_SET_TIMERSLACK, 1000ul, 0ul, 0ul, 0ul);
		slack_set = true;
	}
#endif
	std::this_thread::sleep_for(std::chrono::microseconds(us));
}

struct Waiter {
	std::mutex mu;
	std::condition_variable cv;
	bool signalled = false;
};

#define CXPRM_HOSTED_COMMON_OPS                                                                    \
	.dma_alloc = [](void *c, cxprm_size size, cxprm_size align, cxprm_dma_buf *b) {           \
		return self(c)->dma_alloc(size, align, b);                                         \
	},                                                                                         \
	.dma_free = [](void *c, cxprm_dma_buf *b) { self(c)->dma_free(b); },                       \
	.mem_alloc = [](void *c, cxprm_size size) { return self(c)->mem_alloc(size); },            \
	.mem_free = [](void *c, void *p) { self(c)->mem_free(p); },                                \
	.ioread32be = [](void *c, cxprm_u32 off) { return self(c)->ioread32be(off); },             \
	.iowrite32be = [](void *c, cxprm_u32 off, cxprm_u32 v) { self(c)->iowrite32be(off, v); },  \
	.wmb = [](void *) { std::atomic_thread_fence(std::memory_order_seq_cst); },                \
	.rmb = [](void *) { std::atomic_thread_fence(std::memory_order_seq_cst); },                \
	.lock_create = [](void *) -> void * { return new std::mutex; },                            \
	.lock_destroy = [](void *, void *l) { delete static_cast<std::mutex *>(l); },              \
	.lock = [](void *, void *l) { static_cast<std::mutex *>(l)->lock(); },                     \
	.unlock = [](void *, void *l) { static_cast<std::mutex *>(l)->unlock(); },                 \
	.relax = [](void *) { std::this_thread::yield(); },                                        \
	.sleep_us = [](void *, cxprm_u32 us) { sleep_us(us); },                                     \
	.now_ns = [](void *) -> cxprm_u64 {                                                        \
		return std::chrono::duration_cast<std::chrono::nanoseconds>(                       \
			       std::chrono::steady_clock::now().time_since_epoch())                 \
			.count();                                                                  \
	}

// The ops after the waiters, the same for both tables.
#define CXPRM_HOSTED_TAIL_OPS                                                                      \
	.log = [](void *c, int level, const char *msg) { self(c)->log(level, msg); },              \
	.get_random = [](void *c, void *buf, cxprm_size n) { self(c)->fill_random(buf, n); },      \
	.page_shift = [](void *c) { return self(c)->page_shift(); },                               \
	.yield = nullptr,          /* userspace sleeps after its spin (relax is a yield) */        \
	.fw_page_alloc = nullptr,  /* firmware pages from dma_alloc (zeroed) */                    \
	.fw_page_free = nullptr,                                                                   \
	.health_changed = nullptr, /* the core's own log line says it */                          \
	.run_parallel = [](void *, cxprm_u32 n, void (*fn)(void *, cxprm_u32), void *arg) {        \
		run_parallel(n, fn, arg);                                                          \
	}

const cxprm_host_ops kOpsWithWaiters = {
	CXPRM_HOSTED_COMMON_OPS,
	.waiter_create = [](void *) -> void * { return new Waiter; },
	.waiter_destroy = [](void *, void *w) { delete static_cast<Waiter *>(w); },
	.waiter_wait = [](void *, void *wp, cxprm_u64 timeout_ns) -> int {
		auto *w = static_cast<Waiter *>(wp);
		std::unique_lock<std::mutex> lk(w->mu);
		bool ok = w->cv.wait_for(lk, std::chrono::nanoseconds(timeout_ns), [w] { return w->signalled; });
		w->signalled = false;
		return ok ? 0 : -ETIMEDOUT;
	},
	.waiter_signal = [](void *, void *wp) {
		auto *w = static_cast<Waiter *>(wp);
		std::lock_guard<std::mutex> lk(w->mu);
		w->signalled = true;
		w->cv.notify_all();
	},
	CXPRM_HOSTED_TAIL_OPS,
};

// No interrupt line (e.g. behind ivshmem-plain): the core polls.
const cxprm_host_ops kOpsPolling = {
	CXPRM_HOSTED_COMMON_OPS,
	.waiter_create = nullptr,
	.waiter_destroy = nullptr,
	.waiter_wait = nullptr,
	.waiter_signal = nullptr,
	CXPRM_HOSTED_TAIL_OPS,
};

} // namespace

cxprm_u32 HostBase::system_page_shift()
{
	long sz = sysconf(_SC_PAGESIZE);
	cxprm_u32 s = 12;
	while (sz > 0 && (1l << s) < sz && s < 30)
		s++;
	return s;
}

void HostBase::fill_random(void *buf, cxprm_size n)
{
	auto *p = static_cast<unsigned char *>(buf);
	if (random_byte_ >= 0) {
		std::memset(p, random_byte_, n);
		return;
	}
	std::random_device rd;
	for (cxprm_size i = 0; i < n; i += 4) {
		unsigned v = rd();
		std::memcpy(p + i, &v, n - i < 4 ? n - i : 4);
	}
}

HostBase::HostBase(bool with_waiters)
{
	host_.ops = with_waiters ? &kOpsWithWaiters : &kOpsPolling;
	host_.ctx = this;
}

bool HostBase::take_alloc_token()
{
	int n = fail_after_.load();
	while (n >= 0) {
		if (fail_after_.compare_exchange_weak(n, n - 1))
			return n > 0;
	}
	return true;
}

bool HostBase::first_fit(std::map<uint64_t, size_t> &used, uint64_t begin, uint64_t end, size_t size,
			 size_t align, uint64_t *at, FitHints *hints)
{
	const uint64_t packed = hints && hints->dense > begin ? hints->dense : begin;
	// A page-aligned run of a page or more holds a page-aligned page: none below hints->page.
	const bool pages = hints && align == kFitPage && size >= kFitPage;
	uint64_t a = pages && hints->page > packed ? hints->page : packed;
	auto it = used.lower_bound(a);
	for (; it != used.end(); ++it) {
		uint64_t aligned = (a + align - 1) & ~(uint64_t)(align - 1);
		if (aligned + size <= it->first)
			break;
		a = it->first + it->second;
	}
	a = (a + align - 1) & ~(uint64_t)(align - 1);
	if (a + size > end)
		return false;
	// it is the first range above the fit: inserted before it, no second descent.
	it = used.emplace_hint(it, a, size);
	*at = a;
	if (!hints)
		return true;
	if (a == packed) {
		// The used prefix grew: extend it over ranges that now join it.
		uint64_t d = a + size;
		for (++it; it != used.end() && it->first == d; ++it)
			d += it->second;
		hints->dense = d;
	}
	// The lowest page that fitted is taken: none fits below its end.
	if (pages && size == kFitPage)
		hints->page = a + size;
	return true;
}

void *HostBase::mem_alloc(size_t size)
{
	if (!take_alloc_token())
		return nullptr;
	void *p = std::calloc(1, size ? size : 1);
	if (!p)
		return nullptr;
	std::lock_guard<std::mutex> lk(mu_);
	mem_used_[p] = size;
	return p;
}

void HostBase::mem_free(void *p)
{
	if (!p)
		return;
	{
		std::lock_guard<std::mutex> lk(mu_);
		if (!mem_used_.erase(p))
			std::abort(); // a double or bogus free is a bug in the core
	}
	std::free(p);
}

size_t HostBase::mem_live() const
{
	std::lock_guard<std::mutex> lk(mu_);
	return mem_used_.size();
}

// BAR dwords are big-endian in memory, accessed atomically on both sides.
uint32_t HostBase::ioread32be(uint32_t off)
{
	if (off % 4 || off + 4 > bar_size_)
		return 0xffffffffu;
	return __builtin_bswap32(__atomic_load_n(reinterpret_cast<uint32_t *>(bar_ + off), __ATOMIC_ACQUIRE));
}

// The doorbell is a trigger, not storage: ORing keeps two rings that land
// before the device looks from overwriting each other (cxprm.ko does the
// same on ivshmem, whose BAR is RAM).
void HostBase::iowrite32be(uint32_t off, uint32_t val)
{
	if (off % 4 || off + 4 > bar_size_)
		return;
	auto *p = reinterpret_cast<uint32_t *>(bar_ + off);
	if (off == kDoorbellOffset)
		__atomic_fetch_or(p, __builtin_bswap32(val), __ATOMIC_SEQ_CST);
	else
		__atomic_store_n(p, __builtin_bswap32(val), __ATOMIC_SEQ_CST);
}

void HostBase::log(int level, const char *msg)
{
	std::lock_guard<std::mutex> lk(mu_);
	logs_.push_back(std::to_string(level) + ": " + msg);
}

std::vector<std::string> HostBase::logs() const
{
	std::lock_guard<std::mutex> lk(mu_);
	return logs_;
}

} // namespace cxprm::hosted
