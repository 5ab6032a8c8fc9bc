// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm_core_shutdown (the PCI shutdown callback's core, Linux's
// mlx5_try_fast_unload) against the in-process emulator: the fast teardown
// leaves no page with the device and sends nothing after it; without the
// capability the normal teardown reclaims every page; dead firmware gets no
// command; a fast teardown that times out sends nothing more (bounded).
#include "support/harness.h"
#include "support/objects.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "cxprm/capi.h"
#include "cxprm/device.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/opcodes.h"

using namespace cxprm;

namespace {


emu::Profile without_fast_teardown()
{
	emu::Profile p = test::small_profile();
	using C = prm::cmd_hca_cap;
	prm::set<C::fast_teardown>(prm::Ref<C>(p.cap(prm::cap::GENERAL).max.data()), 0);
	prm::set<C::fast_teardown>(prm::Ref<C>(p.cap(prm::cap::GENERAL).cur.data()), 0);
	return p;
}

struct Rig {
	test::Harness h;
	cxprm_core *core = nullptr;

	// cmd_ms: per command, bring-up's too (generous unless a test needs
	// commands to time out).
	explicit Rig(emu::Profile p = test::small_profile(), uint64_t cmd_ms = 20000) : h(std::move(p))
	{
		h.emu.start();
		EXPECT_EQ(cxprm_core_create(h.host(), &core), 0);
		cxprm_core_config cfg = test::quick_capi_config(cmd_ms, 300);
		EXPECT_EQ(cxprm_core_bringup(core, &cfg), 0);
		cxprm_core_events_config ec{};
		EXPECT_EQ(cxprm_core_events_start(core, &ec), 0);
	}
	~Rig()
	{
		cxprm_core_destroy(core);
		h.emu.stop();
		EXPECT_EQ(h.uh.dma_live(), 0u);
		EXPECT_EQ(h.uh.mem_live(), 0u);
	}
	std::string health_text()
	{
		std::string s(16384, '\0');
		s.resize(cxprm_core_format(core, CXPRM_TEXT_HEALTH, s.data(), s.size(), nullptr));
		return s;
	}
};

TEST(Shutdown, FastTeardownReleasesEveryPageAndSendsNothingMore)
{
	Rig r;
	uint64_t given = r.h.emu.pages_held();
	ASSERT_GT(given, 0u);
	cxprm_core_teardown_report rep;
	EXPECT_EQ(cxprm_core_shutdown(r.core, &rep), 0);
	// The emulator's view: the function is gone, every page released (its
	// thread sees the nic_interface write on its next step).
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	while (r.h.emu.counters().fast_teardowns == 0 && std::chrono::steady_clock::now() < end)
		std::this_thread::sleep_for(std::chrono::milliseconds(5));
	emu::Counters c = r.h.emu.counters();
	EXPECT_EQ(c.fast_teardowns, 1u);
	EXPECT_EQ(c.pages_released_fast_teardown, given);
	EXPECT_EQ(r.h.emu.pages_held(), 0u);
	EXPECT_EQ(r.h.emu.hca_state(), emu::HcaState::DISABLED);
	// The host's: pages stranded until bus mastering is off, no error.
	EXPECT_EQ(rep.err, 0) << rep.failed_step;
	EXPECT_EQ(rep.pages_stranded, given);
	EXPECT_EQ(rep.pages_reclaimed, 0u);
	std::string t = r.health_text();
	EXPECT_NE(t.find("TEARDOWN_FAST"), std::string::npos) << t;
	EXPECT_NE(t.find("WAIT_NIC_DISABLED"), std::string::npos) << t;
	// Nothing is sent after the fast teardown.
	uint64_t cmds = r.h.emu.commands_processed();
	std::vector<uint8_t> image(CXPRM_CORE_CAP_BYTES);
	cxprm_core_result res;
	EXPECT_NE(cxprm_core_query_caps(r.core, 0, 0, image.data(), &res), 0);
	EXPECT_EQ(cxprm_core_release_stranded(r.core), given);
	EXPECT_EQ(r.h.emu.commands_processed(), cmds);
	EXPECT_EQ(c.pages_leaked, 0u);
}

// Linux shutdown() runs mlx5_try_fast_unload before anything else and
// leaves objects and EQs to firmware.  The driver's stop path after it
// (a file's objects swept, the events stopped, the teardown) sends
// nothing, so no DESTROY_* reaches the device, and their memory waits
// for bus mastering off like the pages.
TEST(Shutdown, FastTeardownComesBeforeObjectsAndTheEq)
{
	Rig r;
	namespace op = prm::op;
	cxprm_core_objs *objs = nullptr;
	ASSERT_EQ(cxprm_core_objs_create(r.core, &objs), 0);
	uint32_t pd = test::obj_make(r.core, objs, test::obj_of(CXPRM_OBJ_PD));
	uint32_t cqn = test::obj_make(r.core, objs, test::obj_cq());
	ASSERT_NE(pd, 0u);
	ASSERT_NE(cqn, 0u);
	uint64_t given = r.h.emu.pages_held();

	EXPECT_EQ(cxprm_core_fast_unload(r.core), 0);
	EXPECT_EQ(r.h.emu.opcode_count(op::TEARDOWN_HCA), 1u);
	uint64_t cmds = r.h.emu.commands_processed();
	// What the shim's stop path does next: nothing of it reaches firmware.
	EXPECT_EQ(cxprm_core_objs_destroy(r.core, objs, nullptr), 2u);
	cxprm_core_events_stop(r.core);
	cxprm_core_teardown_report rep;
	cxprm_core_teardown(r.core, &rep);
	EXPECT_EQ(r.h.emu.commands_processed(), cmds);
	for (uint16_t o : {op::DESTROY_CQ, op::DEALLOC_PD, op::DESTROY_EQ, op::DEALLOC_UAR, op::DISABLE_HCA})
		EXPECT_EQ(r.h.emu.opcode_count(o), 0u) << prm::opcode_name(o);
	EXPECT_EQ(rep.pages_stranded, given);
	// Bus mastering off: the pages, the CQ's and PD's queue memory and the
	// EQ ring are freed (the Rig's destructor checks nothing is left).
	EXPECT_EQ(cxprm_core_release_stranded(r.core), given);
	EXPECT_EQ(r.h.uh.dma_live(), 0u);
}

TEST(Shutdown, WithoutTheCapabilityTearsDownAndReclaims)
{
	Rig r(without_fast_teardown());
	uint64_t given = r.h.emu.pages_held();
	cxprm_core_teardown_report rep;
	EXPECT_EQ(cxprm_core_shutdown(r.core, &rep), -95); // EOPNOTSUPP: the normal teardown ran
	EXPECT_EQ(rep.err, 0) << rep.failed_step;
	EXPECT_EQ(rep.pages_reclaimed, given);
	EXPECT_EQ(rep.pages_stranded, 0u);
	EXPECT_EQ(r.h.emu.pages_held(), 0u);
	EXPECT_EQ(r.h.emu.hca_state(), emu::HcaState::DISABLED);
	EXPECT_EQ(r.h.emu.counters().fast_teardowns, 0u);
	EXPECT_EQ(r.health_text().find("TEARDOWN_FAST"), std::string::npos);
}

TEST(Shutdown, DeadFirmwareGetsNoCommand)
{
	Rig r;
	uint64_t given = r.h.emu.pages_held();
	r.h.emu.faults().crash = true;
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	while (!r.h.emu.crashed() && std::chrono::steady_clock::now() < end)
		std::this_thread::sleep_for(std::chrono::milliseconds(1));
	// The health poller (the shim's) sees it first.
	EXPECT_EQ(cxprm_core_health_poll(r.core), -112);
	uint64_t cmds = r.h.emu.commands_processed();
	cxprm_core_teardown_report rep;
	EXPECT_EQ(cxprm_core_shutdown(r.core, &rep), -112); // EHOSTDOWN
	EXPECT_EQ(r.h.emu.commands_processed(), cmds);
	EXPECT_EQ(rep.pages_stranded, given);
	EXPECT_EQ(cxprm_core_release_stranded(r.core), given);
}

// A fast teardown whose command times out: nothing more is sent, so the
// whole shutdown costs about one command timeout.
TEST(Shutdown, TimedOutFastTeardownIsBounded)
{
	Rig r(test::small_profile(), 300);
	r.h.emu.faults().never_complete = true;
	auto t0 = std::chrono::steady_clock::now();
	cxprm_core_teardown_report rep;
	int err = cxprm_core_shutdown(r.core, &rep);
	auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
			  .count();
	EXPECT_EQ(err, -110); // ETIMEDOUT
	// TEARDOWN_HCA's one command timeout (300 ms); the queue is closed
	// then, so events stop and the teardown send nothing.  The bound only
	// says "not another timeout per command" with room for a loaded host.
	EXPECT_LT(ms, 20 * 300);
	EXPECT_EQ(r.h.emu.opcode_count(prm::op::DESTROY_EQ), 0u);
	EXPECT_GT(rep.pages_stranded, 0u);
	r.h.emu.faults().never_complete = false;
	cxprm_core_release_stranded(r.core);
}

} // namespace
