// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The object ioctls (capi.h "A file's objects", core-cpp/src/ioctl_objects.cpp)
// against the in-process emulator in its strict object model: reserved
// fields, bad types and sizes refused, a PD/CQ/SRQ/QP a DCT then names, the
// QP's RST->INIT->RTR->RTS->RST transitions, the NVMF XRQ, backend and
// namespace, ownership between two files' tables, -ENOSPC at the limit,
// made-up numbers answering BAD_RES in st, destroy-on-close in dependency
// order with nothing left in the emulator, and the queue memory of a
// failed destroy kept until the teardown.
#include "support/capi_device.h"

#include <gtest/gtest.h>

#include <cstring>

#include "cxprm/capi.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/qp.h"

using namespace cxprm;
namespace op = cxprm::prm::op;
using cxprm::test::obj_cq;
using cxprm::test::obj_of;
using cxprm::test::obj_srq;

namespace {

constexpr int EINVAL_ = -22, ENOENT_ = -2, ENOSPC_ = -28, ENOTSUP_ = -95;
constexpr uint8_t BAD_RES = 0x05, BAD_RES_STATE = 0x09;

emu::Profile strict_profile()
{
	auto p = test::objects_cx7();
	return p;
}

struct ObjIoctl : ::testing::Test, test::CapiDevice {
	explicit ObjIoctl(emu::Profile p = strict_profile()) : CapiDevice(std::move(p)) {}
	cxprm_core_objs *other = nullptr;

	void SetUp() override
	{
		ASSERT_NO_FATAL_FAILURE(bring_up());
		ASSERT_EQ(cxprm_core_objs_create(core, &other), 0);
	}
	void events() { ASSERT_NO_FATAL_FAILURE(start_events()); }
	// What closing the files does: DCTs, then the objects.
	void close_all()
	{
		close_objects();
		if (other) {
			EXPECT_EQ(cxprm_core_objs_destroy(core, other, nullptr), 0u);
		}
		other = nullptr;
	}
	void TearDown() override
	{
		if (!core)
			return; // the test tore down itself
		if (objs || other)
			close_all();
		EXPECT_EQ(h.emu.object_counts().total(), 0u);
		uint64_t leaked = h.emu.counters().objects_leaked;
		teardown_core();
		EXPECT_EQ(h.emu.counters().objects_leaked, leaked);
		finish();
	}

	int ioc(unsigned cmd, cxprm_obj *o, cxprm_core_objs *t = nullptr)
	{
		return cxprm_core_ioc_obj(core, cmd, t ? t : objs, o);
	}
	// Creates one object (support/objects.h): its number, or 0 after a
	// failure the test reports.
	uint32_t make(cxprm_obj o, cxprm_core_objs *t = nullptr) { return test::obj_make(core, t ? t : objs, o); }
	static cxprm_obj qp(uint32_t pd, uint32_t cqn, uint32_t srqn) { return qp_on(pd, cqn, srqn); }
	int modify(uint32_t qpn, uint32_t transition, cxprm_qp_modify *m, cxprm_core_objs *t = nullptr)
	{
		*m = {};
		m->qpn = qpn;
		m->transition = transition;
		m->port = 1;
		m->mtu = 5;
		m->remote_qpn = 0x1234;
		m->retry_count = 7;
		m->ack_timeout = 14;
		m->hop_limit = 64;
		return cxprm_core_ioc_obj(core, CXPRM_IOC_QP_MODIFY, t ? t : objs, m);
	}
	int destroy(uint32_t type, uint32_t id, cxprm_obj *o, uint32_t parent = 0)
	{
		*o = obj_of(type, id, parent);
		return ioc(CXPRM_IOC_OBJ_DESTROY, o);
	}
};

} // namespace

TEST_F(ObjIoctl, RequestChecks)
{
	EXPECT_TRUE(cxprm_core_ioc_is_obj(CXPRM_IOC_QP_MODIFY));
	EXPECT_TRUE(cxprm_core_ioc_is_obj(CXPRM_IOC_OBJ_DESTROY));
	EXPECT_FALSE(cxprm_core_ioc_is_obj(CXPRM_IOC_DCT_CREATE));
	cxprm_obj o = obj_of(0);
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), EINVAL_); // no such type
	o = obj_of(CXPRM_OBJ_NVMF_NS + 1);
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), EINVAL_);
	o = obj_of(CXPRM_OBJ_PD);
	o.reserved = 1;
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), EINVAL_);
	o = obj_of(CXPRM_OBJ_PD, 0, 7); // a parent only for NVMF objects
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), EINVAL_);
	o = obj_of(CXPRM_OBJ_PD);
	o.u.raw[31] = 1; // a PD has no attributes
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), EINVAL_);
	o = obj_cq();
	o.u.cq.reserved[2] = 1;
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), EINVAL_);
	o = obj_srq(1);
	o.u.srq.reserved0 = 1;
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), EINVAL_);
	// Sizes beyond the driver's 1 MiB queues.
	o = obj_srq(1, CXPRM_OBJ_MAX_LOG_QUEUE + 1);
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), EINVAL_);
	o = obj_srq(1, CXPRM_OBJ_MAX_LOG_QUEUE);
	o.u.srq.log_stride = 4; // 2^14 * 256 bytes
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), EINVAL_);
	o = qp(1, 2, 0);
	o.u.qp.log_rq_size = CXPRM_OBJ_MAX_LOG_QUEUE + 1;
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), EINVAL_);
	o = qp(1, 2, 3);
	o.u.qp.st = 3; // XRC: not through this ioctl
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), EINVAL_);
	// Unknown numbers: not this file's.
	EXPECT_EQ(destroy(CXPRM_OBJ_PD, 1, &o), ENOENT_);
	cxprm_qp_modify m;
	EXPECT_EQ(modify(0x1000, CXPRM_QP_RST2INIT, &m), ENOENT_);
	EXPECT_EQ(modify(0x1000, 0, &m), EINVAL_);
	EXPECT_EQ(modify(0x1000, CXPRM_QP_2RST + 1, &m), EINVAL_);
	// Only CQ and SRQ have a query command.
	o = obj_of(CXPRM_OBJ_PD, 1);
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_QUERY, &o), ENOTSUP_);
	EXPECT_EQ(cxprm_core_objs_count(objs), 0u);
}

TEST_F(ObjIoctl, CqAndQpNeedTheDriversEq)
{
	// No EQ (events not running): refused before anything is sent.
	cxprm_obj o = obj_cq();
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), ENOTSUP_);
	o = qp(1, 2, 3);
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), ENOTSUP_);
	EXPECT_EQ(cxprm_core_objs_count(objs), 0u);
}

TEST_F(ObjIoctl, DctAndRcQpOnTheirOwnObjects)
{
	events();
	cxprm_info info{};
	ASSERT_EQ(cxprm_core_ioc_info(core, &info), 0);
	uint32_t pd = make(obj_of(CXPRM_OBJ_PD));
	cxprm_obj c = obj_cq();
	ASSERT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &c), 0);
	ASSERT_EQ(c.st.status, 0) << std::hex << c.st.syndrome;
	EXPECT_EQ(c.st.opcode, op::CREATE_CQ);
	ASSERT_EQ(cxprm_core_ioc_info(core, &info), 0);
	EXPECT_EQ(c.u.cq.eqn, info.comp_eqn); // the completion EQ (objects_linux_shape_test)
	uint32_t cqn = c.id, srqn = make(obj_srq(pd));
	ASSERT_NE(pd, 0u);
	ASSERT_NE(srqn, 0u);

	// Any file may query; the answer is the firmware's.
	cxprm_obj q = obj_of(CXPRM_OBJ_CQ, cqn);
	ASSERT_EQ(ioc(CXPRM_IOC_OBJ_QUERY, &q, other), 0);
	EXPECT_EQ(q.u.cq.log_size, 6);
	EXPECT_EQ(q.u.cq.eqn, info.comp_eqn);
	q = obj_of(CXPRM_OBJ_SRQ, srqn);
	ASSERT_EQ(ioc(CXPRM_IOC_OBJ_QUERY, &q), 0);
	EXPECT_EQ(q.u.srq.pd, pd);
	EXPECT_EQ(q.st.opcode, op::QUERY_RMP); // ISSI 1

	// A DCT on them.
	cxprm_dct d = dct_on(pd, cqn, srqn);
	ASSERT_EQ(cxprm_core_ioc_dct(core, CXPRM_IOC_DCT_CREATE, &dcts, &d), 0);
	EXPECT_EQ(d.st.status, 0) << std::hex << d.st.syndrome;

	// An RC QP through its states.
	uint32_t qpn = make(qp(pd, cqn, srqn));
	ASSERT_NE(qpn, 0u);
	cxprm_qp_modify m;
	// Out of order: the firmware's answer, the state kept.
	ASSERT_EQ(modify(qpn, CXPRM_QP_RTR2RTS, &m), 0);
	EXPECT_NE(m.st.status, 0);
	EXPECT_EQ(m.state, 0);
	const uint32_t path[] = {CXPRM_QP_RST2INIT, CXPRM_QP_INIT2RTR, CXPRM_QP_RTR2RTS, CXPRM_QP_2RST};
	const uint8_t state[] = {1, 2, 3, 0};
	const uint16_t ops[] = {op::RST2INIT_QP, op::INIT2RTR_QP, op::RTR2RTS_QP, op::QP_2RST};
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(modify(qpn, path[i], &m), 0);
		EXPECT_EQ(m.st.status, 0) << i << std::hex << " " << m.st.syndrome;
		EXPECT_EQ(m.st.opcode, ops[i]);
		EXPECT_EQ(m.state, state[i]);
	}
	ASSERT_EQ(modify(qpn, CXPRM_QP_RST2INIT, &m), 0);
	// Another file may neither modify nor destroy it.
	EXPECT_EQ(modify(qpn, CXPRM_QP_2RST, &m, other), ENOENT_);
	cxprm_obj o = obj_of(CXPRM_OBJ_QP, qpn);
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_DESTROY, &o, other), ENOENT_);
	// What the DCT and QP name cannot go first: BAD_RES_STATE, still the file's.
	ASSERT_EQ(destroy(CXPRM_OBJ_CQ, cqn, &o), 0);
	EXPECT_EQ(o.st.status, BAD_RES_STATE);
	EXPECT_EQ(o.st.opcode, op::DESTROY_CQ);
	EXPECT_EQ(cxprm_core_objs_count(objs), 4u);
	// The QP in INIT goes to reset, then away.
	ASSERT_EQ(destroy(CXPRM_OBJ_QP, qpn, &o), 0);
	EXPECT_EQ(o.st.status, 0);
	EXPECT_EQ(o.st.opcode, op::DESTROY_QP);
	EXPECT_EQ(destroy(CXPRM_OBJ_QP, qpn, &o), ENOENT_);
	EXPECT_EQ(cxprm_core_objs_count(objs), 3u);
	// Close: the DCT, then SRQ, CQ, PD; nothing left (TearDown).
}

TEST_F(ObjIoctl, CloseDestroysInDependencyOrder)
{
	events();
	uint32_t pd = make(obj_of(CXPRM_OBJ_PD)), cqn = make(obj_cq());
	uint32_t srqn = make(obj_srq(pd));
	uint32_t qpn = make(qp(pd, cqn, srqn));
	cxprm_qp_modify m;
	ASSERT_EQ(modify(qpn, CXPRM_QP_RST2INIT, &m), 0);
	ASSERT_EQ(modify(qpn, CXPRM_QP_INIT2RTR, &m), 0);
	ASSERT_EQ(modify(qpn, CXPRM_QP_RTR2RTS, &m), 0);
	ASSERT_EQ(m.state, 3);
	// A second file's objects on the first one's PD and CQ.
	uint32_t qp2 = make(qp(pd, cqn, srqn), other);
	ASSERT_NE(qp2, 0u);
	EXPECT_GE(h.emu.object_counts().total(), 5u);
	// The owner closes first: its QP goes, the PD, CQ and SRQ the other
	// file's QP names stay (orphans) ...
	uint32_t done = 0;
	EXPECT_EQ(cxprm_core_objs_destroy(core, objs, &done), 3u);
	EXPECT_EQ(done, 1u);
	objs = nullptr;
	EXPECT_EQ(h.emu.object_counts().total(), 4u);
	// ... until the other file closes: its QP, then the orphans.
	EXPECT_EQ(cxprm_core_objs_destroy(core, other, &done), 0u);
	EXPECT_EQ(done, 1u);
	other = nullptr;
	EXPECT_EQ(h.emu.object_counts().total(), 0u);
}

TEST_F(ObjIoctl, OrphansGoAtTheTeardownAtTheLatest)
{
	events();
	uint32_t pd = make(obj_of(CXPRM_OBJ_PD)), cqn = make(obj_cq());
	ASSERT_NE(make(qp(pd, cqn, 0), other), 0u);
	EXPECT_EQ(cxprm_core_objs_destroy(core, objs, nullptr), 2u);
	objs = nullptr;
	// The other file is still open (a remove): its table, then the orphans.
	EXPECT_EQ(cxprm_core_objs_sweep(core, other), 1u);
	EXPECT_EQ(cxprm_core_orphans_destroy(core), 0u);
	EXPECT_EQ(h.emu.object_counts().total(), 0u);
}

TEST_F(ObjIoctl, NvmfTargetObjects)
{
	events();
	uint32_t pd = make(obj_of(CXPRM_OBJ_PD)), cqn = make(obj_cq());
	uint32_t xrqn = make(test::obj_xrq(pd, cqn));
	ASSERT_NE(xrqn, 0u);
	emu::NvmeQueueInfo ssd;
	ASSERT_TRUE(h.emu.nvme_take_queue(2, &ssd));
	// Checked before the firmware: stride, depth, room for the CQ doorbell.
	cxprm_obj bad = test::obj_backend(xrqn, ssd);
	bad.u.backend.db_stride = CXPRM_NVMF_BE_MAX_DB_STRIDE + 1;
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &bad), EINVAL_);
	bad = test::obj_backend(xrqn, ssd);
	bad.u.backend.queue_depth = CXPRM_NVMF_BE_MAX_QUEUE_DEPTH + 1;
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &bad), EINVAL_);
	bad.u.backend.queue_depth = 1;
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &bad), EINVAL_);
	bad = test::obj_backend(xrqn, ssd);
	bad.u.backend.sqt_db_bus = ~0ull - 3;
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &bad), EINVAL_);
	EXPECT_TRUE(cxprm_core_obj_is_raw_write(CXPRM_IOC_OBJ_CREATE, &bad));
	EXPECT_FALSE(cxprm_core_obj_is_raw_write(CXPRM_IOC_OBJ_DESTROY, &bad));
	cxprm_obj b = test::obj_backend(xrqn, ssd);
	cxprm_obj pd_obj = obj_of(CXPRM_OBJ_PD);
	EXPECT_FALSE(cxprm_core_obj_is_raw_write(CXPRM_IOC_OBJ_CREATE, &pd_obj));
	ASSERT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &b), 0);
	ASSERT_EQ(b.st.status, 0) << std::hex << b.st.syndrome;
	// What the firmware got: the SSD's queues and both doorbells.
	emu::NvmfBackendInfo be;
	ASSERT_TRUE(h.emu.nvmf_backend(xrqn, (uint16_t)b.id, &be));
	EXPECT_EQ(be.sq, ssd.sq_bus);
	EXPECT_EQ(be.cq, ssd.cq_bus);
	EXPECT_EQ(be.sqt_db, ssd.sqt_db_bus);
	EXPECT_EQ(be.cqh_db, ssd.sqt_db_bus + (4u << ssd.db_stride));
	cxprm_obj n = obj_of(CXPRM_OBJ_NVMF_NS, 1, xrqn);
	n.u.ns.backend_namespace = 1;
	n.u.ns.backend_ctrl_id = (uint16_t)b.id;
	n.u.ns.lba_data_size = 16; // beyond the command's 16 bits of bytes
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &n), EINVAL_);
	n.u.ns.lba_data_size = 12;
	ASSERT_EQ(make(n), 1u);
	ASSERT_TRUE(h.emu.simulate_nvmf_io(xrqn, 1, 2, 1, 8));
	// The same nsid twice on one file: refused before the firmware.
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &n), EINVAL_);
	cxprm_nvmf_ns q{};
	q.xrqn = xrqn;
	q.nsid = 1;
	ASSERT_EQ(cxprm_core_ioc_nvmf_ns(core, &q), 0);
	EXPECT_EQ(q.st.status, 0);
	EXPECT_EQ(q.read_cmds, 2u);
	EXPECT_EQ(q.write_cmds, 1u);
	EXPECT_EQ(q.backend_error_cmds, 0u);
	// The backend a namespace names stays; the namespace is (xrqn, nsid).
	cxprm_obj o;
	ASSERT_EQ(destroy(CXPRM_OBJ_NVMF_BACKEND, b.id, &o, xrqn), 0);
	EXPECT_NE(o.st.status, 0);
	EXPECT_EQ(destroy(CXPRM_OBJ_NVMF_NS, 1, &o, xrqn + 1), ENOENT_);
	ASSERT_EQ(destroy(CXPRM_OBJ_NVMF_NS, 1, &o, xrqn), 0);
	EXPECT_EQ(o.st.status, 0);
	EXPECT_EQ(o.st.opcode, op::DETACH_NVMF_NAMESPACE);
	// Close takes the backend, XRQ, CQ and PD.
}

TEST_F(ObjIoctl, MadeUpNumbersAreTheFirmwaresBadRes)
{
	events();
	cxprm_obj o = obj_srq(0x4242);
	ASSERT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), 0);
	if (test::lenient_run()) {
		EXPECT_EQ(o.st.status, 0);
		return; // TearDown destroys it
	}
	EXPECT_EQ(o.st.status, BAD_RES);
	EXPECT_EQ(o.st.opcode, op::CREATE_RMP); // ISSI 1
	EXPECT_EQ(o.id, 0u);
	o = qp(0x4242, 0x4343, 0x4444);
	ASSERT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), 0);
	EXPECT_EQ(o.st.status, BAD_RES);
	EXPECT_EQ(cxprm_core_objs_count(objs), 0u);
}

TEST_F(ObjIoctl, PerFileLimit)
{
	for (uint32_t i = 0; i < CXPRM_OBJ_MAX_PER_FILE; i++)
		ASSERT_NE(make(obj_of(CXPRM_OBJ_PD)), 0u) << i;
	cxprm_obj o = obj_of(CXPRM_OBJ_PD);
	EXPECT_EQ(ioc(CXPRM_IOC_OBJ_CREATE, &o), ENOSPC_);
	EXPECT_EQ(cxprm_core_objs_count(objs), CXPRM_OBJ_MAX_PER_FILE);
}

TEST_F(ObjIoctl, FailedDestroyKeepsTheQueueUntilTeardown)
{
	uint32_t pd = make(obj_of(CXPRM_OBJ_PD)), srqn = make(obj_srq(pd));
	ASSERT_NE(srqn, 0u);
	size_t live = h.uh.dma_live();
	// DESTROY_RMP's delivery fails: the device may still own the queue.
	auto &f = h.emu.faults();
	f.only_opcode = op::DESTROY_RMP;
	f.delivery_status_count = 1;
	f.delivery_status = 0x7;
	uint32_t done = 0;
	EXPECT_EQ(cxprm_core_objs_destroy(core, objs, &done), 2u); // the SRQ, then its PD
	objs = nullptr;
	EXPECT_EQ(done, 0u);
	f.clear_command_faults();
	EXPECT_EQ(h.uh.dma_live(), live); // kept
	EXPECT_EQ(h.emu.object_counts().srqs, 1u);
	// The teardown releases the firmware's objects, then the memory goes.
	uint64_t leaked = h.emu.counters().objects_leaked;
	cxprm_core_teardown_report rep{};
	cxprm_core_teardown(core, &rep);
	EXPECT_EQ(rep.err, 0);
	EXPECT_EQ(rep.cmdq_stranded, 0u);
	EXPECT_LT(h.uh.dma_live(), live);
	EXPECT_GE(h.emu.counters().objects_leaked, leaked);
	// Here rather than in TearDown (the emulator still counts the SRQ).
	EXPECT_EQ(cxprm_core_objs_destroy(core, other, nullptr), 0u);
	other = nullptr;
	cxprm_core_destroy(core);
	core = nullptr;
	h.emu.stop();
	EXPECT_EQ(h.uh.dma_live(), 0u);
	EXPECT_EQ(h.uh.mem_live(), 0u);
}

namespace {

/*
 * A ConnectX-7 whose real-time clock is enabled (cap sq_ts_format
 * REAL_TIME alone) and whose messages are at most 1 MiB (log_max_msg 20):
 * it refuses a QP with FREE_RUNNING timestamps and an INIT2RTR with
 * log_msg_max 30, both of which cxprm sent before (fidelity-audit-2 items
 * 5 and 9).  The QP is created and brought to RTS as mlx5_ib would.
 */
emu::Profile rtc_profile()
{
	emu::Profile p = strict_profile();
	for (auto *img : {&p.cap(prm::cap::GENERAL).cur, &p.cap(prm::cap::GENERAL).max}) {
		prm::Ref<prm::cmd_hca_cap> c(img->data());
		prm::set<prm::cmd_hca_cap::sq_ts_format>(c, prm::ts_format_cap::REAL_TIME);
		prm::set<prm::cmd_hca_cap::log_max_msg>(c, 20);
	}
	// A RoCE port: QPs take their format from the RoCE capability.
	for (auto *img : {&p.cap(prm::cap::ROCE).cur, &p.cap(prm::cap::ROCE).max})
		prm::set<prm::roce_cap::qp_ts_format>(prm::Ref<prm::roce_cap>(img->data()),
						      prm::ts_format_cap::REAL_TIME);
	return p;
}

struct ObjIoctlRtc : ObjIoctl {
	ObjIoctlRtc() : ObjIoctl(rtc_profile()) {}
};

} // namespace

TEST_F(ObjIoctlRtc, QpOnTheDevicesTimestampsAndMessageSize)
{
	events();
	uint32_t pd = make(obj_of(CXPRM_OBJ_PD)), cqn = make(obj_cq());
	ASSERT_NE(pd, 0u);
	ASSERT_NE(cqn, 0u);
	uint32_t srqn = make(obj_srq(pd));
	ASSERT_NE(srqn, 0u);
	uint32_t qpn = make(qp(pd, cqn, srqn));
	ASSERT_NE(qpn, 0u) << "CREATE_QP refused: ts_format not DEFAULT on a real-time-clock adapter?";
	cxprm_qp_modify m;
	for (uint32_t t : {CXPRM_QP_RST2INIT, CXPRM_QP_INIT2RTR, CXPRM_QP_RTR2RTS}) {
		ASSERT_EQ(modify(qpn, t, &m), 0);
		EXPECT_EQ(m.st.status, 0) << "transition " << t << std::hex << " syndrome " << m.st.syndrome;
	}
	EXPECT_EQ(m.state, 3);
}
