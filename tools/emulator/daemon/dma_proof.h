// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Compatibility with the kernel shim's temporary C++ self-test (see
// drivers/cxprm_selftest.h): on an ivshmem device it publishes a 4 KiB
// pattern buffer's bus address in reserved init-segment dwords and waits
// for the host program to answer with the FNV-1a hash of what it read from
// guest RAM.  tools/qemu/cxprm-fakedev did that; the daemon does the same,
// so cxprm.ko probes the same way behind either.  The offsets are copied
// here (not included) so the daemon keeps building when the self-test
// goes away; then this simply never fires.
#pragma once

#include <cstdint>

#include "file_platform.h"
#include "log.h"

namespace cxprm::emud {

class DmaProof {
public:
	static constexpr uint32_t DMA_HI = 0x20, DMA_LO = 0x24, DMA_LEN = 0x28, MAGIC = 0x2c, ACK = 0x30,
				  ACK_MAGIC = 0x34;
	static constexpr uint32_t MAGIC_VAL = 0x43584450u;     // "CXDP"
	static constexpr uint32_t ACK_MAGIC_VAL = 0x4358414bu; // "CXAK"
	static constexpr uint32_t PATTERN_BASE = 0xc0de0000u;
	static constexpr uint32_t MAX_LEN = 1u << 20;

	DmaProof(FilePlatform &plat, Log &log) : plat_(plat), log_(log) {}

	// Answers a pending publication; true if it did.
	bool poll();
	unsigned served() const { return served_; }

private:
	uint32_t rd(uint32_t off) const;
	void wr(uint32_t off, uint32_t v);

	FilePlatform &plat_;
	Log &log_;
	unsigned served_ = 0;
};

} // namespace cxprm::emud
