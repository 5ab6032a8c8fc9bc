// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "file_host.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace cxprm::emud::test {

namespace {

FileHost *self(void *ctx) { return static_cast<FileHost *>(ctx); }

const cxprm_host_ops kOps = {
	.dma_alloc = [](void *c, cxprm_size size, cxprm_size align, cxprm_dma_buf *b) {
		return self(c)->dma_alloc(size, align, b);
	},
	.dma_free = [](void *c, cxprm_dma_buf *b) { self(c)->dma_free(b); },
	.mem_alloc = [](void *c, cxprm_size size) { return self(c)->mem_alloc(size); },
	.mem_free = [](void *c, void *p) { self(c)->mem_free(p); },
	.ioread32be = [](void *c, cxprm_u32 off) { return self(c)->ioread32be(off); },
	.iowrite32be = [](void *c, cxprm_u32 off, cxprm_u32 v) { self(c)->iowrite32be(off, v); },
	.wmb = [](void *) { std::atomic_thread_fence(std::memory_order_seq_cst); },
	.rmb = [](void *) { std::atomic_thread_fence(std::memory_order_seq_cst); },
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
	// No interrupt line (ivshmem-plain has none): the core polls.
	.waiter_create = nullptr,
	.waiter_destroy = nullptr,
	.waiter_wait = nullptr,
	.waiter_signal = nullptr,
	.log = [](void *c, int level, const char *msg) { self(c)->log(level, msg); },
};

} // namespace

FileHost::FileHost(uint8_t *ram, const GuestRam &layout, uint8_t *bar, size_t bar_size, uint64_t arena_off)
	: ram_(ram), layout_(layout), bar_(bar), bar_size_(bar_size)
{
	host_.ops = &kOps;
	host_.ctx = this;
	if (arena_off < layout.below_4g())
		regions_.push_back({arena_off, layout.below_4g(), arena_off, {}});
	if (layout.above_4g()) {
		uint64_t skip = arena_off > layout.below_4g() ? arena_off - layout.below_4g() : 0;
		regions_.push_back({GuestRam::FOUR_G + skip, GuestRam::FOUR_G + layout.above_4g(),
				    layout.below_4g() + skip, {}});
	}
}

bool FileHost::alloc_in(Region &r, size_t size, size_t align, uint64_t *gpa)
{
	uint64_t at = r.gpa_begin;
	for (auto &[g, s] : r.used) {
		uint64_t a = (at + align - 1) & ~(uint64_t)(align - 1);
		if (a + size <= g)
			break;
		at = g + s;
	}
	at = (at + align - 1) & ~(uint64_t)(align - 1);
	if (at + size > r.gpa_end)
		return false;
	r.used[at] = size;
	*gpa = at;
	return true;
}

int FileHost::dma_alloc(size_t size, size_t align, cxprm_dma_buf *buf)
{
	if (!size || !align || (align & (align - 1)) || align > 4096)
		return -EINVAL;
	std::lock_guard<std::mutex> lk(mu_);
	uint64_t gpa = 0;
	bool ok = false;
	for (size_t i = 0; i < regions_.size() && !ok; i++)
		ok = alloc_in(regions_[(next_region_ + i) % regions_.size()], size, align, &gpa);
	if (!ok)
		return -ENOMEM;
	next_region_++;
	uint64_t off = 0;
	if (!layout_.to_offset(gpa, size, &off))
		std::abort();
	std::memset(ram_ + off, 0, size);
	(gpa >= GuestRam::FOUR_G ? above_4g_ : below_4g_)++;
	buf->cpu = ram_ + off;
	buf->bus = gpa;
	buf->size = size;
	buf->cookie = nullptr;
	return 0;
}

void FileHost::dma_free(cxprm_dma_buf *buf)
{
	std::lock_guard<std::mutex> lk(mu_);
	for (Region &r : regions_) {
		auto it = r.used.find(buf->bus);
		if (it == r.used.end())
			continue;
		if (it->second != buf->size)
			std::abort();
		std::memset(buf->cpu, 0x6b, buf->size); // poison: use after free shows
		r.used.erase(it);
		return;
	}
	std::abort(); // a double or bogus free is a bug in the core
}

void *FileHost::mem_alloc(size_t size)
{
	void *p = std::calloc(1, size ? size : 1);
	if (!p)
		return nullptr;
	std::lock_guard<std::mutex> lk(mu_);
	mem_used_[p] = size;
	return p;
}

void FileHost::mem_free(void *p)
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

size_t FileHost::dma_live() const
{
	std::lock_guard<std::mutex> lk(mu_);
	size_t n = 0;
	for (auto &r : regions_)
		n += r.used.size();
	return n;
}

size_t FileHost::mem_live() const
{
	std::lock_guard<std::mutex> lk(mu_);
	return mem_used_.size();
}

uint32_t FileHost::ioread32be(uint32_t off)
{
	if (off % 4 || off + 4 > bar_size_)
		return 0xffffffffu;
	return __builtin_bswap32(__atomic_load_n(reinterpret_cast<uint32_t *>(bar_ + off), __ATOMIC_ACQUIRE));
}

// The doorbell is rung with an atomic OR (what cxprm.ko does on ivshmem,
// whose BAR2 is RAM): two rings before the emulator looks both survive,
// and the emulator's exchange-to-0 consumes them.
void FileHost::iowrite32be(uint32_t off, uint32_t val)
{
	if (off % 4 || off + 4 > bar_size_)
		return;
	auto *p = reinterpret_cast<uint32_t *>(bar_ + off);
	if (off == kDoorbellOffset)
		__atomic_fetch_or(p, __builtin_bswap32(val), __ATOMIC_SEQ_CST);
	else
		__atomic_store_n(p, __builtin_bswap32(val), __ATOMIC_SEQ_CST);
}

void FileHost::log(int level, const char *msg)
{
	std::lock_guard<std::mutex> lk(mu_);
	logs_.push_back(std::to_string(level) + ": " + msg);
}

std::vector<std::string> FileHost::logs() const
{
	std::lock_guard<std::mutex> lk(mu_);
	return logs_;
}

} // namespace cxprm::emud::test
