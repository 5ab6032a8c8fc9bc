// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "user_host.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace cxprm::hosted {

UserHost::UserHost(size_t dma_bytes, size_t bar_bytes)
	: HostBase(true), bar_(bar_bytes, 0), arena_size_(dma_bytes)
{
	arena_ = static_cast<uint8_t *>(std::aligned_alloc(4096, dma_bytes));
	if (!arena_)
		std::abort();
	std::memset(arena_, 0, dma_bytes);
	bind_bar(bar_.data(), bar_.size());
}

UserHost::~UserHost() { std::free(arena_); }

int UserHost::dma_alloc(size_t size, size_t align, cxprm_dma_buf *buf)
{
	if (!size || !align || (align & (align - 1)) || align > 4096)
		return -EINVAL;
	if (!take_alloc_token())
		return -ENOMEM;
	std::lock_guard<std::mutex> lk(mu_);
	uint64_t bus;
	if (!first_fit(dma_used_, kBusBase, kBusBase + arena_size_, size, align, &bus))
		return -ENOMEM;
	uint8_t *cpu = arena_ + (bus - kBusBase);
	std::memset(cpu, 0, size);
	*buf = {cpu, bus, size, nullptr};
	return 0;
}

void UserHost::dma_free(cxprm_dma_buf *buf)
{
	std::lock_guard<std::mutex> lk(mu_);
	auto it = dma_used_.find(buf->bus);
	if (it == dma_used_.end() || it->second != buf->size)
		std::abort(); // a double or bogus free is a bug in the core
	// Poison freed memory so a use after free shows up in tests.
	std::memset(arena_ + (it->first - kBusBase), 0x6b, it->second);
	dma_used_.erase(it);
}

size_t UserHost::dma_live() const
{
	std::lock_guard<std::mutex> lk(mu_);
	return dma_used_.size();
}

uint8_t *UserHost::dma_ptr(uint64_t bus, size_t len)
{
	if (bus < kBusBase || bus - kBusBase > arena_size_ || len > arena_size_ - (bus - kBusBase))
		return nullptr;
	return arena_ + (bus - kBusBase);
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
