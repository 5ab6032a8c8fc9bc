// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A userspace host for tests and the benchmark rig: the BAR is a plain byte
// array; DMA memory comes, by allocation policy, from
//  - Dma::Arena: one arena with made-up bus addresses above 4 GiB (so the
//    64-bit halves of every pointer are exercised), first fit, freed memory
//    poisoned (the tests' host);
//  - Dma::HeapBlocks: one heap block per dma_alloc, its bus address the
//    pointer plus kHeapBusOffset (the benchmark rig: a heap profiler such
//    as DHAT sees the mailbox chains as blocks of their own).
// Whatever plays the device (the emulator, through hosted::EmuPlatform)
// reaches both through dma_read/dma_write/bar().
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "host_base.h"

namespace cxprm::hosted {

class UserHost : public HostBase {
public:
	static constexpr uint64_t kBusBase = 0x1'2340'0000ull;       // Dma::Arena
	static constexpr uint64_t kHeapBusOffset = 0x1000'0000'0000ull; // Dma::HeapBlocks

	enum class Dma { Arena, HeapBlocks };
	struct Options {
		Dma dma = Dma::Arena;
		size_t dma_bytes = 64u << 20; // the arena (Dma::Arena only)
		size_t bar_bytes = 1u << 20;
		bool waiters = true; // false: no waiter_* ops, the core polls
	};

	explicit UserHost(size_t dma_bytes = 64u << 20, size_t bar_bytes = 1u << 20);
	explicit UserHost(const Options &o);
	~UserHost() override;

	// Device side.
	uint8_t *bar() { return bar_.data(); }
	size_t bar_size() const { return bar_.size(); }
	// False when [bus, bus+len) is not DMA memory.
	bool dma_read(uint64_t bus, void *dst, size_t len);
	bool dma_write(uint64_t bus, const void *src, size_t len);
	// Direct pointer to [bus, bus+len), or null (Dma::Arena: anywhere in
	// the arena; Dma::HeapBlocks: inside one live allocation).
	uint8_t *dma_ptr(uint64_t bus, size_t len);

	int dma_alloc(size_t size, size_t align, cxprm_dma_buf *buf) override;
	void dma_free(cxprm_dma_buf *buf) override;
	size_t dma_live() const override;

private:
	const Dma policy_;
	std::vector<uint8_t> bar_;
	uint8_t *arena_ = nullptr;
	size_t arena_size_ = 0;
	// A block of its own: the emulator takes it for every DMA, and the
	// benchmark's bytes-written count (tools/bench/give_pages_bytes.py) must not
	// mistake that for the driver's writes into the rig.
	std::unique_ptr<std::mutex> dma_mu_;
	std::map<uint64_t, size_t> dma_used_; // bus -> size, under dma_mu_
	FitHints dma_hints_;                  // where first_fit starts, under dma_mu_
};

} // namespace cxprm::hosted
