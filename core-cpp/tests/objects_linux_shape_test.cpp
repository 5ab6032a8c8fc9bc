// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Objects in the shape Linux gives them (fidelity-audit-2 item 9):
//  - CQs complete to a completion EQ, never the async EQ (mlx5_core's
//    create_cq refuses anything else, core/cq.c): one EQ with no async
//    events, made with the first CQ and destroyed before the async EQ;
//  - an SRQ is an RMP at ISSI 1 (mlx5_ib create_srq_split): CREATE/QUERY/
//    DESTROY_RMP with the wq in log2 bytes; CREATE_SRQ only at ISSI 0.
// Against the strict emulator, which refuses a CQ on the async EQ
// (CQ_ON_ASYNC_EQ) and checks the RMP's state, wq_type and stride.
#include "support/capi_device.h"

#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "cxprm/capi.h"
#include "cxprm/commands/objects.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/rmp.h"

using namespace cxprm;
namespace op = cxprm::prm::op;
using cxprm::test::obj_cq, cxprm::test::obj_of, cxprm::test::obj_srq;

namespace {

constexpr int EINVAL_ = -22;

emu::Profile profile(uint32_t issi_mask = 0x3)
{
	auto p = test::objects_cx7();
	p.issi_mask = issi_mask;
	return p;
}

struct LinuxShape : ::testing::Test, test::CapiDevice {
	explicit LinuxShape(emu::Profile p = profile()) : CapiDevice(std::move(p)) {}
	std::mutex mu;
	std::vector<uint16_t> ops;

	void SetUp() override
	{
		h.emu.set_trace([this](const emu::TraceRecord &r) {
			std::lock_guard<std::mutex> g(mu);
			ops.push_back(r.opcode);
		});
		ASSERT_NO_FATAL_FAILURE(bring_up());
		ASSERT_NO_FATAL_FAILURE(start_events());
	}
	void TearDown() override
	{
		close_objects();
		EXPECT_EQ(h.emu.object_counts().total(), 0u);
		tear_down();
		h.emu.set_trace(nullptr);
	}
	cxprm_core_info info()
	{
		cxprm_core_info i{};
		cxprm_core_get_info(core, &i);
		return i;
	}
	cxprm_obj create(cxprm_obj o)
	{
		EXPECT_EQ(cxprm_core_ioc_obj(core, CXPRM_IOC_OBJ_CREATE, objs, &o), 0);
		return o;
	}
	std::vector<uint16_t> traced()
	{
		std::lock_guard<std::mutex> g(mu);
		return ops;
	}
};

TEST_F(LinuxShape, CqsCompleteToACompletionEqMadeWithTheFirst)
{
	EXPECT_EQ(info().comp_eqn, ~0u); // none before a CQ needs it
	uint64_t eqs = h.emu.opcode_count(op::CREATE_EQ);
	cxprm_obj a = create(obj_cq());
	ASSERT_EQ(a.st.status, 0) << std::hex << a.st.syndrome; // strict: not the async EQ
	cxprm_core_info i = info();
	EXPECT_NE(i.comp_eqn, ~0u);
	EXPECT_NE(i.comp_eqn, i.async_eqn);
	EXPECT_EQ(a.u.cq.eqn, i.comp_eqn);
	cxprm_obj b = create(obj_cq());
	ASSERT_EQ(b.st.status, 0);
	EXPECT_EQ(b.u.cq.eqn, i.comp_eqn); // the same EQ: made once
	EXPECT_EQ(h.emu.opcode_count(op::CREATE_EQ), eqs + 1);

	// QUERY_CQ: the firmware's c_eqn is the completion EQ.
	cxprm_obj q = obj_of(CXPRM_OBJ_CQ, a.id);
	ASSERT_EQ(cxprm_core_ioc_obj(core, CXPRM_IOC_OBJ_QUERY, objs, &q), 0);
	EXPECT_EQ(q.u.cq.eqn, i.comp_eqn);

	// Stopping events: the CQs go first (the files), then the completion
	// EQ, then the async EQ (Linux destroy_comp_eqs, destroy_async_eqs).
	EXPECT_EQ(cxprm_core_objs_destroy(core, objs, nullptr), 0u);
	objs = nullptr;
	size_t from = traced().size();
	cxprm_core_events_stop(core);
	std::vector<uint16_t> t = traced();
	size_t destroyed = 0;
	for (size_t k = from; k < t.size(); k++)
		destroyed += t[k] == op::DESTROY_EQ;
	EXPECT_EQ(destroyed, 2u);
	EXPECT_EQ(info().comp_eqn, ~0u);
}

TEST_F(LinuxShape, CompletionEqComesBackAfterEventsRestart)
{
	ASSERT_EQ(create(obj_cq()).st.status, 0);
	EXPECT_EQ(cxprm_core_objs_destroy(core, objs, nullptr), 0u);
	objs = nullptr;
	cxprm_core_events_stop(core);
	cxprm_core_events_config ec{};
	ASSERT_EQ(cxprm_core_events_start(core, &ec), 0);
	ASSERT_EQ(cxprm_core_objs_create(core, &objs), 0);
	cxprm_obj c = create(obj_cq());
	ASSERT_EQ(c.st.status, 0) << std::hex << c.st.syndrome;
	EXPECT_EQ(c.u.cq.eqn, info().comp_eqn);
}

TEST_F(LinuxShape, SrqIsAnRmpAtIssi1)
{
	ASSERT_EQ(info().issi, 1u);
	uint32_t pd = test::obj_make(core, objs, obj_of(CXPRM_OBJ_PD));
	cxprm_obj s = obj_srq(pd);
	s.u.srq.log_stride = 2; // 64-byte WQEs: wq.log_wq_stride 6
	s.u.srq.lwm = 3;
	s = create(s);
	ASSERT_EQ(s.st.status, 0) << std::hex << s.st.syndrome;
	EXPECT_EQ(s.st.opcode, op::CREATE_RMP);
	EXPECT_EQ(h.emu.opcode_count(op::CREATE_SRQ), 0u);

	cxprm_obj q = obj_of(CXPRM_OBJ_SRQ, s.id);
	ASSERT_EQ(cxprm_core_ioc_obj(core, CXPRM_IOC_OBJ_QUERY, objs, &q), 0);
	EXPECT_EQ(q.st.opcode, op::QUERY_RMP);
	EXPECT_EQ(q.u.srq.state, 1u); // rmpc.state RDY
	EXPECT_EQ(q.u.srq.log_stride, 2u);
	EXPECT_EQ(q.u.srq.log_size, s.u.srq.log_size);
	EXPECT_EQ(q.u.srq.pd, pd);
	EXPECT_EQ(q.u.srq.lwm, 3u);

	// A QP and a DCT name the rmpn where they would name an srqn.
	cxprm_obj cq = create(obj_cq());
	cxprm_obj qp = obj_of(CXPRM_OBJ_QP);
	qp.u.qp.pd = pd;
	qp.u.qp.cqn_snd = qp.u.qp.cqn_rcv = cq.id;
	qp.u.qp.srqn = s.id;
	qp.u.qp.log_sq_size = 4;
	qp = create(qp);
	EXPECT_EQ(qp.st.status, 0) << std::hex << qp.st.syndrome;

	// An RMP has no CQ: nothing is sent for one.
	cxprm_obj bad = obj_srq(pd);
	bad.u.srq.cqn = cq.id;
	uint64_t sent = h.emu.opcode_count(op::CREATE_RMP);
	EXPECT_EQ(cxprm_core_ioc_obj(core, CXPRM_IOC_OBJ_CREATE, objs, &bad), EINVAL_);
	EXPECT_EQ(h.emu.opcode_count(op::CREATE_RMP), sent);

	// Closing destroys it with DESTROY_RMP, after the QP.
	EXPECT_EQ(cxprm_core_objs_destroy(core, objs, nullptr), 0u);
	objs = nullptr;
	EXPECT_EQ(h.emu.opcode_count(op::DESTROY_RMP), 1u);
	EXPECT_EQ(h.emu.opcode_count(op::DESTROY_SRQ), 0u);
}

struct LinuxShapeIssi0 : LinuxShape {
	LinuxShapeIssi0() : LinuxShape(profile(0x1)) {}
};

TEST_F(LinuxShapeIssi0, SrqIsCreateSrqAtIssi0)
{
	ASSERT_EQ(info().issi, 0u);
	uint32_t pd = test::obj_make(core, objs, obj_of(CXPRM_OBJ_PD));
	cxprm_obj s = create(obj_srq(pd));
	ASSERT_EQ(s.st.status, 0) << std::hex << s.st.syndrome;
	EXPECT_EQ(s.st.opcode, op::CREATE_SRQ);
	cxprm_obj q = obj_of(CXPRM_OBJ_SRQ, s.id);
	ASSERT_EQ(cxprm_core_ioc_obj(core, CXPRM_IOC_OBJ_QUERY, objs, &q), 0);
	EXPECT_EQ(q.st.opcode, op::QUERY_SRQ);
	EXPECT_EQ(h.emu.opcode_count(op::CREATE_RMP), 0u);
}

// QUERY_RMP's decoder: the wq's log2-byte stride back in 16-byte units; a
// stride under 16 bytes from firmware is a protocol error, not a wrap.
TEST(RmpDecode, StrideBackInSrqUnitsAndUnderflowRefused)
{
	uint8_t out[prm::query_rmp_out::size_bytes] = {};
	prm::Ref<prm::query_rmp_out> r(out);
	auto c = prm::sub<prm::query_rmp_out::rmp_context, prm::rmpc>(r);
	auto w = prm::sub<prm::rmpc::wq, prm::wq>(c);
	prm::set<prm::rmpc::state>(c, prm::RMP_STATE_RDY);
	prm::set<prm::wq::log_wq_stride>(w, 7);
	prm::set<prm::wq::log_wq_sz>(w, 9);
	prm::set<prm::wq::pd>(w, 0x12);
	cmd::SrqInfo i{};
	ASSERT_EQ(cmd::decode_query_rmp(out, sizeof(out), &i), 0);
	EXPECT_EQ(i.state, prm::RMP_STATE_RDY);
	EXPECT_EQ(i.log_rq_stride, 3u);
	EXPECT_EQ(i.log_srq_size, 9u);
	EXPECT_EQ(i.pd, 0x12u);
	prm::set<prm::wq::log_wq_stride>(w, 3);
	EXPECT_EQ(cmd::decode_query_rmp(out, sizeof(out), &i), E_PROTO);
	EXPECT_EQ(cmd::decode_query_rmp(out, sizeof(out) - 1, &i), E_INVAL);
}

} // namespace
