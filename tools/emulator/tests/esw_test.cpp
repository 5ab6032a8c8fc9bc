// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// QUERY_ESW_FUNCTIONS and ESW_FUNCTIONS_CHANGED.
#include "test_driver.h"

namespace cxprm::emu::test {
namespace {

using prm::host_params_context;

// The eswitch functions exist on an ECPF eswitch manager (B9).
struct EswTest : InitializedTest {
	EswTest() : InitializedTest(quiet(Profile::bluefield3())) {}

	Answer query()
	{
		return drv.exec(make_in<prm::query_esw_functions_in>(op::QUERY_ESW_FUNCTIONS),
				prm::query_esw_functions_out::size_bytes);
	}
	static CRef<host_params_context> host(const Answer &a)
	{
		return prm::sub<prm::query_esw_functions_out::host_params_context, host_params_context>(
			a.as<prm::query_esw_functions_out>());
	}
};

TEST_F(EswTest, QueryAndChange)
{
	Answer a = query();
	ASSERT_EQ(a.status, st::OK);
	const EswProfile &e = emu.profile().esw;
	EXPECT_EQ(prm::get<host_params_context::host_num_of_vfs>(host(a)), e.num_vfs);
	EXPECT_EQ(prm::get<host_params_context::host_total_vfs>(host(a)), e.total_vfs);
	EXPECT_EQ(prm::get<host_params_context::host_pci_bus>(host(a)), e.pci_bus);
	EXPECT_EQ(prm::get<host_params_context::host_number>(host(a)), e.host_number);
	EXPECT_EQ(prm::get<host_params_context::host_pf_disabled>(host(a)), 0u);

	// An EQ for ESW_FUNCTIONS_CHANGED.
	Answer u = drv.run<prm::alloc_uar_out>(make_in<prm::alloc_uar_in>(op::ALLOC_UAR));
	uint32_t uar = (uint32_t)prm::get<prm::alloc_uar_out::uar>(u.as<prm::alloc_uar_out>());
	uint64_t ring = plat.alloc(4096);
	Msg m = make_in<prm::create_eq_in>(op::CREATE_EQ, 0, 8);
	Ref<prm::eqc> ec = prm::sub<prm::create_eq_in::eq_context_entry, prm::eqc>(m.as<prm::create_eq_in>());
	prm::set<prm::eqc::log_eq_size>(ec, 3);
	prm::set<prm::eqc::uar_page>(ec, uar);
	prm::set<prm::eqc::intr>(ec, 1);
	store_be64(prm::bytes<prm::create_eq_in::event_bitmask>(m.as<prm::create_eq_in>()),
		   1ull << prm::event::ESW_FUNCTIONS_CHANGED);
	prm::set_pas<prm::create_eq_in_pas>(m.as<prm::create_eq_in>(), 0, ring);
	Answer ea = drv.run<prm::create_eq_out>(m);
	ASSERT_EQ(ea.status, st::OK);
	// Armed, as a driver does after CREATE_EQ (Profile::strict_eq_arm).
	uint32_t eqn = (uint32_t)prm::get<prm::create_eq_out::eq_number>(ea.as<prm::create_eq_out>());
	plat.wr(uar * bar_map::UAR_SIZE + bar_map::UAR_EQ_DB_ARM, eqn << 24);
	emu.poll_once();
	plat.clear_irqs();

	EXPECT_FALSE(emu.set_num_vfs(e.total_vfs + 1));
	ASSERT_TRUE(emu.set_num_vfs(4));
	EXPECT_EQ(prm::get<prm::eqe::event_type>(CRef<prm::eqe>(plat.cpu(ring))), prm::event::ESW_FUNCTIONS_CHANGED);
	EXPECT_EQ(plat.irqs(), std::vector<uint32_t>{1});
	a = query();
	EXPECT_EQ(prm::get<host_params_context::host_num_of_vfs>(host(a)), 4u);
	EXPECT_EQ(emu.num_vfs(), 4);

	// An eswitch manager may read a VF's caps now.
	Msg q = make_in<prm::query_hca_cap_in>(op::QUERY_HCA_CAP, 1);
	prm::set<prm::query_hca_cap_in::other_function>(q.as<prm::query_hca_cap_in>(), 1);
	prm::set<prm::query_hca_cap_in::function_id>(q.as<prm::query_hca_cap_in>(), 4);
	EXPECT_EQ(drv.run<prm::query_hca_cap_out>(q).status, st::OK);
	prm::set<prm::query_hca_cap_in::function_id>(q.as<prm::query_hca_cap_in>(), 5);
	EXPECT_EQ(drv.exec(q, prm::query_hca_cap_out::size_bytes).syndrome, synd::QUERY_CAP_BAD_FUNCTION);
	// And, as the ECPF, the external host PF's (function_id 0), as Linux
	// 7.x's eswitch init reads the PF vport's (mlx5_esw_vport_caps_get).
	prm::set<prm::query_hca_cap_in::function_id>(q.as<prm::query_hca_cap_in>(), 0);
	EXPECT_EQ(drv.run<prm::query_hca_cap_out>(q).status, st::OK);
}

// A plain PF has no other function 0: only an ECPF manages a host PF.
TEST(EswOff, NoHostPfCapsOnAPlainPf)
{
	Rig r(quiet(Profile::connectx7()), Stage::INITIALIZED);
	Msg q = make_in<prm::query_hca_cap_in>(op::QUERY_HCA_CAP, 1);
	prm::set<prm::query_hca_cap_in::other_function>(q.as<prm::query_hca_cap_in>(), 1);
	EXPECT_EQ(r.drv.exec(q, prm::query_hca_cap_out::size_bytes).syndrome, synd::QUERY_CAP_BAD_FUNCTION);
}

// QUERY_ESW_FUNCTIONS on an INITIALIZED device with profile p; *vfs:
// whether set_num_vfs(1) then succeeds.
Answer query_esw(Profile p, bool *vfs)
{
	Rig r(std::move(p), Stage::INITIALIZED);
	Answer a = r.drv.exec(make_in<prm::query_esw_functions_in>(op::QUERY_ESW_FUNCTIONS),
			      prm::query_esw_functions_out::size_bytes);
	*vfs = r.emu.set_num_vfs(1);
	return a;
}

// B9: a plain PF (strict default) has no external host to report.
TEST(EswOff, NotOfferedToAPlainPf)
{
	bool vfs;
	Answer a = query_esw(quiet(), &vfs);
	EXPECT_EQ(a.status, st::BAD_OP_ERR);
	EXPECT_EQ(a.syndrome, synd::ESW_NOT_ECPF);
	EXPECT_FALSE(vfs);
}

// The lenient knob: the old plain-PF behaviour.
TEST(EswOff, LenientServesAPlainPf)
{
	Profile p = quiet();
	p.make_lenient();
	bool vfs;
	Answer a = query_esw(p, &vfs);
	EXPECT_EQ(a.status, st::OK);
	EXPECT_TRUE(vfs);
}

TEST(EswOff, NotOfferedWithoutSupport)
{
	Profile p = quiet(Profile::bluefield3());
	p.esw.supported = false;
	bool vfs;
	Answer a = query_esw(p, &vfs);
	EXPECT_EQ(a.status, st::BAD_OP_ERR);
	EXPECT_EQ(a.syndrome, synd::ESW_NOT_MANAGER);
	EXPECT_FALSE(vfs);
}

TEST(EswOff, NotOfferedWithoutCapBit)
{
	Profile p = quiet(Profile::bluefield3());
	auto &img = p.cap(prm::cap::ESWITCH);
	prm::set<prm::e_switch_cap::esw_functions_changed>(Ref<prm::e_switch_cap>(img.cur.data()), 0);
	bool vfs;
	EXPECT_EQ(query_esw(p, &vfs).status, st::BAD_OP_ERR);
}

} // namespace
} // namespace cxprm::emu::test
