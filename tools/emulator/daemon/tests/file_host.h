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
#include <vector>

#include "guest_ram.h"
#include "host_base.h"

namespace cxprm::emud::test {

class FileHost : public hosted::HostBase {
public:
	// ram/bar: the mapped files; DMA memory comes from RAM file offsets
	// [arena_off, ram_size), in both regions of 'layout' (alternating, so
	// both low and high guest-physical addresses are used).
	FileHost(uint8_t *ram, const GuestRam &layout, uint8_t *bar, size_t bar_size, uint64_t arena_off);

	uint64_t allocs_above_4g() const { return above_4g_; }
	uint64_t allocs_below_4g() const { return below_4g_; }

	int dma_alloc(size_t size, size_t align, cxprm_dma_buf *buf) override;
	void dma_free(cxprm_dma_buf *buf) override;
	size_t dma_live() const override;

private:
	struct Region {
		uint64_t gpa_begin, gpa_end, off_begin;
		std::map<uint64_t, size_t> used; // gpa -> size
	};

	uint8_t *ram_;
	GuestRam layout_;
	std::vector<Region> regions_;
	unsigned next_region_ = 0;
	uint64_t above_4g_ = 0, below_4g_ = 0;
};

} // namespace cxprm::emud::test
