// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the RoCE capability (roce_cap, QUERY_HCA_CAP type ROCE) decides,
// as in Linux 6.1: the default GID types (get_core_cap_flags: one per
// roce_version bit, none without both IPv4 and IPv6 in l3_type), and a
// RoCE port's QP ts_format (mlx5_get_qp_default_ts: roce_cap.qp_ts_format,
// not the general sq_ts_format).
#include "support/capi_device.h"

#include <gtest/gtest.h>

#include <mutex>

#include "cxprm/capi.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/qp.h"
#include "cxprm/prm/vport.h"

using namespace cxprm;
namespace op = cxprm::prm::op;

namespace {

constexpr int EINVAL_ = -22, ENOTSUP_ = -95;

using Tweak = void (*)(prm::Ref<prm::roce_cap>, prm::Ref<prm::cmd_hca_cap>);

// A ConnectX-7 whose RoCE and general capabilities 'tweak' sets.
emu::Profile profile(Tweak tweak)
{
	auto p = test::objects_cx7();
	for (int cur = 0; cur < 2; cur++) {
		auto &r = cur ? p.cap(prm::cap::ROCE).cur : p.cap(prm::cap::ROCE).max;
		auto &g = cur ? p.cap(prm::cap::GENERAL).cur : p.cap(prm::cap::GENERAL).max;
		tweak(prm::Ref<prm::roce_cap>(r.data()), prm::Ref<prm::cmd_hca_cap>(g.data()));
	}
	return p;
}

struct RoceCap : ::testing::Test, test::CapiDevice {
	explicit RoceCap(emu::Profile p) : CapiDevice(std::move(p)) {}
	std::mutex mu;
	int qp_ts = -1; // qpc.ts_format of the last CREATE_QP

	void SetUp() override
	{
		h.emu.set_answer_hook([this](unsigned, const uint8_t *in, uint32_t, uint8_t *, uint32_t) {
			if (prm::get<prm::cmd_in::opcode>(prm::CRef<prm::cmd_in>(in)) == op::CREATE_QP) {
				auto c = prm::sub<prm::create_qp_in::qpc, prm::qpc>(prm::CRef<prm::create_qp_in>(in));
				std::lock_guard<std::mutex> g(mu);
				qp_ts = (int)prm::get<prm::qpc::ts_format>(c);
			}
			return (uint8_t)0;
		});
		ASSERT_NO_FATAL_FAILURE(bring_up());
		ASSERT_NO_FATAL_FAILURE(start_events());
		ASSERT_NO_FATAL_FAILURE(make_refs());
	}
	void TearDown() override
	{
		h.emu.set_answer_hook({});
		close_objects();
		teardown_core();
		EXPECT_EQ(h.emu.gid_count(), 0u);
		EXPECT_FALSE(h.emu.roce_enabled());
		finish();
	}
};

// RoceCap on the ConnectX-7 that tweak T makes.
template <Tweak T> struct RoceCapWith : RoceCap {
	RoceCapWith() : RoceCap(profile(T)) {}
};

// RoCE v2 only: one default GID, v2, at index 0; index 1 names nothing.
void v2_only(prm::Ref<prm::roce_cap> r, prm::Ref<prm::cmd_hca_cap>)
{
	prm::set<prm::roce_cap::roce_version>(r, prm::roce_cap_bits::VERSION_2);
}
using RoceCapV2Only = RoceCapWith<v2_only>;

TEST_F(RoceCapV2Only, OneGidOfVersion2)
{
	cxprm_dct d;
	ASSERT_EQ(dct(0, &d), 0);
	EXPECT_EQ(d.st.status, 0) << std::hex << d.st.syndrome;
	EXPECT_EQ(h.emu.gid_count(), 1u);
	std::array<uint8_t, 32> e{};
	ASSERT_TRUE(h.emu.gid_entry(1, 0, &e));
	EXPECT_EQ(prm::get<prm::roce_addr_layout::roce_version>(prm::CRef<prm::roce_addr_layout>(e.data())),
		  prm::roce_version::V2);
	EXPECT_EQ(prm::get<prm::roce_addr_layout::roce_l3_type>(prm::CRef<prm::roce_addr_layout>(e.data())),
		  prm::roce_l3_type::IPV6);
	uint64_t sent = h.emu.opcode_count(op::CREATE_DCT);
	EXPECT_EQ(dct(1, &d), EINVAL_); // no second entry
	EXPECT_EQ(h.emu.opcode_count(op::CREATE_DCT), sent);
}

// No IPv6 in l3_type: Linux's port has no RoCE GID type, nothing is set up.
void ipv4_only(prm::Ref<prm::roce_cap> r, prm::Ref<prm::cmd_hca_cap>)
{
	prm::set<prm::roce_cap::l3_type>(r, prm::roce_cap_bits::L3_TYPE_IPV4);
}
using RoceCapNoIpv6 = RoceCapWith<ipv4_only>;

TEST_F(RoceCapNoIpv6, NoGidTypeNoRoce)
{
	cxprm_dct d;
	EXPECT_EQ(dct(0, &d), ENOTSUP_);
	EXPECT_EQ(h.emu.opcode_count(op::MODIFY_NIC_VPORT_CONTEXT), 0u);
	EXPECT_EQ(h.emu.opcode_count(op::SET_ROCE_ADDRESS), 0u);
	EXPECT_EQ(h.emu.opcode_count(op::CREATE_DCT), 0u);
}

// The general caps say free-running only, the RoCE caps real time only:
// a RoCE port's QP goes by the RoCE capability, so DEFAULT (the emulator
// refuses FREE_RUNNING against it).
void ts_apart(prm::Ref<prm::roce_cap> r, prm::Ref<prm::cmd_hca_cap> g)
{
	prm::set<prm::roce_cap::qp_ts_format>(r, prm::ts_format_cap::REAL_TIME);
	prm::set<prm::cmd_hca_cap::sq_ts_format>(g, prm::ts_format_cap::FREE_RUNNING);
}
using RoceCapTs = RoceCapWith<ts_apart>;

TEST_F(RoceCapTs, QpFormatFromTheRoceCapability)
{
	ASSERT_NE(make_qp(), 0u);
	std::lock_guard<std::mutex> g(mu);
	EXPECT_EQ(qp_ts, (int)prm::ts_format::DEFAULT);
}

} // namespace
