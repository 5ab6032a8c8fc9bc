// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RoCE (core-cpp/src/roce.cpp, audit II item 7): on an Ethernet port the
// first DCT or RC QP INIT2RTR enables RoCE for the function
// (MODIFY_NIC_VPORT_CONTEXT roce_en) and writes ib_core's default GIDs
// (SET_ROCE_ADDRESS: the link-local GID of the vport's MAC, RoCE v1 at 0,
// v2 at 1), once; the teardown deletes them and disables RoCE.  The
// INIT2RTR address path is mlx5_set_path's (RoCE: rmac, eth_prio, udp_sport
// and dscp for v2, no grh bit; InfiniBand: rlid, sl, grh).  The command
// encodings are checked as bytes.
#include "support/capi_device.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "cxprm/capi.h"
#include "cxprm/commands/qp.h"
#include "cxprm/commands/vport.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/qp.h"
#include "cxprm/prm/vport.h"
#include "cxprm_emu/syndromes.h"

using namespace cxprm;
namespace op = cxprm::prm::op;

namespace {

constexpr int EINVAL_ = -22;

emu::Profile profile(bool ib = false)
{
	auto p = test::objects_cx7();
	if (ib)
		for (auto *img : {&p.cap(prm::cap::GENERAL).cur, &p.cap(prm::cap::GENERAL).max})
			prm::set<prm::cmd_hca_cap::port_type>(prm::Ref<prm::cmd_hca_cap>(img->data()),
							      prm::port_type::IB);
	return p;
}

// The INIT2RTR inputs the device saw.
struct Seen {
	std::mutex m;
	std::vector<std::vector<uint8_t>> rtr;
};

struct Roce : ::testing::TestWithParam<bool>, test::CapiDevice {
	Roce() : CapiDevice(profile(GetParam())) {}
	Seen seen;

	bool ib() const { return GetParam(); }
	void SetUp() override
	{
		ASSERT_NO_FATAL_FAILURE(bring_up());
		ASSERT_NO_FATAL_FAILURE(start_events());
		ASSERT_NO_FATAL_FAILURE(make_refs());
		h.emu.set_answer_hook([this](unsigned, const uint8_t *in, uint32_t inlen, uint8_t *, uint32_t) {
			if (prm::get<prm::cmd_in::opcode>(prm::CRef<prm::cmd_in>(in)) == op::INIT2RTR_QP) {
				std::lock_guard<std::mutex> g(seen.m);
				seen.rtr.emplace_back(in, in + inlen);
			}
			return (uint8_t)0;
		});
	}
	void TearDown() override
	{
		h.emu.set_answer_hook({});
		if (!core)
			return;
		close_objects();
		tear_down();
	}
	uint64_t n(uint16_t opcode) const { return h.emu.opcode_count(opcode); }
	// *m's path fields as the caller set them.
	int modify(uint32_t qpn, uint32_t transition, cxprm_qp_modify *m)
	{
		m->qpn = qpn;
		m->transition = transition;
		m->port = 1;
		m->mtu = 5;
		return cxprm_core_ioc_obj(core, CXPRM_IOC_QP_MODIFY, objs, m);
	}
	prm::CRef<prm::ads> last_path()
	{
		std::lock_guard<std::mutex> g(seen.m);
		EXPECT_FALSE(seen.rtr.empty());
		static std::vector<uint8_t> keep;
		keep = seen.rtr.back();
		auto c = prm::sub<prm::init2rtr_qp_in::qpc, prm::qpc>(prm::CRef<prm::init2rtr_qp_in>(keep.data()));
		return prm::sub<prm::qpc::primary_address_path, prm::ads>(c);
	}
};

} // namespace

// RTS is reached only after roce_en and the default GIDs were sent, once;
// the GID entries hold the link-local GID of the vport's MAC.
TEST_P(Roce, RcQpReachesRtsAfterRoceIsSetUp)
{
	uint32_t qpn = make_qp();
	ASSERT_NE(qpn, 0u);
	cxprm_qp_modify m{};
	ASSERT_EQ(modify(qpn, CXPRM_QP_RST2INIT, &m), 0);
	ASSERT_EQ(m.st.status, 0);
	EXPECT_EQ(n(op::MODIFY_NIC_VPORT_CONTEXT), 0u); // lazily: not before INIT2RTR
	m = {};
	m.rgid[15] = 7;
	m.rmac[5] = 0x22;
	m.sl = 5;
	m.hop_limit = 64;
	m.tclass = 0x68;
	m.remote_qpn = 0x55;
	m.rlid = ib() ? 0x17 : 0;
	ASSERT_EQ(modify(qpn, CXPRM_QP_INIT2RTR, &m), 0);
	ASSERT_EQ(m.st.status, 0) << std::hex << m.st.syndrome;
	m = {};
	ASSERT_EQ(modify(qpn, CXPRM_QP_RTR2RTS, &m), 0);
	ASSERT_EQ(m.st.status, 0);
	EXPECT_EQ(m.state, 3);
	auto a = last_path();
	EXPECT_EQ(prm::get<prm::ads::src_addr_index>(a), 0u);
	EXPECT_EQ(prm::get<prm::ads::hop_limit>(a), 64u);
	EXPECT_EQ(prm::get<prm::ads::tclass>(a), 0x68u);
	EXPECT_EQ(prm::bytes<prm::ads::rgid_rip>(a)[15], 7);
	if (ib()) {
		// No RoCE on an InfiniBand port: rlid, sl, grh with the rgid.
		EXPECT_EQ(n(op::MODIFY_NIC_VPORT_CONTEXT), 0u);
		EXPECT_EQ(n(op::SET_ROCE_ADDRESS), 0u);
		EXPECT_EQ(prm::get<prm::ads::rlid>(a), 0x17u);
		EXPECT_EQ(prm::get<prm::ads::sl>(a), 5u);
		EXPECT_EQ(prm::get<prm::ads::grh>(a), 1u);
		EXPECT_EQ(prm::get<prm::ads::rmac_31_0>(a), 0u);
		return;
	}
	EXPECT_EQ(n(op::MODIFY_NIC_VPORT_CONTEXT), 1u);
	EXPECT_EQ(n(op::QUERY_NIC_VPORT_CONTEXT), 1u);
	EXPECT_EQ(n(op::SET_ROCE_ADDRESS), 2u);
	EXPECT_TRUE(h.emu.roce_enabled());
	// fe80::(mac ^ 02:00..) with ff:fe in the middle.
	const auto &mac = h.emu.profile().roce.mac;
	const uint8_t want[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, (uint8_t)(mac[0] ^ 2), mac[1], mac[2],
				  0xff, 0xfe, mac[3], mac[4], mac[5]};
	for (uint16_t i = 0; i < 2; i++) {
		std::array<uint8_t, 32> e{};
		ASSERT_TRUE(h.emu.gid_entry(1, i, &e)) << i;
		prm::CRef<prm::roce_addr_layout> r(e.data());
		EXPECT_EQ(0, memcmp(prm::bytes<prm::roce_addr_layout::source_l3_address>(r), want, 16));
		EXPECT_EQ(prm::get<prm::roce_addr_layout::source_mac_47_32>(r), (uint64_t)mac[0] << 8 | mac[1]);
		EXPECT_EQ(prm::get<prm::roce_addr_layout::roce_version>(r), i ? 2u : 0u);
		EXPECT_EQ(prm::get<prm::roce_addr_layout::roce_l3_type>(r), i ? 1u : 0u);
	}
	// RoCE: rmac, eth_prio = sl & 7, no grh bit, no rlid; v1: no udp_sport.
	EXPECT_EQ(prm::get<prm::ads::rmac_31_0>(a), 0x22u);
	EXPECT_EQ(prm::get<prm::ads::eth_prio>(a), 5u);
	EXPECT_EQ(prm::get<prm::ads::grh>(a), 0u);
	EXPECT_EQ(prm::get<prm::ads::sl>(a), 0u);
	EXPECT_EQ(prm::get<prm::ads::udp_sport>(a), 0u);
	EXPECT_EQ(prm::get<prm::ads::dscp>(a), 0u);

	// A second QP on GID 1 (RoCE v2): nothing set up again; udp_sport from
	// the QP numbers (flow label 0), dscp = tclass >> 2.
	uint32_t qp2 = make_qp();
	m = {};
	ASSERT_EQ(modify(qp2, CXPRM_QP_RST2INIT, &m), 0);
	m = {};
	m.src_addr_index = 1;
	m.tclass = 0x68;
	m.remote_qpn = 0x55;
	ASSERT_EQ(modify(qp2, CXPRM_QP_INIT2RTR, &m), 0);
	ASSERT_EQ(m.st.status, 0) << std::hex << m.st.syndrome;
	EXPECT_EQ(n(op::MODIFY_NIC_VPORT_CONTEXT), 1u);
	EXPECT_EQ(n(op::SET_ROCE_ADDRESS), 2u);
	a = last_path();
	EXPECT_EQ(prm::get<prm::ads::src_addr_index>(a), 1u);
	EXPECT_EQ(prm::get<prm::ads::udp_sport>(a), cmd::roce_udp_sport(0, qp2, 0x55));
	EXPECT_EQ(prm::get<prm::ads::dscp>(a), 0x1au);
}

// GID entries are RoCE's: these run on the Ethernet port only.
struct RoceEth : Roce {};

// A GID index the driver did not populate: refused before anything is sent.
TEST_P(RoceEth, UnpopulatedGidIndexRefused)
{
	uint32_t qpn = make_qp();
	cxprm_qp_modify m{};
	ASSERT_EQ(modify(qpn, CXPRM_QP_RST2INIT, &m), 0);
	m = {};
	m.src_addr_index = 2;
	EXPECT_EQ(modify(qpn, CXPRM_QP_INIT2RTR, &m), EINVAL_);
	EXPECT_EQ(n(op::INIT2RTR_QP), 0u);
	EXPECT_EQ(m.state, 1);
	cxprm_dct d;
	EXPECT_EQ(dct(2, &d), EINVAL_);
	EXPECT_EQ(n(op::CREATE_DCT), 0u);
}

// A DCT sets RoCE up as an RC QP does; the teardown deletes both GIDs and
// disables RoCE (not before: mlx5_ib keeps them while the device lives).
TEST_P(Roce, DctSetsUpRoceAndTeardownUndoesIt)
{
	cxprm_dct d;
	ASSERT_EQ(dct(1, &d), 0);
	ASSERT_EQ(d.st.status, 0) << std::hex << d.st.syndrome;
	close_objects();
	uint64_t sets = n(op::SET_ROCE_ADDRESS), mods = n(op::MODIFY_NIC_VPORT_CONTEXT);
	EXPECT_EQ(sets, ib() ? 0u : 2u);
	EXPECT_EQ(h.emu.gid_count(), ib() ? 0u : 2u);
	std::vector<std::pair<uint16_t, std::vector<uint8_t>>> after;
	h.emu.set_answer_hook([&](unsigned, const uint8_t *in, uint32_t inlen, uint8_t *, uint32_t) {
		after.emplace_back((uint16_t)prm::get<prm::cmd_in::opcode>(prm::CRef<prm::cmd_in>(in)),
				   std::vector<uint8_t>(in, in + inlen));
		return (uint8_t)0;
	});
	cxprm_core_teardown_report rep{};
	cxprm_core_teardown(core, &rep);
	EXPECT_EQ(rep.err, 0);
	h.emu.set_answer_hook({});
	EXPECT_EQ(n(op::SET_ROCE_ADDRESS), sets + (ib() ? 0 : 2));
	EXPECT_EQ(n(op::MODIFY_NIC_VPORT_CONTEXT), mods + (ib() ? 0 : 1));
	if (!ib()) {
		// GID 1, GID 0 (empty addresses), roce_en 0, then TEARDOWN_HCA.
		ASSERT_GE(after.size(), 4u);
		EXPECT_EQ(after[0].first, op::SET_ROCE_ADDRESS);
		EXPECT_EQ(after[1].first, op::SET_ROCE_ADDRESS);
		EXPECT_EQ(after[2].first, op::MODIFY_NIC_VPORT_CONTEXT);
		prm::CRef<prm::set_roce_address_in> s1(after[0].second.data()), s0(after[1].second.data());
		EXPECT_EQ(prm::get<prm::set_roce_address_in::roce_address_index>(s1), 1u);
		EXPECT_EQ(prm::get<prm::set_roce_address_in::roce_address_index>(s0), 0u);
		auto e = prm::sub<prm::set_roce_address_in::roce_address, prm::roce_addr_layout>(s0);
		for (int i = 0; i < 16; i++)
			EXPECT_EQ(prm::bytes<prm::roce_addr_layout::source_l3_address>(e)[i], 0);
		prm::CRef<prm::modify_nic_vport_context_in> mv(after[2].second.data());
		EXPECT_EQ(prm::get<prm::nic_vport_context::roce_en>(
				  prm::sub<prm::modify_nic_vport_context_in::nic_vport_context, prm::nic_vport_context>(mv)),
			  0u);
	}
	cxprm_core_destroy(core);
	core = nullptr;
	h.emu.stop();
}

// The fast unload (shutdown) leaves RoCE to firmware, as Linux's shutdown.
TEST_P(RoceEth, FastUnloadLeavesRoceAlone)
{
	cxprm_dct d;
	ASSERT_EQ(dct(0, &d), 0);
	ASSERT_EQ(d.st.status, 0);
	close_objects();
	uint64_t sets = n(op::SET_ROCE_ADDRESS), mods = n(op::MODIFY_NIC_VPORT_CONTEXT);
	ASSERT_EQ(cxprm_core_fast_unload(core), 0);
	cxprm_core_teardown(core, nullptr);
	EXPECT_EQ(n(op::SET_ROCE_ADDRESS), sets);
	EXPECT_EQ(n(op::MODIFY_NIC_VPORT_CONTEXT), mods);
	cxprm_core_destroy(core);
	core = nullptr;
	h.emu.stop();
}

INSTANTIATE_TEST_SUITE_P(Port, Roce, ::testing::Values(false, true),
			 [](const ::testing::TestParamInfo<bool> &i) { return i.param ? "Ib" : "Eth"; });
INSTANTIATE_TEST_SUITE_P(Port, RoceEth, ::testing::Values(false),
			 [](const ::testing::TestParamInfo<bool> &) { return "Eth"; });

// mlx5_set_path's RoCE v2 UDP source port (ib_verbs.h), worked by hand.
TEST(RoceUdpSport, AsRdmaFlowLabelToUdpSport)
{
	// 0x1234 * 0x55 = 0x60b44; low 14 bits 0x0b44 ^ (0x60000 >> 14) = 0x0b5c.
	EXPECT_EQ(cmd::roce_udp_sport(0, 0x1234, 0x55), 0xcb5c);
	// A given flow label: 0x3cde ^ 0x2a.
	EXPECT_EQ(cmd::roce_udp_sport(0xabcde, 0x1234, 0x55), 0xfcf4);
}
