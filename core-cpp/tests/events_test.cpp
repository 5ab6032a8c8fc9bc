// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Asynchronous events against the emulator: the async EQ and its
// subscription, ESW_FUNCTIONS_CHANGED, page requests both ways,
// DCT_DRAINED, the owner-bit phase across several ring wraps, command
// completion by CMD events, and a clean stop.
#include "support/harness.h"
#include "support/objects.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cxprm/commands/dct.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/hca.h"
#include "cxprm/commands/issi.h"
#include "cxprm/device.h"
#include "cxprm/events.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/opcodes.h"

using namespace cxprm;
namespace ev = cxprm::prm::event;

namespace {

constexpr uint64_t MS = 1000 * 1000;

struct Seen : test::SeenEvents {
	static void cb(void *ctx, const EqEvent &e) { static_cast<Seen *>(ctx)->add(e.type, e.sub_type, e.data, 28); }
};

struct EventsTest : ::testing::Test {
	test::Harness h{profile(esw_test())};
	Device dev;
	Events events;
	Seen seen;

	// ESW events exist only on an ECPF eswitch manager (A8/B9): the tests
	// whose name says Esw run on the BlueField profile.
	static bool esw_test()
	{
		const ::testing::TestInfo *t = ::testing::UnitTest::GetInstance()->current_test_info();
		return t && std::string(t->name()).find("Esw") != std::string::npos;
	}

	static emu::Profile profile(bool bluefield)
	{
		emu::Profile p = bluefield ? emu::Profile::bluefield3() : emu::Profile::connectx7();
		p.boot_pages = p.init_pages = 8;
		p.nvmf.auto_io_ms = 0;
		return p;
	}

	void SetUp() override
	{
		h.emu.start();
		BringupConfig cfg;
		cfg.cmdq.timeout_ns = 5000 * MS;
		ASSERT_EQ(dev.bringup(h.host(), cfg), OK);
	}

	void TearDown() override
	{
		events.stop();
		dev.teardown();
		EXPECT_EQ(h.emu.pages_held(), 0u);
		EXPECT_EQ(h.uh.dma_live(), 0u);
	}

	int start(bool command_events = false, uint8_t log_size = 7, int extra_type = -1)
	{
		EventsConfig cfg;
		if (extra_type >= 0)
			cfg.extra_mask[extra_type / 64] |= 1ull << (extra_type % 64);
		cfg.log_eq_size = log_size;
		cfg.command_events = command_events;
		cfg.listener = Seen::cb;
		cfg.listener_ctx = &seen;
		return events.start(dev, cfg);
	}

	// Polls until 'type' was seen 'n' times (bounded: a loaded host).
	bool wait_for(uint8_t type, size_t n, int ms = 20000)
	{
		auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
		for (;;) {
			events.poll();
			if (seen.count(type) >= n)
				return true;
			if (std::chrono::steady_clock::now() > end)
				return false;
			std::this_thread::sleep_for(std::chrono::milliseconds(1));
		}
	}
};

} // namespace

TEST_F(EventsTest, AsyncEqIsCreatedWithTheSubscription)
{
	ASSERT_EQ(start(), OK);
	EXPECT_EQ(h.emu.eq_count(), 1u);
	emu::EqInfo info;
	// The arm doorbell reaches the emulator on its next poll.
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	while (std::chrono::steady_clock::now() < end) {
		ASSERT_TRUE(h.emu.eq_info((uint8_t)events.eqn(), &info));
		if (info.armed)
			break;
		std::this_thread::sleep_for(std::chrono::milliseconds(1));
	}
	EXPECT_EQ(info.log_size, 7u);
	EXPECT_EQ(info.uar, events.uar());
	EXPECT_TRUE(info.armed);
	EXPECT_TRUE(events.subscribed(0) & (1ull << ev::PAGE_REQUEST));
	// A plain PF (A8): no ESW_FUNCTIONS_CHANGED; EswSubscribedOnAnEcpf has it.
	EXPECT_FALSE(events.subscribed(0) & (1ull << ev::ESW_FUNCTIONS_CHANGED));
	EXPECT_TRUE(events.subscribed(0) & (1ull << ev::DCT_DRAINED));
	EXPECT_FALSE(events.subscribed(0) & (1ull << ev::CMD));
	events.stop();
	EXPECT_EQ(h.emu.eq_count(), 0u);
	EXPECT_EQ(h.emu.uar_count(), 0u);
}

TEST_F(EventsTest, EswSubscribedOnAnEcpf)
{
	ASSERT_EQ(start(), OK);
	EXPECT_TRUE(dev.ecpf());
	EXPECT_TRUE(events.subscribed(0) & (1ull << ev::ESW_FUNCTIONS_CHANGED));
}

TEST_F(EventsTest, EswFunctionsChangedArrivesAndQueryAgrees)
{
	ASSERT_EQ(start(), OK);
	ASSERT_TRUE(h.emu.set_num_vfs(4));
	ASSERT_TRUE(wait_for(ev::ESW_FUNCTIONS_CHANGED, 1));
	cmd::EswFunctions f{};
	ASSERT_EQ(cmd::query_esw_functions(dev.cmdq(), &f), OK);
	EXPECT_EQ(f.host_num_of_vfs, 4u);
	ASSERT_TRUE(h.emu.set_num_vfs(0));
	ASSERT_TRUE(wait_for(ev::ESW_FUNCTIONS_CHANGED, 2));
	ASSERT_EQ(cmd::query_esw_functions(dev.cmdq(), &f), OK);
	EXPECT_EQ(f.host_num_of_vfs, 0u);
	EXPECT_EQ(events.stats().by_type[ev::ESW_FUNCTIONS_CHANGED], 2u);
}

TEST_F(EventsTest, PageRequestsGiveAndReclaim)
{
	ASSERT_EQ(start(), OK);
	uint64_t held = h.emu.pages_held();
	ASSERT_TRUE(h.emu.request_pages(12));
	ASSERT_TRUE(wait_for(ev::PAGE_REQUEST, 1));
	EXPECT_TRUE(events.pending());
	EXPECT_EQ(events.service(), OK);
	EXPECT_FALSE(events.pending());
	EXPECT_EQ(h.emu.pages_held(), held + 12);
	EXPECT_EQ(dev.pages().live(), held + 12);
	ASSERT_TRUE(h.emu.request_pages(-5));
	ASSERT_TRUE(wait_for(ev::PAGE_REQUEST, 2));
	EXPECT_EQ(events.service(), OK);
	EXPECT_EQ(h.emu.pages_held(), held + 7);
	EXPECT_EQ(dev.pages().live(), held + 7);
	EventStats st = events.stats();
	EXPECT_EQ(st.page_requests, 2u);
	EXPECT_EQ(st.pages_requested, 7);
}

TEST_F(EventsTest, DctDrainedFollowsDrain)
{
	ASSERT_EQ(start(), OK);
	test::CmdObjects objs(h.host(), dev.cmdq());
	test::DctRefs refs;
	ASSERT_EQ(objs.make_dct_refs(&refs), OK);
	cmd::DctContext c = refs.basic<cmd::DctContext>();
	uint32_t dctn;
	ASSERT_EQ(cmd::create_dct(dev.cmdq(), c, &dctn), OK);
	ASSERT_EQ(cmd::drain_dct(dev.cmdq(), dctn), OK);
	ASSERT_TRUE(wait_for(ev::DCT_DRAINED, 1));
	{
		std::lock_guard<std::mutex> lk(seen.mu);
		for (auto &e : seen.events)
			if (e.type == ev::DCT_DRAINED) {
				prm::CRef<prm::dct_events> d(e.data.data());
				EXPECT_EQ(prm::get<prm::dct_events::dct_number>(d), dctn);
			}
	}
	ASSERT_EQ(cmd::destroy_dct(dev.cmdq(), dctn), OK);
	EXPECT_EQ(objs.destroy(), OK);
}

// A 16-entry ring and 100 events: the owner bit's valid value flips on
// every wrap; nothing is lost, nothing is read twice.
TEST_F(EventsTest, PhaseFlipsOnEveryWrap)
{
	ASSERT_EQ(start(false, 4, 0x22), OK);
	uint8_t data[28] = {};
	for (int i = 0; i < 100; i++) {
		data[27] = (uint8_t)i;
		ASSERT_EQ(h.emu.post_event(0x22, 0, data), 1u) << i; // GENERAL
		events.poll();
	}
	ASSERT_TRUE(wait_for(0x22, 100));
	EXPECT_EQ(seen.count(0x22), 100u);
	std::lock_guard<std::mutex> lk(seen.mu);
	int i = 0;
	for (auto &e : seen.events) {
		if (e.type == 0x22) {
			EXPECT_EQ(e.data[27], (uint8_t)i++);
		}
	}
	EXPECT_EQ(events.ring().consumer_index(), 100u);
	EXPECT_EQ(events.ring().phase(), (100u >> 4) & 1);
}

// No interrupt and no poller: the waiting threads pump the EQ themselves,
// so a burst of commands from many threads never overflows a small EQ.
TEST_F(EventsTest, WaitingThreadsPumpTheEqSoItNeverOverflows)
{
	ASSERT_EQ(start(true, 4), OK); // 16 entries
	std::vector<std::thread> th;
	std::atomic<int> errors{0};
	for (int t = 0; t < 8; t++)
		th.emplace_back([&] {
			for (int i = 0; i < 100; i++) {
				cmd::IssiInfo f{};
				if (cmd::query_issi(dev.cmdq(), &f) != OK)
					errors++;
			}
		});
	for (auto &x : th)
		x.join();
	EXPECT_EQ(errors.load(), 0);
	EXPECT_EQ(h.emu.counters().eq_overruns, 0u);
	events.poll(); // what came after the last waiter's pump
	EXPECT_EQ(events.stats().cmd_completions, 800u);
}

TEST_F(EventsTest, CommandsCompleteByCmdEvents)
{
	ASSERT_EQ(start(true), OK);
	EXPECT_TRUE(events.subscribed(0) & (1ull << ev::CMD));
	std::atomic<bool> stop{false};
	std::thread irq([&] {
		while (!stop) {
			events.poll();
			std::this_thread::sleep_for(std::chrono::microseconds(50));
		}
	});
	for (int i = 0; i < 50; i++) {
		cmd::IssiInfo f{};
		ASSERT_EQ(cmd::query_issi(dev.cmdq(), &f), OK);
	}
	stop = true;
	irq.join();
	// The last completion events may still be in the ring.
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	while (events.stats().cmd_completions < 50 && std::chrono::steady_clock::now() < end) {
		events.poll();
		std::this_thread::sleep_for(std::chrono::milliseconds(1));
	}
	EXPECT_GE(events.stats().cmd_completions, 50u);
}

// The default async EQ is Linux's (MLX5_NUM_ASYNC_EQE, 4096 entries): a
// burst of 1000 events between two polls (a batch's DCT_DRAINEDs while
// the poller is held off) waits in the ring; 256 entries overran.
TEST_F(EventsTest, DefaultRingHoldsABurstBetweenTwoPolls)
{
	EventsConfig cfg;
	cfg.extra_mask[0] = 1ull << 0x22;
	cfg.listener = Seen::cb;
	cfg.listener_ctx = &seen;
	ASSERT_EQ(events.start(dev, cfg), OK);
	EXPECT_EQ(events.ring().entries(), 4096u);
	emu::EqInfo info;
	ASSERT_TRUE(h.emu.eq_info((uint8_t)events.eqn(), &info));
	EXPECT_EQ(info.log_size, 12u);
	uint8_t data[28] = {};
	for (int i = 0; i < 1000; i++)
		ASSERT_EQ(h.emu.post_event(0x22, 0, data), 1u) << i;
	ASSERT_TRUE(wait_for(0x22, 1000));
	EXPECT_EQ(h.emu.counters().eq_overruns, 0u);
}

// One contiguous DMA buffer: a host that cannot allocate 256 KiB gets a
// ring halved until it can (64 KiB: 1024 entries), never below 256
// entries (16 KiB); the completion EQ keeps its 256.
TEST_F(EventsTest, RingHalvesWhileTheHostCannotAllocateIt)
{
	h.uh.set_dma_size_limit(64 * 1024);
	EventsConfig cfg;
	ASSERT_EQ(events.start(dev, cfg), OK);
	EXPECT_EQ(events.ring().entries(), 1024u);
	bool logged = false;
	for (const std::string &l : h.uh.logs())
		logged |= l.find("EQ of 1024 entries: the host could not allocate 4096") != std::string::npos;
	EXPECT_TRUE(logged);
	emu::EqInfo info;
	ASSERT_TRUE(h.emu.eq_info((uint8_t)events.eqn(), &info));
	EXPECT_EQ(info.log_size, 10u);
	uint32_t comp;
	ASSERT_EQ(events.comp_eqn(&comp), OK);
	ASSERT_TRUE(h.emu.eq_info((uint8_t)comp, &info));
	EXPECT_EQ(info.log_size, 8u);
	events.stop();

	h.uh.set_dma_size_limit(8 * 1024);
	EXPECT_EQ(events.start(dev, cfg), E_NOMEM);
	EXPECT_EQ(h.emu.eq_count(), 0u);
	EXPECT_EQ(h.emu.uar_count(), 0u);
	h.uh.set_dma_size_limit(0);
}
