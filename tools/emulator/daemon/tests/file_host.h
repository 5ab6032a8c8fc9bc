// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The core's host interface (cxprm/host.h) over QEMU-style shared files,
// for driving cxprm-emud from another process exactly as the guest driver
// does: DMA memory is carved out of the guest-RAM file and its bus address
// is the guest-physical address (guest_ram.h, including the split at
// 4 GiB), the BAR is the BAR file (big-endian dwords, 32-bit atomics; the
// command doorbell is rung with an atomic OR, as the kernel module does on
// ivshmem).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cxprm/host.h"
#include "guest_ram.h"

namespace cxprm::emud::test {

class FileHost {
public:
	static constexpr uint32_t kDoorbellOffset = 0x18; // command_doorbell_vector

	// ram/bar: the mapped files; DMA memory comes from RAM file offsets
	// [arena_off, ram_size), in both regions of 'layout' (alternating, so
	// both low and high guest-physical addresses are used).
	FileHost(uint8_t *ram, const GuestRam &layout, uint8_t *bar, size_t bar_size, uint64_t arena_off);
	FileHost(const FileHost &) = delete;
	FileHost &operator=(const FileHost &) = delete;

	const cxprm_host *host() const { return &host_; }

	size_t dma_live() const;
	size_t mem_live() const;
	uint64_t allocs_above_4g() const { return above_4g_; }
	uint64_t allocs_below_4g() const { return below_4g_; }
	std::vector<std::string> logs() const;

	// Host-interface implementation.
	int dma_alloc(size_t size, size_t align, cxprm_dma_buf *buf);
	void dma_free(cxprm_dma_buf *buf);
	void *mem_alloc(size_t size);
	void mem_free(void *p);
	uint32_t ioread32be(uint32_t off);
	void iowrite32be(uint32_t off, uint32_t val);
	void log(int level, const char *msg);

private:
	struct Region {
		uint64_t gpa_begin, gpa_end, off_begin;
		std::map<uint64_t, size_t> used; // gpa -> size
	};
	bool alloc_in(Region &r, size_t size, size_t align, uint64_t *gpa);

	cxprm_host host_{};
	uint8_t *ram_;
	GuestRam layout_;
	uint8_t *bar_;
	size_t bar_size_;
	mutable std::mutex mu_;
	std::vector<Region> regions_;
	unsigned next_region_ = 0;
	std::map<void *, size_t> mem_used_;
	uint64_t above_4g_ = 0, below_4g_ = 0;
	std::vector<std::string> logs_;
};

} // namespace cxprm::emud::test
