// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The firmware latency model (Profile::latency, latency.h): a command is
// answered when its service time on one of K engines ends, on the
// emulator's clock (a test clock here: nothing sleeps).
#include "test_driver.h"

namespace cxprm::emu::test {
namespace {

constexpr uint64_t US = 1000;

struct LatencyRig {
	explicit LatencyRig(uint32_t engines, std::map<uint16_t, uint32_t> per_opcode_us)
		: r(quiet_with([&](Profile &p) {
			    p.cmdq_init_delay_ms = 0; // the test clock stands still while the queue is taken
			    p.latency.enabled = true;
			    p.latency.engines = engines;
			    p.latency.default_us = 100;
			    p.latency.per_opcode_us = per_opcode_us;
		    }),
		    Stage::RESET)
	{
		r.emu.set_clock([this] {
			if (on_read)
				on_read();
			return now;
		});
		r.drv.init_queue();
	}
	Prepared post(unsigned slot, uint16_t opcode)
	{
		return r.drv.prepare(slot, make_in<prm::query_pages_in>(opcode).b, 16);
	}
	// Steps once at time t (ns since the clock started).
	void step_at(uint64_t t)
	{
		now = t;
		r.emu.poll_once();
	}
	uint64_t now = 0;
	std::function<void()> on_read; // at each clock read, before it
	Rig r;
};

TEST(LatencyModel, AnswersWhenTheServiceEndsOnOneOfKEngines)
{
	LatencyRig l(2, {{op::QUERY_PAGES, 100}});
	Prepared a = l.post(0, op::QUERY_PAGES), b = l.post(1, op::QUERY_PAGES), c = l.post(2, op::QUERY_PAGES);
	l.r.drv.ring_mask(0b111);
	l.step_at(0);
	EXPECT_TRUE(l.r.drv.owned_by_hw(a) && l.r.drv.owned_by_hw(b) && l.r.drv.owned_by_hw(c));
	l.step_at(100 * US - 1);
	EXPECT_TRUE(l.r.drv.owned_by_hw(a) && l.r.drv.owned_by_hw(b));
	// Two engines: the first two at L, the third waits for one of them.
	l.step_at(100 * US);
	EXPECT_FALSE(l.r.drv.owned_by_hw(a));
	EXPECT_FALSE(l.r.drv.owned_by_hw(b));
	EXPECT_TRUE(l.r.drv.owned_by_hw(c));
	l.step_at(200 * US - 1);
	EXPECT_TRUE(l.r.drv.owned_by_hw(c));
	l.step_at(200 * US);
	EXPECT_FALSE(l.r.drv.owned_by_hw(c));
	for (const Prepared *p : {&a, &b, &c}) {
		Answer ans = l.r.drv.collect(*p);
		EXPECT_EQ(ans.delivery, 0);
		EXPECT_EQ(ans.status, st::BAD_SYS_STATE_ERR); // DISABLED: answered as without the model
	}
	EXPECT_EQ(l.r.emu.commands_processed(), 3u);
}

// Counters::latency splits a command's time: engine wait, the emulator's
// lateness after the service ended, and the slot's idle time between an
// answer and its next doorbell (the driver's turnaround).
TEST(LatencyModel, CountsWhereEachCommandsTimeWent)
{
	LatencyRig l(1, {{op::QUERY_PAGES, 100}});
	Prepared a = l.post(0, op::QUERY_PAGES);
	l.r.drv.ring_mask(0b1);
	l.step_at(0);
	l.step_at(130 * US); // due at 100: 30 late
	ASSERT_FALSE(l.r.drv.owned_by_hw(a));
	l.r.drv.collect(a);
	Prepared a2 = l.post(0, op::QUERY_PAGES), b = l.post(1, op::QUERY_PAGES);
	l.r.drv.ring_mask(0b11);
	l.step_at(150 * US); // slot 0 idle 20; slot 1 waits for the engine until 250
	l.step_at(250 * US);
	EXPECT_FALSE(l.r.drv.owned_by_hw(a2));
	EXPECT_TRUE(l.r.drv.owned_by_hw(b));
	l.step_at(360 * US); // due at 350: 10 late
	EXPECT_FALSE(l.r.drv.owned_by_hw(b));
	LatencyCounters c = l.r.emu.counters().latency;
	EXPECT_EQ(c.served, 3u);
	EXPECT_EQ(c.late_ns, 40 * US);
	EXPECT_EQ(c.engine_wait_ns, 100 * US);
	EXPECT_EQ(c.slot_reuses, 1u);
	EXPECT_EQ(c.slot_idle_ns, 20 * US);
}

TEST(LatencyModel, PerOpcodeTimesAndTheDefault)
{
	LatencyRig l(4, {{op::QUERY_PAGES, 10}});
	Prepared fast = l.post(0, op::QUERY_PAGES), slow = l.post(1, op::NOP);
	l.r.drv.ring_mask(0b11);
	l.step_at(0);
	l.step_at(10 * US);
	EXPECT_FALSE(l.r.drv.owned_by_hw(fast));
	EXPECT_TRUE(l.r.drv.owned_by_hw(slow));
	l.step_at(100 * US); // NOP: the default
	EXPECT_FALSE(l.r.drv.owned_by_hw(slow));
}

// A slot in service is owned on purpose: another slot's doorbell must not
// make it a lost-doorbell candidate (it would run twice).
TEST(LatencyModel, ASlotInServiceIsNotALostDoorbell)
{
	LatencyRig l(4, {{op::QUERY_PAGES, 5000}, {op::NOP, 10}});
	Prepared longer = l.post(0, op::QUERY_PAGES);
	l.r.drv.ring(0);
	l.step_at(0);
	Prepared quick = l.post(1, op::NOP);
	l.r.drv.ring(1);
	l.step_at(10 * US); // taken now: due at 20 us, on another engine
	EXPECT_TRUE(l.r.drv.owned_by_hw(quick));
	l.step_at(20 * US);
	EXPECT_FALSE(l.r.drv.owned_by_hw(quick));
	l.step_at(2000 * US); // past Profile::lost_doorbell_us
	EXPECT_TRUE(l.r.drv.owned_by_hw(longer));
	l.step_at(5000 * US);
	EXPECT_FALSE(l.r.drv.owned_by_hw(longer));
	EXPECT_EQ(l.r.emu.counters().lost_doorbells, 0u);
	EXPECT_EQ(l.r.emu.commands_processed(), 2u);
}

// A doorbell rung while the emulator answers other commands is taken
// between two answers, at that time: firmware's engines see a doorbell
// when it is rung, not when the emulator's thread is done answering.
TEST(LatencyModel, ADoorbellRungWhileAnsweringIsTakenThen)
{
	LatencyRig l(1, {{op::QUERY_PAGES, 100}});
	Prepared a = l.post(0, op::QUERY_PAGES), b = l.post(1, op::QUERY_PAGES);
	l.r.drv.ring(0);
	l.step_at(0);
	// Answering a takes 10 us, and b is rung meanwhile: the next clock
	// read after a's answer rings b and stands 10 us later.
	bool rung = false;
	l.on_read = [&] {
		if (!rung && !l.r.drv.owned_by_hw(a)) {
			rung = true;
			l.now += 10 * US;
			l.r.drv.ring(1);
		}
	};
	l.step_at(100 * US);
	ASSERT_TRUE(rung);
	EXPECT_FALSE(l.r.drv.owned_by_hw(a));
	// b started at 110 us, as the engine was free: due at 210 us, not
	// 100 us after the next step (150).
	l.step_at(150 * US);
	l.step_at(210 * US - 1);
	EXPECT_TRUE(l.r.drv.owned_by_hw(b));
	l.step_at(210 * US);
	EXPECT_FALSE(l.r.drv.owned_by_hw(b));
	EXPECT_EQ(l.r.emu.counters().latency.engine_wait_ns, 0u);
}

TEST(LatencyModel, OffByDefaultAndParsesItsTextForm)
{
	EXPECT_FALSE(Profile::connectx7().latency.enabled);
	EXPECT_FALSE(Profile::connectx5().latency.enabled);
	EXPECT_EQ(Profile::connectx7().latency.engines, 4u);
	LatencyModel m;
	EXPECT_TRUE(m.set_from_text("75"));
	EXPECT_EQ(m.service_ns(op::NOP), 75 * US);
	EXPECT_TRUE(m.set_from_text("QUERY_PAGES=20"));
	EXPECT_TRUE(m.set_from_text("0x100=30"));
	EXPECT_EQ(m.service_ns(op::QUERY_PAGES), 20 * US);
	EXPECT_EQ(m.service_ns(op::QUERY_HCA_CAP), 30 * US);
	for (const char *bad : {"", "-1", "20x", "=5", "NO_SUCH_OP=5", "QUERY_PAGES=", "QUERY_PAGES=-3",
				"0x10000=5", "10000001"})
		EXPECT_FALSE(m.set_from_text(bad)) << bad;
	EXPECT_EQ(m.service_ns(op::QUERY_PAGES), 20 * US);
}

// The emulator thread's sleeps: none within spin_us of work, sleep_us
// until idle_after_ms, then doubling to idle_sleep_us, and after a quiet
// deep_after_ms on to deep_sleep_us; work starts over.
TEST(PollPolicy, SpinsThenSleepsLongerTheLongerItIsQuiet)
{
	PollPolicy pp; // 200 us spin, 50 us, idle after 10 ms to 1 ms, deep after 1 s to 20 ms
	constexpr uint64_t MS = 1000 * US;
	uint32_t grow = pp.sleep_us;
	EXPECT_EQ(pp.next_sleep_ns(true, 0, &grow), 0u);
	EXPECT_EQ(pp.next_sleep_ns(false, 100 * US, &grow), 0u);
	EXPECT_EQ(pp.next_sleep_ns(false, 300 * US, &grow), 50 * US);
	uint64_t last = 0;
	for (int i = 0; i < 12; i++)
		last = pp.next_sleep_ns(false, 20 * MS, &grow);
	EXPECT_EQ(last, 1 * MS) << "idle: capped at idle_sleep_us";
	for (int i = 0; i < 12; i++)
		last = pp.next_sleep_ns(false, 2000 * MS, &grow);
	EXPECT_EQ(last, 20 * MS) << "deep idle: capped at deep_sleep_us";
	EXPECT_EQ(pp.next_sleep_ns(true, 0, &grow), 0u);
	EXPECT_EQ(grow, pp.sleep_us) << "work starts the growth over";
	EXPECT_EQ(pp.next_sleep_ns(false, 20 * MS, &grow), 50 * US);
	pp.deep_after_ms = 0;
	for (int i = 0; i < 12; i++)
		last = pp.next_sleep_ns(false, 2000 * MS, &grow);
	EXPECT_EQ(last, 1 * MS) << "deep_after_ms 0: no deep idle";
}

} // namespace
} // namespace cxprm::emu::test
