// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "rig.h"

#include <chrono>
#include <cstdio>

#include "cxprm/prm/transport.h"

namespace cxprm::bench {

namespace {

Rig *g_rig;                 // the rig whose emulator answers doorbells
void (*g_write)(void *, cxprm_u32, cxprm_u32); // HostBase's iowrite32be
thread_local uint64_t t_emu_ns;

uint64_t now_ns()
{
	return (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
		       std::chrono::steady_clock::now().time_since_epoch())
		.count();
}

// The emulator's answer to a doorbell, timed (emu_ns).  noinline + a name
// of its own: bench.sh counts everything below this frame as the
// emulator's instructions, the rig's two clock reads included (they are
// the harness's, not the driver's).
__attribute__((noinline)) void emulator_answer(cxprm_u32 off)
{
	uint64_t t0 = now_ns();
	g_rig->emu->register_written(off);
	t_emu_ns += now_ns() - t0;
}

// The register write, then the emulator's answer in the same thread
// (Emulator::register_written: the queue address taken, a doorbell
// served).
__attribute__((noinline)) void doorbell_write(void *ctx, cxprm_u32 off, cxprm_u32 val)
{
	g_write(ctx, off, val);
	if (!g_rig)
		return;
	if (off == prm::iseg::DOORBELL)
		emulator_answer(off);
	else
		g_rig->emu->register_written(off);
}

hosted::UserHost::Options host_options()
{
	hosted::UserHost::Options o;
	o.dma = hosted::UserHost::Dma::HeapBlocks;
	o.waiters = false;
	return o;
}

} // namespace

Rig::Rig(uint32_t max_msg_bytes) : uh(host_options()), plat(uh)
{
	plat.set_unbacked(FAKE_PAGES_BUS, FAKE_PAGES_BYTES);
	emu = std::make_unique<emu::Emulator>(plat, emu::Profile::connectx7());
	ops_ = *uh.host()->ops;
	g_write = ops_.iowrite32be;
	ops_.iowrite32be = doorbell_write;
	host_ = {&ops_, uh.host()->ctx};
	g_rig = this;

	// 'initializing' clears after the profile's delay; nobody runs the
	// emulator's thread, so step it here.
	emu->settle(false);
	BringupConfig cfg;
	cfg.cmdq.max_msg_bytes = max_msg_bytes;
	bringup_err = dev.bringup(&host_, cfg);
	if (bringup_err)
		std::fprintf(stderr, "cxprm-bench: bring-up failed: %d\n", bringup_err);
}

Rig::~Rig()
{
	// No teardown: the MANAGE_PAGES benchmark lends fake pages the tracker
	// never saw, so reclaim would (rightly) refuse them.  The process ends.
	g_rig = nullptr;
}

uint64_t Rig::thread_emu_ns() { return t_emu_ns; }

} // namespace cxprm::bench
