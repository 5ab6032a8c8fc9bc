// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// How late the command engine sees a completion it polls for.  The host
// runs on a virtual clock (relax and sleep_us move it, nothing else does)
// and holds each doorbell back until the clock has passed the command's
// firmware time T; then the emulator answers it and the engine must notice
// within T/8 (its sleeps are an eighth of the time waited so far), however
// long T is.  A doubling sleep saw a 300 us command at 517 us.
#include "support/harness.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "cxprm/prm/hca.h"
#include "cxprm/prm/issi.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/transport.h"

using namespace cxprm;

namespace {

constexpr uint64_t US = 1000;

// The harness's host with a virtual clock and delayed doorbells.  Its
// other callbacks need the harness's ctx, so the overrides find this one
// through a pointer of their own (one at a time).
struct SlowFirmwareHost;
SlowFirmwareHost *the_host;

struct SlowFirmwareHost {
	const cxprm_host *real;
	cxprm_host_ops ops;
	cxprm_host host;
	const Cmdq *cmdq = nullptr;
	uint64_t now = 1'000'000;   // virtual ns
	uint64_t service_ns = 0;    // the firmware time of the next command
	uint32_t pending = 0;       // doorbell bits held back
	uint64_t rung_at = 0;

	explicit SlowFirmwareHost(const cxprm_host *r) : real(r), ops(*r->ops), host{&ops, r->ctx}
	{
		the_host = this;
		ops.now_ns = [](void *c) -> cxprm_u64 { return self(c)->tick(0); };
		ops.relax = [](void *c) { self(c)->tick(100); };
		ops.sleep_us = [](void *c, cxprm_u32 us) { self(c)->tick((uint64_t)us * US); };
		ops.iowrite32be = [](void *c, cxprm_u32 off, cxprm_u32 v) {
			SlowFirmwareHost *h = self(c);
			if (off != prm::iseg::DOORBELL) {
				h->real->ops->iowrite32be(h->real->ctx, off, v);
				return;
			}
			h->pending |= v;
			h->rung_at = h->now;
		};
	}
	~SlowFirmwareHost() { the_host = nullptr; }
	static SlowFirmwareHost *self(void *) { return the_host; }

	// Moves the clock; once it passed the service time, rings the held
	// doorbell and waits (real time, the clock stands) for the answer.
	uint64_t tick(uint64_t ns)
	{
		now += ns;
		if (pending && now - rung_at >= service_ns) {
			uint32_t mask = pending;
			pending = 0;
			real->ops->iowrite32be(real->ctx, prm::iseg::DOORBELL, mask);
			const volatile uint8_t *q = (const volatile uint8_t *)cmdq->queue_page().cpu;
			auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
			for (uint32_t slot = 0; slot < 32; slot++)
				while ((mask >> slot & 1) && (q[slot * 64 + 63] & 1) &&
				       std::chrono::steady_clock::now() < end)
					std::this_thread::yield();
		}
		return now;
	}
};

// The harness brought up to ENABLE_HCA over the slow host; run() sends a
// QUERY_ISSI whose firmware time is t.
struct PollRig {
	test::Harness h{quiet()};
	SlowFirmwareHost fw{h.host()};

	static emu::Profile quiet()
	{
		emu::Profile p = emu::Profile::connectx7();
		p.nvmf.auto_io_ms = 0;
		return p;
	}
	void start()
	{
		fw.cmdq = &h.cmdq;
		ASSERT_TRUE(h.start_device());
		CmdqConfig cfg;
		cfg.timeout_ns = 10'000'000'000ull; // virtual: far beyond the slowest case
		ASSERT_EQ(h.cmdq.init(&fw.host, cfg), OK);
		ASSERT_TRUE(h.wait_queue_taken());
		std::vector<uint8_t> in(prm::enable_hca_in::size_bytes), out(16);
		prm::set<prm::enable_hca_in::opcode>(prm::Ref<prm::enable_hca_in>(in.data()), prm::op::ENABLE_HCA);
		ASSERT_EQ(h.cmdq.exec(in.data(), (uint32_t)in.size(), out.data(), (uint32_t)out.size()), OK);
	}
	int run(uint64_t t, CmdResult *res)
	{
		fw.service_ns = t;
		std::vector<uint8_t> in(prm::query_issi_in::size_bytes), out(prm::query_issi_out::size_bytes);
		prm::set<prm::query_issi_in::opcode>(prm::Ref<prm::query_issi_in>(in.data()), prm::op::QUERY_ISSI);
		int rc = h.cmdq.exec(in.data(), (uint32_t)in.size(), out.data(), (uint32_t)out.size(), res);
		fw.service_ns = 0;
		return rc;
	}
	~PollRig() { h.cmdq.fini(); } // while the host it was given still exists
};

TEST(CmdqPolling, CompletionSeenWithinAnEighthOfTheWait)
{
	PollRig r;
	ASSERT_NO_FATAL_FAILURE(r.start());
	for (uint64_t t : {2 * US, 30 * US, 300 * US, 700 * US, 3000 * US, 40000 * US}) {
		CmdResult res;
		ASSERT_EQ(r.run(t, &res), OK) << "firmware time " << t << " ns";
		EXPECT_GE(res.st.latency_ns, t);
		// An eighth of the wait, plus one sleep's rounding to a whole us.
		EXPECT_LE(res.st.latency_ns, t + t / 8 + 2 * US) << "firmware time " << t << " ns";
	}
}

// With the host's yield op (the kernel's cond_resched()) the engine
// busy-polls for the first 5 ms, as mlx5_core does: no sleep, and the
// completion seen within one look; longer commands fall back to the
// eighth-of-the-wait sleeps.
TEST(CmdqPolling, BusyPollsWithYieldForTheFirstMilliseconds)
{
	PollRig r;
	static unsigned sleeps, yields;
	r.fw.ops.yield = [](void *c) {
		yields++;
		SlowFirmwareHost::self(c)->tick(100);
	};
	r.fw.ops.sleep_us = [](void *c, cxprm_u32 us) {
		sleeps++;
		SlowFirmwareHost::self(c)->tick((uint64_t)us * US);
	};
	ASSERT_NO_FATAL_FAILURE(r.start());
	for (uint64_t t : {300 * US, 3000 * US, 40000 * US}) {
		sleeps = yields = 0;
		CmdResult res;
		ASSERT_EQ(r.run(t, &res), OK);
		EXPECT_GE(res.st.latency_ns, t);
		EXPECT_GT(yields, 0u);
		if (t < 5000 * US) {
			EXPECT_EQ(sleeps, 0u) << "busy-polled: " << t << " ns";
			EXPECT_LE(res.st.latency_ns, t + 1 * US) << "seen at the next look: " << t << " ns";
		} else {
			EXPECT_GT(sleeps, 0u) << "sleeps after 5 ms: " << t << " ns";
			EXPECT_LE(res.st.latency_ns, t + t / 8 + 2 * US);
		}
	}
}

} // namespace
