// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the RoCE capability (roce_cap, QUERY_HCA_CAP type ROCE) decides,
// as in Linux 6.1: the default GID types (get_core_cap_flags: one per
// roce_version bit, none without both IPv4 and IPv6 in l3_type), and a
// RoCE port's QP ts_format (mlx5_get_qp_default_ts: roce_cap.qp_ts_format,
// not the general sq_ts_format).
#include "support/harness.h"
#include "support/objects.h"

#include <gtest/gtest.h>

#include <functional>
#include <mutex>

#include "cxprm/capi.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/qp.h"
#include "cxprm/prm/vport.h"

using namespace cxprm;
namespace op = cxprm::prm::op;
using cxprm::test::obj_cq;
using cxprm::test::obj_of;
using cxprm::test::obj_srq;

namespace {

constexpr int EINVAL_ = -22, ENOTSUP_ = -95;

// A ConnectX-7 whose RoCE and general capabilities 'tweak' sets.
emu::Profile profile(const std::function<void(prm::Ref<prm::roce_cap>, prm::Ref<prm::cmd_hca_cap>)> &tweak)
{
	auto p = test::objects_cx7();
	for (int cur = 0; cur < 2; cur++) {
		auto &r = cur ? p.cap(prm::cap::ROCE).cur : p.cap(prm::cap::ROCE).max;
		auto &g = cur ? p.cap(prm::cap::GENERAL).cur : p.cap(prm::cap::GENERAL).max;
		tweak(prm::Ref<prm::roce_cap>(r.data()), prm::Ref<prm::cmd_hca_cap>(g.data()));
	}
	return p;
}

struct RoceCap : ::testing::Test {
	explicit RoceCap(emu::Profile p) : h(std::move(p)) {}
	test::Harness h;
	cxprm_core *core = nullptr;
	cxprm_core_objs *objs = nullptr;
	cxprm_core_dcts dcts{};
	uint32_t pd = 0, cqn = 0, srqn = 0;
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
		h.emu.start();
		ASSERT_EQ(cxprm_core_create(h.host(), &core), 0);
		cxprm_core_config c = test::quick_capi_config();
		ASSERT_EQ(cxprm_core_bringup(core, &c), 0);
		ASSERT_EQ(cxprm_core_objs_create(core, &objs), 0);
		cxprm_core_events_config ec{};
		ASSERT_EQ(cxprm_core_events_start(core, &ec), 0);
		pd = test::obj_make(core, objs, obj_of(CXPRM_OBJ_PD));
		cqn = test::obj_make(core, objs, obj_cq());
		srqn = test::obj_make(core, objs, obj_srq(pd));
		ASSERT_TRUE(pd && cqn && srqn);
	}
	void TearDown() override
	{
		h.emu.set_answer_hook({});
		uint32_t dctn;
		while (cxprm_core_dcts_pop(&dcts, &dctn))
			EXPECT_EQ(cxprm_core_dct_destroy(core, dctn, nullptr), 0);
		EXPECT_EQ(cxprm_core_objs_destroy(core, objs, nullptr), 0u);
		cxprm_core_teardown_report rep{};
		cxprm_core_teardown(core, &rep);
		EXPECT_EQ(rep.err, 0);
		EXPECT_EQ(h.emu.gid_count(), 0u);
		EXPECT_FALSE(h.emu.roce_enabled());
		cxprm_core_destroy(core);
		h.emu.stop();
		EXPECT_EQ(h.uh.dma_live(), 0u);
		EXPECT_EQ(h.uh.mem_live(), 0u);
	}
	int dct(uint8_t my_addr_index, cxprm_dct *d)
	{
		*d = {};
		d->ctx.pd = pd;
		d->ctx.cqn = cqn;
		d->ctx.srqn_xrqn = srqn;
		d->ctx.port = 1;
		d->ctx.mtu = 5;
		d->ctx.my_addr_index = my_addr_index;
		return cxprm_core_ioc_dct(core, CXPRM_IOC_DCT_CREATE, &dcts, d);
	}
	uint32_t make_qp()
	{
		cxprm_obj o = obj_of(CXPRM_OBJ_QP);
		o.u.qp.pd = pd;
		o.u.qp.cqn_snd = o.u.qp.cqn_rcv = cqn;
		o.u.qp.srqn = srqn;
		o.u.qp.log_sq_size = 4;
		return test::obj_make(core, objs, o);
	}
};

// RoCE v2 only: one default GID, v2, at index 0; index 1 names nothing.
struct RoceCapV2Only : RoceCap {
	RoceCapV2Only()
		: RoceCap(profile([](prm::Ref<prm::roce_cap> r, prm::Ref<prm::cmd_hca_cap>) {
			  prm::set<prm::roce_cap::roce_version>(r, prm::roce_cap_bits::VERSION_2);
		  }))
	{
	}
};

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
struct RoceCapNoIpv6 : RoceCap {
	RoceCapNoIpv6()
		: RoceCap(profile([](prm::Ref<prm::roce_cap> r, prm::Ref<prm::cmd_hca_cap>) {
			  prm::set<prm::roce_cap::l3_type>(r, prm::roce_cap_bits::L3_TYPE_IPV4);
		  }))
	{
	}
};

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
struct RoceCapTs : RoceCap {
	RoceCapTs()
		: RoceCap(profile([](prm::Ref<prm::roce_cap> r, prm::Ref<prm::cmd_hca_cap> g) {
			  prm::set<prm::roce_cap::qp_ts_format>(r, prm::ts_format_cap::REAL_TIME);
			  prm::set<prm::cmd_hca_cap::sq_ts_format>(g, prm::ts_format_cap::FREE_RUNNING);
		  }))
	{
	}
};

TEST_F(RoceCapTs, QpFormatFromTheRoceCapability)
{
	ASSERT_NE(make_qp(), 0u);
	std::lock_guard<std::mutex> g(mu);
	EXPECT_EQ(qp_ts, (int)prm::ts_format::DEFAULT);
}

} // namespace
