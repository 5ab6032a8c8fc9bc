// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// NVMF namespaces: attach, query counters, detach; on XRQs (NVMF offload)
// and backend controllers created first (the strict object model).
#include "object_builders.h"

namespace cxprm::emu::test {
namespace {

using ctx_t = prm::nvmf_frontend_namespace_context;

// An XRQ with NVMF offload room for n namespaces and a backend controller.
struct NvmfObjects {
	uint32_t xrqn = 0;
	uint16_t ctrl = 0;
	void create(ObjectBuilder &b, const ObjectSet &o, uint8_t log_max_ns)
	{
		xrqn = b.xrq(o.pd, o.cqn, log_max_ns);
		ctrl = b.backend(xrqn);
	}
};

struct NvmfTest : InitializedTest {
	ObjectBuilder b{drv, plat};
	ObjectSet o;
	NvmfObjects x1, x2;
	void SetUp() override
	{
		InitializedTest::SetUp();
		o.create(b);
		x1.create(b, o, 10); // room for the profile's whole table (Limit)
		x2.create(b, o, 3);
	}
	uint32_t xrqn() const { return x1.xrqn; }
	uint16_t ctrl_of(uint32_t x) const { return x == x2.xrqn ? x2.ctrl : x1.ctrl; }
	Answer attach(uint32_t x, uint32_t nsid, uint32_t be = 1, uint16_t lba = 512)
	{
		return b.attach_ns(x, nsid, be, lba, ctrl_of(x));
	}
	Answer query(uint32_t x, uint32_t nsid)
	{
		Msg m = make_in<prm::query_nvmf_namespace_in>(op::QUERY_NVMF_NAMESPACE_CONTEXT);
		prm::set<prm::query_nvmf_namespace_in::xrqn>(m.as<prm::query_nvmf_namespace_in>(), x);
		prm::set<prm::query_nvmf_namespace_in::frontend_namespace>(m.as<prm::query_nvmf_namespace_in>(), nsid);
		return drv.exec(m, prm::query_nvmf_namespace_out::size_bytes);
	}
	Answer detach(uint32_t x, uint32_t nsid)
	{
		Msg m = make_in<prm::detach_nvmf_namespace_in>(op::DETACH_NVMF_NAMESPACE);
		prm::set<prm::detach_nvmf_namespace_in::xrqn>(m.as<prm::detach_nvmf_namespace_in>(), x);
		prm::set<prm::detach_nvmf_namespace_in::frontend_namespace>(m.as<prm::detach_nvmf_namespace_in>(), nsid);
		return drv.exec(m, 16);
	}
	static CRef<ctx_t> ctx(const Answer &a)
	{
		return prm::sub<prm::query_nvmf_namespace_out::ns_ctx, ctx_t>(a.as<prm::query_nvmf_namespace_out>());
	}
};

TEST_F(NvmfTest, AttachQueryDetach)
{
	ASSERT_EQ(attach(xrqn(), 1).status, st::OK);
	EXPECT_EQ(emu.nvmf_namespace_count(), 1u);
	Answer q = query(xrqn(), 1);
	ASSERT_EQ(q.status, st::OK);
	EXPECT_EQ(prm::get<ctx_t::num_read_cmd_low>(ctx(q)), 0u);

	NvmfIo io;
	io.read_cmds = 5;
	io.read_blocks = 40;
	io.write_cmds = 3;
	io.write_blocks = 24;
	io.flush_cmds = 1;
	io.error_cmds = 2;
	io.backend_error_cmds = 1;
	io.write_inline_cmds = 2;
	ASSERT_TRUE(emu.simulate_nvmf_io(xrqn(), 1, io));
	NvmfIo years; // the high words, which real I/O would take years to reach
	years.read_cmds = 1ull << 32;
	ASSERT_TRUE(emu.nvmf_add_counters(xrqn(), 1, years));
	q = query(xrqn(), 1);
	CRef<ctx_t> c = ctx(q);
	EXPECT_EQ(prm::get<ctx_t::num_read_cmd_high>(c), 1u);
	EXPECT_EQ(prm::get<ctx_t::num_read_cmd_low>(c), 5u);
	EXPECT_EQ(prm::get<ctx_t::num_read_blocks_low>(c), 40u);
	EXPECT_EQ(prm::get<ctx_t::num_write_cmd_low>(c), 3u);
	EXPECT_EQ(prm::get<ctx_t::num_write_blocks_low>(c), 24u);
	EXPECT_EQ(prm::get<ctx_t::num_write_inline_cmd_low>(c), 2u);
	EXPECT_EQ(prm::get<ctx_t::num_flush_cmd_low>(c), 1u);
	EXPECT_EQ(prm::get<ctx_t::num_error_cmd_low>(c), 2u);
	EXPECT_EQ(prm::get<ctx_t::num_backend_error_cmd_low>(c), 1u);
	EXPECT_GT(prm::get<ctx_t::current_q_depth>(c), 0u);
	EXPECT_GT(prm::get<ctx_t::last_read_req_latency>(c), 0u);

	ASSERT_EQ(detach(xrqn(), 1).status, st::OK);
	EXPECT_EQ(emu.nvmf_namespace_count(), 0u);
	Answer a = query(xrqn(), 1);
	EXPECT_EQ(a.status, st::BAD_RES_ERR);
	EXPECT_EQ(a.syndrome, synd::NVMF_NS_UNKNOWN_QUERY);
	a = detach(xrqn(), 1);
	EXPECT_EQ(a.syndrome, synd::NVMF_NS_UNKNOWN_DETACH);
	EXPECT_FALSE(emu.simulate_nvmf_io(xrqn(), 1, io));
}

TEST_F(NvmfTest, Validation)
{
	EXPECT_EQ(attach(1, 1).syndrome, synd::NVMF_BAD_XRQN);
	EXPECT_EQ(attach(xrqn(), 0).syndrome, synd::NVMF_BAD_NSID);
	EXPECT_EQ(attach(xrqn(), 0xffffffff).syndrome, synd::NVMF_BAD_NSID);
	EXPECT_EQ(attach(xrqn(), 2, 0).syndrome, synd::NVMF_BAD_NSID);
	EXPECT_EQ(attach(xrqn(), 2, 5, 0).syndrome, synd::NVMF_BAD_LBA_SIZE);
	// Bytes, as the vendor sends it: log2 (what cxprm once sent) is refused.
	EXPECT_EQ(attach(xrqn(), 2, 5, 12).syndrome, synd::NVMF_BAD_LBA_SIZE);
	EXPECT_EQ(attach(xrqn(), 2, 5, 3000).syndrome, synd::NVMF_BAD_LBA_SIZE);
	ASSERT_EQ(attach(xrqn(), 2).status, st::OK);
	EXPECT_EQ(attach(xrqn(), 2).syndrome, synd::NVMF_NS_EXISTS);
	EXPECT_EQ(attach(x2.xrqn, 2).status, st::OK) << "same nsid on another XRQ";
	EXPECT_EQ(query(1, 2).syndrome, synd::NVMF_BAD_XRQN);
}

TEST_F(NvmfTest, Limit)
{
	uint32_t max = emu.profile().nvmf.max_namespaces;
	for (uint32_t i = 1; i <= max; i++)
		ASSERT_EQ(attach(xrqn(), i).status, st::OK);
	Answer a = attach(xrqn(), max + 1);
	EXPECT_EQ(a.status, st::NO_RES_ERR);
	EXPECT_EQ(a.syndrome, synd::NVMF_NS_LIMIT);
}

TEST(NvmfAuto, CountersMoveOnTheirOwn)
{
	ObjectRig w(quiet_with([](Profile &p) { p.nvmf.auto_io_ms = 5; }));
	Rig &r = w.rig;
	NvmfObjects x;
	x.create(w.b, w.o, 3);
	ASSERT_EQ(w.b.attach_ns(x.xrqn, 1, 1, 512, x.ctrl).status, st::OK);
	NvmfCounters a, b;
	ASSERT_TRUE(r.emu.nvmf_counters(x.xrqn, 1, &a));
	std::this_thread::sleep_for(std::chrono::milliseconds(12));
	r.emu.poll_once();
	ASSERT_TRUE(r.emu.nvmf_counters(x.xrqn, 1, &b));
	EXPECT_GT(b.read_cmds, a.read_cmds);
	EXPECT_GT(b.write_blocks, a.write_blocks);

	// Paused (emuctl nvmf-auto-io off), they hold still; run again, they move.
	EXPECT_TRUE(r.emu.set_nvmf_auto_io(false));
	std::this_thread::sleep_for(std::chrono::milliseconds(12));
	r.emu.poll_once();
	ASSERT_TRUE(r.emu.nvmf_counters(x.xrqn, 1, &a));
	EXPECT_EQ(a.read_cmds, b.read_cmds);
	EXPECT_EQ(a.write_blocks, b.write_blocks);
	EXPECT_FALSE(r.emu.set_nvmf_auto_io(true));
	r.emu.poll_once(); // the pause is not made up for in one burst
	ASSERT_TRUE(r.emu.nvmf_counters(x.xrqn, 1, &b));
	EXPECT_EQ(a.read_cmds, b.read_cmds);
	std::this_thread::sleep_for(std::chrono::milliseconds(12));
	r.emu.poll_once();
	ASSERT_TRUE(r.emu.nvmf_counters(x.xrqn, 1, &b));
	EXPECT_GT(b.read_cmds, a.read_cmds);
}

TEST(NvmfOff, NotOffered)
{
	Rig r(quiet_with([](Profile &p) { p.nvmf.supported = false; }), Stage::INITIALIZED);
	Answer a = r.drv.exec(make_in<prm::query_nvmf_namespace_in>(op::QUERY_NVMF_NAMESPACE_CONTEXT),
			      prm::query_nvmf_namespace_out::size_bytes);
	EXPECT_EQ(a.status, st::BAD_OP_ERR);
	EXPECT_EQ(a.syndrome, synd::FEATURE_OFF);
}

} // namespace
} // namespace cxprm::emu::test
