// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "user_host.h"

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace cxprm::hosted {

namespace {

UserHost *self(void *ctx) { return static_cast<UserHost *>(ctx); }

struct Waiter {
	std::mutex mu;
	std::condition_variable cv;
	bool signalled = false;
};

const cxprm_host_ops kOps = {
	.dma_alloc = [](void *c, cxprm_size size, cxprm_size align, cxprm_dma_buf *b) {
		return self(c)->dma_alloc(size, align, b);
	},
	.dma_free = [](void *c, cxprm_dma_buf *b) { self(c)->dma_free(b); },
	.mem_alloc = [](void *c, cxprm_size size) { return self(c)->mem_alloc(size); },
	.mem_free = [](void *c, void *p) { self(c)->mem_free(p); },
	.ioread32be = [](void *c, cxprm_u32 off) { return self(c)->ioread32be(off); },
	.iowrite32be = [](void *c, cxprm_u32 off, cxprm_u32 v) { self(c)->iowrite32be(off, v); },
	.wmb = [](void *) { std::atomic_thread_fence(std::memory_order_release); },
	.rmb = [](void *) { std::atomic_thread_fence(std::memory_order_acquire); },
	.lock_create = [](void *) -> void * { return new std::mutex; },
	.lock_destroy = [](void *, void *l) { delete static_cast<std::mutex *>(l); },
	.lock = [](void *, void *l) { static_cast<std::mutex *>(l)->lock(); },
	.unlock = [](void *, void *l) { static_cast<std::mutex *>(l)->unlock(); },
	.relax = [](void *) { std::this_thread::yield(); },
	.sleep_us = [](void *, cxprm_u32 us) { std::this_thread::sleep_for(std::chrono::microseconds(us)); },
	.now_ns = [](void *) -> cxprm_u64 {
		return std::chrono::duration_cast<std::chrono::nanoseconds>(
			       std::chrono::steady_clock::now().time_since_epoch())
			.count();
	},
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
	.log = [](void *c, int level, const char *msg) { self(c)->log(level, msg); },
};

} // namespace

UserHost::UserHost(size_t dma_bytes, size_t bar_bytes) : bar_(bar_bytes, 0), arena_size_(dma_bytes)
{
	arena_ = static_cast<uint8_t *>(std::aligned_alloc(4096, dma_bytes));
	if (!arena_)
		std::abort();
	std::memset(arena_, 0, dma_bytes);
	host_.ops = &kOps;
	host_.ctx = this;
}

UserHost::~UserHost() { std::free(arena_); }

bool UserHost::take_alloc_token()
{
	int n = fail_after_.load();
	while (n >= 0) {
		if (fail_after_.compare_exchange_weak(n, n - 1))
			return n > 0;
	}
	return true;
}

void UserHost::fail_alloc_after(int n) { fail_after_.store(n); }

// First fit over the arena; a real host would use dma_alloc_coherent.
int UserHost::dma_alloc(size_t size, size_t align, cxprm_dma_buf *buf)
{
	if (!size || !align || (align & (align - 1)) || align > 4096)
		return -EINVAL;
	if (!take_alloc_token())
		return -ENOMEM;
	std::lock_guard<std::mutex> lk(mu_);
	uint64_t off = 0;
	for (auto &[o, s] : dma_used_) {
		uint64_t a = (off + align - 1) & ~(uint64_t)(align - 1);
		if (a + size <= o)
			break;
		off = o + s;
	}
	off = (off + align - 1) & ~(uint64_t)(align - 1);
	if (off + size > arena_size_)
		return -ENOMEM;
	dma_used_[off] = size;
	std::memset(arena_ + off, 0, size);
	buf->cpu = arena_ + off;
	buf->bus = kBusBase + off;
	buf->size = size;
	buf->cookie = nullptr;
	return 0;
}

void UserHost::dma_free(cxprm_dma_buf *buf)
{
	std::lock_guard<std::mutex> lk(mu_);
	auto it = dma_used_.find(buf->bus - kBusBase);
	if (it == dma_used_.end() || it->second != buf->size)
		std::abort(); // a double or bogus free is a bug in the core
	// Poison freed memory so a use after free shows up in tests.
	std::memset(arena_ + it->first, 0x6b, it->second);
	dma_used_.erase(it);
}

void *UserHost::mem_alloc(size_t size)
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

void UserHost::mem_free(void *p)
{
	if (!p)
		return;
	{
		std::lock_guard<std::mutex> lk(mu_);
		if (!mem_used_.erase(p))
			std::abort();
	}
	std::free(p);
}

size_t UserHost::dma_live() const
{
	std::lock_guard<std::mutex> lk(mu_);
	return dma_used_.size();
}

size_t UserHost::mem_live() const
{
	std::lock_guard<std::mutex> lk(mu_);
	return mem_used_.size();
}

bool UserHost::dma_read(uint64_t bus, void *dst, size_t len)
{
	if (bus < kBusBase || bus - kBusBase > arena_size_ || len > arena_size_ - (bus - kBusBase))
		return false;
	std::memcpy(dst, arena_ + (bus - kBusBase), len);
	return true;
}

bool UserHost::dma_write(uint64_t bus, const void *src, size_t len)
{
	if (bus < kBusBase || bus - kBusBase > arena_size_ || len > arena_size_ - (bus - kBusBase))
		return false;
	std::memcpy(arena_ + (bus - kBusBase), src, len);
	return true;
}

uint8_t *UserHost::dma_ptr(uint64_t bus, size_t len)
{
	if (bus < kBusBase || bus - kBusBase > arena_size_ || len > arena_size_ - (bus - kBusBase))
		return nullptr;
	return arena_ + (bus - kBusBase);
}

// BAR dwords are big-endian in memory, accessed atomically on both sides.
uint32_t UserHost::ioread32be(uint32_t off)
{
	if (off % 4 || off + 4 > bar_.size())
		return 0xffffffffu;
	uint32_t v = __atomic_load_n(reinterpret_cast<uint32_t *>(bar_.data() + off), __ATOMIC_ACQUIRE);
	return __builtin_bswap32(v);
}

// The doorbell is a trigger, not storage: ORing keeps two rings that land
// before the emulator looks from overwriting each other.
void UserHost::iowrite32be(uint32_t off, uint32_t val)
{
	if (off % 4 || off + 4 > bar_.size())
		return;
	auto *p = reinterpret_cast<uint32_t *>(bar_.data() + off);
	if (off == kDoorbellOffset)
		__atomic_fetch_or(p, __builtin_bswap32(val), __ATOMIC_ACQ_REL);
	else
		__atomic_store_n(p, __builtin_bswap32(val), __ATOMIC_RELEASE);
}

void UserHost::log(int level, const char *msg)
{
	std::lock_guard<std::mutex> lk(mu_);
	logs_.push_back(std::to_string(level) + ": " + msg);
}

std::vector<std::string> UserHost::logs() const
{
	std::lock_guard<std::mutex> lk(mu_);
	return logs_;
}

} // namespace cxprm::hosted
