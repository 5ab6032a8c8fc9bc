// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The command engine's two halves (Cmdq::submit, Cmdq::complete): one
// thread with many commands posted, completed in any order, E_AGAIN when
// no slot is free, and the refusals that leave nothing to complete.
#include "support/harness.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "cxprm/prm/hca.h"
#include "cxprm/prm/issi.h"
#include "cxprm/prm/opcodes.h"

using namespace cxprm;
namespace op = cxprm::prm::op;

namespace {

constexpr uint64_t MS = 1000 * 1000;

struct CmdqPostedTest : ::testing::Test {
	test::Harness h{quiet(emu::Profile::connectx7())};

	static emu::Profile quiet(emu::Profile p)
	{
		p.nvmf.auto_io_ms = 0;
		p.boot_pages = p.init_pages = 8;
		return p;
	}

	void SetUp() override
	{
		CmdqConfig c;
		c.timeout_ns = 5000 * MS;
		ASSERT_EQ(h.start(c), OK);
	}

	// QUERY_ISSI's input (answered before ENABLE_HCA with a bad status,
	// which is as good a completion as any here).
	static std::vector<uint8_t> issi_in()
	{
		std::vector<uint8_t> v(prm::query_issi_in::size_bytes, 0);
		prm::set<prm::query_issi_in::opcode>(prm::Ref<prm::query_issi_in>(v.data()), op::QUERY_ISSI);
		return v;
	}
};

} // namespace

// 31 commands posted from one thread (every regular slot), the 32nd gets
// E_AGAIN, and they complete in reverse order, each with its own token
// and a record each in the statistics.
TEST_F(CmdqPostedTest, OneThreadPostsEverySlotAndCompletesInAnyOrder)
{
	constexpr uint32_t kRegular = 31;
	auto in = issi_in();
	std::vector<std::vector<uint8_t>> out(kRegular, std::vector<uint8_t>(prm::query_issi_out::size_bytes, 0xee));
	std::vector<CmdResult> res(kRegular);
	std::vector<Cmdq::Posted> p(kRegular);
	uint64_t before = h.cmdq.stats_total();
	for (uint32_t i = 0; i < kRegular; i++)
		ASSERT_EQ(h.cmdq.submit(MsgSource::flat(in.data(), (uint32_t)in.size()), out[i].data(),
					(uint32_t)out[i].size(), &res[i], EXEC_NO_WAIT, &p[i]),
			  OK)
			<< i;
	EXPECT_EQ(h.cmdq.in_flight(), kRegular);
	std::vector<uint8_t> extra(prm::query_issi_out::size_bytes, 0xee);
	Cmdq::Posted px;
	EXPECT_EQ(h.cmdq.submit(MsgSource::flat(in.data(), (uint32_t)in.size()), extra.data(),
				(uint32_t)extra.size(), nullptr, EXEC_NO_WAIT, &px),
		  E_AGAIN);
	EXPECT_EQ(extra, std::vector<uint8_t>(extra.size(), 0)); // refused: zeroed, as exec()
	EXPECT_EQ(h.cmdq.slot_waits().waits, 0u);                // E_AGAIN is not a wait
	// done() turns true for each without anyone waiting.
	for (uint32_t i = 0; i < kRegular; i++)
		for (int t = 0; t < 50000 && !h.cmdq.done(p[i]); t++)
			std::this_thread::sleep_for(std::chrono::microseconds(20));
	for (uint32_t i = kRegular; i-- > 0;) {
		EXPECT_TRUE(h.cmdq.done(p[i])) << i;
		EXPECT_EQ(h.cmdq.complete(&p[i]), E_REMOTEIO) << i; // QUERY_ISSI before ENABLE_HCA
		EXPECT_EQ(res[i].st.opcode, op::QUERY_ISSI);
		EXPECT_NE(res[i].st.status, 0);
		EXPECT_EQ(prm::get<prm::cmd_out::status>(prm::CRef<prm::cmd_out>(out[i].data())), res[i].st.status);
	}
	for (uint32_t i = 1; i < kRegular; i++)
		EXPECT_NE(res[i].token, res[i - 1].token);
	EXPECT_EQ(h.cmdq.in_flight(), 0u);
	EXPECT_EQ(h.cmdq.stats_total() - before, (uint64_t)kRegular);
}

// submit() and complete() in a row are exec(): same answer, same record.
TEST_F(CmdqPostedTest, SubmitThenCompleteIsExec)
{
	auto in = issi_in();
	std::vector<uint8_t> a(prm::query_issi_out::size_bytes), b(a.size());
	CmdResult ra{}, rb{};
	ASSERT_EQ(h.cmdq.exec(in.data(), (uint32_t)in.size(), a.data(), (uint32_t)a.size(), &ra), E_REMOTEIO);
	Cmdq::Posted p;
	ASSERT_EQ(h.cmdq.submit(MsgSource::flat(in.data(), (uint32_t)in.size()), b.data(), (uint32_t)b.size(),
				&rb, 0, &p),
		  OK);
	EXPECT_EQ(h.cmdq.complete(&p), E_REMOTEIO);
	EXPECT_EQ(a, b);
	EXPECT_EQ(ra.st.status, rb.st.status);
	EXPECT_EQ(ra.st.syndrome, rb.st.syndrome);
	EXPECT_GT(rb.st.latency_ns, 0u);
	CmdRecord last[1];
	ASSERT_EQ(h.cmdq.stats_last(last, 1), 1u);
	EXPECT_EQ(last[0].token, rb.token);
	EXPECT_EQ(last[0].opcode, op::QUERY_ISSI);
}

// Refused before posting (bad arguments, a failed device): the error, the
// output zeroed and no slot taken, so nothing to complete.
TEST_F(CmdqPostedTest, RefusedCommandsLeaveNothingToComplete)
{
	auto in = issi_in();
	std::vector<uint8_t> out(prm::query_issi_out::size_bytes, 0xee);
	Cmdq::Posted p;
	EXPECT_EQ(h.cmdq.submit(MsgSource::flat(in.data(), 4), out.data(), (uint32_t)out.size(), nullptr, 0, &p),
		  E_INVAL);
	EXPECT_EQ(out, std::vector<uint8_t>(out.size(), 0));
	EXPECT_EQ(h.cmdq.in_flight(), 0u);
	h.cmdq.health().mark_failed(E_HOSTDOWN, HealthSource::HOST);
	out.assign(out.size(), 0xee);
	EXPECT_EQ(h.cmdq.submit(MsgSource::flat(in.data(), (uint32_t)in.size()), out.data(), (uint32_t)out.size(),
				nullptr, EXEC_NO_WAIT, &p),
		  E_HOSTDOWN);
	EXPECT_EQ(out, std::vector<uint8_t>(out.size(), 0));
	EXPECT_EQ(h.cmdq.in_flight(), 0u);
}
