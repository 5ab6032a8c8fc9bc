// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The emulator's fidelity defaults (Documentation/prm-notes-transport.rst): outputs
// unsigned and input entries unchecked with checksums off (A1/B1), the
// second 'initializing' after the queue address write (A2/B2), the timeouts
// published in the init segment, the 8-byte output floor, lost doorbells on
// the RAM BAR, and the knobs of Profile::make_lenient().
#include <atomic>
#include <thread>

#include "cmd_transport.h"
#include "test_driver.h"

namespace cxprm::emu::test {
namespace {

using iseg = prm::initial_seg;

using EmuFidelity = QueueTest;

// A2/B2: the queue address write raises 'initializing' again for
// cmdq_init_delay_ms.  A doorbell in the first early_grace_ms (10) after
// the emulator noticed the write is served once it clears (the driver
// could not have seen the bit yet); a later one is dropped and counted,
// unless the grace covers the window (cxprm-emud's default).
// The windows run on a test clock (advance()): a test descheduled for
// longer than the grace on a loaded host cannot see its doorbell dropped.
struct AddressWindow {
	Rig r;
	uint64_t q = 0;
	uint64_t now = 0; // the emulator's clock, ns
	explicit AddressWindow(uint32_t grace_ms)
		: r(quiet_with([&](Profile &p) {
			  p.cmdq_init_delay_ms = 60;
			  p.early_grace_ms = grace_ms;
		  }),
		    Stage::RESET)
	{
		r.emu.set_clock([this] { return now; });
	}
	void advance(uint32_t ms) { now += (uint64_t)ms * 1000000; }
	uint32_t init_bit()
	{
		return prm::from_dword<iseg::initializing>(r.plat.rd(prm::dword_byte_offset<iseg::initializing>()));
	}
	// The reset's own 'initializing' (init_delay_ms) cleared, at most 1 s.
	void wait_pre_init()
	{
		for (int i = 0; i < 1000 && init_bit(); i++) {
			advance(1);
			r.emu.poll_once();
		}
	}
	void write_address()
	{
		q = r.plat.alloc(4096, 4096);
		r.plat.wr(prm::iseg::CMDQ_ADDR_H, (uint32_t)(q >> 32));
		r.plat.wr(prm::iseg::CMDQ_ADDR_L_SZ, (uint32_t)q);
		r.emu.poll_once();
	}
	void entry(unsigned slot, uint8_t token)
	{
		uint8_t *e = r.plat.cpu(q + slot * 64);
		std::memset(e, 0, 64);
		Ref<cmd_queue_entry> ent(e);
		prm::set<cmd_queue_entry::type>(ent, prm::CMD_TYPE_PCIE);
		prm::set<cmd_queue_entry::input_length>(ent, 16);
		prm::set<cmd_queue_entry::output_length>(ent, 16);
		Ref<prm::cmd_in> in(prm::bytes<cmd_queue_entry::command_input_inline_data>(ent));
		prm::set<prm::cmd_in::opcode>(in, op::NOP);
		prm::set<cmd_queue_entry::token>(ent, token);
		prm::set<cmd_queue_entry::ownership>(ent, 1);
		sign_entry(e);
	}
	bool owned(unsigned slot) { return r.plat.cpu(q + slot * 64)[63] & 1; }
};

TEST(InitSegment, AddressWriteRaisesInitializingAgain)
{
	AddressWindow w(10);
	auto &r = w.r;
	w.wait_pre_init();
	EXPECT_EQ(w.init_bit(), 0u) << "pre-init done";
	w.write_address();
	EXPECT_EQ(w.init_bit(), 1u);
	EXPECT_TRUE(r.emu.initializing());
	EXPECT_EQ(r.emu.cmdq_address(), w.q);
	w.entry(0, 1);
	r.plat.ring(prm::iseg::DOORBELL, 1u << 0); // within the grace: kept
	r.emu.poll_once();
	EXPECT_EQ(r.emu.counters().deferred_doorbells, 1u);
	w.advance(15);
	w.entry(1, 2);
	r.plat.ring(prm::iseg::DOORBELL, 1u << 1); // bit visibly set for 15 ms: dropped
	r.emu.poll_once();
	EXPECT_EQ(r.emu.counters().early_doorbells, 1u);
	EXPECT_EQ(r.emu.commands_processed(), 0u);
	w.advance(50);
	r.emu.poll_once();
	r.emu.poll_once();
	EXPECT_EQ(w.init_bit(), 0u);
	EXPECT_FALSE(w.owned(0)) << "the early one was served after";
	// The dropped one is not rescued as a lost doorbell either.
	w.advance(3);
	r.emu.poll_once();
	EXPECT_TRUE(w.owned(1));
	EXPECT_EQ(r.emu.commands_processed(), 1u);
	// Rung again (a retry), it runs.
	r.plat.ring(prm::iseg::DOORBELL, 1u << 1);
	r.emu.poll_once();
	EXPECT_FALSE(w.owned(1));
}

// cxprm-emud's grace: the whole window.  A guest that read the bit as 0
// before the daemon noticed the write and was then descheduled for 15 ms
// has its doorbell served when the bit clears, not dropped.
TEST(InitSegment, GraceAsLongAsTheWindowServesLateDoorbells)
{
	AddressWindow w(60);
	auto &r = w.r;
	w.wait_pre_init();
	w.write_address();
	ASSERT_TRUE(r.emu.initializing());
	w.advance(15);
	w.entry(0, 1);
	r.plat.ring(prm::iseg::DOORBELL, 1u << 0);
	r.emu.poll_once();
	EXPECT_TRUE(w.owned(0)) << "not served while initializing";
	w.advance(50);
	r.emu.poll_once();
	r.emu.poll_once();
	EXPECT_EQ(w.init_bit(), 0u);
	EXPECT_FALSE(w.owned(0)) << "served once it cleared";
	EXPECT_EQ(r.emu.counters().early_doorbells, 0u);
	EXPECT_EQ(r.emu.counters().deferred_doorbells, 1u);
	EXPECT_EQ(r.emu.commands_processed(), 1u);
}

// Writing nic_interface DISABLED (fast teardown) into the same dword is not
// a new queue address; the lenient knob never raises the bit again.
TEST(InitSegment, NoSecondInitializingForTeardownOrWhenLenient)
{
	for (bool lenient : {false, true}) {
		Rig r(quiet_with([&](Profile &p) {
			if (lenient)
				p.make_lenient();
		}));
		r.plat.wr(prm::iseg::CMDQ_ADDR_L_SZ, 1u << 8); // nic_interface = DISABLED, address bits 0
		r.plat.wr(prm::iseg::CMDQ_ADDR_H, 0);
		r.emu.poll_once();
		EXPECT_FALSE(r.emu.initializing()) << lenient;
	}
}

TEST(InitSegment, TimeoutsPublished)
{
	Profile p = quiet();
	p.cmd_exec_to_ms = 60000;
	p.cmd_q_init_to_ms = 2000;
	{
		Rig r(p, Stage::RESET);
		EXPECT_EQ(r.plat.rd(prm::iseg::CMD_EXEC_TO), 60000u);
		EXPECT_EQ(r.plat.rd(prm::iseg::CMD_Q_INIT_TO), 2000u);
	}
	p.cmd_exec_to_ms = 2000 * 1000; // > 0xfffff ms: in seconds
	p.make_lenient();               // lenient: nothing published
	p.cmd_exec_to_ms = 2000 * 1000;
	Rig r(p, Stage::RESET);
	EXPECT_EQ(r.plat.rd(prm::iseg::CMD_EXEC_TO), 1u << 29 | 2000u);
	EXPECT_EQ(r.plat.rd(prm::iseg::CMD_Q_INIT_TO), 0u);
}

// rdma-core sends no entry signature at all and works on hardware: with
// checksums off the input entry XOR is not checked (B1).  Before: SIGNAT_ERR.
TEST_F(EmuFidelity, UnsignedInputEntryAcceptedWithChecksumsOff)
{
	Answer a = drv.exec(make_in<prm::enable_hca_in>(op::ENABLE_HCA).b, 12, 0, [&](Prepared &p) {
		Ref<cmd_queue_entry> e(plat.cpu(p.entry));
		prm::set<cmd_queue_entry::signature>(e, 0);
	});
	EXPECT_EQ(a.delivery, 0);
	EXPECT_EQ(a.status, st::OK);
	EXPECT_EQ(emu.hca_state(), HcaState::ENABLED);
}

// The knob for firmware that checks it always.
TEST(TransportKnobs, EntrySignatureCheckedAlwaysWhenAsked)
{
	Rig r(quiet_with([](Profile &p) { p.always_check_entry_signature = true; }));
	Answer a = r.drv.exec(make_in<prm::enable_hca_in>(op::ENABLE_HCA).b, 12, 0, [&](Prepared &pr) {
		Ref<cmd_queue_entry> e(r.plat.cpu(pr.entry));
		prm::set<cmd_queue_entry::signature>(e, prm::get<cmd_queue_entry::signature>(e) ^ 1);
	});
	EXPECT_EQ(a.delivery, dst::SIGNAT_ERR);
	EXPECT_EQ(r.emu.hca_state(), HcaState::DISABLED);
}

// sign_outputs_always: the old behaviour, signed with checksums off.
TEST(TransportKnobs, SignOutputsAlways)
{
	Rig r(quiet_with([](Profile &p) { p.sign_outputs_always = true; }));
	Answer a = r.drv.exec(make_in<prm::query_hca_cap_in>(op::QUERY_HCA_CAP, 1).b, prm::query_hca_cap_out::size_bytes);
	EXPECT_TRUE(entry_signature_ok(a.entry));
	for (auto &b : a.out_blocks)
		EXPECT_TRUE(block_signatures_ok(b.data()));
}

// ENABLE_HCA's output is 12 bytes (mlx5_core sends 12): the floor is 8.
TEST_F(EmuFidelity, TwelveByteOutputAccepted)
{
	Answer a = drv.exec(make_in<prm::enable_hca_in>(op::ENABLE_HCA).b, 12);
	EXPECT_EQ(a.delivery, 0);
	EXPECT_EQ(a.status, st::OK);
	Answer b = drv.exec(make_in<prm::nop_in>(op::NOP).b, 8);
	EXPECT_EQ(b.delivery, 0);
}

// On a RAM BAR a plain-store doorbell overwrites a pending bit: slot 0's
// doorbell is lost under slot 1's.  The owned entry is served anyway once
// it has waited over lost_doorbell_us.  Before: slot 0 never completed.
TEST_F(EmuFidelity, LostDoorbellIsServedAfterAMillisecond)
{
	Prepared a = drv.prepare(0, make_in<prm::nop_in>(op::NOP).b, 16);
	Prepared b = drv.prepare(1, make_in<prm::nop_in>(op::NOP).b, 16);
	std::atomic_thread_fence(std::memory_order_release);
	plat.wr(prm::iseg::DOORBELL, 1u << 0);
	plat.wr(prm::iseg::DOORBELL, 1u << 1); // overwrites slot 0's bit
	emu.poll_once();
	EXPECT_FALSE(drv.owned_by_hw(b));
	EXPECT_TRUE(drv.owned_by_hw(a)) << "not served at first sight";
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(2);
	while (drv.owned_by_hw(a) && std::chrono::steady_clock::now() < end) {
		std::this_thread::sleep_for(std::chrono::microseconds(200));
		emu.poll_once();
	}
	EXPECT_FALSE(drv.owned_by_hw(a));
	EXPECT_EQ(drv.collect(a).delivery, 0);
	EXPECT_EQ(drv.collect(a).status, st::OK);
	EXPECT_EQ(emu.counters().lost_doorbells, 1u);
	EXPECT_EQ(emu.opcode_count(op::NOP), 2u);
}

// A swallowed command (never_complete) stays owned but is never run again.
TEST_F(EmuFidelity, SwallowedCommandIsNotRescued)
{
	emu.faults().never_complete = true;
	emu.faults().once = true;
	Prepared a = drv.prepare(2, make_in<prm::nop_in>(op::NOP).b, 16);
	drv.ring(2);
	emu.poll_once();
	std::this_thread::sleep_for(std::chrono::milliseconds(3));
	emu.poll_once();
	emu.poll_once();
	EXPECT_TRUE(drv.owned_by_hw(a));
	EXPECT_EQ(emu.opcode_count(op::NOP), 1u);
	EXPECT_EQ(emu.counters().lost_doorbells, 0u);
}

} // namespace
} // namespace cxprm::emu::test
