// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A userspace host for tests: DMA memory comes from one arena with made-up
// bus addresses above 4 GiB (so the 64-bit halves of every pointer are
// exercised); the BAR is a plain byte array.  Whatever plays the device
// (the emulator) reaches both through dma_read/dma_write/bar().
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "host_base.h"

namespace cxprm::hosted {

class UserHost : public HostBase {
public:
	static constexpr uint64_t kBusBase = 0x1'2340'0000ull;

	explicit UserHost(size_t dma_bytes = 64u << 20, size_t bar_bytes = 1u << 20);
	~UserHost() override;

	// Device side.
	uint8_t *bar() { return bar_.data(); }
	size_t bar_size() const { return bar_.size(); }
	bool dma_read(uint64_t bus, void *dst, size_t len);
	bool dma_write(uint64_t bus, const void *src, size_t len);
	// Direct pointer into the arena for [bus, bus+len), or null.
	uint8_t *dma_ptr(uint64_t bus, size_t len);

	int dma_alloc(size_t size, size_t align, cxprm_dma_buf *buf) override;
	void dma_free(cxprm_dma_buf *buf) override;
	size_t dma_live() const override;

private:
	std::vector<uint8_t> bar_;
	uint8_t *arena_ = nullptr;
	size_t arena_size_ = 0;
	std::map<uint64_t, size_t> dma_used_; // bus -> size, under mu_
};

} // namespace cxprm::hosted
