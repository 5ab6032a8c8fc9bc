// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The command engine against the emulator: queue geometry, status decoding,
// mailbox chains at their boundaries, the wire capture, every fault knob
// of the emulator, stuck slots, and many threads sharing a 32-entry queue.
#include "support/harness.h"
#include "support/objects.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

#include "cxprm/commands/dct.h"
#include "cxprm/commands/hca.h"
#include "cxprm/device.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/issi.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pages.h"
#include "cxprm/status.h"

using namespace cxprm;
namespace op = cxprm::prm::op;

namespace {

constexpr uint64_t MS = 1000 * 1000;

template <class In> std::vector<uint8_t> make_in(uint16_t opcode, uint16_t op_mod = 0, uint32_t len = In::size_bytes)
{
	std::vector<uint8_t> v(len, 0);
	prm::Ref<In> r(v.data());
	prm::set<typename In::opcode>(r, opcode);
	prm::set<typename In::op_mod>(r, op_mod);
	return v;
}

struct CmdqTest : ::testing::Test {
	test::Harness h{quiet(emu::Profile::connectx7())};

	static emu::Profile quiet(emu::Profile p)
	{
		p.nvmf.auto_io_ms = 0;
		p.boot_pages = 8;
		p.init_pages = 8;
		return p;
	}

	CmdqConfig fast(uint64_t timeout_ms = 2000)
	{
		CmdqConfig c;
		c.timeout_ns = timeout_ms * MS;
		c.slot_wait_ns = 5000 * MS;
		return c;
	}

	// The timeout from now on: short only around commands that are to
	// time out; commands that are to complete get one a loaded host's
	// emulator always meets.
	void set_timeout(uint64_t timeout_ms)
	{
		CmdqConfig c = h.cmdq.config();
		c.timeout_ns = timeout_ms * MS;
		h.cmdq.set_config(c);
	}

	int run(const std::vector<uint8_t> &in, std::vector<uint8_t> &out, CmdResult *res = nullptr)
	{
		return h.cmdq.exec(in.data(), (uint32_t)in.size(), out.data(), (uint32_t)out.size(), res);
	}

	int enable_hca()
	{
		auto in = make_in<prm::enable_hca_in>(op::ENABLE_HCA);
		std::vector<uint8_t> out(16);
		return run(in, out);
	}
};

} // namespace

TEST_F(CmdqTest, GeometryAndQueueAddressFromTheInitSegment)
{
	ASSERT_EQ(h.start(fast()), OK);
	EXPECT_EQ(h.cmdq.entries(), 32u);
	EXPECT_EQ(h.cmdq.log_stride(), 6u);
	uint64_t bus = h.cmdq.queue_page().bus;
	EXPECT_EQ(bus % 4096, 0u);
	EXPECT_EQ(h.uh.ioread32be(prm::iseg::CMDQ_ADDR_H), uint32_t(bus >> 32));
	EXPECT_EQ(h.uh.ioread32be(prm::iseg::CMDQ_ADDR_L_SZ) & 0xfffff000u, uint32_t(bus));
}

TEST_F(CmdqTest, RejectsBadArgumentsWithoutTouchingTheDevice)
{
	ASSERT_EQ(h.start(fast()), OK);
	std::vector<uint8_t> in(16), out(16);
	EXPECT_EQ(h.cmdq.exec(nullptr, 16, out.data(), 16), E_INVAL);
	EXPECT_EQ(h.cmdq.exec(in.data(), 7, out.data(), 16), E_INVAL);
	EXPECT_EQ(h.cmdq.exec(in.data(), 16, out.data(), 11), E_INVAL);
	EXPECT_EQ(h.cmdq.exec(in.data(), h.cmdq.config().max_msg_bytes + 1, out.data(), 16), E_INVAL);
	EXPECT_EQ(h.emu.commands_processed(), 0u);
	// Refused before posting, the output is zeros all the same (cmdq.h),
	// also for a queue shut down.
	std::vector<uint8_t> big(600, 0xaa);
	EXPECT_EQ(h.cmdq.exec(in.data(), 7, big.data(), (uint32_t)big.size()), E_INVAL);
	EXPECT_EQ(std::count(big.begin(), big.end(), 0), 600);
	h.cmdq.fini();
	std::fill(big.begin(), big.end(), 0xaa);
	EXPECT_EQ(h.cmdq.exec(in.data(), 16, big.data(), (uint32_t)big.size()), E_SHUTDOWN);
	EXPECT_EQ(std::count(big.begin(), big.end(), 0), 600);
}

TEST_F(CmdqTest, FirmwareStatusIsSeparateFromDelivery)
{
	ASSERT_EQ(h.start(fast()), OK);
	// Unknown opcode: delivered fine, firmware answers BAD_OP.
	auto in = make_in<prm::cmd_in>(0x7fe, 0, 16);
	std::vector<uint8_t> out(16);
	CmdResult res;
	EXPECT_EQ(run(in, out, &res), E_REMOTEIO);
	EXPECT_EQ(res.st.delivery, 0u);
	EXPECT_EQ(res.st.status, 0x2u);
	EXPECT_NE(res.st.syndrome, 0u);
	EXPECT_STREQ(cmd_status_name(res.st.status), "BAD_OP_ERR");
	// Out of order: QUERY_ISSI before ENABLE_HCA is BAD_SYS_STATE.
	auto qi = make_in<prm::query_issi_in>(op::QUERY_ISSI);
	std::vector<uint8_t> qo(prm::query_issi_out::size_bytes);
	EXPECT_EQ(run(qi, qo, &res), E_REMOTEIO);
	EXPECT_EQ(res.st.status, 0x4u);
	EXPECT_STREQ(cmd_status_name(res.st.status), "BAD_SYS_STATE_ERR");
	// Enabled: the same command succeeds and carries data.
	ASSERT_EQ(enable_hca(), OK);
	ASSERT_EQ(run(qi, qo, &res), OK);
	prm::CRef<prm::query_issi_out> r(qo.data());
	EXPECT_EQ(prm::get<prm::query_issi_out::supported_issi_dw0>(r), 0x3u);
}

// MANAGE_PAGES carries 8 bytes per page after a 16-byte header: page counts
// that put the message exactly at and one entry past each block boundary.
TEST_F(CmdqTest, InputMailboxChainBoundariesCarryEveryByte)
{
	ASSERT_EQ(h.start(fast()), OK);
	ASSERT_EQ(enable_hca(), OK);
	std::vector<cxprm_dma_buf> pages;
	uint64_t total = 0;
	for (uint32_t n : {0u, 1u, 2u, 63u, 64u, 65u, 128u, 129u, 200u}) {
		uint32_t inlen = prm::manage_pages_in::size_bytes + 8 * n;
		auto in = make_in<prm::manage_pages_in>(op::MANAGE_PAGES, prm::manage_pages_op::GIVE, inlen);
		prm::Ref<prm::manage_pages_in> r(in.data());
		prm::set<prm::manage_pages_in::input_num_entries>(r, n);
		for (uint32_t i = 0; i < n; i++) {
			cxprm_dma_buf b;
			ASSERT_EQ(h.uh.dma_alloc(4096, 4096, &b), 0);
			pages.push_back(b);
			store_be64(in.data() + prm::manage_pages_in::size_bytes + 8 * i, b.bus);
		}
		std::vector<uint8_t> out(16);
		CmdResult res;
		ASSERT_EQ(run(in, out, &res), OK) << "pages " << n << " inlen " << inlen << " status " << int(res.st.status);
		total += n;
		EXPECT_EQ(h.emu.pages_held(), total) << inlen;
	}
	std::set<uint64_t> want;
	for (auto &b : pages)
		want.insert(b.bus);
	auto held = h.emu.held_pages();
	EXPECT_EQ(std::set<uint64_t>(held.begin(), held.end()), want);
	auto dis = make_in<prm::disable_hca_in>(op::DISABLE_HCA);
	std::vector<uint8_t> out(16);
	EXPECT_EQ(run(dis, out), OK);
	for (auto &b : pages)
		h.uh.dma_free(&b);
}

TEST_F(CmdqTest, OutputMailboxChainBoundaries)
{
	ASSERT_EQ(h.start(fast()), OK);
	ASSERT_EQ(enable_hca(), OK);
	// QUERY_HCA_CAP answers 0x1010 bytes; asking for more is fine, less is not.
	auto in = make_in<prm::query_hca_cap_in>(op::QUERY_HCA_CAP, prm::cap::op_mod(prm::cap::GENERAL, prm::cap::MAX));
	const auto &want = h.emu.profile().caps.at(0).max;
	for (uint32_t outlen : {0x1010u, 0x1011u, 0x1210u, 0x1211u}) {
		std::vector<uint8_t> out(outlen, 0xee);
		CmdResult res;
		ASSERT_EQ(run(in, out, &res), OK) << outlen;
		EXPECT_EQ(0, memcmp(out.data() + 16, want.data(), 4096)) << outlen;
		for (uint32_t i = 0x1010; i < outlen; i++)
			ASSERT_EQ(out[i], 0) << "byte " << i << " of " << outlen;
	}
	std::vector<uint8_t> short_out(0x100f);
	CmdResult res;
	EXPECT_EQ(run(in, short_out, &res), E_REMOTEIO);
	EXPECT_STREQ(cmd_status_name(res.st.status), "BAD_OUTP_LEN_ERR");
}

TEST_F(CmdqTest, CaptureShowsWhatWentOverTheWire)
{
	ASSERT_EQ(h.start(fast()), OK);
	ASSERT_EQ(enable_hca(), OK);
	auto in = make_in<prm::query_hca_cap_in>(op::QUERY_HCA_CAP, prm::cap::op_mod(prm::cap::GENERAL, prm::cap::CUR));
	std::vector<uint8_t> out(0x1010), blocks(16 * prm::MAILBOX_SIZE);
	CmdCapture cap{};
	cap.blocks = blocks.data();
	cap.blocks_cap = 16;
	CmdResult res;
	ASSERT_EQ(h.cmdq.exec(in.data(), (uint32_t)in.size(), out.data(), (uint32_t)out.size(), &res, 0, &cap), OK);
	prm::CRef<prm::cmd_queue_entry> posted(cap.hdr.entry_posted), done(cap.hdr.entry_completed);
	using E = prm::cmd_queue_entry;
	EXPECT_EQ(prm::get<E::type>(posted), 7u);
	EXPECT_EQ(prm::get<E::ownership>(posted), 1u);
	EXPECT_EQ(prm::get<E::ownership>(done), 0u);
	EXPECT_EQ(prm::get<E::token>(posted), res.token);
	EXPECT_EQ(prm::get<E::input_length>(posted), in.size());
	EXPECT_EQ(prm::get<E::output_length>(posted), 0x1010u);
	EXPECT_EQ(xor8(cap.hdr.entry_posted, 64), 0xff);
	// Checksums off: handed back unsigned (its zero inline output leaves
	// the owner-bit flip: 0xfe), signed only by the lenient profile (A1).
	EXPECT_EQ(xor8(cap.hdr.entry_completed, 64), test::lenient_run() ? 0xff : 0xfe);
	EXPECT_EQ(0, memcmp(prm::bytes<E::command_input_inline_data>(posted), in.data(), 16));
	EXPECT_EQ(cap.hdr.in_blocks, 0u);
	EXPECT_EQ(cap.hdr.out_blocks, 8u);
	EXPECT_FALSE(cap.hdr.truncated);
	for (uint32_t i = 0; i < 8; i++) {
		prm::CRef<prm::cmd_if_box> b(blocks.data() + i * prm::MAILBOX_SIZE);
		EXPECT_EQ(prm::get<prm::cmd_if_box::block_number>(b), i);
		EXPECT_EQ(0, memcmp(prm::bytes<prm::cmd_if_box::mailbox_data>(b), out.data() + 16 + 512 * i, 512));
	}
	// A buffer too small for all blocks says so.
	cap.blocks_cap = 3;
	ASSERT_EQ(h.cmdq.exec(in.data(), (uint32_t)in.size(), out.data(), (uint32_t)out.size(), &res, 0, &cap), OK);
	EXPECT_EQ(cap.hdr.out_blocks, 3u);
	EXPECT_TRUE(cap.hdr.truncated);
}

TEST_F(CmdqTest, StatisticsAndLastCommands)
{
	ASSERT_EQ(h.start(fast()), OK);
	ASSERT_EQ(enable_hca(), OK);
	auto bad = make_in<prm::cmd_in>(0x7fe, 0, 16);
	std::vector<uint8_t> out(16);
	EXPECT_EQ(run(bad, out), E_REMOTEIO);
	OpcodeStats st[8];
	uint32_t n = h.cmdq.stats_opcodes(st, 8);
	ASSERT_EQ(n, 2u);
	EXPECT_EQ(st[0].opcode, op::ENABLE_HCA);
	EXPECT_EQ(st[0].count, 1u);
	EXPECT_EQ(st[0].errors, 0u);
	EXPECT_EQ(st[1].opcode, 0x7fe);
	EXPECT_EQ(st[1].errors, 1u);
	EXPECT_EQ(st[1].last_status, 2u);
	EXPECT_GT(st[1].lat_max_ns, 0u);
	CmdRecord rec[4];
	ASSERT_EQ(h.cmdq.stats_last(rec, 4), 2u);
	EXPECT_EQ(rec[0].opcode, op::ENABLE_HCA);
	EXPECT_EQ(rec[1].opcode, 0x7fe);
	EXPECT_EQ(rec[1].err, E_REMOTEIO);
	EXPECT_EQ(rec[1].seq, 2u);
	EXPECT_EQ(h.cmdq.stats_total(), 2u);
}

// --- fault knobs -----------------------------------------------------------

struct FaultCase {
	const char *name;
	void (*arm)(emu::Faults &);
	int want;
	uint8_t delivery;
	bool checksums = false; // cmdif_checksum on and signatures verified
};

class CmdqFaults : public CmdqTest, public ::testing::WithParamInterface<FaultCase> {};

TEST_P(CmdqFaults, ReportedAndTheQueueKeepsWorking)
{
	const FaultCase &fc = GetParam();
	ASSERT_EQ(h.start(fast(20000)), OK);
	ASSERT_EQ(enable_hca(), OK);
	auto in = make_in<prm::query_hca_cap_in>(op::QUERY_HCA_CAP, prm::cap::op_mod(prm::cap::GENERAL, prm::cap::CUR));
	std::vector<uint8_t> out(0x1010);
	// Signatures mean something only with checksums on (A1).
	if (fc.checksums) {
		ASSERT_TRUE(test::checksums_on(h));
	}
	h.emu.faults().once = true;
	fc.arm(h.emu.faults());
	CmdResult res;
	if (fc.want == E_TIMEDOUT)
		set_timeout(300);
	EXPECT_EQ(run(in, out, &res), fc.want) << fc.name;
	set_timeout(20000);
	if (fc.delivery) {
		EXPECT_EQ(res.st.delivery, fc.delivery);
	}
	// The next command goes through (a stuck slot is skipped).
	EXPECT_EQ(run(in, out, &res), OK) << fc.name;
	EXPECT_EQ(res.st.delivery, 0u);
}

INSTANTIATE_TEST_SUITE_P(
	Knobs, CmdqFaults,
	::testing::Values(
		FaultCase{"never_complete", [](emu::Faults &f) { f.never_complete = true; }, E_TIMEDOUT, 0},
		FaultCase{"entry_signature", [](emu::Faults &f) { f.corrupt_output_signature = emu::Faults::ENTRY; }, E_BADMSG, 0, true},
		FaultCase{"block_signature", [](emu::Faults &f) { f.corrupt_output_signature = emu::Faults::BLOCKS; }, E_BADMSG, 0, true},
		// Checksums off: nothing verifies a signature (Linux, rdma-core).
		FaultCase{"entry_signature_unchecked", [](emu::Faults &f) { f.corrupt_output_signature = emu::Faults::ENTRY; }, OK, 0},
		// A12: token and lengths are not read back (no reference driver does).
		FaultCase{"entry_token", [](emu::Faults &f) { f.wrong_output_token = emu::Faults::ENTRY; }, OK, 0},
		FaultCase{"block_token", [](emu::Faults &f) { f.wrong_output_token = emu::Faults::BLOCKS; }, OK, 0},
		FaultCase{"delivery_status", [](emu::Faults &f) { f.delivery_status = 0x6; f.delivery_status_count = 1; }, E_IO, 0x6},
		FaultCase{"output_length_lie", [](emu::Faults &f) { f.output_length_lie = 4096; }, OK, 0},
		FaultCase{"broken_output_chain", [](emu::Faults &f) { f.broken_output_chain = true; }, E_PROTO, 0}),
	[](const ::testing::TestParamInfo<FaultCase> &i) { return std::string(i.param.name); });

TEST_F(CmdqTest, SlowCommandIsMeasured)
{
	ASSERT_EQ(h.start(fast()), OK);
	h.emu.faults().slow_ms = 30;
	CmdResult res;
	auto in = make_in<prm::enable_hca_in>(op::ENABLE_HCA);
	std::vector<uint8_t> out(16);
	ASSERT_EQ(run(in, out, &res), OK);
	EXPECT_GE(res.st.latency_ns, 30 * MS);
}

TEST_F(CmdqTest, DeadFirmwareIsDetectedWhileWaiting)
{
	ASSERT_EQ(h.start(fast(20000)), OK);
	ASSERT_EQ(enable_hca(), OK);
	h.emu.faults().crash = true;
	auto in = make_in<prm::query_issi_in>(op::QUERY_ISSI);
	std::vector<uint8_t> out(prm::query_issi_out::size_bytes);
	auto t0 = std::chrono::steady_clock::now();
	EXPECT_EQ(run(in, out), E_HOSTDOWN);
	EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10)) << "not left to the timeout";
}

TEST_F(CmdqTest, GoneDeviceIsDetectedWhileWaiting)
{
	ASSERT_EQ(h.start(fast(20000)), OK);
	ASSERT_EQ(enable_hca(), OK);
	// Firmware holds the command (however late a loaded host runs the
	// puller, the answer does not come first).
	h.emu.faults().never_complete = true;
	// Surprise removal: from now on every BAR read returns all ones.
	std::thread pull([&] {
		std::this_thread::sleep_for(std::chrono::milliseconds(50));
		h.emu.faults().device_gone = true;
		memset(h.uh.bar(), 0xff, h.uh.bar_size());
	});
	auto in = make_in<prm::query_issi_in>(op::QUERY_ISSI);
	std::vector<uint8_t> out(prm::query_issi_out::size_bytes);
	EXPECT_EQ(run(in, out), E_NODEV);
	pull.join();
	EXPECT_TRUE(h.cmdq.device_gone());
}

TEST_F(CmdqTest, StuckSlotIsReusedOnlyAfterTheDeviceHandsItBack)
{
	ASSERT_EQ(h.start(fast(20000)), OK);
	ASSERT_EQ(enable_hca(), OK);
	auto in = make_in<prm::query_issi_in>(op::QUERY_ISSI);
	std::vector<uint8_t> out(prm::query_issi_out::size_bytes);
	// Commands slower than the timeout: each one strands its slot.
	set_timeout(100);
	h.emu.faults().slow_ms = 150;
	const uint64_t done = h.emu.commands_processed();
	CmdResult res;
	EXPECT_EQ(run(in, out, &res), E_TIMEDOUT);
	uint8_t first = res.slot;
	EXPECT_EQ(h.cmdq.in_flight(), 1u);
	EXPECT_EQ(run(in, out, &res), E_TIMEDOUT);
	EXPECT_NE(res.slot, first) << "a slot the device still owns was reused";
	h.emu.faults().slow_ms = 0;
	// Both late completions arrive (bounded generously: a loaded host).
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	while (h.emu.commands_processed() < done + 2 && std::chrono::steady_clock::now() < end)
		std::this_thread::sleep_for(std::chrono::milliseconds(1));
	ASSERT_EQ(h.emu.commands_processed(), done + 2);
	// Their slots come back.
	set_timeout(20000);
	EXPECT_EQ(run(in, out, &res), OK);
	EXPECT_EQ(h.cmdq.in_flight(), 0u);
}

// Firmware that swallows every command: once all regular slots hold a
// timed-out command, the next one fails with E_BUSY at once instead of
// waiting slot_wait_ns for a slot no live command will free; the slot kept
// for MANAGE_PAGES still works.
TEST_F(CmdqTest, AllSlotsQuarantinedFailsAtOnce)
{
	CmdqConfig c = fast(20000);
	c.slot_wait_ns = 10000 * MS;
	ASSERT_EQ(h.start(c), OK);
	ASSERT_EQ(enable_hca(), OK);
	set_timeout(20);
	auto in = make_in<prm::query_issi_in>(op::QUERY_ISSI);
	std::vector<uint8_t> out(prm::query_issi_out::size_bytes);
	h.emu.faults().only_opcode = op::QUERY_ISSI;
	h.emu.faults().never_complete = true;
	const uint32_t regular = h.cmdq.entries() - 1;
	for (uint32_t i = 0; i < regular; i++)
		ASSERT_EQ(run(in, out), E_TIMEDOUT) << i;
	EXPECT_EQ(h.cmdq.in_flight(), regular);
	auto t0 = std::chrono::steady_clock::now();
	EXPECT_EQ(run(in, out), E_BUSY);
	auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
	EXPECT_LT(ms, 2000) << "waited for a slot that only the device can free";
	// The page slot is not quarantined: MANAGE_PAGES still gets through.
	set_timeout(20000);
	auto qp = make_in<prm::query_pages_in>(op::QUERY_PAGES, prm::query_pages_op::BOOT);
	std::vector<uint8_t> qout(prm::query_pages_out::size_bytes);
	EXPECT_EQ(h.cmdq.exec(qp.data(), (u32)qp.size(), qout.data(), (u32)qout.size(), nullptr, EXEC_PAGE_SLOT), OK);
}

TEST_F(CmdqTest, ShutdownRefusesNewCommands)
{
	ASSERT_EQ(h.start(fast()), OK);
	ASSERT_EQ(enable_hca(), OK);
	h.cmdq.fini();
	auto in = make_in<prm::enable_hca_in>(op::ENABLE_HCA);
	std::vector<uint8_t> out(16);
	EXPECT_EQ(run(in, out), E_SHUTDOWN);
	EXPECT_EQ(h.uh.dma_live(), 0u);
	// The history outlives the queue (debugfs after a failed bring-up).
	EXPECT_EQ(h.cmdq.stats_total(), 1u);
	CmdRecord rec[2];
	EXPECT_EQ(h.cmdq.stats_last(rec, 2), 1u);
	EXPECT_EQ(h.cmdq.in_flight(), 0u);
}

// Callers waiting for a slot when the queue shuts down leave with
// E_SHUTDOWN before fini() frees what they wait on; the commands in the
// slots finish.  The device is held (its thread stopped) until every
// caller is in and the waiters have left, so no slot frees early however
// slowly the threads start (a loaded CI machine).
TEST_F(CmdqTest, ShutdownReleasesCallersWaitingForASlot)
{
	ASSERT_EQ(h.start(fast(30000)), OK);
	h.emu.stop();
	constexpr int kThreads = 40;
	std::vector<int> err(kThreads, 1);
	std::vector<std::thread> th;
	for (int t = 0; t < kThreads; t++)
		th.emplace_back([&, t] {
			auto in = make_in<prm::query_issi_in>(op::QUERY_ISSI);
			std::vector<uint8_t> out(prm::query_issi_out::size_bytes);
			err[t] = run(in, out);
		});
	// Every caller is in: the 31 regular slots busy, the other 9 waiting.
	auto all_in = [&] { return h.cmdq.in_flight() == 31 && h.cmdq.slot_waits().waiting == 9; };
	for (int i = 0; i < 200000 && !all_in(); i++)
		std::this_thread::sleep_for(std::chrono::microseconds(50));
	EXPECT_TRUE(all_in());
	std::thread fin([&] { h.cmdq.fini(); });
	for (int i = 0; i < 200000 && h.cmdq.slot_waits().waiting; i++)
		std::this_thread::sleep_for(std::chrono::microseconds(50));
	EXPECT_EQ(h.cmdq.slot_waits().waiting, 0u);
	h.emu.start(); // the commands in the slots are answered now
	fin.join();
	for (auto &x : th)
		x.join();
	int shut = 0, answered = 0;
	for (int e : err) {
		shut += e == E_SHUTDOWN;
		answered += e == E_REMOTEIO; // QUERY_ISSI before ENABLE_HCA
	}
	EXPECT_EQ(shut, 9);
	EXPECT_EQ(answered, 31);
	EXPECT_EQ(h.uh.dma_live(), 0u);
}

// --- concurrency -------------------------------------------------------------

// Many threads share the 32-entry queue, each querying its own DCT whose
// context is unique (its own PD, CQ and SRQ too): every answer must be the
// asker's own, none lost.
TEST(CmdqConcurrency, ManyThreadsManyCommandsNothingLostOrMixed)
{
	emu::Profile p = emu::Profile::connectx7();
	p.boot_pages = p.init_pages = 8;
	p.nvmf.auto_io_ms = 0;
	test::Harness h(p);
	h.emu.start();
	Device dev;
	BringupConfig cfg;
	cfg.cmdq.timeout_ns = 10000 * MS;
	ASSERT_EQ(dev.bringup(h.host(), cfg), OK);

	constexpr int kThreads = 40, kPerThread = 150;
	std::vector<uint32_t> dctn(kThreads);
	std::vector<test::DctRefs> refs(kThreads);
	test::CmdObjects objs(h.host(), dev.cmdq());
	for (int t = 0; t < kThreads; t++) {
		ASSERT_EQ(objs.make_dct_refs(&refs[t]), OK) << t;
		cmd::DctContext c = refs[t].on(cmd::DctContext{});
		c.dc_access_key = 0xabc0000000ull + t;
		c.mtu = 1 + t % 5;
		c.hop_limit = t;
		c.port = 1;
		ASSERT_EQ(cmd::create_dct(dev.cmdq(), c, &dctn[t]), OK);
	}
	uint64_t before = h.emu.opcode_count(op::QUERY_DCT);
	std::atomic<int> bad{0}, errors{0};
	std::vector<std::thread> th;
	for (int t = 0; t < kThreads; t++)
		th.emplace_back([&, t] {
			for (int i = 0; i < kPerThread; i++) {
				cmd::DctContext c{};
				if (cmd::query_dct(dev.cmdq(), dctn[t], &c) != OK) {
					errors++;
					continue;
				}
				if (c.pd != refs[t].pd || c.cqn != refs[t].cqn || c.dc_access_key != 0xabc0000000ull + t)
					bad++;
			}
		});
	for (auto &x : th)
		x.join();
	EXPECT_EQ(errors.load(), 0);
	EXPECT_EQ(bad.load(), 0);
	// 40 callers, 31 regular slots: callers waited for a slot, and freed
	// slots woke them (mlx5's slot semaphore), not only their timeouts.
	Cmdq::SlotWaits w = dev.cmdq().slot_waits();
	EXPECT_GT(w.waits, 0u);
	EXPECT_GT(w.wakes, 0u);
	EXPECT_EQ(h.emu.opcode_count(op::QUERY_DCT) - before, uint64_t(kThreads * kPerThread));
	OpcodeStats st[64];
	uint32_t n = dev.cmdq().stats_opcodes(st, 64);
	bool found = false;
	for (uint32_t i = 0; i < n; i++)
		if (st[i].opcode == op::QUERY_DCT) {
			found = true;
			EXPECT_EQ(st[i].count, uint64_t(kThreads * kPerThread));
			EXPECT_EQ(st[i].errors, 0u);
		}
	EXPECT_TRUE(found);
	EXPECT_EQ(dev.cmdq().in_flight(), 0u);
	for (int t = 0; t < kThreads; t++)
		EXPECT_EQ(cmd::destroy_dct_drained(dev.cmdq(), dctn[t]), OK);
	EXPECT_EQ(objs.destroy(), OK);
	dev.teardown();
	EXPECT_EQ(h.emu.pages_held(), 0u);
}
