// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A Platform for the emulator's own tests: a byte-vector "host memory" at a
// nonzero bus base, a byte-vector BAR, a bump allocator, ranges that can be
// made unreachable, and a log of raised interrupts.
#pragma once

#include <cstdint>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cxprm_emu/emulator.h"

namespace cxprm::emu::test {

class FakePlatform : public Platform {
public:
	static constexpr uint64_t BUS_BASE = 0x1'2340'0000ull;

	explicit FakePlatform(size_t dma_bytes = 16u << 20, size_t bar_bytes = bar_map::UAR_BASE + 16 * 4096)
		: mem_(dma_bytes), bar_(bar_bytes)
	{
	}

	uint8_t *bar() override { return bar_.data(); }
	size_t bar_size() const override { return bar_.size(); }

	bool dma_read(uint64_t bus, void *dst, size_t len) override
	{
		std::lock_guard<std::mutex> g(mu_);
		if (!reachable(bus, len))
			return false;
		std::memcpy(dst, &mem_[bus - BUS_BASE], len);
		dma_reads_++;
		return true;
	}

	bool dma_write(uint64_t bus, const void *src, size_t len) override
	{
		std::lock_guard<std::mutex> g(mu_);
		if (!reachable(bus, len))
			return false;
		// A single byte is the hand-back (entry status/ownership, EQE
		// owner), written last by the emulator: make it a release store so
		// the driver's acquire load of it orders everything before it.
		if (len == 1)
			__atomic_store_n(&mem_[bus - BUS_BASE], *(const uint8_t *)src, __ATOMIC_RELEASE);
		else
			std::memcpy(&mem_[bus - BUS_BASE], src, len);
		dma_writes_++;
		return true;
	}

	void raise_irq(uint32_t vec) override
	{
		std::lock_guard<std::mutex> g(mu_);
		irqs_.push_back(vec);
	}

	// --- test side ---
	uint64_t alloc(size_t size, size_t align = 4096)
	{
		std::lock_guard<std::mutex> g(mu_);
		uint64_t at = (next_ + align - 1) / align * align;
		if (at + size > mem_.size())
			throw std::runtime_error("fake platform: out of DMA memory");
		next_ = at + size;
		std::memset(&mem_[at], 0, size);
		return BUS_BASE + at;
	}
	uint8_t *cpu(uint64_t bus) { return &mem_.at(bus - BUS_BASE); }
	void deny(uint64_t bus, size_t len)
	{
		std::lock_guard<std::mutex> g(mu_);
		denied_.push_back({bus, len});
	}
	void allow_all()
	{
		std::lock_guard<std::mutex> g(mu_);
		denied_.clear();
	}
	std::vector<uint32_t> irqs()
	{
		std::lock_guard<std::mutex> g(mu_);
		return irqs_;
	}
	void clear_irqs()
	{
		std::lock_guard<std::mutex> g(mu_);
		irqs_.clear();
	}

	// Driver-side register access (ioread32be/iowrite32be semantics).
	uint32_t rd(uint32_t off)
	{
		return __builtin_bswap32(__atomic_load_n(reinterpret_cast<uint32_t *>(&bar_[off]), __ATOMIC_ACQUIRE));
	}
	void wr(uint32_t off, uint32_t v)
	{
		__atomic_store_n(reinterpret_cast<uint32_t *>(&bar_[off]), __builtin_bswap32(v), __ATOMIC_RELEASE);
	}
	void ring(uint32_t off, uint32_t bits)
	{
		__atomic_fetch_or(reinterpret_cast<uint32_t *>(&bar_[off]), __builtin_bswap32(bits), __ATOMIC_RELEASE);
	}

private:
	bool reachable(uint64_t bus, size_t len) const
	{
		if (bus < BUS_BASE || len > mem_.size() || bus - BUS_BASE > mem_.size() - len)
			return false;
		for (auto &[b, l] : denied_)
			if (bus < b + l && b < bus + len)
				return false;
		return true;
	}

	std::mutex mu_;
	std::vector<uint8_t> mem_;
	std::vector<uint8_t> bar_;
	size_t next_ = 0;
	std::vector<std::pair<uint64_t, size_t>> denied_;
	std::vector<uint32_t> irqs_;
	uint64_t dma_reads_ = 0, dma_writes_ = 0;
};

} // namespace cxprm::emu::test
