// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// DCT life cycle: create, query, drain (DCT_DRAINED event), destroy; on a
// PD, CQ and SRQ created first (the strict object model).
#include "object_builders.h"

namespace cxprm::emu::test {
namespace {

using prm::dctc;

struct DctTest : InitializedTest {
	ObjectBuilder b{drv, plat};
	ObjectSet o;
	void SetUp() override
	{
		InitializedTest::SetUp();
		o.create(b);
	}
	// CREATE_DCT on the objects of os (default: the fixture's).
	Msg create_msg(const ObjectSet *os = nullptr)
	{
		if (!os)
			os = &o;
		Msg m = ObjectBuilder::dct_in(os->pd, os->cqn, os->srqn);
		Ref<dctc> c = ObjectBuilder::dct_ctx(m);
		prm::set<dctc::dc_access_key>(c, 0x1122334455667788ull);
		prm::set<dctc::rre>(c, 1);
		prm::set<dctc::hop_limit>(c, 64);
		return m;
	}
	uint32_t create()
	{
		Answer a = drv.run<prm::create_dct_out>(create_msg());
		EXPECT_EQ(a.status, st::OK);
		return (uint32_t)prm::get<prm::create_dct_out::dctn>(a.as<prm::create_dct_out>());
	}
	template <class In> Msg by_dctn(uint16_t opc, uint32_t dctn)
	{
		Msg m = make_in<In>(opc);
		prm::set<typename In::dctn>(m.as<In>(), dctn);
		return m;
	}
	Answer query(uint32_t dctn)
	{
		return drv.exec(by_dctn<prm::query_dct_in>(op::QUERY_DCT, dctn), prm::query_dct_out::size_bytes);
	}
};

TEST_F(DctTest, LifeCycleWithDrainedEvent)
{
	// An async EQ listening for DCT_DRAINED.
	Answer u = drv.run<prm::alloc_uar_out>(make_in<prm::alloc_uar_in>(op::ALLOC_UAR));
	uint32_t uar = (uint32_t)prm::get<prm::alloc_uar_out::uar>(u.as<prm::alloc_uar_out>());
	uint64_t ring = plat.alloc(4096);
	for (int i = 0; i < 16; i++)
		plat.cpu(ring + i * 64)[63] = 1;
	Msg m = make_in<prm::create_eq_in>(op::CREATE_EQ, 0, 8);
	Ref<prm::eqc> ec = prm::sub<prm::create_eq_in::eq_context_entry, prm::eqc>(m.as<prm::create_eq_in>());
	prm::set<prm::eqc::log_eq_size>(ec, 4);
	prm::set<prm::eqc::uar_page>(ec, uar);
	store_be64(prm::bytes<prm::create_eq_in::event_bitmask>(m.as<prm::create_eq_in>()),
		   1ull << prm::event::DCT_DRAINED);
	prm::set_pas<prm::create_eq_in_pas>(m.as<prm::create_eq_in>(), 0, ring);
	ASSERT_EQ(drv.run<prm::create_eq_out>(m).status, st::OK);

	uint32_t dctn = create();
	EXPECT_EQ(dctn, emu.profile().dct.first_dctn);
	EXPECT_EQ(emu.dct_count(), 1u);

	Answer q = query(dctn);
	ASSERT_EQ(q.status, st::OK);
	CRef<dctc> c = prm::sub<prm::query_dct_out::dct_context_entry, dctc>(q.as<prm::query_dct_out>());
	EXPECT_EQ(prm::get<dctc::state>(c), (uint32_t)DctState::ACTIVE);
	EXPECT_EQ(prm::get<dctc::pd>(c), o.pd);
	EXPECT_EQ(prm::get<dctc::cqn>(c), o.cqn);
	EXPECT_EQ(prm::get<dctc::srqn_xrqn>(c), o.srqn);
	EXPECT_EQ(prm::get<dctc::dc_access_key>(c), 0x1122334455667788ull);
	EXPECT_EQ(prm::get<dctc::hop_limit>(c), 64u);

	// DRAIN: the command completes, the DCT drains in the same step (delay
	// 0) and DCT_DRAINED lands in the EQ.
	Answer d = drv.run<prm::drain_dct_out>(by_dctn<prm::drain_dct_in>(op::DRAIN_DCT, dctn));
	ASSERT_EQ(d.status, st::OK);
	DctState s;
	ASSERT_TRUE(emu.dct_state(dctn, &s));
	EXPECT_EQ(s, DctState::DRAINED);
	const uint8_t *e = plat.cpu(ring);
	EXPECT_EQ(prm::get<prm::eqe::event_type>(CRef<prm::eqe>(e)), prm::event::DCT_DRAINED);
	EXPECT_EQ(prm::get<prm::eqe::owner>(CRef<prm::eqe>(e)), 0u);
	CRef<prm::dct_events> ev(prm::bytes<prm::eqe::event_data>(CRef<prm::eqe>(e)));
	EXPECT_EQ(prm::get<prm::dct_events::dct_number>(ev), dctn);
	q = query(dctn);
	EXPECT_EQ(prm::get<dctc::state>(prm::sub<prm::query_dct_out::dct_context_entry, dctc>(q.as<prm::query_dct_out>())),
		  (uint32_t)DctState::DRAINED);

	// Draining again: bad resource state.
	Answer again = drv.exec(by_dctn<prm::drain_dct_in>(op::DRAIN_DCT, dctn), 16);
	EXPECT_EQ(again.status, st::BAD_RES_STATE_ERR);
	EXPECT_EQ(again.syndrome, synd::DCT_DRAIN_NOT_ACTIVE);

	EXPECT_EQ(drv.run<prm::destroy_dct_out>(by_dctn<prm::destroy_dct_in>(op::DESTROY_DCT, dctn)).status, st::OK);
	EXPECT_EQ(emu.dct_count(), 0u);
	EXPECT_EQ(query(dctn).syndrome, synd::DCT_UNKNOWN_QUERY);
	Answer gone = drv.exec(by_dctn<prm::destroy_dct_in>(op::DESTROY_DCT, dctn), 16);
	EXPECT_EQ(gone.status, st::BAD_RES_ERR);
	EXPECT_EQ(gone.syndrome, synd::DCT_UNKNOWN_DESTROY);
	EXPECT_EQ(drv.exec(by_dctn<prm::drain_dct_in>(op::DRAIN_DCT, dctn), 16).syndrome, synd::DCT_UNKNOWN_DRAIN);
}

TEST_F(DctTest, Validation)
{
	struct Case {
		std::function<void(Ref<dctc>)> f;
		uint32_t syn;
	} cases[] = {
		{[](Ref<dctc> c) { prm::set<dctc::pd>(c, 0); }, synd::DCT_BAD_PD},
		{[](Ref<dctc> c) { prm::set<dctc::cqn>(c, 0); }, synd::DCT_BAD_CQN},
		{[](Ref<dctc> c) { prm::set<dctc::srqn_xrqn>(c, 0); }, synd::DCT_BAD_SRQN},
		{[](Ref<dctc> c) { prm::set<dctc::mtu>(c, 0); }, synd::DCT_BAD_MTU},
		{[](Ref<dctc> c) { prm::set<dctc::mtu>(c, 6); }, synd::DCT_BAD_MTU},
		{[](Ref<dctc> c) { prm::set<dctc::port>(c, 2); }, synd::DCT_BAD_PORT},
		{[](Ref<dctc> c) { prm::set<dctc::state>(c, 1); }, synd::DCT_BAD_STATE_IN},
		{[](Ref<dctc> c) { c.p[1] = 0xff; }, synd::DCTC_RESERVED},
	};
	for (auto &k : cases) {
		Msg m = create_msg();
		k.f(ObjectBuilder::dct_ctx(m));
		Answer a = drv.exec(m, 16);
		EXPECT_EQ(a.status, st::BAD_PARAM_ERR) << syndrome_name(k.syn);
		EXPECT_EQ(a.syndrome, k.syn) << syndrome_name(k.syn);
	}
	EXPECT_EQ(emu.dct_count(), 0u);
}

// Strict default: DESTROY_DCT of a DCT not DRAINED is refused (Linux always
// drains first); ACTIVE and DRAINING both; the lenient knob accepts it.
TEST_F(DctTest, DestroyOfUndrainedDctRefused)
{
	uint32_t dctn = create();
	Answer a = drv.exec(by_dctn<prm::destroy_dct_in>(op::DESTROY_DCT, dctn), 16);
	EXPECT_EQ(a.status, st::BAD_RES_STATE_ERR);
	EXPECT_EQ(a.syndrome, synd::DCT_NOT_DRAINED);
	EXPECT_EQ(emu.dct_count(), 1u);
	ASSERT_EQ(drv.run<prm::drain_dct_out>(by_dctn<prm::drain_dct_in>(op::DRAIN_DCT, dctn)).status, st::OK);
	EXPECT_EQ(drv.run<prm::destroy_dct_out>(by_dctn<prm::destroy_dct_in>(op::DESTROY_DCT, dctn)).status, st::OK);
	EXPECT_EQ(emu.dct_count(), 0u);

	Rig r2(quiet_with([](Profile &p) { p.make_lenient(); }), Stage::INITIALIZED);
	Answer c = r2.drv.run<prm::create_dct_out>(create_msg());
	uint32_t n2 = (uint32_t)prm::get<prm::create_dct_out::dctn>(c.as<prm::create_dct_out>());
	EXPECT_EQ(r2.drv.run<prm::destroy_dct_out>(by_dctn<prm::destroy_dct_in>(op::DESTROY_DCT, n2)).status, st::OK);
}

TEST_F(DctTest, Exhaustion)
{
	uint32_t n = emu.profile().dct.max_dcts;
	std::set<uint32_t> got;
	for (uint32_t i = 0; i < n; i++)
		got.insert(create());
	EXPECT_EQ(got.size(), n);
	Answer a = drv.exec(create_msg(), 16);
	EXPECT_EQ(a.status, st::NO_RES_ERR);
	EXPECT_EQ(a.syndrome, synd::DCT_EXHAUSTED);
}

TEST_F(DctTest, DrainDelay)
{
	// A profile with a drain delay: DRAINING is observable.
	ObjectRig x(quiet_with([](Profile &p) { p.dct.drain_delay_us = 20000; }));
	Rig &r2 = x.rig;
	Answer a = r2.drv.run<prm::create_dct_out>(create_msg(&x.o));
	uint32_t dctn = (uint32_t)prm::get<prm::create_dct_out::dctn>(a.as<prm::create_dct_out>());
	ASSERT_EQ(r2.drv.run<prm::drain_dct_out>(by_dctn<prm::drain_dct_in>(op::DRAIN_DCT, dctn)).status, st::OK);
	DctState s;
	ASSERT_TRUE(r2.emu.dct_state(dctn, &s));
	EXPECT_EQ(s, DctState::DRAINING);
	std::this_thread::sleep_for(std::chrono::milliseconds(25));
	r2.emu.poll_once();
	ASSERT_TRUE(r2.emu.dct_state(dctn, &s));
	EXPECT_EQ(s, DctState::DRAINED);
}

} // namespace
} // namespace cxprm::emu::test
