// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Every fault knob, and the selectors.
#include <chrono>
#include <thread>

#include "cmd_transport.h"
#include "test_driver.h"

namespace cxprm::emu::test {
namespace {

using iseg = prm::initial_seg;

// The signature faults need signed outputs: sign them whatever
// cmdif_checksum says (Profile::sign_outputs_always).
Profile signing()
{
	Profile p = quiet();
	p.sign_outputs_always = true;
	return p;
}

struct FaultsTest : EnabledTest {
	FaultsTest() : EnabledTest(signing(), 32u << 20) {}
	Msg cap_query() { return make_in<prm::query_hca_cap_in>(op::QUERY_HCA_CAP, 1); }
	Answer run_cap(unsigned slot = 0) { return drv.exec(cap_query().b, prm::query_hca_cap_out::size_bytes, slot); }
	// The same in slot 0, and where the command lived (its token, its blocks).
	Answer run_cap(Prepared *pr)
	{
		return drv.exec(cap_query().b, prm::query_hca_cap_out::size_bytes, 0, [pr](Prepared &p) { *pr = p; });
	}
	Answer run_nop(unsigned slot = 0) { return drv.exec(make_in<prm::nop_in>(op::NOP).b, 16, slot); }
};

TEST_F(FaultsTest, NeverComplete)
{
	emu.faults().never_complete = true;
	Msg m = make_in<prm::query_pages_in>(op::QUERY_PAGES, 1);
	Prepared pr = drv.prepare(2, m.b, 16);
	drv.ring(2);
	EXPECT_FALSE(drv.wait(pr, 5));
	EXPECT_TRUE(drv.owned_by_hw(pr));
	EXPECT_EQ(emu.commands_processed(), 2u) << "consumed";
	EXPECT_EQ(emu.opcode_count(op::QUERY_PAGES), 1u) << "it ran; the answer was lost";
	emu.faults().never_complete = false;
	EXPECT_EQ(run_nop(3).status, st::OK);
}

TEST_F(FaultsTest, CorruptSignatures)
{
	emu.faults().corrupt_output_signature = true; // entry
	Answer a = run_cap();
	EXPECT_FALSE(entry_signature_ok(a.entry));
	EXPECT_TRUE(block_signatures_ok(a.out_blocks[0].data()));
	emu.faults().corrupt_output_signature = Faults::BLOCKS;
	a = run_cap();
	EXPECT_TRUE(entry_signature_ok(a.entry));
	EXPECT_FALSE(block_signatures_ok(a.out_blocks[0].data()));
	EXPECT_TRUE(block_signatures_ok(a.out_blocks[1].data()));
}

TEST_F(FaultsTest, WrongTokens)
{
	emu.faults().wrong_output_token = true;
	Prepared pr;
	Answer a = run_cap(&pr);
	ASSERT_TRUE(a.completed);
	EXPECT_NE(prm::get<cmd_queue_entry::token>(CRef<cmd_queue_entry>(a.entry)), pr.token);
	EXPECT_TRUE(entry_signature_ok(a.entry)) << "signed after the token change";
	EXPECT_EQ(prm::get<cmd_if_box::token>(CRef<cmd_if_box>(a.out_blocks[0].data())), pr.token);

	emu.faults().wrong_output_token = Faults::BLOCKS;
	a = run_cap(&pr);
	ASSERT_TRUE(a.completed);
	EXPECT_EQ(prm::get<cmd_queue_entry::token>(CRef<cmd_queue_entry>(a.entry)), pr.token);
	for (auto &b : a.out_blocks) {
		EXPECT_NE(prm::get<cmd_if_box::token>(CRef<cmd_if_box>(b.data())), pr.token);
		EXPECT_TRUE(block_signatures_ok(b.data()));
	}
}

TEST_F(FaultsTest, ForcedDeliveryStatusForNCommands)
{
	emu.faults().delivery_status = dst::FW_ERR;
	emu.faults().delivery_status_count = 2;
	EXPECT_EQ(run_nop().delivery, dst::FW_ERR);
	EXPECT_EQ(run_nop().delivery, dst::FW_ERR);
	EXPECT_EQ(run_nop().delivery, 0);
	EXPECT_EQ(emu.opcode_count(op::NOP), 1u) << "forced delivery errors do not run the command";
}

TEST_F(FaultsTest, OutputLengthLie)
{
	emu.faults().output_length_lie = 4096;
	Answer a = run_nop();
	EXPECT_EQ(prm::get<cmd_queue_entry::output_length>(CRef<cmd_queue_entry>(a.entry)), 16u + 4096);
	EXPECT_TRUE(entry_signature_ok(a.entry));
}

TEST_F(FaultsTest, BrokenOutputChain)
{
	emu.faults().broken_output_chain = true;
	Prepared pr;
	Answer a = run_cap(&pr);
	ASSERT_TRUE(a.completed);
	CRef<cmd_if_box> b0(a.out_blocks[0].data());
	EXPECT_NE(prm::get<cmd_if_box::block_number>(b0), 0u);
	uint64_t next = (uint64_t)prm::get<cmd_if_box::next_pointer_63_32>(b0) << 32 |
			prm::get<cmd_if_box::next_pointer_31_10>(b0) << 10;
	EXPECT_NE(next, pr.out_blocks[1]);
	// A command without output blocks is untouched (the fault waits).
	uint64_t fired = emu.faults().fired;
	EXPECT_EQ(run_nop().delivery, 0);
	EXPECT_EQ(emu.faults().fired, fired + 1);
}

TEST_F(FaultsTest, CrashHangs)
{
	uint32_t hc = prm::dword_byte_offset<iseg::health_counter>();
	emu.faults().crash = true;
	emu.poll_once();
	EXPECT_TRUE(emu.crashed());
	uint32_t v = plat.rd(hc);
	// As hardware is known to: the health buffer, not 0x1010[31:24].
	EXPECT_EQ(prm::from_dword<iseg::health_syndrome>(v), 0x0u);
	using hb = prm::health_buffer;
	uint32_t base = prm::iseg::HEALTH;
	EXPECT_EQ(prm::from_dword<hb::synd>(plat.rd(base + prm::dword_byte_offset<hb::synd>())), 0x1u);
	EXPECT_EQ(prm::from_dword<hb::rfr>(plat.rd(base + prm::dword_byte_offset<hb::rfr>())), 1u);
	for (int i = 0; i < 5; i++)
		emu.poll_once();
	EXPECT_EQ(plat.rd(hc), v) << "health counter stopped";

	Prepared pr = drv.prepare(1, make_in<prm::nop_in>(op::NOP).b, 16);
	drv.ring(1);
	EXPECT_FALSE(drv.wait(pr, 5));
	emu.faults().crash = false; // sticky
	EXPECT_FALSE(drv.wait(pr, 5));
}

TEST(FaultsHealth, CrashCopiesIsegSyndromeOnlyWithTheKnob)
{
	FakePlatform plat{32u << 20};
	Profile p = quiet();
	p.crash_copies_iseg_syndrome = true;
	Emulator emu{plat, p};
	emu.faults().crash = true;
	emu.poll_once();
	uint32_t v = plat.rd(prm::dword_byte_offset<iseg::health_syndrome>());
	EXPECT_EQ(prm::from_dword<iseg::health_syndrome>(v), 0x1u);
}

// A syndrome firmware survives: no rfr, commands still answered.
TEST_F(FaultsTest, NonFatalSyndromeKeepsAnswering)
{
	using hb = prm::health_buffer;
	uint32_t base = prm::iseg::HEALTH;
	emu.faults().health_syndrome = 0x10;
	emu.poll_once();
	EXPECT_EQ(prm::from_dword<hb::synd>(plat.rd(base + prm::dword_byte_offset<hb::synd>())), 0x10u);
	EXPECT_EQ(prm::from_dword<hb::rfr>(plat.rd(base + prm::dword_byte_offset<hb::rfr>())), 0u);
	EXPECT_FALSE(emu.crashed());
	EXPECT_EQ(run_nop().delivery, 0);
	emu.faults().health_syndrome = 0;
	emu.poll_once();
	EXPECT_EQ(prm::from_dword<hb::synd>(plat.rd(base + prm::dword_byte_offset<hb::synd>())), 0u);
}

// A firmware reset: nic_interface (bits 10:8 of cmdq_addr_l_sz) reads 7,
// whatever the driver writes there, and nothing is answered, until the
// function is reset.
TEST_F(FaultsTest, SwResetShowsNicInterface7)
{
	uint32_t off = prm::dword_byte_offset<iseg::cmdq_phy_addr_31_12>();
	EXPECT_EQ((plat.rd(off) >> 8) & 7, 0u);
	emu.faults().sw_reset = true;
	emu.poll_once();
	EXPECT_TRUE(emu.sw_resetting());
	EXPECT_EQ((plat.rd(off) >> 8) & 7, 7u);
	Prepared pr = drv.prepare(1, make_in<prm::nop_in>(op::NOP).b, 16);
	drv.ring(1);
	EXPECT_FALSE(drv.wait(pr, 5));
	emu.function_reset();
	EXPECT_FALSE(emu.sw_resetting());
	EXPECT_EQ((plat.rd(off) >> 8) & 7, 0u);
}

// The counter ticks at the profile's period, not on every step.
TEST(FaultsHealth, CounterTicksAtTheProfilePeriod)
{
	FakePlatform plat{32u << 20};
	Profile p = quiet();
	p.health_tick_ms = 50;
	Emulator emu{plat, p};
	// A test clock: a descheduled test cannot see 50 ms pass early.
	uint64_t now = 0;
	emu.set_clock([&now] { return now; });
	uint32_t hc = prm::dword_byte_offset<iseg::health_counter>();
	emu.poll_once();
	uint32_t c0 = prm::from_dword<iseg::health_counter>(plat.rd(hc));
	for (int i = 0; i < 20; i++) {
		now += 2'000'000;
		emu.poll_once();
	}
	EXPECT_EQ(prm::from_dword<iseg::health_counter>(plat.rd(hc)), c0) << "ticked faster than 50 ms";
	now = 60'000'000;
	emu.poll_once();
	EXPECT_EQ(prm::from_dword<iseg::health_counter>(plat.rd(hc)), c0 + 1);
}

TEST_F(FaultsTest, CrashAnswersIntErr)
{
	emu.faults().crash_answers_int_err = true;
	emu.faults().crash = true;
	Answer a = run_nop();
	EXPECT_EQ(a.delivery, 0);
	EXPECT_EQ(a.status, st::INT_ERR);
	EXPECT_EQ(a.syndrome, synd::FW_CRASHED);
}

TEST_F(FaultsTest, DeviceGone)
{
	emu.faults().device_gone = true;
	emu.poll_once();
	EXPECT_TRUE(emu.gone());
	for (uint32_t off = 0; off < plat.bar_size(); off += 4)
		ASSERT_EQ(plat.rd(off), 0xffffffffu) << off;
	Prepared pr = drv.prepare(1, make_in<prm::nop_in>(op::NOP).b, 16);
	drv.ring(1);
	EXPECT_FALSE(drv.wait(pr, 5));
	EXPECT_EQ(plat.rd(prm::iseg::FW_REV), 0xffffffffu);
}

TEST_F(FaultsTest, Slow)
{
	emu.faults().slow_ms = 30;
	auto t0 = std::chrono::steady_clock::now();
	EXPECT_EQ(run_nop().status, st::OK);
	EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(30));
}

TEST_F(FaultsTest, OnlyOpcodeSelector)
{
	emu.faults().only_opcode = op::QUERY_HCA_CAP;
	emu.faults().never_complete = true;
	EXPECT_EQ(run_nop().status, st::OK);
	Prepared pr = drv.prepare(4, cap_query().b, prm::query_hca_cap_out::size_bytes);
	drv.ring(4);
	EXPECT_FALSE(drv.wait(pr, 3));
	EXPECT_EQ(run_nop(5).status, st::OK);
}

TEST_F(FaultsTest, OnceSelector)
{
	emu.faults().once = true;
	emu.faults().corrupt_output_signature = true;
	EXPECT_FALSE(entry_signature_ok(run_nop().entry));
	EXPECT_TRUE(entry_signature_ok(run_nop().entry));
	EXPECT_EQ(emu.faults().corrupt_output_signature.load(), 0u);
	EXPECT_FALSE(emu.faults().once.load());
}

TEST(FaultsThreaded, KnobsFlipWhileRunning)
{
	FakePlatform plat(32u << 20);
	Emulator emu(plat, quiet());
	emu.start();
	TestDriver drv(plat, emu, true);
	drv.init_queue();
	EXPECT_EQ(drv.exec(make_in<prm::nop_in>(op::NOP).b, 16).status, st::OK);
	emu.faults().delivery_status = dst::TOK_ERR;
	emu.faults().delivery_status_count = 1;
	EXPECT_EQ(drv.exec(make_in<prm::nop_in>(op::NOP).b, 16).delivery, dst::TOK_ERR);
	EXPECT_EQ(drv.exec(make_in<prm::nop_in>(op::NOP).b, 16).delivery, 0);
	emu.faults().device_gone = true;
	// The emulator's thread applies the knob on its next step: wait for
	// it with a bound that a loaded CI machine cannot exceed by chance.
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	while (plat.rd(0) != 0xffffffffu && std::chrono::steady_clock::now() < end)
		std::this_thread::sleep_for(std::chrono::milliseconds(1));
	EXPECT_EQ(plat.rd(0), 0xffffffffu);
	emu.stop();
}

// --- Firmware restart (Emulator::firmware_restart; Linux health.c
// mlx5_error_sw_reset / reset_fw_if_needed) ---

// A device brought up on a test clock (ms_ moves only when the test says),
// with no FW_INIT delay after the queue address so init_queue() needs no
// time to pass.
struct RestartRig {
	explicit RestartRig(bool fw_reset_supported = true)
		: r(quiet_with([&](Profile &p) {
			    p.cmdq_init_delay_ms = 0;
			    p.fw_reset_ms = 50;
			    p.fw_reset_supported = fw_reset_supported;
		    }),
		    Stage::RESET, 32u << 20)
	{
		r.emu.set_clock([this] { return ms_ * 1000000ull; });
		r.drv.init_queue();
		r.drv.bring_up();
	}
	void advance(uint64_t ms)
	{
		ms_ += ms;
		r.emu.poll_once();
	}
	uint32_t rd(uint32_t off) { return r.plat.rd(off); }
	uint8_t nic() { return (uint8_t)((rd(prm::iseg::CMDQ_ADDR_L_SZ) >> 8) & 7); }
	bool initializing() { return prm::from_dword<iseg::initializing>(rd(prm::iseg::INITIALIZING)) != 0; }
	bool reset_supported() { return prm::from_dword<iseg::fw_reset_supported>(rd(prm::iseg::INITIALIZING)) != 0; }
	uint32_t health_counter() { return prm::from_dword<iseg::health_counter>(rd(prm::iseg::HEALTH_COUNTER)); }
	uint32_t health(uint32_t dword) { return rd(prm::iseg::HEALTH + dword); }
	// The driver asks for a reset as Linux's mlx5_set_nic_state does: only
	// bits 10:8 of cmdq_addr_l_sz change.
	void write_nic(uint8_t state)
	{
		uint32_t v = rd(prm::iseg::CMDQ_ADDR_L_SZ);
		r.plat.wr(prm::iseg::CMDQ_ADDR_L_SZ, (v & ~(7u << 8)) | (uint32_t)state << 8);
	}
	void crash()
	{
		r.emu.faults().crash = true;
		r.emu.poll_once();
		ASSERT_TRUE(r.emu.crashed());
	}
	// What a reset firmware shows until 'initializing' clears.
	void expect_restarted(uint64_t pages_before)
	{
		using hb = prm::health_buffer;
		EXPECT_FALSE(r.emu.crashed());
		EXPECT_EQ(r.emu.hca_state(), HcaState::DISABLED);
		EXPECT_EQ(r.emu.current_issi(), 0u);
		EXPECT_EQ(r.emu.pages_held(), 0u);
		EXPECT_EQ(r.emu.counters().pages_dropped_at_reset, pages_before) << "dropped, not leaked";
		EXPECT_EQ(r.emu.counters().pages_leaked, 0u);
		EXPECT_EQ(r.emu.cmdq_address(), 0u) << "the queue address is forgotten";
		EXPECT_EQ(nic(), 1u) << "nic_interface DISABLED (mlx5_error_sw_reset waits for it)";
		EXPECT_TRUE(initializing());
		EXPECT_EQ(reset_supported(), r.emu.profile().fw_reset_supported);
		EXPECT_EQ(prm::from_dword<hb::synd>(health(prm::dword_byte_offset<hb::synd>())), 0u);
		EXPECT_EQ(prm::from_dword<hb::rfr>(health(prm::dword_byte_offset<hb::rfr>())), 0u);
		EXPECT_EQ(prm::from_dword<hb::valid>(health(prm::dword_byte_offset<hb::valid>())), 0u);
	}
	// 'initializing' holds 50 ms from the restart, the health counter
	// runs meanwhile, and a whole bring-up works afterwards.
	void expect_boots_again()
	{
		advance(49);
		EXPECT_TRUE(initializing()) << "cleared before init_ms";
		EXPECT_GT(health_counter(), 0u) << "the health counter runs while initializing";
		// A doorbell is not taken while initializing (as at power-on); a
		// driver does not ring before it programmed the queue: drop it.
		r.plat.wr(prm::iseg::DOORBELL, 1);
		r.emu.poll_once();
		EXPECT_EQ(rd(prm::iseg::DOORBELL), 1u) << "no doorbell taken while initializing";
		r.plat.wr(prm::iseg::DOORBELL, 0);
		advance(2);
		EXPECT_FALSE(initializing());
		uint32_t hc = health_counter();
		advance(r.emu.profile().health_tick_ms);
		EXPECT_EQ(health_counter(), hc + 1);
		r.drv.init_queue();
		r.drv.bring_up();
		EXPECT_EQ(r.emu.hca_state(), HcaState::INITIALIZED);
		EXPECT_EQ(nic(), 0u) << "the address write put FULL_DRIVER back";
		EXPECT_EQ(r.drv.exec(make_in<prm::nop_in>(op::NOP).b, 16).status, st::OK);
	}
	uint64_t ms_ = 0;
	Rig r;
};

TEST(FirmwareRestart, AfterACrash)
{
	RestartRig t;
	EXPECT_TRUE(t.reset_supported()) << "advertised by default";
	uint64_t held = t.r.emu.pages_held();
	ASSERT_GT(held, 0u);
	t.crash();
	uint32_t hc = t.health_counter();
	t.advance(1000);
	EXPECT_EQ(t.health_counter(), hc) << "stopped while crashed";
	t.r.emu.firmware_restart(50);
	t.expect_restarted(held);
	EXPECT_EQ(t.r.emu.counters().fw_restarts, 1u);
	EXPECT_FALSE(t.r.emu.faults().crash.load()) << "the crash fault ends";
	t.r.emu.poll_once();
	EXPECT_EQ(t.health_counter(), 1u) << "starts afresh";
	t.expect_boots_again();
}

// init_ms 0: no 'initializing' at all.
TEST(FirmwareRestart, ZeroInitMs)
{
	RestartRig t;
	t.crash();
	t.r.emu.firmware_restart(0);
	EXPECT_FALSE(t.initializing());
	EXPECT_EQ(t.nic(), 1u);
	t.r.drv.init_queue();
	t.r.drv.bring_up();
	EXPECT_EQ(t.r.emu.hca_state(), HcaState::INITIALIZED);
}

// Linux reset_fw_if_needed: crashed firmware (rfr), fw_reset_supported,
// the driver writes nic_interface SW_RESET -> the firmware restarts.
TEST(FirmwareRestart, DriverRequestedSwReset)
{
	RestartRig t;
	uint64_t held = t.r.emu.pages_held();
	t.advance(500);
	t.crash();
	t.write_nic(7);
	t.r.emu.poll_once();
	t.expect_restarted(held);
	EXPECT_EQ(t.r.emu.counters().fw_restarts, 1u);
	t.expect_boots_again(); // 'initializing' counted from the restart, not from the start
}

// fw_reset_supported off: the bit reads 0 and a crashed firmware never
// restarts by itself; emuctl (firmware_restart) still can.
TEST(FirmwareRestart, NotSupportedNoRestart)
{
	RestartRig t(false);
	EXPECT_FALSE(t.reset_supported());
	uint64_t held = t.r.emu.pages_held();
	t.crash();
	t.write_nic(7);
	for (int i = 0; i < 5; i++)
		t.advance(100);
	EXPECT_TRUE(t.r.emu.crashed());
	EXPECT_EQ(t.nic(), 7u) << "what the driver wrote";
	EXPECT_EQ(t.r.emu.counters().fw_restarts, 0u);
	EXPECT_EQ(t.r.emu.pages_held(), held);
	t.r.emu.firmware_restart(50);
	t.expect_restarted(held);
	t.expect_boots_again();
}

// The no_restart fault: the bit still reads 1, but the crashed firmware
// ignores the request until a function reset clears the fault.
TEST(FirmwareRestart, NoRestartFaultIgnoresTheRequest)
{
	RestartRig t;
	EXPECT_TRUE(t.reset_supported());
	t.r.emu.faults().no_restart = true;
	t.crash();
	t.write_nic(7);
	for (int i = 0; i < 5; i++)
		t.advance(100);
	EXPECT_TRUE(t.r.emu.crashed());
	EXPECT_EQ(t.r.emu.counters().fw_restarts, 0u);
	t.r.emu.function_reset();
	EXPECT_FALSE(t.r.emu.faults().no_restart.load());
}

// Not crashed: the write is today's (ignored by the firmware, commands
// still answered, nothing dropped).
TEST(FirmwareRestart, HealthyFirmwareIgnoresSwReset)
{
	RestartRig t;
	uint64_t held = t.r.emu.pages_held();
	t.write_nic(7);
	t.advance(100);
	EXPECT_FALSE(t.r.emu.crashed());
	EXPECT_FALSE(t.r.emu.sw_resetting());
	EXPECT_EQ(t.r.emu.counters().fw_restarts, 0u);
	EXPECT_EQ(t.r.emu.hca_state(), HcaState::INITIALIZED);
	EXPECT_EQ(t.r.emu.pages_held(), held);
	EXPECT_FALSE(t.initializing());
	EXPECT_EQ(t.r.drv.exec(make_in<prm::nop_in>(op::NOP).b, 16).status, st::OK);
}

// The sw_reset fault's own SW_RESET on a crashed firmware is not a
// request: it stays until a reset, as before.
TEST(FirmwareRestart, SwResetFaultIsNotARequest)
{
	RestartRig t;
	t.crash();
	t.r.emu.faults().sw_reset = true;
	for (int i = 0; i < 3; i++)
		t.advance(100);
	EXPECT_TRUE(t.r.emu.crashed());
	EXPECT_TRUE(t.r.emu.sw_resetting());
	EXPECT_EQ(t.r.emu.counters().fw_restarts, 0u);
	t.r.emu.firmware_restart(50);
	EXPECT_FALSE(t.r.emu.sw_resetting());
	EXPECT_FALSE(t.r.emu.faults().sw_reset.load());
	EXPECT_EQ(t.nic(), 1u);
}

TEST(FirmwareRestart, GoneStaysGone)
{
	RestartRig t;
	t.r.emu.faults().device_gone = true;
	t.r.emu.poll_once();
	t.r.emu.firmware_restart(50);
	EXPECT_TRUE(t.r.emu.gone());
	EXPECT_EQ(t.rd(0), 0xffffffffu);
}

} // namespace
} // namespace cxprm::emu::test
