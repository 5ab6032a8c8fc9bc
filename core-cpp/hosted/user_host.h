// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A userspace implementation of the core's host interface (cxprm_host_ops).
//
// DMA memory comes from one arena with made-up bus addresses above 4 GiB (so
// the 64-bit halves of every pointer are exercised); the BAR is a plain
// byte array.  Whatever plays the device (the emulator) reaches both through
// dma_read/dma_write/bar().  Allocation counters let tests prove nothing
// leaks, and a failure knob makes the n-th allocation fail.
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

class UserHost {
public:
	static constexpr uint64_t kBusBase = 0x1'2340'0000ull;

	explicit UserHost(size_t dma_bytes = 64u << 20, size_t bar_bytes = 1u << 20);
	~UserHost();
	UserHost(const UserHost &) = delete;
	UserHost &operator=(const UserHost &) = delete;

	const cxprm_host *host() const { return &host_; }

	// Device side.
	uint8_t *bar() { return bar_.data(); }
	size_t bar_size() const { return bar_.size(); }
	bool dma_read(uint64_t bus, void *dst, size_t len);
	bool dma_write(uint64_t bus, const void *src, size_t len);
	// Direct pointer into the arena for [bus, bus+len), or null.
	uint8_t *dma_ptr(uint64_t bus, size_t len);
	static constexpr uint32_t kDoorbellOffset = 0x18; // command_doorbell_vector

	// Accounting and fault injection.
	size_t dma_live() const;           // live DMA allocations
	size_t mem_live() const;           // live mem_alloc allocations
	void fail_alloc_after(int n);      // the (n+1)-th allocation from now fails; -1 = never
	// Log lines the core wrote through ops->log.
	std::vector<std::string> logs() const;

	// Host-interface implementation (public so the C callbacks reach it).
	int dma_alloc(size_t size, size_t align, cxprm_dma_buf *buf);
	void dma_free(cxprm_dma_buf *buf);
	void *mem_alloc(size_t size);
	void mem_free(void *p);
	uint32_t ioread32be(uint32_t off);
	void iowrite32be(uint32_t off, uint32_t val);
	void log(int level, const char *msg);

private:
	bool take_alloc_token();

	cxprm_host host_{};
	std::vector<uint8_t> bar_;
	uint8_t *arena_ = nullptr;
	size_t arena_size_ = 0;
	mutable std::mutex mu_;
	std::map<uint64_t, size_t> dma_used_; // offset -> size
	std::map<void *, size_t> mem_used_;
	std::atomic<int> fail_after_{-1};
	std::vector<std::string> logs_;
};

} // namespace cxprm::hosted
