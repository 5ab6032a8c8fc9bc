// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What every userspace implementation of the core's host interface shares:
// the cxprm_host_ops table, bookkeeping allocations with leak accounting,
// a failure knob, big-endian BAR access with 32-bit atomics (the command
// doorbell rung with an atomic OR, so two rings before the device looks
// both survive), locks, clock, waiters and the log.  A derived class says
// where DMA memory comes from (dma_alloc/dma_free/dma_live).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cxprm/host.h"

namespace cxprm::hosted {

class HostBase {
public:
	static constexpr uint32_t kDoorbellOffset = 0x18; // command_doorbell_vector

	virtual ~HostBase() = default;
	HostBase(const HostBase &) = delete;
	HostBase &operator=(const HostBase &) = delete;

	const cxprm_host *host() const { return &host_; }

	virtual int dma_alloc(size_t size, size_t align, cxprm_dma_buf *buf) = 0;
	virtual void dma_free(cxprm_dma_buf *buf) = 0;
	virtual size_t dma_live() const = 0; // live DMA allocations

	void *mem_alloc(size_t size);
	void mem_free(void *p);
	size_t mem_live() const; // live mem_alloc allocations
	uint32_t ioread32be(uint32_t off);
	void iowrite32be(uint32_t off, uint32_t val);
	void log(int level, const char *msg);
	std::vector<std::string> logs() const;
	// The (n+1)-th allocation (DMA or not) from now fails; -1 = never.
	void fail_alloc_after(int n) { fail_after_.store(n); }
	// A DMA allocation of more than 'bytes' fails with -ENOMEM (a host
	// whose contiguous memory is fragmented); 0 = no limit.
	void set_dma_size_limit(size_t bytes) { dma_size_limit_.store(bytes); }
	// The page_shift op's answer (default: this system's page size); a
	// test sets another to play a 64 KiB-page host.
	void set_page_shift(cxprm_u32 s) { page_shift_ = s; }
	cxprm_u32 page_shift() const { return page_shift_; }
	// The get_random op: std::random_device, or a fixed byte for tests.
	void set_random_byte(int b) { random_byte_ = b; }
	void fill_random(void *buf, cxprm_size n);

protected:
	// with_waiters: offer the waiter_* callbacks (event-driven completion).
	explicit HostBase(bool with_waiters);
	void bind_bar(uint8_t *bar, size_t size) { bar_ = bar, bar_size_ = size; }
	// False when the failure knob says this allocation fails.
	bool take_alloc_token();
	// False when the size limit refuses a DMA allocation of 'size' bytes.
	bool dma_size_ok(size_t size) const
	{
		size_t lim = dma_size_limit_.load();
		return !lim || size <= lim;
	}
	// Where first_fit may start: [begin, dense) is wholly used, and below
	// page no free run holds a page-aligned page (kFitPage).  Kept up to
	// date by first_fit; a caller that frees [x, ..) lowers them (freed()).
	static constexpr uint64_t kFitPage = 4096;
	struct FitHints {
		uint64_t dense = 0, page = 0;
		void freed(uint64_t x)
		{
			dense = x < dense ? x : dense;
			page = (x & ~(kFitPage - 1)) < page ? x & ~(kFitPage - 1) : page;
		}
	};
	// First fit of [size, align) in [begin, end) around the used ranges
	// (start -> size); records and returns the start, or false.  With
	// hints, the same answer without walking every live range below them:
	// the 64 B doorbell records that fill the holes between page-aligned
	// queue buffers kept the packed prefix short, and each page walked all.
	static bool first_fit(std::map<uint64_t, size_t> &used, uint64_t begin, uint64_t end,
			      size_t size, size_t align, uint64_t *at, FitHints *hints = nullptr);

	mutable std::mutex mu_; // guards the derived class's DMA books too

private:
	cxprm_host host_{};
	cxprm_u32 page_shift_ = system_page_shift();
	int random_byte_ = -1;
	static cxprm_u32 system_page_shift();
	uint8_t *bar_ = nullptr;
	size_t bar_size_ = 0;
	std::map<void *, size_t> mem_used_;
	std::atomic<int> fail_after_{-1};
	std::atomic<size_t> dma_size_limit_{0};
	std::vector<std::string> logs_;
};

} // namespace cxprm::hosted
