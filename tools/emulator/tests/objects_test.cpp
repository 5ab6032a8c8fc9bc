// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The object model (B7/B8): PDs, CQs, SRQs, QPs, NVMF XRQs and backend
// controllers; every reference checked (strict) with a syndrome per site,
// destroying a referenced object refused, the lenient knob's old model.
#include "object_builders.h"

#include "cxprm/prm/dct.h"
#include "cxprm/prm/qp.h"

namespace cxprm::emu::test {
namespace {

struct ObjectsTest : ObjectsFixture {
	explicit ObjectsTest(Profile p = quiet()) : ObjectsFixture(std::move(p)) {}
	Answer dct(uint32_t pd, uint32_t cqn, uint32_t srqn)
	{
		return drv.run<prm::create_dct_out>(ObjectBuilder::dct_in(pd, cqn, srqn));
	}
	Answer qp(uint32_t pd, uint32_t cqn, uint32_t srqn, uint8_t st = 0, uint8_t rq_type = 1, uint32_t npas = 1,
		  uint8_t ts_format = prm::ts_format::DEFAULT)
	{
		Msg m = make_in<prm::create_qp_in>(op::CREATE_QP, 0, 8 * npas);
		auto c = prm::sub<prm::create_qp_in::qpc, prm::qpc>(m.as<prm::create_qp_in>());
		prm::set<prm::qpc::st>(c, st);
		prm::set<prm::qpc::ts_format>(c, ts_format);
		prm::set<prm::qpc::pd>(c, pd);
		prm::set<prm::qpc::cqn_snd>(c, cqn);
		prm::set<prm::qpc::cqn_rcv>(c, cqn);
		prm::set<prm::qpc::rq_type>(c, rq_type);
		prm::set<prm::qpc::srqn_rmpn_xrqn>(c, srqn);
		prm::set<prm::qpc::log_sq_size>(c, 6);
		prm::set<prm::qpc::dbr_addr>(c, plat.alloc(64, 64));
		for (uint32_t i = 0; i < npas; i++)
			prm::set_pas<prm::create_qp_in_pas>(m.as<prm::create_qp_in>(), i, plat.alloc(4096));
		return drv.run<prm::create_qp_out>(m);
	}
	template <class In>
	Answer transition(uint16_t opc, uint32_t qpn, uint8_t port = 1, uint8_t mtu = 5, uint8_t log_msg_max = 30)
	{
		Msg m = make_in<In>(opc);
		prm::set<typename In::qpn>(m.as<In>(), qpn);
		auto c = prm::sub<typename In::qpc, prm::qpc>(m.as<In>());
		prm::set<prm::qpc::mtu>(c, mtu);
		prm::set<prm::qpc::log_msg_max>(c, log_msg_max);
		prm::set<prm::ads::vhca_port_num>(prm::sub<prm::qpc::primary_address_path, prm::ads>(c), port);
		return drv.run<prm::rst2init_qp_out>(m);
	}
	Answer destroy_dct(uint32_t dctn)
	{
		Answer a = b.by_number<prm::drain_dct_in, prm::drain_dct_in::dctn>(op::DRAIN_DCT, dctn);
		EXPECT_EQ(a.status, st::OK);
		emu.poll_once();
		return b.by_number<prm::destroy_dct_in, prm::destroy_dct_in::dctn>(op::DESTROY_DCT, dctn);
	}
};

TEST_F(ObjectsTest, PdLifecycleAndInUse)
{
	EXPECT_EQ(emu.object_counts().pds, 1u);
	uint32_t pd2 = b.pd();
	EXPECT_NE(pd2, o.pd);
	expect(b.by_number<prm::dealloc_pd_in, prm::dealloc_pd_in::pd>(op::DEALLOC_PD, 0x777), st::BAD_RES_ERR,
	       synd::PD_UNKNOWN);
	expect(b.by_number<prm::dealloc_pd_in, prm::dealloc_pd_in::pd>(op::DEALLOC_PD, o.pd), st::BAD_RES_STATE_ERR,
	       synd::PD_IN_USE); // the SRQ names it
	expect(b.by_number<prm::dealloc_pd_in, prm::dealloc_pd_in::pd>(op::DEALLOC_PD, pd2), st::OK, 0);
	EXPECT_EQ(emu.object_counts().pds, 1u);
}

TEST_F(ObjectsTest, CqChecksQueryAndInUse)
{
	expect(b.create_cq(o.uar + 100, o.eqn), st::BAD_PARAM_ERR, synd::CQ_BAD_UAR);
	expect(b.create_cq(o.uar, o.eqn + 1), st::BAD_RES_ERR, synd::CQ_NO_EQ);
	expect(b.create_cq(o.uar, o.eqn, 1, 7), st::BAD_INP_LEN_ERR, synd::CQ_PAS_INLEN); // 8 KiB, one pas
	expect(b.create_cq(o.uar, o.eqn, 1, 23), st::BAD_PARAM_ERR, synd::CQ_BAD_LOG_SIZE);
	uint32_t cqn = b.cq(o.uar, o.eqn);

	Answer q = b.by_number<prm::query_cq_in, prm::query_cq_in::cqn>(op::QUERY_CQ, cqn, prm::query_cq_out::size_bytes);
	ASSERT_EQ(q.status, st::OK);
	auto c = prm::sub<prm::query_cq_out::cq_context, prm::cqc>(q.as<prm::query_cq_out>());
	EXPECT_EQ(prm::get<prm::cqc::log_cq_size>(c), 6u);
	EXPECT_EQ(prm::get<prm::cqc::uar_page>(c), o.uar);
	EXPECT_EQ(prm::get<prm::cqc::c_eqn_or_apu_element>(c), o.eqn);
	expect(b.by_number<prm::query_cq_in, prm::query_cq_in::cqn>(op::QUERY_CQ, 0x3, prm::query_cq_out::size_bytes),
	       st::BAD_RES_ERR, synd::CQ_UNKNOWN_QUERY);

	// An SRQ reporting to it keeps it; its EQ and UAR are kept too.
	Answer s = b.create_srq(o.pd, cqn);
	ASSERT_EQ(s.status, st::OK);
	uint32_t srqn = (uint32_t)prm::get<prm::create_srq_out::srqn>(s.as<prm::create_srq_out>());
	expect(b.by_number<prm::destroy_cq_in, prm::destroy_cq_in::cqn>(op::DESTROY_CQ, cqn), st::BAD_RES_STATE_ERR,
	       synd::CQ_IN_USE);
	expect(b.by_number<prm::destroy_eq_in, prm::destroy_eq_in::eq_number>(op::DESTROY_EQ, o.eqn),
	       st::BAD_RES_STATE_ERR, synd::EQ_IN_USE);
	expect(b.by_number<prm::dealloc_uar_in, prm::dealloc_uar_in::uar>(op::DEALLOC_UAR, o.uar),
	       st::BAD_RES_STATE_ERR, synd::UAR_IN_USE);
	expect(b.by_number<prm::destroy_srq_in, prm::destroy_srq_in::srqn>(op::DESTROY_SRQ, srqn), st::OK, 0);
	expect(b.by_number<prm::destroy_cq_in, prm::destroy_cq_in::cqn>(op::DESTROY_CQ, cqn), st::OK, 0);
	expect(b.by_number<prm::destroy_cq_in, prm::destroy_cq_in::cqn>(op::DESTROY_CQ, cqn), st::BAD_RES_ERR,
	       synd::CQ_UNKNOWN_DESTROY);
}

TEST_F(ObjectsTest, SrqChecksAndQuery)
{
	expect(b.create_srq(0x999), st::BAD_RES_ERR, synd::SRQ_NO_PD);
	expect(b.create_srq(o.pd, 0x999), st::BAD_RES_ERR, synd::SRQ_NO_CQ);
	expect(b.create_srq(o.pd, 0, 0), st::BAD_INP_LEN_ERR, synd::SRQ_PAS_INLEN);
	Answer q = b.by_number<prm::query_srq_in, prm::query_srq_in::srqn>(op::QUERY_SRQ, o.srqn,
									  prm::query_srq_out::size_bytes);
	ASSERT_EQ(q.status, st::OK);
	auto c = prm::sub<prm::query_srq_out::srq_context_entry, prm::srqc>(q.as<prm::query_srq_out>());
	EXPECT_EQ(prm::get<prm::srqc::pd>(c), o.pd);
	EXPECT_EQ(prm::get<prm::srqc::log_srq_size>(c), 6u);
	expect(b.by_number<prm::query_srq_in, prm::query_srq_in::srqn>(op::QUERY_SRQ, 1, prm::query_srq_out::size_bytes),
	       st::BAD_RES_ERR, synd::SRQ_UNKNOWN_QUERY);
	expect(b.by_number<prm::destroy_srq_in, prm::destroy_srq_in::srqn>(op::DESTROY_SRQ, 1), st::BAD_RES_ERR,
	       synd::SRQ_UNKNOWN_DESTROY);
}

TEST_F(ObjectsTest, DctNamesRealObjects)
{
	expect(dct(o.pd + 50, o.cqn, o.srqn), st::BAD_RES_ERR, synd::DCT_NO_PD);
	expect(dct(o.pd, o.cqn + 50, o.srqn), st::BAD_RES_ERR, synd::DCT_NO_CQ);
	expect(dct(o.pd, o.cqn, o.srqn + 50), st::BAD_RES_ERR, synd::DCT_NO_SRQ);
	expect(dct(o.pd, o.srqn, o.cqn), st::BAD_RES_ERR, synd::DCT_NO_CQ); // numbers of the wrong kind
	Answer a = dct(o.pd, o.cqn, o.srqn);
	ASSERT_EQ(a.status, st::OK);
	uint32_t dctn = (uint32_t)prm::get<prm::create_dct_out::dctn>(a.as<prm::create_dct_out>());
	expect(b.by_number<prm::destroy_srq_in, prm::destroy_srq_in::srqn>(op::DESTROY_SRQ, o.srqn),
	       st::BAD_RES_STATE_ERR, synd::SRQ_IN_USE);
	expect(b.by_number<prm::destroy_cq_in, prm::destroy_cq_in::cqn>(op::DESTROY_CQ, o.cqn), st::BAD_RES_STATE_ERR,
	       synd::CQ_IN_USE);
	expect(b.by_number<prm::dealloc_pd_in, prm::dealloc_pd_in::pd>(op::DEALLOC_PD, o.pd), st::BAD_RES_STATE_ERR,
	       synd::PD_IN_USE);
	expect(destroy_dct(dctn), st::OK, 0);
	// In dependency order everything goes.
	expect(b.by_number<prm::destroy_srq_in, prm::destroy_srq_in::srqn>(op::DESTROY_SRQ, o.srqn), st::OK, 0);
	expect(b.by_number<prm::destroy_cq_in, prm::destroy_cq_in::cqn>(op::DESTROY_CQ, o.cqn), st::OK, 0);
	expect(b.by_number<prm::dealloc_pd_in, prm::dealloc_pd_in::pd>(op::DEALLOC_PD, o.pd), st::OK, 0);
	EXPECT_EQ(emu.object_counts().total(), 0u);
}

TEST_F(ObjectsTest, QpChecksAndTransitions)
{
	expect(qp(o.pd, o.cqn, o.srqn, 2), st::BAD_PARAM_ERR, synd::QP_BAD_ST);
	expect(qp(o.pd, o.cqn, o.srqn, 0, 2), st::BAD_PARAM_ERR, synd::QP_BAD_RQ_TYPE);
	expect(qp(o.pd + 9, o.cqn, o.srqn), st::BAD_RES_ERR, synd::QP_NO_PD);
	expect(qp(o.pd, o.cqn + 9, o.srqn), st::BAD_RES_ERR, synd::QP_NO_CQ);
	expect(qp(o.pd, o.cqn, o.srqn + 9), st::BAD_RES_ERR, synd::QP_NO_SRQ);
	expect(qp(o.pd, o.cqn, o.srqn, 0, 1, 0), st::BAD_INP_LEN_ERR, synd::QP_PAS_INLEN);
	uint32_t xrqn = b.xrq(o.pd, o.cqn);
	expect(qp(o.pd, o.cqn, xrqn), st::BAD_RES_ERR, synd::QP_SRQ_WRONG_TYPE);

	Answer a = qp(o.pd, o.cqn, o.srqn);
	ASSERT_EQ(a.status, st::OK);
	uint32_t qpn = (uint32_t)prm::get<prm::create_qp_out::qpn>(a.as<prm::create_qp_out>());
	expect(transition<prm::init2rtr_qp_in>(op::INIT2RTR_QP, qpn), st::BAD_RES_STATE_ERR, synd::QP_BAD_TRANSITION);
	expect(transition<prm::rst2init_qp_in>(op::RST2INIT_QP, qpn, 2), st::BAD_PARAM_ERR, synd::QP_BAD_PORT);
	expect(transition<prm::rst2init_qp_in>(op::RST2INIT_QP, qpn), st::OK, 0);
	expect(transition<prm::init2rtr_qp_in>(op::INIT2RTR_QP, qpn, 1, 6), st::BAD_PARAM_ERR, synd::QP_BAD_MTU);
	// log_msg_max above cap log_max_msg (30 on the profile).
	expect(transition<prm::init2rtr_qp_in>(op::INIT2RTR_QP, qpn, 1, 5, 31), st::BAD_PARAM_ERR,
	       synd::QP_BAD_LOG_MSG_MAX);
	expect(transition<prm::init2rtr_qp_in>(op::INIT2RTR_QP, qpn), st::OK, 0);
	expect(transition<prm::rtr2rts_qp_in>(op::RTR2RTS_QP, qpn), st::OK, 0);
	expect(transition<prm::rtr2rts_qp_in>(op::RTR2RTS_QP, qpn), st::BAD_RES_STATE_ERR, synd::QP_BAD_TRANSITION);
	expect(transition<prm::rst2init_qp_in>(op::RST2INIT_QP, qpn + 1), st::BAD_RES_ERR, synd::QP_UNKNOWN);
	expect(b.by_number<prm::destroy_cq_in, prm::destroy_cq_in::cqn>(op::DESTROY_CQ, o.cqn), st::BAD_RES_STATE_ERR,
	       synd::CQ_IN_USE);
	expect(b.by_number<prm::qp_2rst_in, prm::qp_2rst_in::qpn>(op::QP_2RST, qpn), st::OK, 0);
	expect(transition<prm::rst2init_qp_in>(op::RST2INIT_QP, qpn), st::OK, 0); // from RST again
	expect(b.by_number<prm::destroy_qp_in, prm::destroy_qp_in::qpn>(op::DESTROY_QP, qpn), st::OK, 0);
	expect(b.by_number<prm::destroy_qp_in, prm::destroy_qp_in::qpn>(op::DESTROY_QP, qpn), st::BAD_RES_ERR,
	       synd::QP_UNKNOWN_DESTROY);
	expect(b.by_number<prm::qp_2rst_in, prm::qp_2rst_in::qpn>(op::QP_2RST, qpn), st::BAD_RES_ERR, synd::QP_UNKNOWN);
}

// A QP's or DCT's number is the lowest free one (QPs and DCTs share the
// numbers), whatever was destroyed before: a destroy lowers the floor the
// next create starts from (NumberFloor).
TEST_F(ObjectsTest, NumbersAreTheLowestFree)
{
	auto qpn = [&] {
		Answer a = qp(o.pd, o.cqn, o.srqn);
		EXPECT_EQ(a.status, st::OK);
		return (uint32_t)prm::get<prm::create_qp_out::qpn>(a.as<prm::create_qp_out>());
	};
	auto dctn = [&] {
		Answer a = dct(o.pd, o.cqn, o.srqn);
		EXPECT_EQ(a.status, st::OK);
		return (uint32_t)prm::get<prm::create_dct_out::dctn>(a.as<prm::create_dct_out>());
	};
	auto destroy_qp = [&](uint32_t n) {
		expect(b.by_number<prm::destroy_qp_in, prm::destroy_qp_in::qpn>(op::DESTROY_QP, n), st::OK, 0);
	};
	uint32_t q[4];
	for (uint32_t &n : q)
		n = qpn();
	for (uint32_t i = 1; i < 4; i++)
		EXPECT_EQ(q[i], q[0] + i);
	destroy_qp(q[2]);
	destroy_qp(q[1]);
	EXPECT_EQ(qpn(), q[1]);
	EXPECT_EQ(qpn(), q[2]);
	EXPECT_EQ(qpn(), q[3] + 1);
	uint32_t d0 = dctn(), d1 = dctn();
	EXPECT_EQ(d1, d0 + 1);
	expect(destroy_dct(d0), st::OK, 0);
	EXPECT_EQ(dctn(), d0);
	destroy_qp(q[0]);
	EXPECT_EQ(qpn(), q[0]);
}

// qpc.ts_format against the capability (on this RoCE port roce_cap
// qp_ts_format, as Linux reads it; cmd_hca_cap.sq_ts_format otherwise):
// an adapter with both clocks takes every format; with
// REAL_TIME_CLOCK_ENABLE (REAL_TIME alone) it refuses FREE_RUNNING, which
// cxprm sent before (fidelity-audit-2 item 5); one with a free-running
// clock only refuses REAL_TIME; 3 is no format.
Profile with_ts(uint8_t supported, uint8_t general = 0xff)
{
	Profile p = quiet();
	for (auto *img : {&p.cap(prm::cap::ROCE).cur, &p.cap(prm::cap::ROCE).max})
		prm::set<prm::roce_cap::qp_ts_format>(prm::Ref<prm::roce_cap>(img->data()), supported);
	for (auto *img : {&p.cap(prm::cap::GENERAL).cur, &p.cap(prm::cap::GENERAL).max})
		prm::set<prm::cmd_hca_cap::sq_ts_format>(prm::Ref<prm::cmd_hca_cap>(img->data()),
							  general == 0xff ? supported : general);
	return p;
}
// The RoCE capability decides on a RoCE port, not the general one.
struct TsFormatRoceDecides : ObjectsTest {
	TsFormatRoceDecides()
		: ObjectsTest(with_ts(prm::ts_format_cap::FREE_RUNNING_AND_REAL_TIME, prm::ts_format_cap::REAL_TIME))
	{
	}
};
TEST_F(TsFormatRoceDecides, FreeRunningTakenByTheRoceCap)
{
	expect(qp(o.pd, o.cqn, o.srqn, 0, 1, 1, prm::ts_format::FREE_RUNNING), st::OK, 0);
}
struct TsFormatRtc : ObjectsTest {
	TsFormatRtc() : ObjectsTest(with_ts(prm::ts_format_cap::REAL_TIME)) {}
};
struct TsFormatFreeRunning : ObjectsTest {
	TsFormatFreeRunning() : ObjectsTest(with_ts(prm::ts_format_cap::FREE_RUNNING)) {}
};
struct TsFormatBoth : ObjectsTest {
	TsFormatBoth() : ObjectsTest(with_ts(prm::ts_format_cap::FREE_RUNNING_AND_REAL_TIME)) {}
};

TEST_F(TsFormatBoth, EveryFormatButThree)
{
	expect(qp(o.pd, o.cqn, o.srqn, 0, 1, 1, prm::ts_format::FREE_RUNNING), st::OK, 0);
	expect(qp(o.pd, o.cqn, o.srqn, 0, 1, 1, prm::ts_format::REAL_TIME), st::OK, 0);
	expect(qp(o.pd, o.cqn, o.srqn, 0, 1, 1, 3), st::BAD_PARAM_ERR, synd::QP_BAD_TS_FORMAT);
}

TEST_F(TsFormatRtc, FreeRunningRefused)
{
	expect(qp(o.pd, o.cqn, o.srqn, 0, 1, 1, prm::ts_format::FREE_RUNNING), st::BAD_PARAM_ERR,
	       synd::QP_BAD_TS_FORMAT);
	expect(qp(o.pd, o.cqn, o.srqn, 0, 1, 1, prm::ts_format::DEFAULT), st::OK, 0);
	expect(qp(o.pd, o.cqn, o.srqn, 0, 1, 1, prm::ts_format::REAL_TIME), st::OK, 0);
}

TEST_F(TsFormatFreeRunning, RealTimeRefused)
{
	expect(qp(o.pd, o.cqn, o.srqn, 0, 1, 1, prm::ts_format::REAL_TIME), st::BAD_PARAM_ERR,
	       synd::QP_BAD_TS_FORMAT);
	expect(qp(o.pd, o.cqn, o.srqn, 0, 1, 1, prm::ts_format::FREE_RUNNING), st::OK, 0);
	expect(qp(o.pd, o.cqn, o.srqn, 0, 1, 1, prm::ts_format::DEFAULT), st::OK, 0);
}

TEST_F(ObjectsTest, NvmfXrqBackendNamespace)
{
	expect(b.create_xrq(o.pd, o.cqn, 1), st::BAD_PARAM_ERR, synd::XRQ_BAD_OFFLOAD);
	expect(b.create_xrq(o.pd + 9, o.cqn), st::BAD_RES_ERR, synd::XRQ_NO_PD);
	expect(b.create_xrq(o.pd, o.cqn + 9), st::BAD_RES_ERR, synd::XRQ_NO_CQ);
	uint32_t xrqn = b.xrq(o.pd, o.cqn, 0); // one namespace at most
	EXPECT_EQ(emu.object_counts().xrqs, 1u);

	expect(b.create_backend(o.srqn), st::BAD_RES_ERR, synd::NVMF_XRQN_IS_SRQ);
	expect(b.create_backend(xrqn + 1), st::BAD_RES_ERR, synd::NVMF_BAD_XRQN);
	expect(b.create_backend(xrqn, {.list_bytes = 16}), st::BAD_INP_LEN_ERR, synd::NVMF_BE_PAS_INLEN);
	uint16_t be = b.backend(xrqn);

	auto attach = [&](uint32_t nsid, uint16_t ctrl) { return b.attach_ns(xrqn, nsid, 1, 512, ctrl); };
	expect(attach(1, be + 1), st::BAD_RES_ERR, synd::NVMF_NS_NO_BACKEND);
	expect(attach(1, be), st::OK, 0);
	expect(attach(2, be), st::NO_RES_ERR, synd::NVMF_NS_LIMIT); // 2^0 namespaces
	// Simulated I/O moves only an attached namespace's counters.
	NvmfIo io;
	io.read_cmds = 1;
	EXPECT_TRUE(emu.simulate_nvmf_io(xrqn, 1, io));
	EXPECT_FALSE(emu.simulate_nvmf_io(xrqn, 2, io));

	using BD = prm::destroy_nvmf_be_ctrl_in;
	auto destroy_be = [&](uint16_t id) {
		Msg m = make_in<BD>(op::DESTROY_NVMF_BACKEND_CTRL);
		prm::set<BD::xrqn>(m.as<BD>(), xrqn);
		prm::set<BD::backend_controller_id>(m.as<BD>(), id);
		return drv.exec(m, 16);
	};
	expect(destroy_be(be), st::BAD_RES_STATE_ERR, synd::NVMF_BE_IN_USE);
	expect(b.by_number<prm::destroy_xrq_in, prm::destroy_xrq_in::xrqn>(op::DESTROY_XRQ, xrqn),
	       st::BAD_RES_STATE_ERR, synd::XRQ_IN_USE);
	Msg d = make_in<prm::detach_nvmf_namespace_in>(op::DETACH_NVMF_NAMESPACE);
	prm::set<prm::detach_nvmf_namespace_in::xrqn>(d.as<prm::detach_nvmf_namespace_in>(), xrqn);
	prm::set<prm::detach_nvmf_namespace_in::frontend_namespace>(d.as<prm::detach_nvmf_namespace_in>(), 1);
	expect(drv.exec(d, 16), st::OK, 0);
	expect(destroy_be(be + 5), st::BAD_RES_ERR, synd::NVMF_BE_UNKNOWN);
	expect(b.by_number<prm::destroy_xrq_in, prm::destroy_xrq_in::xrqn>(op::DESTROY_XRQ, xrqn),
	       st::BAD_RES_STATE_ERR, synd::XRQ_IN_USE); // the backend still names it
	expect(destroy_be(be), st::OK, 0);
	expect(b.by_number<prm::destroy_cq_in, prm::destroy_cq_in::cqn>(op::DESTROY_CQ, o.cqn), st::BAD_RES_STATE_ERR,
	       synd::CQ_IN_USE); // the XRQ reports to it
	expect(b.by_number<prm::destroy_xrq_in, prm::destroy_xrq_in::xrqn>(op::DESTROY_XRQ, xrqn), st::OK, 0);
	expect(b.by_number<prm::destroy_xrq_in, prm::destroy_xrq_in::xrqn>(op::DESTROY_XRQ, xrqn), st::BAD_RES_ERR,
	       synd::XRQ_UNKNOWN_DESTROY);
}

TEST_F(ObjectsTest, TeardownCountsObjectsLeft)
{
	uint64_t before = emu.counters().objects_leaked;
	ASSERT_EQ(drv.run<prm::teardown_hca_out>(make_in<prm::teardown_hca_in>(op::TEARDOWN_HCA)).status, st::OK);
	EXPECT_EQ(emu.object_counts().total(), 0u);
	// UAR, EQ, PD, CQ, SRQ.
	EXPECT_EQ(emu.counters().objects_leaked - before, 5u);
}

// The lenient knob: the old model, where any nonzero number exists.
struct LenientObjectsTest : ObjectsTest {
	static Profile lenient()
	{
		Profile p = quiet();
		p.objects.check_refs = false;
		return p;
	}
	LenientObjectsTest() : ObjectsTest(lenient()) {}
};

TEST_F(LenientObjectsTest, MadeUpNumbersAreTaken)
{
	expect(dct(1, 2, 3), st::OK, 0);
	expect(qp(0x11, 0x22, 0x33), st::OK, 0);
	expect(b.create_srq(0x44), st::OK, 0);
	EXPECT_EQ(b.create_backend(emu.profile().nvmf.first_xrqn + 3).status, st::OK);
	// Destroying what a live object names is refused all the same.
	expect(b.by_number<prm::dealloc_pd_in, prm::dealloc_pd_in::pd>(op::DEALLOC_PD, o.pd), st::BAD_RES_STATE_ERR,
	       synd::PD_IN_USE);
}

} // namespace
} // namespace cxprm::emu::test
