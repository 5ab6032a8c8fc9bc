// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Functions (audit A3, A7, A8, B5, B9): an ECPF (BlueField Arm side) brought
// up as embedded_cpu_function = 1; page requests served one by one for the
// function they name (the ECPF itself, its external host PF, a VF), with
// release_all and a bounded queue; teardown reclaiming every function's
// pages; ESW events and queries only on an ECPF eswitch manager.
#include "support/harness.h"

#include <gtest/gtest.h>

#include <thread>

#include "cxprm/capi.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/hca.h"
#include "cxprm/commands/pages.h"
#include "cxprm/device.h"
#include "cxprm/events.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/opcodes.h"

using namespace cxprm;
namespace ev = cxprm::prm::event;

namespace {

constexpr uint64_t MS = 1000 * 1000;
const cmd::FunctionRef HOST_PF{0, false};
const cmd::FunctionRef ECPF{0, true};
const cmd::FunctionRef VF1{1, false};

emu::Profile quick(emu::Profile p)
{
	p.boot_pages = p.init_pages = 8;
	p.nvmf.auto_io_ms = 0;
	return p;
}

struct FunctionsTest : ::testing::Test {
	std::unique_ptr<test::Harness> h;
	Device dev;
	Events events;
	bool up = false;

	void bring_up(emu::Profile p)
	{
		h = std::make_unique<test::Harness>(quick(std::move(p)));
		h->emu.start();
		BringupConfig cfg;
		cfg.cmdq.timeout_ns = 5000 * MS;
		ASSERT_EQ(dev.bringup(h->host(), cfg), OK);
		up = true;
		EventsConfig ec;
		ec.log_eq_size = 7;
		ASSERT_EQ(events.start(dev, ec), OK);
	}

	void TearDown() override
	{
		if (!h)
			return;
		events.stop();
		dev.teardown();
		if (up) {
			EXPECT_EQ(dev.state(), DeviceState::OFF);
			EXPECT_EQ(h->emu.counters().pages_leaked, 0u);
		}
		EXPECT_EQ(h->uh.dma_live(), 0u);
	}

	// Polls until 'n' PAGE_REQUESTs were seen in total (bounded: a loaded host).
	bool wait_requests(uint64_t n)
	{
		auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
		while (std::chrono::steady_clock::now() < end) {
			events.poll();
			if (events.stats().page_requests >= n)
				return true;
			std::this_thread::sleep_for(std::chrono::milliseconds(1));
		}
		return false;
	}
};

} // namespace

// A3: embedded_cpu read at bring-up; the ECPF enables itself (ec = 1), not
// the host PF, and its boot/init pages are its own.
TEST_F(FunctionsTest, EcpfIsBroughtUpAsEmbeddedCpuFunction)
{
	bring_up(emu::Profile::bluefield3());
	EXPECT_TRUE(dev.ecpf());
	EXPECT_TRUE(dev.own_function().embedded_cpu_function);
	const StepRecord *en = dev.trace().find(Step::ENABLE_HCA);
	ASSERT_NE(en, nullptr);
	EXPECT_EQ(en->value, 1); // embedded_cpu_function sent
	EXPECT_TRUE(h->emu.function_enabled(0, true));
	EXPECT_EQ(h->emu.pages_held(0, true), 16u);
	EXPECT_EQ(h->emu.pages_held(0, false), 0u); // nothing given to the host PF
	EXPECT_EQ(dev.pages().live(ECPF), 16u);
	EXPECT_EQ(dev.pages().live(HOST_PF), 0u);
}

TEST_F(FunctionsTest, PlainPfIsNotAnEcpf)
{
	bring_up(emu::Profile::connectx7());
	EXPECT_FALSE(dev.ecpf());
	EXPECT_FALSE(dev.own_function().embedded_cpu_function);
	EXPECT_EQ(h->emu.pages_held(0, false), 16u);
}

// B5: on a BlueField the old driver's ENABLE_HCA(0, ec 0) names the host
// PF, which only an initialized ECPF may enable: bring-up must fail there.
TEST_F(FunctionsTest, EmulatorRefusesHostPfEnableFromADisabledEcpf)
{
	h = std::make_unique<test::Harness>(quick(emu::Profile::bluefield3()));
	ASSERT_EQ(h->start(), OK);
	CmdResult r{};
	EXPECT_EQ(cmd::enable_hca(h->cmdq, HOST_PF, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, (uint32_t)emu::synd::FUNCTION_MANAGER_DOWN);
	r = {};
	EXPECT_EQ(cmd::enable_hca(h->cmdq, cmd::FunctionRef{7, true}, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, (uint32_t)emu::synd::ENABLE_BAD_FUNCTION);
	EXPECT_EQ(cmd::enable_hca(h->cmdq, ECPF, &r), OK);
	cmd::PagesQuery pq{};
	r = {};
	EXPECT_EQ(cmd::query_pages(h->cmdq, cmd::PagesKind::BOOT, cmd::FunctionRef{3, false}, &pq, &r),
		  E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, (uint32_t)emu::synd::QUERY_PAGES_BAD_FUNCTION);
	EXPECT_EQ(cmd::disable_hca(h->cmdq, ECPF), OK);
	h->cmdq.fini();
}

// A7: +N then -M for one function, both queued before service(): a GIVE of
// N and a TAKE of M (the old merged counter sent one GIVE of N - M).
TEST_F(FunctionsTest, PlusThenMinusGivesThenTakes)
{
	bring_up(emu::Profile::connectx7());
	uint64_t given = h->emu.pages_given_total(), taken = h->emu.pages_taken_total();
	ASSERT_TRUE(h->emu.request_pages(12));
	ASSERT_TRUE(h->emu.request_pages(-5));
	ASSERT_TRUE(wait_requests(2));
	EXPECT_EQ(events.queued_page_requests(), 2u);
	EXPECT_EQ(events.service(), OK);
	EXPECT_EQ(h->emu.pages_given_total() - given, 12u);
	EXPECT_EQ(h->emu.pages_taken_total() - taken, 5u);
	EXPECT_EQ(h->emu.pages_held(), 16u + 7u);
	EXPECT_EQ(dev.pages().live(), 16u + 7u);
	EXPECT_EQ(h->emu.pages_wanted(3), 0);
}

// A3/A7: the ECPF provides its external host PF's pages: a request naming
// function 0 / ec 0 goes to the host PF, one naming ec 1 to the ECPF.
TEST_F(FunctionsTest, EcpfServesTheHostPfAndItself)
{
	bring_up(emu::Profile::bluefield3());
	ASSERT_TRUE(h->emu.request_pages(10, 0, false));
	ASSERT_TRUE(h->emu.request_pages(3)); // the ECPF's own (ec 1)
	ASSERT_TRUE(wait_requests(2));
	EXPECT_EQ(events.service(), OK);
	EXPECT_EQ(h->emu.pages_held(0, false), 10u);
	EXPECT_EQ(dev.pages().live(HOST_PF), 10u);
	EXPECT_EQ(h->emu.pages_held(0, true), 19u);
	EXPECT_EQ(dev.pages().live(ECPF), 19u);
	ASSERT_TRUE(h->emu.request_pages(-4, 0, false));
	ASSERT_TRUE(wait_requests(3));
	EXPECT_EQ(events.service(), OK);
	EXPECT_EQ(h->emu.pages_held(0, false), 6u);
	EXPECT_EQ(dev.pages().live(HOST_PF), 6u);
	cmd::FunctionRef fns[4];
	EXPECT_EQ(dev.pages().functions(fns, 4), 2u);
	// Teardown takes the host PF's 6 back too (TearDown checks no leak).
	events.stop();
	dev.teardown();
	EXPECT_EQ(h->emu.pages_held(0, false), 0u);
	const StepRecord *rf = dev.trace().find(Step::RECLAIM_FUNCTION_PAGES);
	ASSERT_NE(rf, nullptr);
	EXPECT_EQ(rf->err, OK);
	EXPECT_EQ(rf->value & 0xffffffff, 6);
	EXPECT_EQ(rf->value >> 32, 0); // function 0, ec 0
}

// A7/B5: a request for VF 1 is given to VF 1; release_all frees them
// without a command; a VF's DISABLE_HCA asks its pages back.
TEST_F(FunctionsTest, VfRequestsGoToTheVf)
{
	bring_up(emu::Profile::connectx7());
	CmdResult r{};
	// A VF that is not enabled gets no page requests.
	EXPECT_FALSE(h->emu.request_pages(6, 1, false));
	ASSERT_EQ(cmd::enable_hca(dev.cmdq(), VF1, &r), OK);
	ASSERT_TRUE(h->emu.request_pages(6, 1, false));
	ASSERT_TRUE(wait_requests(1));
	EXPECT_EQ(events.service(), OK);
	EXPECT_EQ(h->emu.pages_held(1, false), 6u);
	EXPECT_EQ(dev.pages().live(VF1), 6u);
	EXPECT_EQ(h->emu.pages_held(), 16u);
	EXPECT_EQ(dev.pages().live(dev.own_function()), 16u);

	uint64_t taken = h->emu.pages_taken_total();
	ASSERT_TRUE(h->emu.release_all_pages(1, false));
	ASSERT_TRUE(wait_requests(2));
	EXPECT_EQ(events.service(), OK);
	EXPECT_EQ(dev.pages().live(VF1), 0u);
	EXPECT_EQ(h->emu.pages_taken_total(), taken); // no TAKE: firmware let them go
	EXPECT_EQ(events.stats().page_release_all, 1u);

	ASSERT_TRUE(h->emu.request_pages(3, 1, false));
	ASSERT_TRUE(wait_requests(3));
	EXPECT_EQ(events.service(), OK);
	EXPECT_EQ(dev.pages().live(VF1), 3u);
	ASSERT_EQ(cmd::disable_hca(dev.cmdq(), VF1, &r), OK);
	ASSERT_TRUE(wait_requests(4)); // firmware asks for the VF's pages back
	EXPECT_EQ(events.service(), OK);
	EXPECT_EQ(dev.pages().live(VF1), 0u);
	EXPECT_EQ(h->emu.pages_held(1, false), 0u);
}

// Teardown with a VF still holding pages: TAKE for that function too.
TEST_F(FunctionsTest, TeardownReclaimsVfPages)
{
	bring_up(emu::Profile::connectx7());
	ASSERT_EQ(cmd::enable_hca(dev.cmdq(), VF1), OK);
	ASSERT_TRUE(h->emu.request_pages(5, 1, false));
	ASSERT_TRUE(wait_requests(1));
	EXPECT_EQ(events.service(), OK);
	EXPECT_EQ(dev.pages().live(VF1), 5u);
	events.stop();
	dev.teardown();
	EXPECT_EQ(h->emu.pages_held(1, false), 0u);
	EXPECT_EQ(dev.stranded_pages(), 0u);
}

// The bounded queue: when full, a request merges into the newest queued one
// of its function going the same way; otherwise it is dropped and counted.
TEST_F(FunctionsTest, FullQueueMergesSameWayAndDropsTheRest)
{
	bring_up(emu::Profile::connectx7());
	ASSERT_EQ(cmd::enable_hca(dev.cmdq(), VF1), OK);
	const uint32_t n = Events::PAGE_QUEUE + 6;
	for (uint32_t i = 0; i < n; i++)
		ASSERT_TRUE(h->emu.request_pages(1));
	ASSERT_TRUE(h->emu.request_pages(2, 1, false)); // nothing of VF 1 queued
	ASSERT_TRUE(wait_requests(n + 1));
	EXPECT_EQ(events.queued_page_requests(), Events::PAGE_QUEUE);
	EventStats st = events.stats();
	EXPECT_EQ(st.page_requests_merged, 6u);
	EXPECT_EQ(st.page_requests_dropped, 1u);
	uint64_t given = h->emu.pages_given_total();
	EXPECT_EQ(events.service(), OK);
	EXPECT_EQ(h->emu.pages_given_total() - given, n); // none of the own lost
	EXPECT_EQ(dev.pages().live(VF1), 0u);
	EXPECT_EQ(events.queued_page_requests(), 0u);
}

// A8/B9: ESW_FUNCTIONS_CHANGED and QUERY_ESW_FUNCTIONS on an ECPF eswitch
// manager only.
TEST_F(FunctionsTest, EswOnlyOnAnEcpfEswitchManager)
{
	bring_up(emu::Profile::connectx7());
	EXPECT_FALSE(events.subscribed(0) & (1ull << ev::ESW_FUNCTIONS_CHANGED));
	EXPECT_FALSE(h->emu.set_num_vfs(2)); // strict emulator: no host behind a PF
	cmd::EswFunctions f{};
	CmdResult r{};
	EXPECT_EQ(cmd::query_esw_functions(dev.cmdq(), &f, nullptr, 0, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, (uint32_t)emu::synd::ESW_NOT_ECPF);
}

TEST_F(FunctionsTest, EswOnBlueField)
{
	bring_up(emu::Profile::bluefield3());
	EXPECT_TRUE(events.subscribed(0) & (1ull << ev::ESW_FUNCTIONS_CHANGED));
	cmd::EswFunctions f{};
	EXPECT_EQ(cmd::query_esw_functions(dev.cmdq(), &f), OK);
	EXPECT_TRUE(h->emu.set_num_vfs(3));
	EXPECT_EQ(cmd::query_esw_functions(dev.cmdq(), &f), OK);
	EXPECT_EQ(f.host_num_of_vfs, 3u);
}

TEST_F(FunctionsTest, LenientEmulatorServesEswToAPlainPf)
{
	emu::Profile p = emu::Profile::connectx7();
	p.make_lenient();
	bring_up(p);
	// The driver still follows Linux: no subscription on a plain PF.
	EXPECT_FALSE(events.subscribed(0) & (1ull << ev::ESW_FUNCTIONS_CHANGED));
	cmd::EswFunctions f{};
	EXPECT_EQ(cmd::query_esw_functions(dev.cmdq(), &f), OK);
	EXPECT_TRUE(h->emu.set_num_vfs(2));
}
