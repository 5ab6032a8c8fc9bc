// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the bring-up tells firmware about the host, as Linux's mlx5_core
// does: ACCESS_REG HOST_ENDIANNESS on a PF before SET_HCA_CAP (none on a
// VF), INIT_HCA with a fresh random sw_owner_id per load, uar_4k and
// log_uar_page_sz from the host's page size, and the UAR doorbell address
// scaled by it.  Checked on the wire, through the emulator's trace.
#include "support/harness.h"

#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "cxprm/device.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/status.h"

using namespace cxprm;
namespace op = cxprm::prm::op;

namespace {

constexpr uint64_t MS = 1000 * 1000;

using test::quick_config;

struct Rig {
	test::Harness h;
	Device dev;
	std::mutex mu;
	std::vector<emu::TraceRecord> trace;
	explicit Rig(emu::Profile p = test::small_profile()) : h(std::move(p))
	{
		h.emu.set_trace([this](const emu::TraceRecord &t) {
			std::lock_guard<std::mutex> g(mu);
			trace.push_back(t);
		});
	}
	int up(const BringupConfig &cfg = quick_config())
	{
		h.emu.start();
		return dev.bringup(h.host(), cfg);
	}
	// Index of the first traced command with this opcode, or -1.
	int first(uint16_t opcode)
	{
		std::lock_guard<std::mutex> g(mu);
		for (size_t i = 0; i < trace.size(); i++)
			if (trace[i].opcode == opcode)
				return (int)i;
		return -1;
	}
};

bool nonzero(const std::array<uint32_t, 4> &a) { return a[0] || a[1] || a[2] || a[3]; }

} // namespace

TEST(BringupHostParams, HostEndiannessBeforeSetHcaCapOnAPf)
{
	Rig rig;
	ASSERT_EQ(rig.up(), OK);
	int ar = rig.first(op::ACCESS_REG), set = rig.first(op::SET_HCA_CAP), boot = rig.first(op::MANAGE_PAGES);
	ASSERT_GE(ar, 0) << "no ACCESS_REG: the old bring-up skipped HOST_ENDIANNESS";
	EXPECT_LT(boot, ar) << "after the boot pages (Linux: function_enable, then set_hca_ctrl)";
	EXPECT_LT(ar, set);
	EXPECT_LT(ar, rig.first(op::QUERY_HCA_CAP));
	EXPECT_EQ(rig.trace[ar].op_mod, 0u) << "a write";
	EXPECT_EQ(rig.trace[ar].inlen, 32u);
	EXPECT_EQ(rig.trace[ar].outlen, 32u);
	EXPECT_EQ(rig.trace[ar].status, cmd_status::OK);
	EXPECT_EQ(rig.h.emu.counters().host_endianness_writes, 1u);
	const StepRecord *s = rig.dev.trace().find(Step::SET_HOST_ENDIANNESS);
	ASSERT_NE(s, nullptr);
	EXPECT_EQ(s->err, OK);
	EXPECT_EQ(s->value, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	rig.dev.teardown();
}

TEST(BringupHostParams, NoHostEndiannessOnAVf)
{
	Rig rig;
	BringupConfig cfg = quick_config();
	cfg.is_vf = true;
	ASSERT_EQ(rig.up(cfg), OK);
	EXPECT_EQ(rig.first(op::ACCESS_REG), -1);
	EXPECT_EQ(rig.dev.trace().find(Step::SET_HOST_ENDIANNESS), nullptr);
	rig.dev.teardown();
}

// A VF as a VM sees it (the emulator's cx7vf profile, PCI id 0x101e):
// its firmware refuses HOST_ENDIANNESS, so a driver that takes the VF
// for a PF (the old pdev->is_virtfn test, 0 in a VM) fails bring-up
// there; told it is a VF (the shim: by the id table) it comes up.
TEST(BringupHostParams, AVfComesUpOnlyAsAVf)
{
	{
		Rig rig(test::small_profile(emu::Profile::connectx7_vf()));
		EXPECT_EQ(rig.up(), E_REMOTEIO); // BAD_PARAM_ERR, REG_VF_HOST_ENDIANNESS
		const StepRecord *s = rig.dev.trace().find(Step::SET_HOST_ENDIANNESS);
		ASSERT_NE(s, nullptr);
		EXPECT_NE(s->err, OK);
		EXPECT_EQ(rig.h.emu.counters().host_endianness_writes, 0u);
	}
	Rig rig(test::small_profile(emu::Profile::connectx7_vf()));
	BringupConfig cfg = quick_config();
	cfg.is_vf = true;
	ASSERT_EQ(rig.up(cfg), OK);
	EXPECT_EQ(rig.first(op::ACCESS_REG), -1);
	EXPECT_FALSE(rig.dev.caps_cur().eswitch_manager);
	rig.dev.teardown();
	EXPECT_EQ(rig.h.emu.pages_held(), 0u);
}

TEST(BringupHostParams, SwOwnerIdRandomPerLoad)
{
	Rig rig;
	ASSERT_EQ(rig.up(), OK);
	std::array<uint32_t, 4> a = rig.h.emu.last_sw_owner_id();
	EXPECT_TRUE(nonzero(a)) << "the old bring-up sent all zeros";
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(rig.dev.sw_owner_id()[i], a[i]);
	rig.dev.teardown();
	ASSERT_EQ(rig.dev.bringup(rig.h.host(), quick_config()), OK);
	std::array<uint32_t, 4> b = rig.h.emu.last_sw_owner_id();
	EXPECT_TRUE(nonzero(b));
	EXPECT_NE(a, b) << "a second load draws a new one";
	rig.dev.teardown();
}

TEST(BringupHostParams, SwOwnerIdNeverZeroEvenFromABadSource)
{
	Rig rig;
	rig.h.uh.set_random_byte(0);
	ASSERT_EQ(rig.up(), OK);
	EXPECT_TRUE(nonzero(rig.h.emu.last_sw_owner_id()));
	rig.dev.teardown();
}

TEST(BringupHostParams, SwOwnerIdGivenByTheConfigIsSent)
{
	Rig rig;
	BringupConfig cfg = quick_config();
	cfg.sw_owner_id[0] = 0x11223344;
	cfg.sw_owner_id[3] = 0x55;
	ASSERT_EQ(rig.up(cfg), OK);
	EXPECT_EQ(rig.h.emu.last_sw_owner_id(), (std::array<uint32_t, 4>{0x11223344, 0, 0, 0x55}));
	rig.dev.teardown();
}

// handle_hca_cap: uar_4k only when PAGE_SIZE > 4 KiB, log_uar_page_sz =
// PAGE_SHIFT - 12.  The old bring-up set uar_4k whenever MAX allowed it.
TEST(BringupHostParams, UarPageSettingsFollowTheHostPage)
{
	Rig rig;
	rig.h.uh.set_page_shift(12);
	ASSERT_EQ(rig.up(), OK);
	EXPECT_EQ(rig.dev.caps_max().uar_4k, 1u);
	EXPECT_EQ(rig.dev.caps_cur().uar_4k, 0u);
	EXPECT_EQ(rig.dev.caps_cur().log_uar_page_sz, 0u);
	EXPECT_EQ(rig.dev.uar_offset(16), 16u * 4096);
	rig.dev.teardown();
}

TEST(BringupHostParams, SixtyFourKiBHost)
{
	using C = prm::cmd_hca_cap;
	// Linux's handle_hca_cap on a 64 KiB host: uar_4k (MAX has it) and
	// log_uar_page_sz 4, which firmware takes (stock MAX 4,
	// prm-notes.rst "UAR page size"); UARs stay 4 KiB apart.
	{
		Rig rig;
		rig.h.uh.set_page_shift(16);
		ASSERT_EQ(rig.up(), OK);
		EXPECT_EQ(rig.dev.caps_cur().uar_4k, 1u);
		EXPECT_EQ(rig.dev.caps_cur().log_uar_page_sz, 4u);
		EXPECT_EQ(rig.dev.uar_offset(16), 16u * 4096);
		rig.dev.teardown();
		EXPECT_EQ(rig.h.emu.pages_held(), 0u);
	}
	// Without uar_4k in MAX (ConnectX-4): one UAR per 64 KiB host page.
	{
		emu::Profile p = test::small_profile();
		prm::set<C::log_uar_page_sz>(prm::Ref<C>(p.cap(prm::cap::GENERAL).max.data()), 4);
		prm::set<C::uar_4k>(prm::Ref<C>(p.cap(prm::cap::GENERAL).max.data()), 0);
		Rig rig(p);
		rig.h.uh.set_page_shift(16);
		// cxprm asks for UARs of the host page, as Linux does; the
		// emulated BAR has 4 KiB UAR pages only and refuses
		// (SET_CAP_UAR_PAGE_NOT_MODELLED, an emulator limit).
		EXPECT_EQ(rig.up(), E_REMOTEIO);
		const StepRecord *s = rig.dev.trace().find(Step::SET_HCA_CAP);
		ASSERT_NE(s, nullptr);
		EXPECT_EQ(s->err, E_REMOTEIO);
		EXPECT_EQ(rig.h.emu.pages_held(), 0u);
	}
}
