// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The emulator's strict checks for objects in Linux's shape: a CQ only on a
// completion EQ (no async events subscribed; CQ_ON_ASYNC_EQ, lenient knob
// ObjectProfile::cq_needs_completion_eq), and CREATE / QUERY / DESTROY_RMP
// (an SRQ at ISSI 1; refused at ISSI 0, which these fixtures never run):
// rmpc.state RDY, wq_type linked list,
// log_wq_stride in log2 bytes; RMP and SRQ numbers are one space, but each
// kind answers only its own commands.
#include "object_builders.h"

#include "cxprm/prm/eq.h"
#include "cxprm/prm/qp.h"
#include "cxprm/prm/rmp.h"

namespace cxprm::emu::test {
namespace {

struct ShapeTest : ObjectsFixture {
	explicit ShapeTest(Profile p = quiet()) : ObjectsFixture(std::move(p)) {}
	// An EQ subscribed to PAGE_REQUEST: an async EQ.
	uint8_t async_eq()
	{
		uint64_t ring = plat.alloc(4096);
		for (int i = 0; i < 16; i++)
			plat.cpu(ring + i * 64)[63] = 1;
		Msg m = make_in<prm::create_eq_in>(op::CREATE_EQ, 0, 8);
		auto in = m.as<prm::create_eq_in>();
		auto c = prm::sub<prm::create_eq_in::eq_context_entry, prm::eqc>(in);
		prm::set<prm::eqc::log_eq_size>(c, 4);
		prm::set<prm::eqc::uar_page>(c, o.uar);
		// Word 0 of event_bitmask (types 0..63), big-endian.
		store_be64(prm::bytes<prm::create_eq_in::event_bitmask>(in), 1ull << prm::event::PAGE_REQUEST);
		prm::set_pas<prm::create_eq_in_pas>(in, 0, ring);
		Answer a = drv.run<prm::create_eq_out>(m);
		EXPECT_EQ(a.status, st::OK) << std::hex << a.syndrome;
		return (uint8_t)prm::get<prm::create_eq_out::eq_number>(a.as<prm::create_eq_out>());
	}
	// An RMP of 2^6 WQEs of 2^stride bytes as mlx5_ib sends it, then 'tweak'.
	template <class Tweak> Answer create_rmp(uint32_t pd, uint8_t stride, Tweak tweak)
	{
		Msg m = make_in<prm::create_rmp_in>(op::CREATE_RMP, 0, 8);
		auto c = prm::sub<prm::create_rmp_in::ctx, prm::rmpc>(m.as<prm::create_rmp_in>());
		prm::set<prm::rmpc::state>(c, prm::RMP_STATE_RDY);
		auto w = prm::sub<prm::rmpc::wq, prm::wq>(c);
		prm::set<prm::wq::log_wq_stride>(w, stride);
		prm::set<prm::wq::log_wq_sz>(w, 6);
		prm::set<prm::wq::pd>(w, pd);
		prm::set<prm::wq::lwm>(w, 5);
		prm::set<prm::wq::dbr_addr>(w, plat.alloc(64, 64));
		prm::set_pas<prm::create_rmp_in_pas>(m.as<prm::create_rmp_in>(), 0, plat.alloc(4096));
		tweak(c, w);
		return drv.run<prm::create_rmp_out>(m);
	}
	Answer create_rmp(uint32_t pd, uint8_t stride = 6)
	{
		return create_rmp(pd, stride, [](auto, auto) {});
	}
	static uint32_t rmpn(const Answer &a)
	{
		return (uint32_t)prm::get<prm::create_rmp_out::rmpn>(a.as<prm::create_rmp_out>());
	}
};

TEST_F(ShapeTest, CqOnAnAsyncEqRefused)
{
	uint8_t aeq = async_eq();
	expect(b.create_cq(o.uar, aeq), st::BAD_PARAM_ERR, synd::CQ_ON_ASYNC_EQ);
	// The completion EQ (empty bitmask) takes it.
	expect(b.create_cq(o.uar, o.eqn), st::OK, 0);
}

struct ShapeLenient : ShapeTest {
	ShapeLenient() : ShapeTest(quiet_with([](Profile &p) { p.objects.cq_needs_completion_eq = false; })) {}
};

TEST_F(ShapeLenient, CqOnAnAsyncEqTaken)
{
	expect(b.create_cq(o.uar, async_eq()), st::OK, 0);
}

TEST_F(ShapeTest, RmpLifecycleAsMlx5IbSendsIt)
{
	Answer a = create_rmp(o.pd);
	ASSERT_EQ(a.status, st::OK) << syndrome_name(a.syndrome);
	uint32_t n = rmpn(a);
	Answer q = b.by_number<prm::query_rmp_in, prm::query_rmp_in::rmpn>(op::QUERY_RMP, n,
									   prm::query_rmp_out::size_bytes);
	ASSERT_EQ(q.status, st::OK);
	auto c = prm::sub<prm::query_rmp_out::rmp_context, prm::rmpc>(q.as<prm::query_rmp_out>());
	auto w = prm::sub<prm::rmpc::wq, prm::wq>(c);
	EXPECT_EQ(prm::get<prm::rmpc::state>(c), prm::RMP_STATE_RDY);
	EXPECT_EQ(prm::get<prm::wq::log_wq_stride>(w), 6u);
	EXPECT_EQ(prm::get<prm::wq::log_wq_sz>(w), 6u);
	EXPECT_EQ(prm::get<prm::wq::pd>(w), o.pd);
	EXPECT_EQ(prm::get<prm::wq::lwm>(w), 5u);

	// The SRQ commands do not see it, nor the RMP ones an SRQ.
	expect(b.by_number<prm::query_srq_in, prm::query_srq_in::srqn>(op::QUERY_SRQ, n, prm::query_srq_out::size_bytes),
	       st::BAD_RES_ERR, synd::SRQ_UNKNOWN_QUERY);
	expect(b.by_number<prm::destroy_rmp_in, prm::destroy_rmp_in::rmpn>(op::DESTROY_RMP, o.srqn), st::BAD_RES_ERR,
	       synd::RMP_UNKNOWN);

	// A QP names it by srqn_rmpn_xrqn and keeps it.
	Msg m = make_in<prm::create_qp_in>(op::CREATE_QP, 0, 8);
	auto qc = prm::sub<prm::create_qp_in::qpc, prm::qpc>(m.as<prm::create_qp_in>());
	prm::set<prm::qpc::ts_format>(qc, prm::ts_format::DEFAULT);
	prm::set<prm::qpc::pd>(qc, o.pd);
	prm::set<prm::qpc::cqn_snd>(qc, o.cqn);
	prm::set<prm::qpc::cqn_rcv>(qc, o.cqn);
	prm::set<prm::qpc::rq_type>(qc, 1);
	prm::set<prm::qpc::srqn_rmpn_xrqn>(qc, n);
	prm::set<prm::qpc::log_sq_size>(qc, 6);
	prm::set<prm::qpc::dbr_addr>(qc, plat.alloc(64, 64));
	prm::set_pas<prm::create_qp_in_pas>(m.as<prm::create_qp_in>(), 0, plat.alloc(4096));
	Answer qp = drv.run<prm::create_qp_out>(m);
	ASSERT_EQ(qp.status, st::OK) << syndrome_name(qp.syndrome);
	expect(b.by_number<prm::destroy_rmp_in, prm::destroy_rmp_in::rmpn>(op::DESTROY_RMP, n), st::BAD_RES_STATE_ERR,
	       synd::SRQ_IN_USE);
	uint32_t qpn = (uint32_t)prm::get<prm::create_qp_out::qpn>(qp.as<prm::create_qp_out>());
	expect(b.by_number<prm::destroy_qp_in, prm::destroy_qp_in::qpn>(op::DESTROY_QP, qpn), st::OK, 0);
	expect(b.by_number<prm::destroy_rmp_in, prm::destroy_rmp_in::rmpn>(op::DESTROY_RMP, n), st::OK, 0);
	expect(b.by_number<prm::destroy_rmp_in, prm::destroy_rmp_in::rmpn>(op::DESTROY_RMP, n), st::BAD_RES_ERR,
	       synd::RMP_UNKNOWN);
}

TEST_F(ShapeTest, RmpRefusesWhatMlx5IbNeverSends)
{
	// Not ready.
	expect(create_rmp(o.pd, 6, [](auto c, auto) { prm::set<prm::rmpc::state>(c, 0); }), st::BAD_PARAM_ERR,
	       synd::RMP_BAD_STATE);
	// A cyclic queue: SRQ WQEs are a linked list.
	expect(create_rmp(o.pd, 6, [](auto, auto w) { prm::set<prm::wq::wq_type>(w, 1); }), st::BAD_PARAM_ERR,
	       synd::RMP_BAD_WQ_TYPE);
	// The srqc's 16-byte units (2 for 64 bytes) where log2 bytes belong.
	expect(create_rmp(o.pd, 2), st::BAD_PARAM_ERR, synd::RMP_BAD_STRIDE);
	// No such PD.
	expect(create_rmp(o.pd + 100), st::BAD_RES_ERR, synd::SRQ_NO_PD);
	// 2^6 WQEs of 256 bytes = 16 KiB: one pas entry is too few.
	expect(create_rmp(o.pd, 8), st::BAD_INP_LEN_ERR, synd::SRQ_PAS_INLEN);
}

} // namespace
} // namespace cxprm::emu::test
