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

#include <gtest/gtest.h>

#include "cxprm/commands/dct.h"
#include "cxprm/commands/eq.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/commands/objects.h"
#include "cxprm/commands/qp.h"
#include "cxprm/device.h"
#include "cxprm/eq_ring.h"
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

// m gets bytes of coherent DMA and p (any queue's params) its buffer's
// pages and doorbell record.
template <class P> int place_queue(const cxprm_host *host, QueueMem &m, usize bytes, P &p)
{
	int err = m.init(host, bytes);
	if (err != OK)
		return err;
	p.buf_bus = m.page_bus(0);
	p.buf_pages = m.npages();
	p.dbr_bus = m.dbr_bus();
	return OK;
}

struct ObjectsFlow : ::testing::Test {
	test::Harness h{strict_cx7()};
	Device dev;
	EqRing ring;
	QueueMem cq_mem, srq_mem;
	uint32_t uar = 0, pd = 0, cqn = 0, srqn = 0;
	uint8_t eqn = 0;
	Cmdq &q() { return dev.cmdq(); }

	void SetUp() override
	{
		h.emu.start();
		ASSERT_EQ(dev.bringup(h.host(), quick()), OK);
		ASSERT_EQ(alloc_uar(q(), &uar), OK);
		ASSERT_EQ(ring.init(h.host(), 6), OK);
		uint64_t pas[1] = {ring.page_bus(0)};
		EqParams ep;
		ep.log_eq_size = 6;
		ep.uar_page = uar;
		ep.pas = pas;
		ep.npas = 1;
		ASSERT_EQ(create_eq(q(), ep, &eqn), OK);
		ASSERT_EQ(alloc_pd(q(), &pd), OK);
		CqParams cp;
		cp.log_cq_size = 6;
		cp.uar_page = uar;
		cp.eqn = eqn;
		ASSERT_EQ(place_queue(h.host(), cq_mem, queue_bytes(6, 64), cp), OK);
		CmdResult r{};
		ASSERT_EQ(create_cq(q(), cp, &cqn, &r), OK) << std::hex << r.syndrome;
		SrqParams sp;
		sp.log_srq_size = 6;
		sp.log_rq_stride = 2;
		sp.pd = pd;
		ASSERT_EQ(place_queue(h.host(), srq_mem, queue_bytes(6, 64), sp), OK);
		ASSERT_EQ(create_srq(q(), sp, &srqn, &r), OK) << std::hex << r.syndrome;
	}
	void TearDown() override
	{
		// Dependency order: SRQ, CQ, PD, then the EQ and UAR.
		EXPECT_EQ(destroy_srq(q(), srqn), OK);
		EXPECT_EQ(destroy_cq(q(), cqn), OK);
		EXPECT_EQ(dealloc_pd(q(), pd), OK);
		EXPECT_EQ(destroy_eq(q(), eqn), OK);
		EXPECT_EQ(dealloc_uar(q(), uar), OK);
		EXPECT_EQ(h.emu.object_counts().total(), 0u);
		// Only now can the device no longer write the queues.
		srq_mem.fini();
		cq_mem.fini();
		ring.fini();
		uint64_t leaked = h.emu.counters().objects_leaked;
		dev.teardown();
		EXPECT_EQ(h.emu.counters().objects_leaked, leaked);
		EXPECT_EQ(h.uh.dma_live(), 0u);
		EXPECT_EQ(h.uh.mem_live(), 0u);
	}
	DctContext dctc() const
	{
		DctContext c = test::full_dct();
		c.pd = pd;
		c.cqn = cqn;
		c.srqn_xrqn = srqn;
		return c;
	}
};

TEST_F(ObjectsFlow, DctOnItsOwnObjectsAndOnMadeUpOnes)
{
	CqInfo ci{};
	ASSERT_EQ(query_cq(q(), cqn, &ci), OK);
	EXPECT_EQ(ci.eqn, eqn);
	EXPECT_EQ(ci.uar_page, uar);
	EXPECT_EQ(ci.dbr_addr, cq_mem.dbr_bus());
	SrqInfo si{};
	ASSERT_EQ(query_srq(q(), srqn, &si), OK);
	EXPECT_EQ(si.pd, pd);

	uint32_t dctn = 0;
	CmdResult r{};
	ASSERT_EQ(create_dct(q(), dctc(), &dctn, nullptr, 0, &r), OK) << std::hex << r.syndrome;
	// What the DCT names cannot go first.
	EXPECT_EQ(destroy_srq(q(), srqn, 0, &r), E_REMOTEIO);
	EXPECT_EQ(r.status, cmd_status::BAD_RES_STATE_ERR);
	EXPECT_EQ(destroy_dct_drained(q(), dctn), OK);

	DctContext bad = test::full_dct(); // pd 0x4242 and friends: nobody made them
	uint32_t n2 = 0;
	int err = create_dct(q(), bad, &n2, nullptr, 0, &r);
	if (test::lenient_run()) {
		ASSERT_EQ(err, OK);
		EXPECT_EQ(destroy_dct_drained(q(), n2), OK);
	} else {
		EXPECT_EQ(err, E_REMOTEIO);
		EXPECT_EQ(r.status, cmd_status::BAD_RES_ERR);
		EXPECT_EQ(r.syndrome, emu::synd::DCT_NO_PD);
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
	p.uar_page = uar;
	p.log_sq_size = 6;
	ASSERT_EQ(place_queue(h.host(), m, qp_buffer_bytes(p), p), OK);
	uint32_t qpn = 0;
	CmdResult r{};
	ASSERT_EQ(create_qp(q(), p, &qpn, &r), OK) << std::hex << r.syndrome;
	QpPath path;
	path.remote_qpn = qpn;
	ASSERT_EQ(qp_rst2init(q(), qpn, path), OK);
	ASSERT_EQ(qp_init2rtr(q(), qpn, path), OK);
	ASSERT_EQ(qp_rtr2rts(q(), qpn, path), OK);
	EXPECT_EQ(qp_rtr2rts(q(), qpn, path, 0, &r), E_REMOTEIO);
	EXPECT_EQ(r.status, cmd_status::BAD_RES_STATE_ERR);
	ASSERT_EQ(qp_2rst(q(), qpn), OK);
	ASSERT_EQ(destroy_qp(q(), qpn), OK);
	m.fini();
}

TEST_F(ObjectsFlow, NvmfNamespaceOnARealXrq)
{
	QueueMem xm, be_cq, be_sq;
	XrqNvmfParams xp;
	xp.cqn = cqn;
	xp.pd = pd;
	xp.log_wq_sz = 4;
	xp.log_wq_stride = 4;
	xp.log_max_namespace = 2;
	ASSERT_EQ(place_queue(h.host(), xm, queue_bytes(4, 256), xp), OK);
	uint32_t xrqn = 0;
	CmdResult r{};
	ASSERT_EQ(create_xrq_nvmf(q(), xp, &xrqn, &r), OK) << std::hex << r.syndrome;
	ASSERT_EQ(be_cq.init(h.host(), 4096), OK);
	ASSERT_EQ(be_sq.init(h.host(), 4096), OK);
	NvmfBackendParams bp;
	bp.xrqn = xrqn;
	bp.cq_bus = be_cq.page_bus(0);
	bp.sq_bus = be_sq.page_bus(0);
	bp.cqh_dbr_bus = be_cq.dbr_bus();
	bp.sqt_dbr_bus = be_sq.dbr_bus();
	uint16_t be = 0;
	ASSERT_EQ(create_nvmf_backend_ctrl(q(), bp, &be, &r), OK) << std::hex << r.syndrome;
	ASSERT_EQ(attach_nvmf_namespace(q(), NvmfNamespace{xrqn, 1, 10, 512, be}), OK);

	emu::NvmfIo io;
	io.read_cmds = 4;
	io.read_blocks = 32;
	ASSERT_TRUE(h.emu.simulate_nvmf_io(xrqn, 1, io));
	NvmfNsCounters c{};
	ASSERT_EQ(query_nvmf_namespace(q(), xrqn, 1, &c), OK);
	EXPECT_EQ(c.read_cmds, 4u);
	EXPECT_EQ(c.read_blocks, 32u);
	EXPECT_FALSE(h.emu.simulate_nvmf_io(xrqn, 2, io)); // not attached: nothing moves

	ASSERT_EQ(detach_nvmf_namespace(q(), xrqn, 1), OK);
	ASSERT_EQ(destroy_nvmf_backend_ctrl(q(), xrqn, be), OK);
	ASSERT_EQ(destroy_xrq(q(), xrqn), OK);
	be_sq.fini();
	be_cq.fini();
	xm.fini();
}

} // namespace
