// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The driver's object commands against the emulator's object model: a DCT
// and an RC QP on a PD, CQ and SRQ the core created (coherent DMA from the
// host interface), an NVMF namespace on an XRQ with offload and a backend
// controller, everything destroyed in dependency order, nothing left in
// the emulator or the host.  Made-up numbers answer BAD_RES (strict
// default); the *_lenient run shows the same flows under the old model.
// First: emulator.h names a constant SIG_BLOCK, a <signal.h> macro gtest pulls in.
#include "support/harness.h"
#include "support/command_values.h"
#include "support/objects.h"

#include <gtest/gtest.h>

#include "cxprm/commands/dct.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/commands/objects.h"
#include "cxprm/commands/qp.h"
#include "cxprm/device.h"
#include "cxprm/queue_mem.h"
#include "cxprm/status.h"

using namespace cxprm;
using namespace cxprm::cmd;

namespace {

BringupConfig quick()
{
	BringupConfig cfg;
	cfg.cmdq.timeout_ns = 10ull * 1000 * 1000 * 1000; // a loaded host: no flakes
	cfg.init_poll_us = 200;
	cfg.reclaim_timeout_ns = 500ull * 1000 * 1000;
	return cfg;
}

emu::Profile strict_cx7()
{
	auto p = emu::Profile::connectx7();
	p.nvmf.auto_io_ms = 0;
	return p;
}

// The PD, CQ and SRQ come from the tests' one object maker
// (support/objects.h), which these flows check.
struct ObjectsFlow : ::testing::Test {
	test::Harness h{strict_cx7()};
	Device dev;
	test::CmdObjects objs{h.host(), dev.cmdq()};
	test::DctRefs refs;
	uint32_t &pd = refs.pd, &cqn = refs.cqn, &srqn = refs.srqn;
	Cmdq &q() { return dev.cmdq(); }

	void SetUp() override
	{
		h.emu.start();
		ASSERT_EQ(dev.bringup(h.host(), quick()), OK);
		CmdResult r{};
		ASSERT_EQ(objs.make_dct_refs(&refs, &r), OK) << std::hex << r.st.syndrome;
	}
	void TearDown() override
	{
		// Dependency order: SRQ, CQ, PD, then the EQ and UAR; only then
		// can the device no longer write the queues.
		EXPECT_EQ(objs.destroy(), OK);
		EXPECT_EQ(h.emu.object_counts().total(), 0u);
		EXPECT_EQ(h.emu.eq_count(), 0u);
		uint64_t leaked = h.emu.counters().objects_leaked;
		dev.teardown();
		EXPECT_EQ(h.emu.counters().objects_leaked, leaked);
		EXPECT_EQ(h.uh.dma_live(), 0u);
		EXPECT_EQ(h.uh.mem_live(), 0u);
	}
};

TEST_F(ObjectsFlow, DctOnItsOwnObjectsAndOnMadeUpOnes)
{
	CqInfo ci{};
	ASSERT_EQ(query_cq(q(), cqn, &ci), OK);
	EXPECT_EQ(ci.eqn, objs.eqn());
	EXPECT_EQ(ci.uar_page, objs.uar());
	ASSERT_NE(objs.queue_of(test::CmdObjects::Kind::CQ, cqn), nullptr);
	EXPECT_EQ(ci.dbr_addr, objs.queue_of(test::CmdObjects::Kind::CQ, cqn)->dbr_bus());
	SrqInfo si{};
	ASSERT_EQ(query_srq(q(), srqn, &si), OK);
	EXPECT_EQ(si.pd, pd);

	uint32_t dctn = 0;
	CmdResult r{};
	ASSERT_EQ(create_dct(q(), refs.on(test::full_dct()), &dctn, nullptr, 0, &r), OK) << std::hex << r.st.syndrome;
	// What the DCT names cannot go first.
	EXPECT_EQ(destroy_srq(q(), srqn, 0, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.status, cmd_status::BAD_RES_STATE_ERR);
	EXPECT_EQ(destroy_dct_drained(q(), dctn), OK);

	DctContext bad = test::full_dct(); // pd 0x4242 and friends: nobody made them
	uint32_t n2 = 0;
	int err = create_dct(q(), bad, &n2, nullptr, 0, &r);
	if (test::lenient_run()) {
		ASSERT_EQ(err, OK);
		EXPECT_EQ(destroy_dct_drained(q(), n2), OK);
	} else {
		EXPECT_EQ(err, E_REMOTEIO);
		EXPECT_EQ(r.st.status, cmd_status::BAD_RES_ERR);
		EXPECT_EQ(r.st.syndrome, emu::synd::DCT_NO_PD);
	}
	EXPECT_EQ(h.emu.dct_count(), 0u);
}

TEST_F(ObjectsFlow, RcQpToRtsAndBack)
{
	QueueMem m;
	QpParams p;
	p.pd = pd;
	p.cqn_snd = p.cqn_rcv = cqn;
	p.srqn = srqn;
	p.uar_page = objs.uar();
	p.log_sq_size = 6;
	ASSERT_EQ(test::place_queue(h.host(), m, qp_buffer_bytes(p), p), OK);
	uint32_t qpn = 0;
	CmdResult r{};
	ASSERT_EQ(create_qp(q(), p, &qpn, &r), OK) << std::hex << r.st.syndrome;
	QpPath path;
	path.remote_qpn = qpn;
	ASSERT_EQ(qp_rst2init(q(), qpn, path), OK);
	ASSERT_EQ(qp_init2rtr(q(), qpn, path), OK);
	ASSERT_EQ(qp_rtr2rts(q(), qpn, path), OK);
	EXPECT_EQ(qp_rtr2rts(q(), qpn, path, 0, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.status, cmd_status::BAD_RES_STATE_ERR);
	ASSERT_EQ(qp_2rst(q(), qpn), OK);
	ASSERT_EQ(destroy_qp(q(), qpn), OK);
	m.fini();
}

TEST_F(ObjectsFlow, NvmfNamespaceOnARealXrq)
{
	test::NvmfRefs x;
	CmdResult r{};
	emu::NvmeQueueInfo ssd;
	ASSERT_TRUE(h.emu.nvme_take_queue(1, &ssd));
	ASSERT_EQ(objs.make_nvmf_refs(refs, ssd, &x, &r), OK) << std::hex << r.st.syndrome;
	ASSERT_NE(objs.queue_of(test::CmdObjects::Kind::XRQ, x.xrqn), nullptr);
	uint32_t xrqn = x.xrqn;
	// lba_data_size in bytes: 512, not 9.
	EXPECT_EQ(attach_nvmf_namespace(q(), NvmfNamespace{xrqn, 1, 1, 9, x.backend}), E_INVAL);
	ASSERT_EQ(attach_nvmf_namespace(q(), NvmfNamespace{xrqn, 1, 1, 512, x.backend}), OK);

	emu::NvmfIo io;
	io.read_cmds = 4;
	io.read_blocks = 32;
	ASSERT_TRUE(h.emu.simulate_nvmf_io(xrqn, 1, io));
	NvmfNsCounters c{};
	ASSERT_EQ(query_nvmf_namespace(q(), xrqn, 1, &c), OK);
	EXPECT_EQ(c.read_cmds, 4u);
	EXPECT_EQ(c.read_blocks, 32u);
	EXPECT_EQ(h.emu.nvme_stats().reads, 4u) << "the backend NVMe device did the reads";
	EXPECT_FALSE(h.emu.simulate_nvmf_io(xrqn, 2, io)); // not attached: nothing moves

	// The backend the namespace names cannot go first.
	EXPECT_EQ(destroy_nvmf_backend_ctrl(q(), xrqn, x.backend, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.status, cmd_status::BAD_RES_STATE_ERR);
	ASSERT_EQ(detach_nvmf_namespace(q(), xrqn, 1), OK);
	// The backend, then the XRQ: TearDown.
}

} // namespace
