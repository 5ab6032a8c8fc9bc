// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The firmware emulator's Platform over a UserHost, for every in-process
// rig (the core's test harness, the CLI's fake device, the benchmark rig):
// the emulator sees exactly what a device would, the BAR bytes and DMA by
// bus address.  Header-only: include it where cxprm_emulator is linked
// (cxprm_hosted itself does not depend on the emulator).
//
// The other Platforms are different on purpose: the emulator's own tests
// (tools/emulator/tests/fake_platform.h) need no core and deny ranges and
// log interrupts; the daemon's (tools/emulator/daemon/file_platform.h)
// is guest RAM and the ivshmem BAR in shared files.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cxprm_emu/platform.h"
#include "user_host.h"

namespace cxprm::hosted {

class EmuPlatform : public emu::Platform {
public:
	explicit EmuPlatform(UserHost &uh) : uh_(uh) {}

	uint8_t *bar() override { return uh_.bar(); }
	size_t bar_size() const override { return uh_.bar_size(); }
	bool dma_read(uint64_t bus, void *dst, size_t len) override
	{
		// Unbacked: reachable, its contents matter to nobody.
		if (unbacked_bytes_ && bus >= unbacked_bus_ && bus - unbacked_bus_ <= unbacked_bytes_ &&
		    len <= unbacked_bytes_ - (bus - unbacked_bus_))
			return true;
		return uh_.dma_read(bus, dst, len);
	}
	bool dma_write(uint64_t bus, const void *src, size_t len) override { return uh_.dma_write(bus, src, len); }

	// [bus, bus + bytes) reads as reachable without memory behind it (the
	// benchmark lends firmware 2^18 such pages: no GiB of RAM for them).
	void set_unbacked(uint64_t bus, uint64_t bytes) { unbacked_bus_ = bus, unbacked_bytes_ = bytes; }

private:
	UserHost &uh_;
	uint64_t unbacked_bus_ = 0, unbacked_bytes_ = 0;
};

} // namespace cxprm::hosted
