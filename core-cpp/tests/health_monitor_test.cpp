// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The Health object alone (health_monitor.h), over a fake init segment: the
// rule of the one failed word (the first failure sticks, only E_NODEV
// replaces E_HOSTDOWN), the host told exactly once per change and by whom,
// the queue's wake only while armed, start() resetting everything, and the
// poller saying each warning once, when it is new.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "cxprm/errors.h"
#include "cxprm/health_monitor.h"
#include "cxprm/prm/transport.h"

using namespace cxprm;

namespace {

using H = prm::health_buffer;

struct Fake {
	std::map<u32, u32> regs; // init segment dwords by byte offset (0 when absent)
	std::vector<cxprm_health_change> changes;
	int wakes = 0;
	int logs = 0;
	cxprm_host_ops ops{};
	cxprm_host host{};

	Fake()
	{
		ops.ioread32be = [](void *ctx, u32 off) -> u32 {
			auto &r = static_cast<Fake *>(ctx)->regs;
			auto it = r.find(off);
			return it == r.end() ? 0 : it->second;
		};
		ops.log = [](void *ctx, int, const char *) { static_cast<Fake *>(ctx)->logs++; };
		ops.health_changed = [](void *ctx, const cxprm_health_change *c) {
			static_cast<Fake *>(ctx)->changes.push_back(*c);
		};
		host.ops = &ops;
		host.ctx = this;
	}
	static void wake(void *ctx) { static_cast<Fake *>(ctx)->wakes++; }

	void counter(u32 v) { regs[prm::iseg::HEALTH_COUNTER] = v; }
	void syndrome(u8 synd, bool rfr)
	{
		regs[prm::iseg::HEALTH + prm::dword_byte_offset<H::synd>()] = prm::to_dword<H::synd>(synd);
		regs[prm::iseg::HEALTH + prm::dword_byte_offset<H::rfr>()] = prm::to_dword<H::rfr>(rfr ? 1 : 0);
	}
	void gone()
	{
		regs.clear();
		for (u32 off = 0; off < 0x1100; off += 4)
			regs[off] = 0xffffffffu;
	}
};

// Every test's Health h, started over the Fake f (a stall: 3 polls of an
// unchanged counter).
struct HealthMonitor : ::testing::Test {
	Fake f;
	Health h;
	void SetUp() override { h.start(&f.host, 3, &Fake::wake, &f); }
};

TEST_F(HealthMonitor, StartsHealthy)
{
	EXPECT_EQ(h.failed(), OK);
	EXPECT_EQ(h.state(), HealthState::HEALTHY);
	EXPECT_EQ(h.status().found_by, (u8)HealthSource::NONE);
	EXPECT_TRUE(f.changes.empty());
}

TEST_F(HealthMonitor, FirstFailureSticks)
{
	EXPECT_FALSE(h.mark_failed(E_IO, HealthSource::COMMAND)); // not a failure
	EXPECT_EQ(h.failed(), OK);
	EXPECT_TRUE(h.mark_failed(E_HOSTDOWN, HealthSource::COMMAND));
	EXPECT_FALSE(h.mark_failed(E_HOSTDOWN, HealthSource::POLLER));
	EXPECT_EQ(h.failed(), E_HOSTDOWN);
	EXPECT_EQ(h.state(), HealthState::FAILED);
	EXPECT_EQ(h.status().found_by, (u8)HealthSource::COMMAND);
	ASSERT_EQ(f.changes.size(), 1u);
	EXPECT_EQ(f.changes[0].err, E_HOSTDOWN);
	EXPECT_EQ(f.changes[0].source, CXPRM_HEALTH_BY_COMMAND);
	EXPECT_EQ(f.wakes, 1);
}

TEST_F(HealthMonitor, GoneReplacesDeadFirmwareOnly)
{
	ASSERT_TRUE(h.mark_failed(E_HOSTDOWN, HealthSource::COMMAND));
	EXPECT_TRUE(h.mark_failed(E_NODEV, HealthSource::POLLER));
	EXPECT_EQ(h.failed(), E_NODEV);
	EXPECT_FALSE(h.mark_failed(E_HOSTDOWN, HealthSource::COMMAND)); // gone stays gone
	EXPECT_FALSE(h.mark_failed(E_NODEV, HealthSource::COMMAND));
	EXPECT_EQ(h.failed(), E_NODEV);
	ASSERT_EQ(f.changes.size(), 2u); // once per change
	EXPECT_EQ(f.changes[1].err, E_NODEV);
	EXPECT_EQ(f.changes[1].source, CXPRM_HEALTH_BY_POLLER);
	EXPECT_EQ(h.status().found_by, (u8)HealthSource::POLLER);
	EXPECT_EQ(h.status().changes, 2u);
	EXPECT_EQ(f.wakes, 2);

	Health g;
	g.start(&f.host, 3);
	ASSERT_TRUE(g.mark_failed(E_NODEV, HealthSource::COMMAND));
	EXPECT_FALSE(g.mark_failed(E_HOSTDOWN, HealthSource::POLLER));
	EXPECT_EQ(g.failed(), E_NODEV);
}

TEST_F(HealthMonitor, StartResetsEverything)
{
	f.counter(7);
	for (int i = 0; i < 5; i++)
		h.poll();
	h.note_refused();
	ASSERT_TRUE(h.mark_failed(E_HOSTDOWN, HealthSource::HOST));
	ASSERT_NE(h.status().polls, 0u);

	h.start(&f.host, 3, &Fake::wake, &f);
	HealthStatus s = h.status();
	EXPECT_EQ(h.failed(), OK);
	EXPECT_EQ(h.state(), HealthState::HEALTHY);
	EXPECT_EQ(s.polls, 0u);
	EXPECT_EQ(s.refused, 0u);
	EXPECT_EQ(s.stall_reports, 0u);
	EXPECT_EQ(s.stalled_polls, 0u);
	EXPECT_EQ(s.sensor, 0u);
	EXPECT_EQ(s.found_by, (u8)HealthSource::NONE);
	EXPECT_EQ(s.changes, 0u);
	// Healthy again: a new failure is news.
	EXPECT_TRUE(h.mark_failed(E_HOSTDOWN, HealthSource::COMMAND));
}

TEST_F(HealthMonitor, StoppedPollsNothingButKeepsTheWord)
{
	Health never;
	EXPECT_EQ(never.poll(), OK); // never started: reads nothing
	h.stop();
	f.syndrome(0x1, true);
	u32 found = ~0u;
	EXPECT_EQ(h.poll(&found), OK);
	EXPECT_EQ(found, 0u);
	EXPECT_EQ(h.status().polls, 0u);
	// Marked while stopped: no wake (no queue), the host still hears once.
	EXPECT_TRUE(h.mark_failed(E_HOSTDOWN, HealthSource::HOST));
	EXPECT_EQ(f.wakes, 0);
	EXPECT_EQ(f.changes.size(), 1u);
	EXPECT_EQ(h.failed(), E_HOSTDOWN);
}

TEST_F(HealthMonitor, PollSaysEachWarningOnceWhenNew)
{
	u32 found = 0;
	f.counter(1);
	EXPECT_EQ(h.poll(&found), OK);
	EXPECT_EQ(found, 0u);
	// Unchanged counter: the third miss is the warning, then silence.
	std::vector<u32> seen;
	for (int i = 0; i < 6; i++) {
		EXPECT_EQ(h.poll(&found), OK);
		seen.push_back(found);
	}
	EXPECT_EQ(seen, (std::vector<u32>{0, 0, HEALTH_FOUND_STALL, 0, 0, 0}));
	EXPECT_EQ(h.status().stall_reports, 1u);
	// It moves: then stalls again, warned again.
	f.counter(2);
	h.poll(&found);
	EXPECT_EQ(found, 0u);
	for (int i = 0; i < 3; i++)
		h.poll(&found);
	EXPECT_EQ(found, (u32)HEALTH_FOUND_STALL);
	EXPECT_EQ(h.status().stall_reports, 2u);

	// A syndrome without rfr: said once, while it stays.
	f.counter(3);
	f.syndrome(0x10, false);
	EXPECT_EQ(h.poll(&found), OK);
	EXPECT_EQ(found, (u32)HEALTH_FOUND_SYNDROME);
	f.counter(4);
	EXPECT_EQ(h.poll(&found), OK);
	EXPECT_EQ(found, 0u);
	EXPECT_EQ(h.status().synd_reports, 1u);
	EXPECT_TRUE(f.changes.empty());
	EXPECT_EQ(h.failed(), OK);
}

TEST_F(HealthMonitor, PollFailsOnceThenGoneReplacesIt)
{
	f.counter(9);
	f.syndrome(0x1, true);
	u32 found = 0;
	EXPECT_EQ(h.poll(&found), E_HOSTDOWN);
	EXPECT_EQ(found, (u32)HEALTH_FOUND_FAILED);
	EXPECT_EQ(h.poll(&found), E_HOSTDOWN);
	EXPECT_EQ(found, 0u); // no news
	ASSERT_EQ(f.changes.size(), 1u);
	EXPECT_EQ(f.changes[0].source, CXPRM_HEALTH_BY_POLLER);
	EXPECT_EQ(f.changes[0].sensor, (u32)HealthSensor::FW_SYND_RFR);
	EXPECT_EQ(f.changes[0].syndrome, 0x1u);
	EXPECT_EQ(f.changes[0].rfr, 1u);
	EXPECT_EQ(f.changes[0].counter, 9u);
	EXPECT_EQ(h.status().sensor, (u8)HealthSensor::FW_SYND_RFR);

	f.gone();
	EXPECT_EQ(h.poll(&found), E_NODEV);
	EXPECT_EQ(found, (u32)HEALTH_FOUND_FAILED);
	ASSERT_EQ(f.changes.size(), 2u);
	EXPECT_EQ(f.changes[1].err, E_NODEV);
	EXPECT_EQ(f.changes[1].sensor, (u32)HealthSensor::PCI_COMM_ERR);
	EXPECT_EQ(f.changes[1].syndrome, 0u); // all ones: nothing reported
	EXPECT_EQ(h.status().sensor, (u8)HealthSensor::PCI_COMM_ERR);
	EXPECT_EQ(f.wakes, 2);
}

TEST_F(HealthMonitor, CommandCheckMarksByCommand)
{
	EXPECT_EQ(h.check_fatal(), OK);
	// nic_interface SW_RESET (7) in cmdq_addr_l_sz bits 10:8
	f.regs[prm::iseg::CMDQ_ADDR_L_SZ] = 7u << prm::iseg::NIC_STATE_SHIFT;
	EXPECT_EQ(h.check_fatal(), E_HOSTDOWN);
	EXPECT_EQ(h.check_fatal(), E_HOSTDOWN);
	ASSERT_EQ(f.changes.size(), 1u);
	EXPECT_EQ(f.changes[0].source, CXPRM_HEALTH_BY_COMMAND);
	EXPECT_EQ(f.changes[0].sensor, (u32)HealthSensor::NIC_SW_RESET);
	EXPECT_EQ(f.changes[0].nic_interface, 7u);
	EXPECT_EQ(h.status().found_by, (u8)HealthSource::COMMAND);
}

} // namespace
