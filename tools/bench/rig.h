// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The benchmark rig: the core's command engine (a brought-up cxprm::Device)
// in front of the in-process firmware emulator, with the emulator answering
// *inside the doorbell write* (the ringing thread runs Emulator::poll_once()
// before iowrite32be returns).  A command is therefore complete the first
// time the engine looks at the owner bit, and what a benchmark measures is
// the driver's own work plus the emulator's, which the rig times separately
// (emu_ns) so the two can be told apart.
//
// The host is a hosted::UserHost with the HeapBlocks allocation policy:
// one heap block per dma_alloc (so a heap profiler such as DHAT sees the
// mailbox chains as blocks of their own), its bus address the pointer
// plus a constant.  Pages handed to firmware in the MANAGE_PAGES
// benchmark come from a fake bus range the platform reports reachable
// without backing memory (EmuPlatform::set_unbacked): no GiB of RAM for
// 2^18 pages.
#pragma once

#include <cstdint>
#include <memory>

#include "cxprm/device.h"
#include "cxprm_emu/emulator.h"
#include "emu_platform.h"
#include "user_host.h"

namespace cxprm::bench {

// Fake pages for MANAGE_PAGES: [FAKE_PAGES_BUS, + FAKE_PAGES_BYTES).
inline constexpr uint64_t FAKE_PAGES_BUS = 0xa000'0000'0000ull;
inline constexpr uint64_t FAKE_PAGES_BYTES = 1ull << 40;

struct Rig {
	// max_msg_bytes: per-direction message limit of the engine (the
	// emulator's is 16 + 4096 * 512, which one 2^18-page GIVE fills).
	explicit Rig(uint32_t max_msg_bytes = 16 + 256 * 512);
	~Rig();

	Cmdq &cmdq() { return dev.cmdq(); }
	const cxprm_host *host() const { return &host_; }
	// Nanoseconds this thread spent inside the emulator so far.
	static uint64_t thread_emu_ns();

	hosted::UserHost uh;
	hosted::EmuPlatform plat;
	std::unique_ptr<emu::Emulator> emu;
	Device dev;
	int bringup_err = 0;

private:
	cxprm_host_ops ops_{};
	cxprm_host host_{};
};

} // namespace cxprm::bench
