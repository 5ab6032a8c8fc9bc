// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RoCE (handlers_roce.cpp, prm-notes-functions.rst "RoCE"): roce_en of the
// function's NIC vport (MODIFY/QUERY_NIC_VPORT_CONTEXT), the Ethernet
// port's GID table (SET_ROCE_ADDRESS), and INIT2RTR_QP / CREATE_DCT
// refused (strict) while RoCE is off or their source GID entry is empty;
// the lenient knob takes both; an InfiniBand port has no GID table.
#include "object_builders.h"

#include "cxprm/prm/dct.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/qp.h"

namespace cxprm::emu::test {
namespace {

Profile ib(Profile p)
{
	for (auto *img : {&p.cap(prm::cap::GENERAL).cur, &p.cap(prm::cap::GENERAL).max})
		prm::set<prm::cmd_hca_cap::port_type>(prm::Ref<prm::cmd_hca_cap>(img->data()), prm::port_type::IB);
	return p;
}

// Objects made by hand: nothing sets RoCE up (ObjectSet::create would).
struct RoceTest : InitializedTest {
	explicit RoceTest(Profile p = quiet()) : InitializedTest(std::move(p)) {}
	ObjectBuilder b{drv, plat};
	uint32_t pd = 0, cqn = 0, srqn = 0;
	void SetUp() override
	{
		InitializedTest::SetUp();
		uint32_t uar = b.uar();
		uint8_t eqn = b.eq(uar);
		pd = b.pd();
		cqn = b.cq(uar, eqn);
		srqn = b.srq(pd);
	}
	static void expect(const Answer &a, uint8_t status, uint32_t syndrome)
	{
		EXPECT_EQ(a.status, status) << std::hex << a.syndrome;
		EXPECT_EQ(a.syndrome, syndrome) << syndrome_name(a.syndrome);
	}
	Answer dct(uint8_t my_addr_index)
	{
		Msg m = ObjectBuilder::dct_in(pd, cqn, srqn);
		prm::set<prm::dctc::my_addr_index>(ObjectBuilder::dct_ctx(m), my_addr_index);
		return drv.run<prm::create_dct_out>(m);
	}
	// An RC QP in INIT.
	uint32_t qp_in_init()
	{
		Msg m = make_in<prm::create_qp_in>(op::CREATE_QP, 0, 8);
		auto c = prm::sub<prm::create_qp_in::qpc, prm::qpc>(m.as<prm::create_qp_in>());
		prm::set<prm::qpc::ts_format>(c, prm::ts_format::DEFAULT);
		prm::set<prm::qpc::pd>(c, pd);
		prm::set<prm::qpc::cqn_snd>(c, cqn);
		prm::set<prm::qpc::cqn_rcv>(c, cqn);
		prm::set<prm::qpc::rq_type>(c, 1);
		prm::set<prm::qpc::srqn_rmpn_xrqn>(c, srqn);
		prm::set<prm::qpc::log_sq_size>(c, 6);
		prm::set<prm::qpc::dbr_addr>(c, plat.alloc(64, 64));
		prm::set_pas<prm::create_qp_in_pas>(m.as<prm::create_qp_in>(), 0, plat.alloc(4096));
		Answer a = drv.run<prm::create_qp_out>(m);
		uint32_t qpn = (uint32_t)prm::get<prm::create_qp_out::qpn>(a.as<prm::create_qp_out>());
		expect(transition(op::RST2INIT_QP, qpn, 0), st::OK, 0);
		return qpn;
	}
	Answer transition(uint16_t opc, uint32_t qpn, uint8_t src_addr_index)
	{
		Msg m = make_in<prm::init2rtr_qp_in>(opc);
		prm::set<prm::init2rtr_qp_in::qpn>(m.as<prm::init2rtr_qp_in>(), qpn);
		auto c = prm::sub<prm::init2rtr_qp_in::qpc, prm::qpc>(m.as<prm::init2rtr_qp_in>());
		prm::set<prm::qpc::mtu>(c, 5);
		prm::set<prm::qpc::log_msg_max>(c, 30);
		auto a = prm::sub<prm::qpc::primary_address_path, prm::ads>(c);
		prm::set<prm::ads::vhca_port_num>(a, 1);
		prm::set<prm::ads::src_addr_index>(a, src_addr_index);
		return drv.run<prm::init2rtr_qp_out>(m);
	}
	Answer query_vport()
	{
		return drv.run<prm::query_nic_vport_context_out>(
			make_in<prm::query_nic_vport_context_in>(op::QUERY_NIC_VPORT_CONTEXT));
	}
};

struct RoceLenient : RoceTest {
	RoceLenient() : RoceTest(quiet_with([](Profile &p) { p.make_lenient(); })) {}
};
struct RoceIb : RoceTest {
	RoceIb() : RoceTest(ib(quiet())) {}
};

} // namespace

TEST_F(RoceTest, Init2RtrNeedsRoceAndAPopulatedGid)
{
	uint32_t qpn = qp_in_init();
	expect(transition(op::INIT2RTR_QP, qpn, 0), st::BAD_PARAM_ERR, synd::ROCE_DISABLED);
	expect(b.set_roce_en(true), st::OK, 0);
	expect(transition(op::INIT2RTR_QP, qpn, 0), st::BAD_PARAM_ERR, synd::ROCE_GID_EMPTY);
	expect(b.set_gid(0, 1), st::OK, 0);
	expect(transition(op::INIT2RTR_QP, qpn, 1), st::BAD_PARAM_ERR, synd::ROCE_GID_EMPTY);
	expect(b.set_gid(1, 2, 2), st::OK, 0);
	expect(b.set_gid(1, 0, 2), st::OK, 0); // the delete: empty again
	EXPECT_FALSE(emu.gid_entry(1, 1, nullptr));
	expect(transition(op::INIT2RTR_QP, qpn, 1), st::BAD_PARAM_ERR, synd::ROCE_GID_EMPTY);
	expect(transition(op::INIT2RTR_QP, qpn, 0), st::OK, 0);
	expect(transition(op::RTR2RTS_QP, qpn, 0), st::OK, 0);
}

TEST_F(RoceTest, CreateDctNeedsRoceAndAPopulatedGid)
{
	expect(dct(0), st::BAD_PARAM_ERR, synd::ROCE_DISABLED);
	expect(b.set_roce_en(true), st::OK, 0);
	expect(dct(3), st::BAD_PARAM_ERR, synd::ROCE_GID_EMPTY);
	expect(b.set_gid(3, 9), st::OK, 0);
	expect(dct(3), st::OK, 0);
	// roce_en off again: refused again.
	expect(b.set_roce_en(false), st::OK, 0);
	expect(dct(3), st::BAD_PARAM_ERR, synd::ROCE_DISABLED);
	EXPECT_EQ(emu.dct_count(), 1u);
}

TEST_F(RoceTest, VportContextAndGidTable)
{
	Answer q = query_vport();
	ASSERT_EQ(q.status, st::OK);
	auto v = prm::sub<prm::query_nic_vport_context_out::nic_vport_context, prm::nic_vport_context>(
		q.as<prm::query_nic_vport_context_out>());
	EXPECT_EQ(prm::get<prm::nic_vport_context::roce_en>(v), 0u);
	const uint8_t *mac = prm::bytes<prm::nic_vport_context::permanent_address>(v) + 2;
	EXPECT_TRUE(std::equal(mac, mac + 6, emu.profile().roce.mac.begin()));
	expect(b.set_roce_en(true), st::OK, 0);
	EXPECT_TRUE(emu.roce_enabled());
	q = query_vport();
	EXPECT_EQ(prm::get<prm::nic_vport_context::roce_en>(
			  prm::sub<prm::query_nic_vport_context_out::nic_vport_context, prm::nic_vport_context>(
				  q.as<prm::query_nic_vport_context_out>())),
		  1u);
	expect(b.set_gid((uint16_t)emu.profile().roce.gid_table_size, 1), st::BAD_PARAM_ERR, synd::ROCE_GID_INDEX);
	expect(b.set_gid(0, 1, 1), st::BAD_PARAM_ERR, synd::ROCE_BAD_VERSION);
	expect(b.set_gid(0, 1, 0, 2), st::BAD_PARAM_ERR, synd::ROCE_BAD_PORT);
	expect(b.set_gid(0, 1, 0, 1), st::OK, 0); // port 1 = the own port
	EXPECT_EQ(emu.gid_count(), 1u);
	// TEARDOWN_HCA forgets both.
	EXPECT_EQ(drv.run<prm::teardown_hca_out>(make_in<prm::teardown_hca_in>(op::TEARDOWN_HCA)).status, st::OK);
	EXPECT_FALSE(emu.roce_enabled());
	EXPECT_EQ(emu.gid_count(), 0u);
}

TEST_F(RoceLenient, Init2RtrAndDctTakenWithoutRoce)
{
	uint32_t qpn = qp_in_init();
	expect(transition(op::INIT2RTR_QP, qpn, 5), st::OK, 0);
	expect(dct(5), st::OK, 0);
}

TEST_F(RoceIb, NoGidTableOnAnInfinibandPort)
{
	expect(b.set_gid(0, 1), st::BAD_OP_ERR, synd::ROCE_NOT_ETH);
	uint32_t qpn = qp_in_init();
	expect(transition(op::INIT2RTR_QP, qpn, 0), st::OK, 0);
	expect(dct(0), st::OK, 0);
}

} // namespace cxprm::emu::test
