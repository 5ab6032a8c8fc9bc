// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "user_host.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace cxprm::hosted {

UserHost::UserHost(size_t dma_bytes, size_t bar_bytes) : UserHost(Options{Dma::Arena, dma_bytes, bar_bytes, true})
{
}

UserHost::UserHost(const Options &o)
	: HostBase(o.waiters), policy_(o.dma), bar_(o.bar_bytes, 0), dma_mu_(std::make_unique<std::mutex>())
{
	if (policy_ == Dma::Arena) {
		arena_size_ = o.dma_bytes;
		arena_ = static_cast<uint8_t *>(std::aligned_alloc(4096, arena_size_));
		if (!arena_)
			std::abort();
		std::memset(arena_, 0, arena_size_);
	}
	bind_bar(bar_.data(), bar_.size());
}

UserHost::~UserHost()
{
	if (policy_ == Dma::HeapBlocks)
		for (auto &[bus, size] : dma_used_)
			std::free((void *)(bus - kHeapBusOffset));
	std::free(arena_);
}

int UserHost::dma_alloc(size_t size, size_t align, cxprm_dma_buf *buf)
{
	if (!size || !align || (align & (align - 1)) || align > 4096)
		return -EINVAL;
	if (!dma_size_ok(size) || !take_alloc_token())
		return -ENOMEM;
	uint8_t *cpu;
	uint64_t bus;
	if (policy_ == Dma::HeapBlocks) {
		if (align < 64)
			align = 64;
		cpu = static_cast<uint8_t *>(std::aligned_alloc(align, (size + align - 1) & ~(align - 1)));
		if (!cpu)
			return -ENOMEM;
		bus = (uint64_t)cpu + kHeapBusOffset;
		std::lock_guard<std::mutex> lk(*dma_mu_);
		dma_used_[bus] = size;
	} else {
		std::lock_guard<std::mutex> lk(*dma_mu_);
		if (!first_fit(dma_used_, kBusBase, kBusBase + arena_size_, size, align, &bus, &dma_hints_))
			return -ENOMEM;
		cpu = arena_ + (bus - kBusBase);
	}
	std::memset(cpu, 0, size);
	*buf = {cpu, bus, size, nullptr};
	return 0;
}

void UserHost::dma_free(cxprm_dma_buf *buf)
{
	{
		std::lock_guard<std::mutex> lk(*dma_mu_);
		auto it = dma_used_.find(buf->bus);
		if (it == dma_used_.end() || it->second != buf->size)
			std::abort(); // a double or bogus free is a bug in the core
		if (policy_ == Dma::Arena) // poisoned: a use after free shows up in tests
			std::memset(arena_ + (it->first - kBusBase), 0x6b, it->second);
		dma_hints_.freed(it->first);
		dma_used_.erase(it);
	}
	if (policy_ == Dma::HeapBlocks)
		std::free(buf->cpu);
}

size_t UserHost::dma_live() const
{
	std::lock_guard<std::mutex> lk(*dma_mu_);
	return dma_used_.size();
}

uint8_t *UserHost::dma_ptr(uint64_t bus, size_t len)
{
	if (policy_ == Dma::Arena) {
		if (bus < kBusBase || bus - kBusBase > arena_size_ || len > arena_size_ - (bus - kBusBase))
			return nullptr;
		return arena_ + (bus - kBusBase);
	}
	std::lock_guard<std::mutex> lk(*dma_mu_);
	auto it = dma_used_.upper_bound(bus);
	if (it == dma_used_.begin())
		return nullptr;
	--it;
	if (bus - it->first > it->second || len > it->second - (bus - it->first))
		return nullptr;
	return (uint8_t *)(bus - kHeapBusOffset);
}

bool UserHost::dma_read(uint64_t bus, void *dst, size_t len)
{
	uint8_t *p = dma_ptr(bus, len);
	if (p)
		std::memcpy(dst, p, len);
	return p != nullptr;
}

bool UserHost::dma_write(uint64_t bus, const void *src, size_t len)
{
	uint8_t *p = dma_ptr(bus, len);
	if (p)
		std::memcpy(p, src, len);
	return p != nullptr;
}

} // namespace cxprm::hosted
