// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A slot reserved before its command (Cmdq::Reserved, cmdq_page_slot.cpp)
// and MANAGE_PAGES GIVE on it (cmd::ManagePagesGive: the page list written
// into the page slot's input mailboxes as the pages are mapped): the same
// bytes on the wire as a MsgSource with a fill, with and without
// checksums; a reservation given back on every failure; a shutdown or a
// failed device between reserve and exec is an error, nothing posted.
#include "support/harness.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "cxprm/commands/hca.h"
#include "cxprm/commands/pages.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pages.h"
#include "cxprm/wire.h"

using namespace cxprm;
namespace op = cxprm::prm::op;

namespace {

constexpr uint64_t MS = 1000 * 1000;

struct PageSlot : ::testing::Test {
	test::Harness h{test::small_profile()};
	std::vector<cxprm_dma_buf> pages;

	void SetUp() override
	{
		CmdqConfig c;
		c.timeout_ns = 5000 * MS;
		c.slot_wait_ns = 5000 * MS;
		ASSERT_EQ(h.start(c), OK);
		ASSERT_EQ(cmd::enable_hca(h.cmdq), OK);
	}
	void TearDown() override
	{
		h.cmdq.fini();
		for (auto &b : pages)
			h.uh.dma_free(&b);
	}

	// n fresh 4 KiB pages of the host's DMA memory (firmware refuses one twice).
	std::vector<uint64_t> fresh(uint32_t n)
	{
		std::vector<uint64_t> pas;
		for (uint32_t i = 0; i < n; i++) {
			cxprm_dma_buf b;
			EXPECT_EQ(h.uh.dma_alloc(4096, 4096, &b), 0);
			pages.push_back(b);
			pas.push_back(b.bus);
		}
		return pas;
	}

	// A GIVE of n fresh pages reserved and written, not run; returns the
	// MANAGE_PAGES the emulator had seen before.
	uint64_t reserve_written(cmd::ManagePagesGive &g, uint32_t n)
	{
		uint64_t mp = h.emu.opcode_count(op::MANAGE_PAGES);
		EXPECT_EQ(g.begin(h.cmdq, n), OK);
		for (uint64_t pa : fresh(n))
			EXPECT_EQ(g.add(pa), OK);
		return mp;
	}

	// The flat GIVE message of pas, as the old path's fill wrote it.
	static std::vector<uint8_t> give_msg(const std::vector<uint64_t> &pas)
	{
		std::vector<uint8_t> m(prm::manage_pages_in_pas::bytes_for((uint32_t)pas.size()), 0);
		prm::Ref<prm::manage_pages_in> r(m.data());
		prm::set<prm::manage_pages_in::opcode>(r, op::MANAGE_PAGES);
		prm::set<prm::manage_pages_in::op_mod>(r, prm::manage_pages_op::GIVE);
		prm::set<prm::manage_pages_in::input_num_entries>(r, (uint32_t)pas.size());
		for (uint32_t i = 0; i < pas.size(); i++)
			prm::set_pas<prm::manage_pages_in_pas>(r, i, pas[i]);
		return m;
	}

	// The old path: the message's head inline, the pas by a MsgSource fill.
	int give_by_fill(const std::vector<uint64_t> &pas, CmdResult *res)
	{
		std::vector<uint8_t> m = give_msg(pas);
		MsgSource src;
		src.head = m.data();
		src.head_len = prm::manage_pages_in::size_bytes;
		src.len = (uint32_t)m.size();
		src.fill = [](const void *ctx, uint32_t off, uint8_t *dst, uint32_t n) {
			auto *pas = (const uint64_t *)ctx;
			prm::fill_pas_of<prm::manage_pages_in_pas>([pas](uint32_t i) { return pas[i]; }, off,
								   dst, n);
		};
		src.ctx = pas.data();
		uint8_t out[prm::manage_pages_out::size_bytes];
		return h.cmdq.exec(src, out, sizeof(out), res, EXEC_PAGE_SLOT);
	}

	// What the device read for the command just run on res.slot (its
	// entry's input part and input blocks) equals the wire image
	// cmd_wire_layout makes of the flat message with the same token.
	void expect_wire(const std::vector<uint8_t> &msg, const CmdResult &res, bool sign)
	{
		const uint8_t *e = h.cmdq.slot_bytes(res.slot);
		prm::CRef<prm::cmd_queue_entry> er(e);
		uint64_t in_bus = prm::get<prm::cmd_queue_entry::input_mailbox_pointer_63_32>(er) << 32 |
				  prm::get<prm::cmd_queue_entry::input_mailbox_pointer_31_9>(er) << 9;
		uint32_t nb = prm::mailbox_blocks((uint32_t)msg.size());
		std::vector<uint8_t> entry(64), in_blocks((size_t)nb * prm::MAILBOX_SIZE), out_blocks(prm::MAILBOX_SIZE);
		cmd_wire_layout({entry.data(), in_blocks.data(), out_blocks.data(), in_bus, 0}, msg.data(),
				(uint32_t)msg.size(), prm::manage_pages_out::size_bytes, res.token, sign);
		// Type, input length, input pointer and inline input; output
		// pointer, length and token (firmware rewrites the rest).
		EXPECT_EQ(0, memcmp(e, entry.data(), 0x20));
		EXPECT_EQ(0, memcmp(e + 0x30, entry.data() + 0x30, 0xd));
		for (uint32_t i = 0; i < nb; i++) {
			const uint8_t *b = h.uh.dma_ptr(in_bus + (uint64_t)i * MailboxChain::STRIDE, prm::MAILBOX_SIZE);
			ASSERT_NE(b, nullptr);
			EXPECT_EQ(0, memcmp(b, in_blocks.data() + (size_t)i * prm::MAILBOX_SIZE, prm::MAILBOX_SIZE))
				<< "block " << i << " of " << nb;
		}
	}

	void same_wire_both_ways(bool sign)
	{
		// The fill's 300 pages (5 blocks) first: the chain is dirty where
		// the 200 (4 blocks, the last one partly zeros) do not write.
		auto a = fresh(300), b = fresh(200);
		CmdResult ra, rb;
		ASSERT_EQ(give_by_fill(a, &ra), OK);
		expect_wire(give_msg(a), ra, sign);
		ASSERT_EQ(cmd::manage_pages_give(h.cmdq, {}, b.data(), (uint32_t)b.size(), &rb), OK);
		EXPECT_EQ(rb.slot, h.cmdq.entries() - 1); // the page slot, the same chain
		EXPECT_EQ(ra.slot, rb.slot);
		expect_wire(give_msg(b), rb, sign);
		EXPECT_EQ(h.emu.pages_held(), 500u);
	}
};

TEST_F(PageSlot, PrefilledGiveSendsTheBytesOfTheFilledOne) { same_wire_both_ways(false); }

TEST_F(PageSlot, PrefilledGiveSendsTheBytesOfTheFilledOneWithChecksums)
{
	ASSERT_TRUE(test::checksums_on(h));
	same_wire_both_ways(true);
}

// A reservation given back unused (pages not mapped, a failure midway, a
// GIVE with too few pages): no command, and the next GIVE gets the slot.
TEST_F(PageSlot, AnUnusedReservationGivesTheSlotBack)
{
	auto pas = fresh(64);
	uint64_t mp = h.emu.opcode_count(op::MANAGE_PAGES);
	{
		cmd::ManagePagesGive g;
		ASSERT_EQ(g.begin(h.cmdq, 64), OK);
		EXPECT_EQ(h.cmdq.in_flight(), 1u);
		for (int i = 0; i < 10; i++)
			ASSERT_EQ(g.add(pas[i]), OK);
	} // the destructor
	EXPECT_EQ(h.cmdq.in_flight(), 0u);
	cmd::ManagePagesGive g;
	ASSERT_EQ(g.begin(h.cmdq, 64), OK);
	EXPECT_EQ(g.add(pas[0] + 8), E_INVAL); // unaligned
	EXPECT_EQ(g.exec({}), E_INVAL);         // 0 of 64 in: refused, released
	EXPECT_EQ(h.cmdq.in_flight(), 0u);
	EXPECT_EQ(g.begin(h.cmdq, 0), E_INVAL);
	EXPECT_EQ(g.begin(h.cmdq, cmd::manage_pages_max_entries(h.cmdq) + 1), E_RANGE);
	EXPECT_EQ(h.emu.opcode_count(op::MANAGE_PAGES), mp);
	EXPECT_EQ(cmd::manage_pages_give(h.cmdq, {}, pas.data(), 64), OK);
	EXPECT_EQ(h.emu.pages_held(), 64u);
	EXPECT_EQ(h.cmdq.in_flight(), 0u);
}

// While one caller holds the page slot, another GIVE takes a regular slot
// (as it did when the slot was busy with a command); none waits forever.
TEST_F(PageSlot, ASecondGiveWhileTheSlotIsReserved)
{
	auto a = fresh(8), b = fresh(8);
	cmd::ManagePagesGive g;
	ASSERT_EQ(g.begin(h.cmdq, 8), OK);
	for (uint64_t pa : a)
		ASSERT_EQ(g.add(pa), OK);
	CmdResult rb;
	ASSERT_EQ(cmd::manage_pages_give(h.cmdq, {}, b.data(), 8, &rb), OK);
	EXPECT_NE(rb.slot, h.cmdq.entries() - 1);
	CmdResult ra;
	ASSERT_EQ(g.exec({}, &ra), OK);
	EXPECT_EQ(ra.slot, h.cmdq.entries() - 1);
	EXPECT_EQ(h.emu.pages_held(), 16u);
}

// Threads giving at once: every GIVE lands, no slot is left held.
TEST_F(PageSlot, ConcurrentGivesAllLand)
{
	constexpr int kThreads = 4, kRounds = 20, kPages = 70; // 2 blocks each
	std::vector<std::vector<uint64_t>> pas;
	for (int t = 0; t < kThreads; t++)
		pas.push_back(fresh(kRounds * kPages));
	std::atomic<int> bad{0};
	std::vector<std::thread> th;
	for (int t = 0; t < kThreads; t++)
		th.emplace_back([&, t] {
			for (int r = 0; r < kRounds; r++)
				if (cmd::manage_pages_give(h.cmdq, {}, pas[t].data() + r * kPages, kPages) != OK)
					bad++;
		});
	for (auto &x : th)
		x.join();
	EXPECT_EQ(bad.load(), 0);
	EXPECT_EQ(h.emu.pages_held(), (uint64_t)kThreads * kRounds * kPages);
	EXPECT_EQ(h.cmdq.in_flight(), 0u);
}

// fini() between reserve and exec waits for the holder, who may still
// write its blocks; its exec is then E_SHUTDOWN and posts nothing.
TEST_F(PageSlot, ShutdownBetweenReserveAndExecIsAnError)
{
	cmd::ManagePagesGive g;
	uint64_t mp = h.emu.opcode_count(op::MANAGE_PAGES);
	ASSERT_EQ(g.begin(h.cmdq, 100), OK);
	std::atomic<bool> done{false};
	std::thread fini([&] {
		h.cmdq.fini();
		done = true;
	});
	std::this_thread::sleep_for(std::chrono::milliseconds(50));
	EXPECT_FALSE(done.load()) << "fini() freed a chain a reservation holds";
	for (uint64_t pa : fresh(100))
		ASSERT_EQ(g.add(pa), OK); // into memory still the queue's
	EXPECT_EQ(g.exec({}), E_SHUTDOWN);
	fini.join();
	EXPECT_TRUE(done.load());
	EXPECT_EQ(h.emu.opcode_count(op::MANAGE_PAGES), mp);
	EXPECT_EQ(h.emu.pages_held(), 0u);
	EXPECT_EQ(h.uh.dma_live(), pages.size()); // the queue's memory all freed
	EXPECT_EQ(g.begin(h.cmdq, 100), E_SHUTDOWN);
}

// The same with the reservation given back instead: fini() goes on.
TEST_F(PageSlot, ShutdownWaitsForARelease)
{
	cmd::ManagePagesGive g;
	ASSERT_EQ(g.begin(h.cmdq, 10), OK);
	std::thread fini([&] { h.cmdq.fini(); });
	std::this_thread::sleep_for(std::chrono::milliseconds(20));
	g.release();
	fini.join();
	EXPECT_EQ(h.uh.dma_live(), 0u);
}

// A device failed between reserve and exec: the failure, nothing posted,
// the slot back (fini() does not wait).
TEST_F(PageSlot, DeviceFailedBetweenReserveAndExecIsAnError)
{
	cmd::ManagePagesGive g;
	uint64_t mp = reserve_written(g, 10);
	h.health.mark_failed(E_HOSTDOWN, HealthSource::HOST);
	EXPECT_EQ(g.exec({}), E_HOSTDOWN);
	EXPECT_EQ(h.cmdq.in_flight(), 0u);
	EXPECT_EQ(h.emu.opcode_count(op::MANAGE_PAGES), mp);
	EXPECT_EQ(g.begin(h.cmdq, 10), E_HOSTDOWN);
}

} // namespace
