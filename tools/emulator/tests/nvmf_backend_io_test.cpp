// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The NVMF backend path: CREATE_NVMF_BACKEND_CTRL naming an I/O queue pair
// of the modelled NVMe device, frontend I/O that the firmware model turns
// into NVMe commands on it, and counters that move only with what the
// device answers.  Also the device model alone (doorbells, a full CQ).
#include "object_builders.h"
#include "nvme_ssd_model.h"

#include <cstring>

namespace cxprm::emu::test {
namespace {

struct BackendIoTest : InitializedTest {
	explicit BackendIoTest(Profile p = quiet()) : InitializedTest(std::move(p)) {}
	ObjectBuilder b{drv, plat};
	ObjectSet o;
	uint32_t xrqn = 0;
	uint16_t ctrl = 0;
	void SetUp() override
	{
		InitializedTest::SetUp();
		o.create(b);
		xrqn = b.xrq(o.pd, o.cqn);
	}
	void attach(uint32_t be_nsid, uint16_t id, uint16_t lba = 512)
	{
		ASSERT_EQ(b.attach_ns(xrqn, 1, be_nsid, lba, id).status, st::OK);
	}
	NvmfCounters counters()
	{
		NvmfCounters k;
		EXPECT_TRUE(emu.nvmf_counters(xrqn, 1, &k));
		return k;
	}
	NvmfBackendInfo backend(uint16_t id)
	{
		NvmfBackendInfo be;
		EXPECT_TRUE(emu.nvmf_backend(xrqn, id, &be));
		return be;
	}
};

NvmfIo mixed()
{
	NvmfIo io;
	io.read_cmds = 5;
	io.read_blocks = 40;
	io.write_cmds = 3;
	io.write_blocks = 24;
	io.write_inline_cmds = 1;
	io.flush_cmds = 1;
	return io;
}

TEST_F(BackendIoTest, CountersMoveWithWhatTheSsdAnswers)
{
	ctrl = b.backend(xrqn);
	ASSERT_NO_FATAL_FAILURE(attach(1, ctrl));
	NvmeSsdStats before = emu.nvme_stats();
	ASSERT_TRUE(emu.simulate_nvmf_io(xrqn, 1, mixed()));
	NvmfCounters k = counters();
	EXPECT_EQ(k.read_cmds, 5u);
	EXPECT_EQ(k.read_blocks, 40u);
	EXPECT_EQ(k.write_cmds, 3u);
	EXPECT_EQ(k.write_blocks, 24u);
	EXPECT_EQ(k.write_inline_cmds, 1u);
	EXPECT_EQ(k.flush_cmds, 1u);
	EXPECT_EQ(k.backend_error_cmds, 0u);
	EXPECT_EQ(k.current_q_depth, 9u);
	NvmeSsdStats s = emu.nvme_stats();
	EXPECT_EQ(s.commands - before.commands, 9u);
	EXPECT_EQ(s.reads - before.reads, 5u);
	EXPECT_EQ(s.blocks_read - before.blocks_read, 40u);
	EXPECT_EQ(s.blocks_written - before.blocks_written, 24u);
	EXPECT_EQ(s.flushes - before.flushes, 1u);
	EXPECT_EQ(s.sq_doorbells - before.sq_doorbells, 1u);
	EXPECT_EQ(s.cq_doorbells - before.cq_doorbells, 1u);
	EXPECT_EQ(s.bad_doorbells, 0u);
	NvmfBackendInfo be = backend(ctrl);
	EXPECT_EQ(be.submitted, 9u);
	EXPECT_EQ(be.completed, 9u);
	EXPECT_EQ(be.sq_tail, 9u);
	EXPECT_EQ(be.cq_head, 9u);
	EXPECT_EQ(be.depth, 64u);
}

TEST_F(BackendIoTest, ManyQueuesWorthWrapThePhase)
{
	ctrl = b.backend(xrqn);
	ASSERT_NO_FATAL_FAILURE(attach(1, ctrl));
	// 200 reads through a 64-entry queue: 63 at most outstanding, the CQ
	// wraps three times (its phase tag with it).
	ASSERT_TRUE(emu.simulate_nvmf_io(xrqn, 1, 200, 0, 8));
	NvmfCounters k = counters();
	EXPECT_EQ(k.read_cmds, 200u);
	EXPECT_EQ(k.read_blocks, 1600u);
	EXPECT_EQ(k.backend_error_cmds, 0u);
	EXPECT_EQ(k.current_q_depth, 63u);
	NvmfBackendInfo be = backend(ctrl);
	EXPECT_EQ(be.sq_tail, 200u % 64);
	EXPECT_EQ(be.cq_head, 200u % 64);
	EXPECT_FALSE(be.phase) << "three wraps: 1 -> 0 -> 1 -> 0";
}

// What cxprm sent before: the driver's own pages and doorbell records.
// Firmware takes them (it cannot tell), the SQEs land in host memory,
// nothing answers: every command times out as a backend error.
TEST_F(BackendIoTest, DriverPagesAsBackendTimeOut)
{
	ObjectBuilder::BackendSpec s;
	s.driver_pages = true;
	ctrl = (uint16_t)b.number<prm::create_nvmf_be_ctrl_out, prm::create_nvmf_be_ctrl_out::backend_controller_id>(
		b.create_backend(xrqn, s));
	ASSERT_NO_FATAL_FAILURE(attach(1, ctrl));
	uint64_t ssd_cmds = emu.nvme_stats().commands;
	ASSERT_TRUE(emu.simulate_nvmf_io(xrqn, 1, mixed()));
	NvmfCounters k = counters();
	EXPECT_EQ(k.read_cmds + k.write_cmds + k.flush_cmds, 0u);
	EXPECT_EQ(k.backend_error_cmds, 9u);
	EXPECT_EQ(emu.nvme_stats().commands, ssd_cmds);
	EXPECT_EQ(backend(ctrl).timed_out, 9u);
}

TEST_F(BackendIoTest, TheSsdRefusesWhatItLacks)
{
	ctrl = b.backend(xrqn);
	ASSERT_NO_FATAL_FAILURE(attach(7, ctrl)); // the SSD has namespace 1 only
	ASSERT_TRUE(emu.simulate_nvmf_io(xrqn, 1, 3, 2, 8));
	NvmfCounters k = counters();
	EXPECT_EQ(k.read_cmds + k.write_cmds, 0u);
	EXPECT_EQ(k.backend_error_cmds, 5u);
	EXPECT_EQ(backend(ctrl).failed, 5u);
	EXPECT_EQ(backend(ctrl).timed_out, 0u);
}

TEST_F(BackendIoTest, BackendErrorsAndFrontendErrorsApart)
{
	ctrl = b.backend(xrqn);
	ASSERT_NO_FATAL_FAILURE(attach(1, ctrl));
	NvmfIo io;
	io.read_cmds = 2;
	io.read_blocks = 2;
	io.error_cmds = 3;         // refused at the frontend: never reach the SSD
	io.backend_error_cmds = 4; // reads beyond the SSD's LBAs
	uint64_t errors = emu.nvme_stats().errors;
	ASSERT_TRUE(emu.simulate_nvmf_io(xrqn, 1, io));
	NvmfCounters k = counters();
	EXPECT_EQ(k.read_cmds, 2u);
	EXPECT_EQ(k.error_cmds, 3u);
	EXPECT_EQ(k.backend_error_cmds, 4u);
	EXPECT_EQ(emu.nvme_stats().errors - errors, 4u);
}

TEST_F(BackendIoTest, CreateChecksDoorbellsAndQueueSizes)
{
	using L = prm::create_nvmf_be_ctrl_in;
	// A doorbell register is 4-byte aligned.
	NvmeQueueInfo q;
	ASSERT_TRUE(emu.nvme_take_queue(4, &q));
	Msg m = make_in<L>(op::CREATE_NVMF_BACKEND_CTRL, 0, prm::nvmf_be_ctrl_addrs::size_bytes);
	prm::set<L::xrqn>(m.as<L>(), xrqn);
	auto e = prm::sub<L::nvmf_be_ctrl_entry, prm::nvmf_be_ctrl>(m.as<L>());
	prm::set<prm::nvmf_be_ctrl::sqt_dbr_addr>(e, q.sqt_db_bus + 2);
	prm::set<prm::nvmf_be_ctrl::cqh_dbr_addr>(e, q.sqt_db_bus + 4);
	Answer a = drv.run<prm::create_nvmf_be_ctrl_out>(m);
	EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(a.syndrome, synd::NVMF_BE_BAD_DOORBELL);
	// A 256-entry XRQ needs 16 KiB of SQ (log 2) and 4 KiB of CQ.
	ObjectBuilder::XrqSpec x;
	x.nvme_queue_size = 256;
	uint32_t big = b.number<prm::create_xrq_out, prm::create_xrq_out::xrqn>(b.create_xrq(o.pd, o.cqn, x));
	ObjectBuilder::BackendSpec s;
	a = b.create_backend(big, s);
	EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(a.syndrome, synd::NVMF_BE_QUEUE_SIZE);
	s.sq_log_pages = 2;
	EXPECT_EQ(b.create_backend(big, s).status, st::OK);
}

// The lenient knobs: queue pages short of the XRQ's queue size, and an
// lba_data_size given as log2, are taken.
struct BackendIoLenient : BackendIoTest {
	static Profile lenient()
	{
		Profile p = quiet();
		p.make_lenient();
		return p;
	}
	BackendIoLenient() : BackendIoTest(lenient()) {}
};

TEST_F(BackendIoLenient, QueueSizeAndLbaUnitTaken)
{
	EXPECT_FALSE(emu.profile().nvmf.be_queue_size_checked || emu.profile().nvmf.lba_size_in_bytes);
	ObjectBuilder::XrqSpec x;
	x.nvme_queue_size = 256;
	uint32_t big = b.number<prm::create_xrq_out, prm::create_xrq_out::xrqn>(b.create_xrq(o.pd, o.cqn, x));
	EXPECT_EQ(b.create_backend(big, ObjectBuilder::BackendSpec{}).status, st::OK);
	ctrl = b.backend(xrqn);
	ASSERT_NO_FATAL_FAILURE(attach(1, ctrl, 12));
}

// The device model by itself: bad doorbells are counted and ignored, a
// full CQ holds the SQ until its head doorbell frees room.
TEST(NvmeSsdModel, DoorbellsAndAFullCq)
{
	NvmeSsdProfile p;
	p.queue_depth = 4;
	NvmeSsd ssd(p);
	NvmeQueueInfo q;
	ASSERT_TRUE(ssd.queue(1, &q));
	EXPECT_FALSE(ssd.queue(0, &q) || ssd.queue(p.io_queues + 1, &q));
	uint32_t v = 7; // beyond the queue
	ASSERT_TRUE(ssd.write(q.sqt_db_bus, &v, 4));
	EXPECT_EQ(ssd.stats().bad_doorbells, 1u);
	EXPECT_FALSE(ssd.write(q.sqt_db_bus, &v, 2)) << "a doorbell is a 32-bit register";
	// Three flushes (a 4-entry queue holds 3); the CQ takes 3 too.
	uint8_t sqe[64] = {};
	sqe[4] = 1; // nsid 1
	for (uint16_t i = 0; i < 3; i++) {
		sqe[2] = (uint8_t)i;
		ASSERT_TRUE(ssd.write(q.sq_bus + 64ull * i, sqe, 64));
	}
	v = 3;
	ASSERT_TRUE(ssd.write(q.sqt_db_bus, &v, 4));
	EXPECT_EQ(ssd.stats().flushes, 3u);
	uint8_t cqe[16];
	ASSERT_TRUE(ssd.read(q.cq_bus + 16 * 2, cqe, 16));
	EXPECT_EQ(cqe[12], 2u);         // CID 2
	EXPECT_EQ(cqe[14] & 1, 1u);     // phase 1, status 0
	EXPECT_EQ(cqe[8], 3u);          // SQ head 3
	// One more: the CQ is full (3 of 4) until the head doorbell moves.
	sqe[2] = 3;
	ASSERT_TRUE(ssd.write(q.sq_bus + 64ull * 3, sqe, 64));
	v = 0;
	ASSERT_TRUE(ssd.write(q.sqt_db_bus, &v, 4));
	EXPECT_EQ(ssd.stats().flushes, 3u);
	v = 3;
	ASSERT_TRUE(ssd.write(q.sqt_db_bus + 4, &v, 4)); // CQ head doorbell
	EXPECT_EQ(ssd.stats().flushes, 4u);
	ASSERT_TRUE(ssd.read(q.cq_bus + 16 * 3, cqe, 16));
	EXPECT_EQ(cqe[12], 3u);
}

} // namespace
} // namespace cxprm::emu::test
