// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the firmware emulator needs from whatever it sits behind: the BAR
// bytes it owns (init segment, UAR pages) and DMA by bus address.  The
// in-process test harness implements it over the userspace DMA arena; the
// QEMU host process implements it over the guest-RAM file and the ivshmem
// BAR file.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cxprm::emu {

class Platform {
public:
	virtual ~Platform() = default;

	// The BAR: the emulator reads and writes it with 32-bit atomic
	// accesses; the driver side does the same through ioread32be/iowrite32be.
	virtual uint8_t *bar() = 0;
	virtual size_t bar_size() const = 0;

	// DMA by bus address. Return false when [bus, bus+len) is not memory the
	// device can reach (the emulator then reports a delivery error instead
	// of touching anything).
	virtual bool dma_read(uint64_t bus, void *dst, size_t len) = 0;
	virtual bool dma_write(uint64_t bus, const void *src, size_t len) = 0;

	// An interrupt on MSI-X vector 'vec' (EQ with intr = vec fired). The
	// default is no interrupt line (the driver polls).
	virtual void raise_irq(uint32_t vec) { (void)vec; }
};

} // namespace cxprm::emu
