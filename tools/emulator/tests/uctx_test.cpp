// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// User contexts (handlers_uctx.cpp, Documentation/prm-notes-uctx.rst):
// CREATE/DESTROY_UCTX and their limits, the uid in any command's header,
// the kernel's commands, object ownership with and without
// TOOLS_RESOURCES, and the objects ProvisionProfile sets up at INIT_HCA
// (what Linux's fwctl/mlx5 reads from a tools uid).
#include <chrono>
#include <thread>

#include "object_builders.h"
#include "reg_fixture.h"

#include "cxprm/prm/dct.h"
#include "cxprm/prm/uctx.h"

namespace cxprm::emu::test {
namespace {

using prm::dctc;
namespace ucap = prm::uctx_cap;

Msg with_uid(Msg m, uint16_t uid)
{
	prm::set<prm::cmd_in::uid>(m.as<prm::cmd_in>(), uid);
	return m;
}

void expect(const Answer &a, uint8_t status, uint32_t syndrome)
{
	EXPECT_EQ(a.status, status) << std::hex << a.syndrome;
	EXPECT_EQ(a.syndrome, syndrome) << syndrome_name(a.syndrome);
}

// Commands a uid sends, on any TestDriver.
struct Uctx {
	TestDriver &drv;
	Answer create(uint32_t cap, uint16_t hdr_uid = 0)
	{
		Msg m = make_in<prm::create_uctx_in>(op::CREATE_UCTX);
		prm::set<prm::uctx::cap>(prm::sub<prm::create_uctx_in::uctx, prm::uctx>(m.as<prm::create_uctx_in>()),
					 cap);
		return drv.run<prm::create_uctx_out>(with_uid(m, hdr_uid));
	}
	uint16_t make(uint32_t cap)
	{
		Answer a = create(cap);
		EXPECT_EQ(a.status, st::OK) << std::hex << a.syndrome;
		return (uint16_t)prm::get<prm::create_uctx_out::uid>(a.as<prm::create_uctx_out>());
	}
	Answer destroy(uint16_t uid, uint16_t hdr_uid = 0)
	{
		Msg m = make_in<prm::destroy_uctx_in>(op::DESTROY_UCTX);
		prm::set<prm::destroy_uctx_in::uid>(m.as<prm::destroy_uctx_in>(), uid);
		return drv.run<prm::destroy_uctx_out>(with_uid(m, hdr_uid));
	}
	Answer query_cap(uint16_t uid)
	{
		// QUERY_HCA_CAP: its layout has no uid field (mlx5_ifc.h).
		return drv.run<prm::query_hca_cap_out>(with_uid(make_in<prm::query_hca_cap_in>(op::QUERY_HCA_CAP, 1), uid));
	}
	template <class In, class F> Answer by_number(uint16_t opc, uint32_t n, uint16_t uid, uint32_t outlen)
	{
		Msg m = make_in<In>(opc);
		prm::set<F>(m.as<In>(), n);
		return drv.exec(with_uid(m, uid), outlen);
	}
	Answer query_dct(uint32_t dctn, uint16_t uid)
	{
		return by_number<prm::query_dct_in, prm::query_dct_in::dctn>(op::QUERY_DCT, dctn, uid,
									       prm::query_dct_out::size_bytes);
	}
	Answer drain_dct(uint32_t dctn, uint16_t uid)
	{
		return by_number<prm::drain_dct_in, prm::drain_dct_in::dctn>(op::DRAIN_DCT, dctn, uid, 16);
	}
	Answer destroy_dct(uint32_t dctn, uint16_t uid)
	{
		return by_number<prm::destroy_dct_in, prm::destroy_dct_in::dctn>(op::DESTROY_DCT, dctn, uid, 16);
	}
	Answer query_ns(uint32_t xrqn, uint32_t nsid, uint16_t uid)
	{
		Msg m = make_in<prm::query_nvmf_namespace_in>(op::QUERY_NVMF_NAMESPACE_CONTEXT);
		prm::set<prm::query_nvmf_namespace_in::xrqn>(m.as<prm::query_nvmf_namespace_in>(), xrqn);
		prm::set<prm::query_nvmf_namespace_in::frontend_namespace>(m.as<prm::query_nvmf_namespace_in>(), nsid);
		return drv.run<prm::query_nvmf_namespace_out>(with_uid(m, uid));
	}
	Answer alloc_pd(uint16_t uid) { return drv.run<prm::alloc_pd_out>(with_uid(make_in<prm::alloc_pd_in>(op::ALLOC_PD), uid)); }
	Answer dealloc_pd(uint32_t pd, uint16_t uid)
	{
		return by_number<prm::dealloc_pd_in, prm::dealloc_pd_in::pd>(op::DEALLOC_PD, pd, uid, 16);
	}
	Answer teardown() { return drv.run<prm::teardown_hca_out>(make_in<prm::teardown_hca_in>(op::TEARDOWN_HCA)); }
};

uint64_t reads(const Answer &a)
{
	using ctx_t = prm::nvmf_frontend_namespace_context;
	CRef<ctx_t> c = prm::sub<prm::query_nvmf_namespace_out::ns_ctx, ctx_t>(a.as<prm::query_nvmf_namespace_out>());
	return prm::get<ctx_t::num_read_cmd_high>(c) << 32 | prm::get<ctx_t::num_read_cmd_low>(c);
}

struct UctxTest : InitializedTest {
	explicit UctxTest(Profile p = quiet()) : InitializedTest(std::move(p)) {}
	Uctx u{drv};
};

TEST_F(UctxTest, CreateAndDestroy)
{
	EXPECT_EQ(u.make(ucap::TOOLS_RESOURCES), 1u) << "uids from 1";
	EXPECT_EQ(u.make(0), 2u);
	EXPECT_EQ(emu.uctx_count(), 2u);
	uint32_t cap = 0;
	ASSERT_TRUE(emu.uctx_cap(1, &cap));
	EXPECT_EQ(cap, ucap::TOOLS_RESOURCES);
	EXPECT_EQ(u.destroy(1).status, st::OK);
	EXPECT_FALSE(emu.uctx_cap(1, nullptr));
	EXPECT_EQ(u.make(ucap::RAW_TX), 1u) << "the lowest free uid; 2 is still live";
	expect(u.destroy(9), st::BAD_PARAM_ERR, synd::UCTX_UNKNOWN);
	expect(u.destroy(0), st::BAD_PARAM_ERR, synd::UCTX_UNKNOWN);
	// The context's uid is in dword 2; the header's must be the kernel's.
	expect(u.destroy(2, 1), st::BAD_PARAM_ERR, synd::UID_NOT_PERMITTED);
	expect(u.create(0, 2), st::BAD_PARAM_ERR, synd::UID_NOT_PERMITTED);
	expect(u.create(0, 7), st::BAD_PARAM_ERR, synd::BAD_UID);
	EXPECT_EQ(emu.uctx_count(), 2u);
}

TEST_F(UctxTest, CapMustBeSubsetOfUctxCap)
{
	expect(u.create(0x8), st::BAD_PARAM_ERR, synd::UCTX_BAD_CAP);
	expect(u.create(0x7 | 0x100), st::BAD_PARAM_ERR, synd::UCTX_BAD_CAP);
	EXPECT_EQ(u.create(0x7).status, st::OK);
	// A device whose uctx_cap lacks TOOLS_RESOURCES refuses it.
	Rig r(quiet_with([](Profile &p) {
		prm::set<prm::cmd_hca_cap::uctx_cap>(Ref<prm::cmd_hca_cap>(p.cap(prm::cap::GENERAL).cur.data()), 0x3);
	}),
	      Stage::INITIALIZED);
	Uctx u2{r.drv};
	expect(u2.create(ucap::TOOLS_RESOURCES), st::BAD_PARAM_ERR, synd::UCTX_BAD_CAP);
	EXPECT_EQ(u2.create(ucap::RAW_TX | ucap::INTERNAL_DEV_RES).status, st::OK);
}

TEST(Uctx, AtMostTwoToTheLogMaxUctx)
{
	Rig r(quiet_with([](Profile &p) {
		prm::set<prm::cmd_hca_cap::log_max_uctx>(Ref<prm::cmd_hca_cap>(p.cap(prm::cap::GENERAL).cur.data()), 1);
	}),
	      Stage::INITIALIZED);
	Uctx u{r.drv};
	EXPECT_EQ(u.make(0), 1u);
	EXPECT_EQ(u.make(0), 2u);
	expect(u.create(0), st::NO_RES_ERR, synd::UCTX_EXHAUSTED);
	EXPECT_EQ(u.destroy(1).status, st::OK);
	EXPECT_EQ(u.make(0), 1u);
}

TEST_F(UctxTest, UidInAHeaderTheLayoutCallsReserved)
{
	uint16_t uid = u.make(ucap::TOOLS_RESOURCES);
	EXPECT_EQ(u.query_cap(uid).status, st::OK);
	Answer a = drv.run<prm::query_adapter_out>(with_uid(make_in<prm::query_adapter_in>(op::QUERY_ADAPTER), uid));
	EXPECT_EQ(a.status, st::OK);
	EXPECT_EQ(drv.run<prm::nop_out>(with_uid(make_in<prm::nop_in>(op::NOP), uid)).status, st::OK);
	ASSERT_EQ(u.destroy(uid).status, st::OK);
	expect(u.query_cap(uid), st::BAD_PARAM_ERR, synd::BAD_UID);
	expect(u.query_cap(0x1234), st::BAD_PARAM_ERR, synd::BAD_UID);
	EXPECT_EQ(u.query_cap(0).status, st::OK);
}

TEST_F(UctxTest, KernelOnlyCommandsRefusedForAUid)
{
	uint16_t tools = u.make(ucap::TOOLS_RESOURCES), plain = u.make(0);
	for (uint16_t uid : {tools, plain}) {
		expect(drv.run<prm::alloc_uar_out>(with_uid(make_in<prm::alloc_uar_in>(op::ALLOC_UAR), uid)),
		       st::BAD_PARAM_ERR, synd::UID_NOT_PERMITTED);
		expect(drv.exec(with_uid(make_in<prm::teardown_hca_in>(op::TEARDOWN_HCA), uid), 16), st::BAD_PARAM_ERR,
		       synd::UID_NOT_PERMITTED);
		expect(drv.exec(with_uid(make_in<prm::disable_hca_in>(op::DISABLE_HCA), uid), 16), st::BAD_PARAM_ERR,
		       synd::UID_NOT_PERMITTED);
		expect(drv.exec(with_uid(make_in<prm::manage_pages_in>(op::MANAGE_PAGES, 1), uid), 16),
		       st::BAD_PARAM_ERR, synd::UID_NOT_PERMITTED);
		expect(drv.exec(with_uid(make_in<prm::create_eq_in>(op::CREATE_EQ), uid), 16), st::BAD_PARAM_ERR,
		       synd::UID_NOT_PERMITTED);
		expect(drv.exec(with_uid(make_in<prm::set_driver_version_in>(op::SET_DRIVER_VERSION), uid), 16),
		       st::BAD_PARAM_ERR, synd::UID_NOT_PERMITTED);
		expect(drv.exec(with_uid(make_in<prm::set_roce_address_in>(op::SET_ROCE_ADDRESS), uid), 16),
		       st::BAD_PARAM_ERR, synd::UID_NOT_PERMITTED);
		expect(drv.exec(with_uid(make_in<prm::modify_nic_vport_context_in>(op::MODIFY_NIC_VPORT_CONTEXT), uid),
				16),
		       st::BAD_PARAM_ERR, synd::UID_NOT_PERMITTED);
	}
	EXPECT_EQ(emu.hca_state(), HcaState::INITIALIZED);
	EXPECT_EQ(emu.uar_count(), 0u);
	// ACCESS_REG needs TOOLS_RESOURCES, reads included (strict).
	uint32_t n = prm::register_host_endianness::size_bytes;
	expect(drv.exec(with_uid(reg_msg(rid::HOST_ENDIANNESS, aop::READ, n), plain),
			prm::access_register_out::size_bytes + n),
	       st::BAD_PARAM_ERR, synd::UID_NOT_PERMITTED);
	EXPECT_EQ(drv.exec(with_uid(reg_msg(rid::HOST_ENDIANNESS, aop::READ, n), tools),
			   prm::access_register_out::size_bytes + n)
			  .status,
		  st::OK);
}

TEST_F(UctxTest, ObjectsBelongToTheirUid)
{
	uint16_t a = u.make(0), b = u.make(0), tools = u.make(ucap::TOOLS_RESOURCES);
	Answer r = u.alloc_pd(a);
	ASSERT_EQ(r.status, st::OK);
	uint32_t pd = (uint32_t)prm::get<prm::alloc_pd_out::pd>(r.as<prm::alloc_pd_out>());
	expect(u.dealloc_pd(pd, b), st::BAD_RES_ERR, synd::OBJ_NOT_OWNED);
	expect(u.dealloc_pd(pd, tools), st::BAD_RES_ERR, synd::OBJ_NOT_OWNED);
	// Strict: not even the kernel.
	expect(u.dealloc_pd(pd, 0), st::BAD_RES_ERR, synd::OBJ_NOT_OWNED);
	// The context owns an object: DESTROY_UCTX refused (strict).
	expect(u.destroy(a), st::BAD_RES_STATE_ERR, synd::UCTX_IN_USE);
	EXPECT_EQ(u.dealloc_pd(pd, a).status, st::OK);
	EXPECT_EQ(u.destroy(a).status, st::OK);
	EXPECT_EQ(emu.object_counts().pds, 0u);
}

TEST(Uctx, LenientDestroyLeavesObjectsAndUid0ActsOnThem)
{
	Rig r(quiet_with([](Profile &p) {
		p.objects.uctx_destroy_requires_empty = false;
		p.objects.uid0_acts_on_any = true;
	}),
	      Stage::INITIALIZED);
	Uctx u{r.drv};
	uint16_t a = u.make(0);
	Answer al = u.alloc_pd(a);
	ASSERT_EQ(al.status, st::OK);
	uint32_t pd = (uint32_t)prm::get<prm::alloc_pd_out::pd>(al.as<prm::alloc_pd_out>());
	EXPECT_EQ(u.destroy(a).status, st::OK);
	EXPECT_EQ(r.emu.uctx_count(), 0u);
	EXPECT_EQ(r.emu.object_counts().pds, 1u) << "the context's PD stays";
	EXPECT_EQ(u.dealloc_pd(pd, 0).status, st::OK) << "uid0_acts_on_any";
	EXPECT_EQ(r.emu.object_counts().pds, 0u);
}

TEST_F(UctxTest, ContextsVanishAtTeardown)
{
	u.make(0);
	u.make(ucap::TOOLS_RESOURCES);
	uint64_t leaked = emu.counters().objects_leaked;
	ASSERT_EQ(u.teardown().status, st::OK);
	EXPECT_EQ(emu.uctx_count(), 0u);
	EXPECT_EQ(emu.counters().objects_leaked, leaked + 2) << "contexts the driver left alive";
}

// --- ProvisionProfile ---

Profile provisioned(Profile p = quiet())
{
	p.provision.enabled = true;
	p.nvmf.auto_io_ms = 1;
	return p;
}

struct ProvisionTest : UctxTest {
	ProvisionTest() : UctxTest(provisioned()) {}
};

TEST_F(ProvisionTest, ObjectsExistWithTheirNumbers)
{
	Provisioned pv;
	ASSERT_TRUE(emu.provisioned(&pv));
	// cx5: the first number of each range.
	EXPECT_EQ(pv.pd, 1u);
	EXPECT_EQ(pv.cqn, 0x400u);
	EXPECT_EQ(pv.xrqn, 0x40u);
	EXPECT_EQ(pv.backend_ctrl, 1u);
	EXPECT_EQ(pv.nsids[0], 1u);
	EXPECT_EQ(pv.nsids[1], 2u);
	EXPECT_EQ(pv.dctn, 0x100u);
	DctState s;
	ASSERT_TRUE(emu.dct_state(pv.dctn, &s));
	EXPECT_EQ(s, DctState::ACTIVE);
	EXPECT_TRUE(emu.xrq_info(pv.xrqn, nullptr));
	EXPECT_TRUE(emu.nvmf_backend(pv.xrqn, pv.backend_ctrl, nullptr));
	NvmfCounters k;
	EXPECT_TRUE(emu.nvmf_counters(pv.xrqn, 2, &k));
	// Not the driver's.
	EXPECT_EQ(emu.object_counts().total(), 0u);
	EXPECT_EQ(emu.dct_count(), 0u);
	EXPECT_EQ(emu.nvmf_namespace_count(), 0u);
	// The driver's numbers come after them.
	ObjectBuilder b{drv, plat};
	EXPECT_EQ(b.pd(), 2u);
	EXPECT_EQ(emu.object_counts().pds, 1u);
}

TEST_F(ProvisionTest, ToolsUidQueriesThem)
{
	Provisioned pv;
	ASSERT_TRUE(emu.provisioned(&pv));
	uint16_t tools = u.make(ucap::TOOLS_RESOURCES), plain = u.make(0);
	// fwctl/mlx5's reads: namespaces 1 and 2, counters moving.
	Answer q1 = u.query_ns(pv.xrqn, 1, tools);
	ASSERT_EQ(q1.status, st::OK) << std::hex << q1.syndrome;
	ASSERT_EQ(u.query_ns(pv.xrqn, 2, tools).status, st::OK);
	expect(u.query_ns(pv.xrqn, 3, tools), st::BAD_RES_ERR, synd::NVMF_NS_UNKNOWN_QUERY);
	for (int i = 0; i < 3; i++) {
		std::this_thread::sleep_for(std::chrono::milliseconds(3));
		emu.poll_once();
	}
	Answer q2 = u.query_ns(pv.xrqn, 1, tools);
	ASSERT_EQ(q2.status, st::OK);
	EXPECT_GT(reads(q2), reads(q1)) << "nvmf.auto_io_ms moves the counters";
	// QUERY_DCT: the tools uid reads uid 0's DCT, a plain uid may not.
	Answer d = u.query_dct(pv.dctn, tools);
	ASSERT_EQ(d.status, st::OK);
	CRef<dctc> ctx = prm::sub<prm::query_dct_out::dct_context_entry, dctc>(d.as<prm::query_dct_out>());
	EXPECT_EQ(prm::get<dctc::state>(ctx), (uint32_t)DctState::ACTIVE);
	EXPECT_EQ(prm::get<dctc::pd>(ctx), pv.pd);
	EXPECT_EQ(prm::get<dctc::cqn>(ctx), pv.cqn);
	expect(u.query_dct(pv.dctn, plain), st::BAD_RES_ERR, synd::OBJ_NOT_OWNED);
	expect(u.query_ns(pv.xrqn, 1, plain), st::BAD_RES_ERR, synd::OBJ_NOT_OWNED);
	Answer cq = u.by_number<prm::query_cq_in, prm::query_cq_in::cqn>(op::QUERY_CQ, pv.cqn, tools,
									  prm::query_cq_out::size_bytes);
	EXPECT_EQ(cq.status, st::OK);
	// Reading is all: no drain, no destroy.
	expect(u.drain_dct(pv.dctn, tools), st::BAD_RES_ERR, synd::OBJ_NOT_OWNED);
	expect(u.destroy_dct(pv.dctn, tools), st::BAD_RES_ERR, synd::OBJ_NOT_OWNED);
	DctState s;
	ASSERT_TRUE(emu.dct_state(pv.dctn, &s));
	EXPECT_EQ(s, DctState::ACTIVE);
	EXPECT_EQ(u.query_dct(pv.dctn, 0).status, st::OK) << "uid 0's own";
}

TEST_F(ProvisionTest, GoneAtTeardownAndNoLeak)
{
	ASSERT_TRUE(emu.provisioned(nullptr));
	uint64_t leaked = emu.counters().objects_leaked;
	ASSERT_EQ(u.teardown().status, st::OK);
	EXPECT_FALSE(emu.provisioned(nullptr));
	EXPECT_FALSE(emu.dct_state(0x100, nullptr));
	EXPECT_FALSE(emu.xrq_info(0x40, nullptr));
	NvmfCounters k;
	EXPECT_FALSE(emu.nvmf_counters(0x40, 1, &k));
	EXPECT_EQ(emu.counters().objects_leaked, leaked) << "not the driver's";
	// A reset and a new INIT_HCA: made again, the same numbers.
	emu.function_reset();
	drv.init_queue();
	drv.bring_up();
	Provisioned pv;
	ASSERT_TRUE(emu.provisioned(&pv));
	EXPECT_EQ(pv.dctn, 0x100u);
	EXPECT_EQ(pv.xrqn, 0x40u);
	EXPECT_EQ(emu.counters().objects_leaked, leaked);
}

TEST(Provision, OnlyWhatTheModelHas)
{
	Rig r(quiet_with([](Profile &p) {
		p.provision.enabled = true;
		p.nvmf.supported = false;
	}),
	      Stage::INITIALIZED);
	Provisioned pv;
	ASSERT_TRUE(r.emu.provisioned(&pv));
	EXPECT_EQ(pv.pd, 1u);
	EXPECT_EQ(pv.cqn, 0x400u);
	EXPECT_EQ(pv.xrqn, 0u);
	EXPECT_EQ(pv.backend_ctrl, 0u);
	EXPECT_EQ(pv.nsids[0], 0u);
	EXPECT_EQ(pv.dctn, 0x100u);
	EXPECT_FALSE(r.emu.xrq_info(0x40, nullptr));
	// The driver (uid 0 too) may free one: it is no longer provisioned,
	// and its number comes back as the driver's.
	Uctx u{r.drv};
	ASSERT_EQ(u.drain_dct(pv.dctn, 0).status, st::OK);
	r.emu.poll_once();
	ASSERT_EQ(u.destroy_dct(pv.dctn, 0).status, st::OK);
	ASSERT_EQ(u.dealloc_pd(pv.pd, 0).status, st::OK);
	ASSERT_TRUE(r.emu.provisioned(&pv));
	EXPECT_EQ(pv.pd, 0u);
	EXPECT_EQ(pv.dctn, 0u);
	EXPECT_EQ(pv.cqn, 0x400u);
	EXPECT_EQ(r.emu.object_counts().pds, 0u);
	ASSERT_EQ(u.alloc_pd(0).status, st::OK);
	EXPECT_EQ(r.emu.object_counts().pds, 1u) << "PD 1 again, the driver's";
	Rig off(quiet(), Stage::INITIALIZED);
	EXPECT_FALSE(off.emu.provisioned(nullptr)) << "off by default";
	EXPECT_FALSE(off.emu.dct_state(0x100, nullptr));
}

} // namespace
} // namespace cxprm::emu::test
