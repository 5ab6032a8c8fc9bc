// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// PageTracker against the emulator: chunked GIVE/TAKE, page requests both
// ways, bad returns, table growth, allocation failures, rejected and lost
// GIVEs, and the destroy/free_all_live rules.
// First: emulator.h names a constant SIG_BLOCK, a <signal.h> macro gtest pulls in.
#include "support/harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "cxprm/commands/hca.h"
#include "cxprm/device.h"
#include "cxprm/pages.h"
#include "cxprm/prm/opcodes.h"

using namespace cxprm;
namespace op = cxprm::prm::op;

namespace {

using test::quick_config;

emu::Profile small_profile(int32_t boot = 8, int32_t init = 8)
{
	auto p = emu::Profile::connectx7();
	p.boot_pages = boot;
	p.init_pages = init;
	p.regular_pages = 0;
	p.nvmf.auto_io_ms = 0;
	return p;
}

// MANAGE_PAGES in chunks of 128 pages, so a few hundred pages take several.
BringupConfig chunked_config()
{
	BringupConfig cfg = quick_config();
	cfg.pages_per_command = 128;
	return cfg;
}

struct UpRig {
	test::Harness h;
	Device dev;
	explicit UpRig(emu::Profile p = small_profile(), BringupConfig cfg = quick_config()) : h(std::move(p))
	{
		h.emu.start();
		up = dev.bringup(h.host(), cfg);
	}
	// Everything back: firmware holds nothing, the host has nothing live.
	void down_and_check()
	{
		dev.teardown();
		EXPECT_EQ(dev.state(), DeviceState::OFF);
		EXPECT_EQ(h.emu.pages_held(), 0u);
		EXPECT_EQ(h.emu.counters().pages_leaked, 0u);
		EXPECT_EQ(h.uh.dma_live(), 0u);
		EXPECT_EQ(h.uh.mem_live(), 0u);
	}
	// The tracker and the emulator agree on who holds what.
	void expect_in_sync()
	{
		auto held = h.emu.held_pages();
		EXPECT_EQ(held.size(), dev.pages().live());
		for (uint64_t pa : held)
			EXPECT_TRUE(dev.pages().holds(pa)) << std::hex << pa;
	}
	int up;
};

// A default rig that must come up; every test ends with everything back.
struct PagesUp : ::testing::Test {
	UpRig rig;
	PageTracker &pt = rig.dev.pages();
	void SetUp() override { ASSERT_EQ(rig.up, OK); }
	void TearDown() override { rig.down_and_check(); }
};

} // namespace

TEST(Pages, ChunkedGiveAndTake)
{
	UpRig rig(small_profile(300, 200), chunked_config());
	ASSERT_EQ(rig.up, OK);
	EXPECT_EQ(rig.dev.pages().chunk_pages(), 128u);
	EXPECT_EQ(rig.h.emu.pages_held(), 500u);
	EXPECT_EQ(rig.dev.pages().live(), 500u);
	// Boot: 128 + 128 + 44; init: 128 + 72.
	EXPECT_EQ(rig.h.emu.opcode_count(op::MANAGE_PAGES), 5u);
	rig.expect_in_sync();

	rig.dev.teardown();
	// TAKE: 128 * 3 + 116.
	EXPECT_EQ(rig.h.emu.opcode_count(op::MANAGE_PAGES), 5u + 4u);
	EXPECT_EQ(rig.h.emu.pages_taken_total(), 500u);
	PageStats st = rig.dev.pages().stats(); // destroyed: zeros
	EXPECT_EQ(st.live, 0u);
	rig.down_and_check();
}

// Teardown asks its pages back 768 at a time (12 output mailbox blocks,
// as Linux optimal_reclaimed_pages()), even where a GIVE carried them all
// in one message.
TEST(Pages, TeardownReclaimsInRoundsOfSevenHundredSixtyEight)
{
	UpRig rig(small_profile(32, 2000));
	ASSERT_EQ(rig.up, OK);
	ASSERT_EQ(rig.dev.pages().live(), 2032u);
	ASSERT_GE(rig.dev.pages().chunk_pages(), 2000u);
	// Boot and init: one GIVE each.
	EXPECT_EQ(rig.h.emu.opcode_count(op::MANAGE_PAGES), 2u);
	rig.dev.teardown();
	// TAKE: 768 + 768 + 496.
	EXPECT_EQ(cmd::RECLAIM_ROUND_PAGES, 768u);
	EXPECT_EQ(rig.h.emu.opcode_count(op::MANAGE_PAGES), 2u + 3u);
	EXPECT_EQ(rig.h.emu.pages_taken_total(), 2032u);
	rig.down_and_check();
}

// Out of memory for a TAKE's output (8 bytes a page) or for take()'s own
// page list: the reclaim asks for half as many pages at a time instead of
// giving up (fuzz regression eq_events/reclaim_take_out_of_dma_memory;
// the page list: the guest's fail-nth run, Documentation/faults.rst).
TEST(Pages, TakeUnderMemoryPressureAsksForFewerPages)
{
	// take()'s allocations: its page list (0), the first TAKE's output (1).
	for (int failing : { 0, 1 }) {
		SCOPED_TRACE(failing);
		UpRig rig(small_profile(300, 200), chunked_config());
		ASSERT_EQ(rig.up, OK);
		ASSERT_EQ(rig.dev.pages().live(), 500u);
		rig.h.uh.fail_alloc_after(failing);
		rig.dev.teardown();
		const StepRecord *rp = rig.dev.trace().find(Step::RECLAIM_PAGES);
		ASSERT_NE(rp, nullptr);
		EXPECT_EQ(rp->err, OK);
		EXPECT_EQ(rp->value, 500);
		EXPECT_EQ(rig.h.emu.pages_taken_total(), 500u);
		// Boot and init: 5 GIVEs; then TAKEs of 64 (not 128): 7 x 64 + 52.
		EXPECT_EQ(rig.h.emu.opcode_count(op::MANAGE_PAGES), 5u + 8u);
		rig.down_and_check();
	}
}

namespace {
// A host with fw_page ops (the kernel's kind): they hand out and take
// back the firmware pages; every other DMA buffer still comes from
// dma_alloc.
struct FwPageHost {
	static inline const cxprm_host *real;
	static inline unsigned allocs, frees;
	cxprm_host_ops ops;
	cxprm_host host;
	explicit FwPageHost(const cxprm_host *r) : ops(*r->ops), host{&ops, r->ctx}
	{
		real = r;
		allocs = frees = 0;
		ops.fw_page_alloc = [](void *c, cxprm_dma_buf *b) {
			allocs++;
			return real->ops->dma_alloc(c, 4096, 4096, b);
		};
		ops.fw_page_free = [](void *c, cxprm_dma_buf *b) {
			frees++;
			real->ops->dma_free(c, b);
		};
	}
};
} // namespace

TEST(Pages, FirmwarePagesComeFromTheHostsFwPageOps)
{
	test::Harness h(small_profile(300, 200));
	FwPageHost fh(h.host());
	h.emu.start();
	Device dev;
	ASSERT_EQ(dev.bringup(&fh.host, chunked_config()), OK);
	EXPECT_EQ(FwPageHost::allocs, 500u);
	EXPECT_EQ(dev.pages().live(), 500u);
	dev.teardown();
	EXPECT_EQ(FwPageHost::frees, 500u);
	EXPECT_EQ(h.emu.pages_held(), 0u);
	EXPECT_EQ(h.uh.dma_live(), 0u);
}

TEST_F(PagesUp, PageRequestsBothWays)
{
	uint64_t base = pt.live();

	ASSERT_EQ(pt.handle_page_request(100), OK);
	EXPECT_EQ(pt.live(), base + 100);
	EXPECT_EQ(rig.h.emu.pages_held(), base + 100);
	EXPECT_EQ(pt.handle_page_request(0), OK);

	// Firmware releases 60 (negative request); the driver takes them back.
	ASSERT_TRUE(rig.h.emu.request_pages(-60));
	ASSERT_EQ(pt.handle_page_request(-60), OK);
	EXPECT_EQ(pt.live(), base + 40);
	EXPECT_EQ(rig.h.emu.pages_held(), base + 40);
	PageStats st = pt.stats();
	EXPECT_EQ(st.given, base + 100);
	EXPECT_EQ(st.reclaimed, 60u);
	EXPECT_EQ(st.bad_returns, 0u);
	rig.expect_in_sync();

	// Asking for more than firmware releases returns what it has.
	ASSERT_TRUE(rig.h.emu.request_pages(-5));
	uint32_t got = 0;
	EXPECT_EQ(pt.take(50, &got), OK);
	EXPECT_EQ(got, 5u);
}

TEST_F(PagesUp, TableGrowthAndInterleavedReturns)
{
	for (int round = 0; round < 4; round++) {
		ASSERT_EQ(pt.handle_page_request(700), OK);
		rig.expect_in_sync();
		int back = 300 + round * 97;
		ASSERT_TRUE(rig.h.emu.request_pages(-back));
		ASSERT_EQ(pt.handle_page_request(-back), OK);
		rig.expect_in_sync();
	}
	EXPECT_GT(pt.live(), 1000u);
}

TEST_F(PagesUp, UnknownAndDuplicateReturnsAreProtocolErrors)
{
	size_t dma = rig.h.uh.dma_live();
	uint64_t live = pt.live();

	EXPECT_EQ(pt.release(0xdead'b000ull), E_PROTO);
	EXPECT_EQ(pt.stats().bad_returns, 1u);
	EXPECT_EQ(rig.h.uh.dma_live(), dma);
	EXPECT_EQ(pt.live(), live);

	// A page firmware really returned, then "returned" again.
	ASSERT_TRUE(rig.h.emu.request_pages(-1));
	auto before = rig.h.emu.held_pages();
	ASSERT_EQ(pt.handle_page_request(-1), OK);
	auto after = rig.h.emu.held_pages();
	std::set<uint64_t> a(after.begin(), after.end());
	uint64_t returned = 0;
	for (uint64_t pa : before)
		if (!a.count(pa))
			returned = pa;
	ASSERT_NE(returned, 0u);
	EXPECT_FALSE(pt.holds(returned));
	EXPECT_EQ(pt.release(returned), E_PROTO);
	EXPECT_EQ(pt.stats().bad_returns, 2u);
	EXPECT_EQ(pt.stats().reclaimed, 1u);
	dma = rig.h.uh.dma_live();
	EXPECT_EQ(pt.release(returned), E_PROTO); // nothing freed twice
	EXPECT_EQ(rig.h.uh.dma_live(), dma);
}

TEST_F(PagesUp, AllocationFailureTellsFirmwareCantGive)
{
	uint64_t live = pt.live();
	size_t dma = rig.h.uh.dma_live(), mem = rig.h.uh.mem_live();
	uint64_t mp = rig.h.emu.opcode_count(op::MANAGE_PAGES);

	rig.h.uh.fail_alloc_after(10); // inside the page allocations
	EXPECT_EQ(pt.handle_page_request(50), E_NOMEM);
	EXPECT_EQ(pt.live(), live);
	EXPECT_EQ(rig.h.uh.dma_live(), dma);
	EXPECT_EQ(rig.h.uh.mem_live(), mem);
	EXPECT_EQ(pt.stats().cant_give, 1u);
	EXPECT_EQ(rig.h.emu.opcode_count(op::MANAGE_PAGES), mp + 1); // CANT_GIVE only
}

TEST(Pages, AllocationFailureInALaterChunkKeepsEarlierChunks)
{
	UpRig rig(small_profile(), chunked_config());
	ASSERT_EQ(rig.up, OK);
	PageTracker &pt = rig.dev.pages();
	uint64_t live = pt.live();
	rig.h.uh.fail_alloc_after(200); // in the second chunk
	EXPECT_EQ(pt.give(300), E_NOMEM);
	EXPECT_EQ(pt.live(), live + 128);
	EXPECT_EQ(rig.h.emu.pages_held(), live + 128);
	rig.expect_in_sync();
	rig.down_and_check();
}

TEST_F(PagesUp, RejectedGiveFreesAtOnce)
{
	// After TEARDOWN_HCA firmware refuses new pages (GIVE_TORN_DOWN).
	ASSERT_EQ(cmd::teardown_hca(rig.dev.cmdq(), cmd::TeardownProfile::GRACEFUL), OK);
	uint64_t live = pt.live();
	size_t dma = rig.h.uh.dma_live();
	CmdResult r{};
	EXPECT_EQ(pt.give(5, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, emu::synd::GIVE_TORN_DOWN);
	EXPECT_EQ(pt.live(), live);
	EXPECT_EQ(pt.stats().give_failed, 5u);
	EXPECT_EQ(rig.h.uh.dma_live(), dma);
	// TearDown: Device::teardown still ends clean (its TEARDOWN_HCA now fails).
}

TEST(Pages, LostGiveAnswerKeepsPagesTracked)
{
	UpRig rig;
	ASSERT_EQ(rig.up, OK);
	// 300 ms for the answer that is lost; the others get quick_config's.
	const CmdqConfig before = rig.dev.cmdq().config();
	CmdqConfig c = before;
	c.timeout_ns = 300ull * 1000 * 1000;
	rig.dev.cmdq().set_config(c);
	PageTracker &pt = rig.dev.pages();
	uint64_t live = pt.live();
	auto &f = rig.h.emu.faults();
	f.only_opcode = op::MANAGE_PAGES;
	f.once = true;
	f.never_complete = true; // runs (firmware takes the pages), never answers
	EXPECT_EQ(pt.give(7), E_TIMEDOUT);
	rig.dev.cmdq().set_config(before);
	EXPECT_EQ(pt.live(), live + 7);
	EXPECT_EQ(rig.h.emu.pages_held(), live + 7);
	rig.expect_in_sync();
	// The lost answer's slot is quarantined: its DMA outlives teardown
	// until the host has reset the function.
	rig.dev.teardown();
	EXPECT_EQ(rig.dev.state(), DeviceState::STRANDED);
	EXPECT_EQ(rig.dev.stranded_cmdq_buffers(), 2u); // queue page, input chain (16-byte output: inline)
	EXPECT_EQ(rig.dev.release_stranded_pages(), 0u);
	rig.down_and_check();
}

TEST(Pages, DestroyRefusesWhileLive)
{
	test::Harness h(small_profile());
	ASSERT_EQ(h.start(), OK);
	ASSERT_EQ(cmd::enable_hca(h.cmdq), OK);
	{
		PageTracker pt;
		EXPECT_EQ(pt.give(1), E_INVAL); // not initialized
		ASSERT_EQ(pt.init(h.host(), &h.cmdq), OK);
		EXPECT_EQ(pt.init(h.host(), &h.cmdq), E_BUSY);
		ASSERT_EQ(pt.give(4), OK);
		EXPECT_EQ(pt.destroy(), 4u);
		EXPECT_TRUE(pt.initialized());
		// DISABLE_HCA: firmware forgets the pages; only then may we free.
		ASSERT_EQ(cmd::disable_hca(h.cmdq), OK);
		EXPECT_EQ(pt.free_all_live(), 4u);
		EXPECT_EQ(pt.stats().forced_free, 4u);
		EXPECT_EQ(pt.destroy(), 0u);
		EXPECT_FALSE(pt.initialized());
	}
	h.cmdq.fini();
	EXPECT_EQ(h.uh.dma_live(), 0u);
	EXPECT_EQ(h.uh.mem_live(), 0u);
}
