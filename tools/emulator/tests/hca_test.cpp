// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The HCA state machine, ISSI, capabilities, QUERY_ADAPTER and the generic
// command checks (opcode, lengths, reserved bits, uid, state).
#include "test_driver.h"

namespace cxprm::emu::test {
namespace {

struct HcaTest : QueueTest {

	Answer enable() { return drv.run<prm::enable_hca_out>(make_in<prm::enable_hca_in>(op::ENABLE_HCA)); }
	Answer set_issi(uint16_t v)
	{
		Msg m = make_in<prm::set_issi_in>(op::SET_ISSI);
		prm::set<prm::set_issi_in::current_issi>(m.as<prm::set_issi_in>(), v);
		return drv.run<prm::set_issi_out>(m);
	}
	int32_t query_pages(uint16_t opm)
	{
		Answer a = drv.run<prm::query_pages_out>(make_in<prm::query_pages_in>(op::QUERY_PAGES, opm));
		EXPECT_EQ(a.status, st::OK);
		return (int32_t)prm::get<prm::query_pages_out::num_pages>(a.as<prm::query_pages_out>());
	}
	Answer init() { return drv.run<prm::init_hca_out>(make_in<prm::init_hca_in>(op::INIT_HCA)); }
	Answer teardown(uint16_t profile = 0)
	{
		Msg m = make_in<prm::teardown_hca_in>(op::TEARDOWN_HCA);
		prm::set<prm::teardown_hca_in::profile>(m.as<prm::teardown_hca_in>(), profile);
		return drv.run<prm::teardown_hca_out>(m);
	}
	Answer disable() { return drv.run<prm::disable_hca_out>(make_in<prm::disable_hca_in>(op::DISABLE_HCA)); }
	Answer take(uint32_t n)
	{
		Msg m = make_in<prm::manage_pages_in>(op::MANAGE_PAGES, prm::manage_pages_op::TAKE);
		prm::set<prm::manage_pages_in::input_num_entries>(m.as<prm::manage_pages_in>(), n);
		return drv.run<prm::manage_pages_out>(m, n * 8);
	}
	Msg set_cap_msg()
	{
		Msg m = make_in<prm::set_hca_cap_in>(op::SET_HCA_CAP, prm::cap::op_mod(prm::cap::GENERAL, prm::cap::MAX));
		auto cur = emu.cap_cur(prm::cap::GENERAL);
		std::memcpy(prm::bytes<prm::set_hca_cap_in::capability>(m.as<prm::set_hca_cap_in>()), cur.data(),
			    cur.size());
		return m;
	}
	Ref<prm::cmd_hca_cap> cap_of(Msg &m)
	{
		return Ref<prm::cmd_hca_cap>(prm::bytes<prm::set_hca_cap_in::capability>(m.as<prm::set_hca_cap_in>()));
	}
};

TEST_F(HcaTest, FullLifeCycle)
{
	EXPECT_EQ(emu.hca_state(), HcaState::DISABLED);
	ASSERT_EQ(enable().status, st::OK);
	EXPECT_EQ(emu.hca_state(), HcaState::ENABLED);

	Answer a = drv.run<prm::query_issi_out>(make_in<prm::query_issi_in>(op::QUERY_ISSI));
	EXPECT_EQ(prm::get<prm::query_issi_out::current_issi>(a.as<prm::query_issi_out>()), 0u);
	EXPECT_EQ(prm::get<prm::query_issi_out::supported_issi_dw0>(a.as<prm::query_issi_out>()), 0x3u);
	ASSERT_EQ(set_issi(1).status, st::OK);
	EXPECT_EQ(emu.current_issi(), 1);

	const Profile &pr = emu.profile();
	EXPECT_EQ(query_pages(prm::query_pages_op::BOOT), pr.boot_pages);
	ASSERT_EQ(drv.give_pages((uint32_t)pr.boot_pages).status, st::OK);
	EXPECT_EQ(query_pages(prm::query_pages_op::BOOT), 0);
	EXPECT_EQ(query_pages(prm::query_pages_op::INIT), pr.init_pages);
	ASSERT_EQ(drv.give_pages((uint32_t)pr.init_pages).status, st::OK);
	EXPECT_EQ(query_pages(prm::query_pages_op::INIT), 0);
	ASSERT_EQ(init().status, st::OK);
	EXPECT_EQ(emu.hca_state(), HcaState::INITIALIZED);
	EXPECT_EQ(emu.pages_held(), (uint64_t)(pr.boot_pages + pr.init_pages));

	a = teardown();
	ASSERT_EQ(a.status, st::OK);
	EXPECT_EQ(prm::get<prm::teardown_hca_out::state>(a.as<prm::teardown_hca_out>()), prm::teardown_state::SUCCESS);
	EXPECT_EQ(emu.hca_state(), HcaState::TORN_DOWN);
	// Strict: after TEARDOWN_HCA, QUERY_PAGES says nothing about what is held.
	EXPECT_EQ(query_pages(prm::query_pages_op::REGULAR), 0);
	int32_t back = -(int32_t)emu.pages_held();
	EXPECT_EQ(back, -(pr.boot_pages + pr.init_pages));

	// Reclaim in two rounds; never more than asked.
	a = take(500);
	ASSERT_EQ(a.status, st::OK);
	EXPECT_EQ(prm::get<prm::manage_pages_out::output_num_entries>(a.as<prm::manage_pages_out>()), 500u);
	a = take(5000);
	ASSERT_EQ(a.status, st::OK);
	uint32_t got = (uint32_t)prm::get<prm::manage_pages_out::output_num_entries>(a.as<prm::manage_pages_out>());
	EXPECT_EQ(got, (uint32_t)(-back) - 500);
	EXPECT_EQ(emu.pages_held(), 0u);
	EXPECT_EQ(query_pages(prm::query_pages_op::REGULAR), 0);

	ASSERT_EQ(disable().status, st::OK);
	EXPECT_EQ(emu.hca_state(), HcaState::DISABLED);
	EXPECT_EQ(emu.counters().pages_leaked, 0u);
	EXPECT_EQ(emu.pages_given_total(), emu.pages_taken_total());
}

TEST_F(HcaTest, ReturnedPagesAreTheGivenOnes)
{
	ASSERT_EQ(enable().status, st::OK);
	ASSERT_EQ(set_issi(1).status, st::OK);
	std::vector<uint64_t> given;
	ASSERT_EQ(drv.give_pages((uint32_t)emu.profile().boot_pages, &given).status, st::OK);
	ASSERT_EQ(drv.give_pages((uint32_t)emu.profile().init_pages, &given).status, st::OK);
	ASSERT_EQ(init().status, st::OK);
	ASSERT_EQ(teardown().status, st::OK);
	Answer a = take((uint32_t)given.size());
	CRef<prm::manage_pages_out> o = a.as<prm::manage_pages_out>();
	uint32_t n = (uint32_t)prm::get<prm::manage_pages_out::output_num_entries>(o);
	ASSERT_EQ(n, given.size());
	std::set<uint64_t> back;
	for (uint32_t i = 0; i < n; i++)
		back.insert(prm::get_pas<prm::manage_pages_out_pas>(o, i));
	EXPECT_EQ(back, std::set<uint64_t>(given.begin(), given.end()));
}

TEST(HcaLenient, TornDownQueryReportsHeldWhenAsked)
{
	Rig r(quiet_with([](Profile &p) { p.torn_down_query_reports_held = true; }), Stage::INITIALIZED);
	ASSERT_EQ(r.drv.run<prm::teardown_hca_out>(make_in<prm::teardown_hca_in>(op::TEARDOWN_HCA)).status, st::OK);
	Msg m = make_in<prm::query_pages_in>(op::QUERY_PAGES, prm::query_pages_op::REGULAR);
	Answer a = r.drv.run<prm::query_pages_out>(m);
	EXPECT_EQ((int32_t)prm::get<prm::query_pages_out::num_pages>(a.as<prm::query_pages_out>()),
		  -(int32_t)r.emu.pages_held());
}

TEST_F(HcaTest, DisableWithPagesStillHeldCountsLeak)
{
	drv.bring_up();
	ASSERT_EQ(teardown().status, st::OK);
	uint64_t held = emu.pages_held();
	ASSERT_GT(held, 0u);
	ASSERT_EQ(disable().status, st::OK);
	EXPECT_EQ(emu.counters().pages_leaked, held);
	EXPECT_EQ(emu.pages_held(), 0u);
}

TEST_F(HcaTest, OutOfOrderIsBadSysState)
{
	// Nothing but ENABLE_HCA (and NOP) before ENABLE_HCA.
	for (uint16_t opc : {op::QUERY_ISSI, op::QUERY_PAGES, op::INIT_HCA, op::TEARDOWN_HCA, op::DISABLE_HCA}) {
		Answer a = drv.exec(make_in<prm::init_hca_in>(opc, 1), 0x70);
		EXPECT_EQ(a.status, st::BAD_SYS_STATE_ERR) << std::hex << opc;
		EXPECT_EQ(a.syndrome, synd::WRONG_STATE);
	}
	ASSERT_EQ(enable().status, st::OK);
	EXPECT_EQ(enable().status, st::BAD_SYS_STATE_ERR); // twice
	EXPECT_EQ(teardown().status, st::BAD_SYS_STATE_ERR); // not initialised

	// INIT_HCA before SET_ISSI(1), then before pages.
	Answer a = init();
	EXPECT_EQ(a.status, st::BAD_SYS_STATE_ERR);
	EXPECT_EQ(a.syndrome, synd::INIT_ISSI_NOT_SET);
	ASSERT_EQ(set_issi(1).status, st::OK);
	a = init();
	EXPECT_EQ(a.status, st::BAD_SYS_STATE_ERR);
	EXPECT_EQ(a.syndrome, synd::INIT_BOOT_PAGES_MISSING);
	ASSERT_EQ(drv.give_pages((uint32_t)emu.profile().boot_pages).status, st::OK);
	a = init();
	EXPECT_EQ(a.syndrome, synd::INIT_INIT_PAGES_MISSING);
	ASSERT_EQ(drv.give_pages((uint32_t)emu.profile().init_pages).status, st::OK);
	ASSERT_EQ(init().status, st::OK);

	// Once initialised: no SET_ISSI, no SET_HCA_CAP, no second INIT_HCA,
	// no DISABLE_HCA without teardown.
	EXPECT_EQ(set_issi(1).status, st::BAD_SYS_STATE_ERR);
	Msg m = set_cap_msg();
	EXPECT_EQ(drv.exec(m, 16).status, st::BAD_SYS_STATE_ERR);
	EXPECT_EQ(init().status, st::BAD_SYS_STATE_ERR);
	EXPECT_EQ(disable().status, st::BAD_SYS_STATE_ERR);

	// After teardown: no GIVE, no resources.
	ASSERT_EQ(teardown().status, st::OK);
	a = drv.give_pages(1);
	EXPECT_EQ(a.status, st::BAD_SYS_STATE_ERR);
	EXPECT_EQ(a.syndrome, synd::GIVE_TORN_DOWN);
	EXPECT_EQ(drv.exec(make_in<prm::alloc_uar_in>(op::ALLOC_UAR), 16).status, st::BAD_SYS_STATE_ERR);
}

TEST_F(HcaTest, Issi)
{
	ASSERT_EQ(enable().status, st::OK);
	Answer a = set_issi(5);
	EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(a.syndrome, synd::SET_ISSI_UNSUPPORTED);
	EXPECT_EQ(set_issi(0).status, st::OK);
	EXPECT_EQ(set_issi(1).status, st::OK);
}

TEST(HcaIssi0, DeviceWithoutIssi1InitsWithoutSetIssi)
{
	Rig r(quiet_with([](Profile &p) { p.issi_mask = 0x1; }));
	const Profile &p = r.emu.profile();
	ASSERT_EQ(r.drv.run<prm::enable_hca_out>(make_in<prm::enable_hca_in>(op::ENABLE_HCA)).status, st::OK);
	ASSERT_EQ(r.drv.give_pages((uint32_t)(p.boot_pages + p.init_pages)).status, st::OK);
	EXPECT_EQ(r.drv.run<prm::init_hca_out>(make_in<prm::init_hca_in>(op::INIT_HCA)).status, st::OK);
}

TEST_F(HcaTest, GenericChecks)
{
	// Unknown opcode.
	Answer a = drv.exec(make_in<prm::query_issi_in>(0x7ff), 16);
	EXPECT_EQ(a.status, st::BAD_OP_ERR);
	EXPECT_EQ(a.syndrome, synd::BAD_OPCODE);

	// Input shorter than the layout (ENABLE_HCA needs 16 bytes).
	std::vector<uint8_t> in = make_in<prm::enable_hca_in>(op::ENABLE_HCA).b;
	in.resize(8);
	a = drv.exec(in, 16);
	EXPECT_EQ(a.delivery, 0);
	EXPECT_EQ(a.status, st::BAD_INP_LEN_ERR);
	EXPECT_EQ(a.syndrome, synd::INLEN_TOO_SHORT);

	ASSERT_EQ(enable().status, st::OK);
	// Output shorter than the layout (QUERY_ISSI answers 0x70 bytes).
	a = drv.exec(make_in<prm::query_issi_in>(op::QUERY_ISSI), 16);
	EXPECT_EQ(a.status, st::BAD_OUTP_LEN_ERR);
	EXPECT_EQ(a.syndrome, synd::OUTLEN_TOO_SHORT);

	// Reserved bits: QUERY_ISSI dw2..3, the header's dw1 high half,
	// ENABLE_HCA's reserved bits.  A uid where the layout has none is not
	// reserved (firmware takes a uid in any header): it must name a live
	// context (uctx_test).
	Msg m = make_in<prm::query_issi_in>(op::QUERY_ISSI);
	m.b[11] = 1;
	a = drv.exec(m, prm::query_issi_out::size_bytes);
	EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(a.syndrome, synd::IN_RESERVED);
	m = make_in<prm::query_issi_in>(op::QUERY_ISSI);
	m.b[4] = 0x80;
	a = drv.exec(m, prm::query_issi_out::size_bytes);
	EXPECT_EQ(a.syndrome, synd::HDR_RESERVED);
	m = make_in<prm::query_issi_in>(op::QUERY_ISSI);
	prm::set<prm::cmd_in::uid>(m.as<prm::cmd_in>(), 3);
	a = drv.exec(m, prm::query_issi_out::size_bytes);
	EXPECT_EQ(a.syndrome, synd::BAD_UID);
	m = make_in<prm::query_pages_in>(op::QUERY_PAGES, 1);
	m.b[9] = 0x01; // between embedded_cpu_function and function_id
	a = drv.exec(m, 16);
	EXPECT_EQ(a.syndrome, synd::IN_RESERVED);
	m = make_in<prm::disable_hca_in>(op::DISABLE_HCA);
	m.b[14] = 0x10; // dw3 of DISABLE_HCA is reserved
	a = drv.exec(m, 16);
	EXPECT_EQ(a.syndrome, synd::IN_RESERVED);
}

TEST_F(HcaTest, BadUidOnUidCommand)
{
	drv.bring_up();
	Msg m = make_in<prm::alloc_uar_in>(op::ALLOC_UAR);
	prm::set<prm::alloc_uar_in::uid>(m.as<prm::alloc_uar_in>(), 7);
	Answer a = drv.exec(m, 16);
	EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(a.syndrome, synd::BAD_UID);
}

TEST_F(HcaTest, NopAnyState)
{
	EXPECT_EQ(drv.run<prm::nop_out>(make_in<prm::nop_in>(op::NOP)).status, st::OK);
	drv.bring_up();
	EXPECT_EQ(drv.run<prm::nop_out>(make_in<prm::nop_in>(op::NOP)).status, st::OK);
}

TEST_F(HcaTest, QueryCapCurAndMax)
{
	ASSERT_EQ(enable().status, st::OK);
	auto q = [&](uint16_t type, uint16_t mode) {
		return drv.run<prm::query_hca_cap_out>(
			make_in<prm::query_hca_cap_in>(op::QUERY_HCA_CAP, (uint16_t)(type << 1 | mode)));
	};
	Answer mx = q(prm::cap::GENERAL, prm::cap::MAX), cur = q(prm::cap::GENERAL, prm::cap::CUR);
	ASSERT_EQ(mx.status, st::OK);
	ASSERT_EQ(cur.status, st::OK);
	CRef<prm::cmd_hca_cap> cm(prm::bytes<prm::query_hca_cap_out::capability>(mx.as<prm::query_hca_cap_out>()));
	CRef<prm::cmd_hca_cap> cc(prm::bytes<prm::query_hca_cap_out::capability>(cur.as<prm::query_hca_cap_out>()));
	EXPECT_EQ(prm::get<prm::cmd_hca_cap::cmdif_checksum>(cm), 3u);
	EXPECT_EQ(prm::get<prm::cmd_hca_cap::cmdif_checksum>(cc), 0u);
	EXPECT_EQ(prm::get<prm::cmd_hca_cap::dct>(cc), 1u);
	EXPECT_EQ(prm::get<prm::cmd_hca_cap::nvmf_target_offload>(cc), 1u);
	EXPECT_EQ(prm::get<prm::cmd_hca_cap::port_type>(cc), prm::port_type::ETH);

	Answer nv = q(prm::cap::NVMF, prm::cap::CUR);
	ASSERT_EQ(nv.status, st::OK);
	CRef<prm::nvmf_cap> nc(prm::bytes<prm::query_hca_cap_out::capability>(nv.as<prm::query_hca_cap_out>()));
	EXPECT_EQ(prm::get<prm::nvmf_cap::frontend_namespace_context>(nc), 1u);

	Answer bad = drv.exec(make_in<prm::query_hca_cap_in>(op::QUERY_HCA_CAP, prm::cap::CRYPTO << 1), prm::query_hca_cap_out::size_bytes);
	EXPECT_EQ(bad.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(bad.syndrome, synd::QUERY_CAP_BAD_TYPE);
}

TEST_F(HcaTest, SetCapWithinMax)
{
	ASSERT_EQ(enable().status, st::OK);
	using cap = prm::cmd_hca_cap;
	// Above MAX: rejected, CUR unchanged.
	Msg m = set_cap_msg();
	prm::set<cap::log_max_qp>(cap_of(m), 19);
	Answer a = drv.exec(m, 16);
	EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(a.syndrome, synd::SET_CAP_ABOVE_MAX);
	m = set_cap_msg();
	prm::set<cap::uar_4k>(cap_of(m), 1);
	prm::set<cap::log_uar_page_sz>(cap_of(m), 5); // 128 KiB: above MAX 4
	EXPECT_EQ(drv.exec(m, 16).syndrome, synd::SET_CAP_ABOVE_MAX);
	m = set_cap_msg();
	prm::set<cap::cmdif_checksum>(cap_of(m), 1);
	EXPECT_EQ(drv.exec(m, 16).syndrome, synd::SET_CAP_BAD_CHECKSUM);

	// Within MAX: taken.  Read-only fields the driver scribbles are ignored.
	m = set_cap_msg();
	prm::set<cap::log_max_qp>(cap_of(m), 18);
	prm::set<cap::cache_line_128byte>(cap_of(m), 1);
	prm::set<cap::log_max_eq_sz>(cap_of(m), 5); // read-only
	ASSERT_EQ(drv.exec(m, 16).status, st::OK);
	auto cur = emu.cap_cur(prm::cap::GENERAL);
	CRef<cap> cc(cur.data());
	EXPECT_EQ(prm::get<cap::log_max_qp>(cc), 18u);
	EXPECT_EQ(prm::get<cap::cache_line_128byte>(cc), 1u);
	EXPECT_EQ(prm::get<cap::log_max_eq_sz>(cc), 22u);

	// Other function: not emulated.
	m = set_cap_msg();
	prm::set<prm::set_hca_cap_in::other_function>(m.as<prm::set_hca_cap_in>(), 1);
	prm::set<prm::set_hca_cap_in::function_id>(m.as<prm::set_hca_cap_in>(), 1);
	EXPECT_EQ(drv.exec(m, 16).syndrome, synd::SET_CAP_OTHER_FUNCTION);
}

// B10: uar_4k with 4 KiB system pages (log_uar_page_sz 0) is a combination
// no reference driver sends (Linux sets uar_4k only when PAGE_SIZE > 4 KiB):
// refused by default, taken with the lenient profile.  Before, any value
// within MAX was taken.
TEST_F(HcaTest, SetCapUar4kNeedsLargePages)
{
	using cap = prm::cmd_hca_cap;
	ASSERT_EQ(enable().status, st::OK);
	Msg m = set_cap_msg();
	prm::set<cap::uar_4k>(cap_of(m), 1);
	Answer a = drv.exec(m, 16);
	EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(a.syndrome, synd::SET_CAP_UAR_4K_SMALL_PAGE);

	Profile p = quiet();
	p.make_lenient();
	EXPECT_FALSE(p.strict_uar_page_size);
	Rig r2(p);
	ASSERT_EQ(r2.drv.run<prm::enable_hca_out>(make_in<prm::enable_hca_in>(op::ENABLE_HCA)).status, st::OK);
	EXPECT_EQ(r2.drv.exec(m, 16).status, st::OK);
	auto cur = r2.emu.cap_cur(prm::cap::GENERAL);
	EXPECT_EQ(prm::get<cap::uar_4k>(CRef<cap>(cur.data())), 1u);
}

// What Linux's handle_hca_cap sends on 16 and 64 KiB-page hosts (uar_4k,
// log_uar_page_sz = PAGE_SHIFT - 12) is taken; UAR pages of the system page
// size (no uar_4k) are not emulated and refused with their own syndrome.
TEST_F(HcaTest, SetCapLargeHostPages)
{
	using cap = prm::cmd_hca_cap;
	ASSERT_EQ(enable().status, st::OK);
	for (uint64_t log : {2u, 4u}) {
		Msg m = set_cap_msg();
		prm::set<cap::uar_4k>(cap_of(m), 1);
		prm::set<cap::log_uar_page_sz>(cap_of(m), log);
		ASSERT_EQ(drv.exec(m, 16).status, st::OK) << "log_uar_page_sz " << log;
		auto cur = emu.cap_cur(prm::cap::GENERAL);
		EXPECT_EQ(prm::get<cap::log_uar_page_sz>(CRef<cap>(cur.data())), log);
		EXPECT_EQ(prm::get<cap::uar_4k>(CRef<cap>(cur.data())), 1u);
	}
	Msg m = set_cap_msg();
	prm::set<cap::uar_4k>(cap_of(m), 0);
	prm::set<cap::log_uar_page_sz>(cap_of(m), 2);
	Answer a = drv.exec(m, 16);
	EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(a.syndrome, synd::SET_CAP_UAR_PAGE_NOT_MODELLED);
}

TEST_F(HcaTest, EnableResetsCapsAndIssi)
{
	ASSERT_EQ(enable().status, st::OK);
	ASSERT_EQ(set_issi(1).status, st::OK);
	Msg m = set_cap_msg();
	prm::set<prm::cmd_hca_cap::cache_line_128byte>(cap_of(m), 1);
	ASSERT_EQ(drv.exec(m, 16).status, st::OK);
	ASSERT_EQ(disable().status, st::OK);
	ASSERT_EQ(enable().status, st::OK);
	EXPECT_EQ(emu.current_issi(), 0);
	auto cur = emu.cap_cur(prm::cap::GENERAL);
	EXPECT_EQ(prm::get<prm::cmd_hca_cap::cache_line_128byte>(CRef<prm::cmd_hca_cap>(cur.data())), 0u);
}

TEST_F(HcaTest, TeardownProfiles)
{
	drv.bring_up();
	Answer a = teardown(9);
	EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(a.syndrome, synd::TEARDOWN_BAD_PROFILE);
	EXPECT_EQ(teardown(prm::teardown_profile::FORCE_CLOSE).status, st::OK);
	EXPECT_EQ(emu.hca_state(), HcaState::TORN_DOWN);
}

// mlx5_cmd_fast_teardown_hca: PREPARE_FAST_TEARDOWN answers SUCCESS, the
// driver writes nic_interface = DISABLED (cmdq_addr_l_sz bits 10:8, the
// address bits kept) and polls it back; the function is then gone with its
// pages released (mlx5_core never takes them back after a fast teardown).
// The old emulator answered state FAIL (mlx5_core warned "teardown with
// fast mode failed" on every shutdown).
TEST_F(HcaTest, FastTeardown)
{
	drv.bring_up();
	ASSERT_EQ(drv.run<prm::alloc_uar_out>(make_in<prm::alloc_uar_in>(op::ALLOC_UAR)).status, st::OK);
	uint64_t held = emu.pages_held();
	ASSERT_GT(held, 0u);
	Answer a = teardown(prm::teardown_profile::PREPARE_FAST_TEARDOWN);
	ASSERT_EQ(a.status, st::OK);
	EXPECT_EQ(prm::get<prm::teardown_hca_out::state>(a.as<prm::teardown_hca_out>()), prm::teardown_state::SUCCESS);

	using iseg = prm::initial_seg;
	uint32_t v = plat.rd(prm::iseg::CMDQ_ADDR_L_SZ);
	plat.wr(prm::iseg::CMDQ_ADDR_L_SZ, (v & 0xfffff000u) | 1u << 8); // mlx5_set_nic_state(DISABLED)
	emu.poll_once();
	EXPECT_EQ(prm::from_dword<iseg::nic_interface>(plat.rd(prm::iseg::CMDQ_ADDR_L_SZ)), 1u)
		<< "the driver polls DISABLED back";
	EXPECT_EQ(emu.hca_state(), HcaState::DISABLED);
	EXPECT_EQ(emu.pages_held(), 0u);
	Counters c = emu.counters();
	EXPECT_EQ(c.fast_teardowns, 1u);
	EXPECT_EQ(c.pages_released_fast_teardown, held);
	EXPECT_EQ(c.pages_leaked, 0u);
	EXPECT_EQ(c.objects_leaked, 0u);
	EXPECT_EQ(emu.uar_count(), 0u);

	// The interface is off: a doorbell is not served.
	Prepared pr = drv.prepare(0, make_in<prm::enable_hca_in>(op::ENABLE_HCA).b, 16);
	drv.ring(0);
	EXPECT_FALSE(drv.wait(pr));
	EXPECT_EQ(emu.counters().doorbells_while_disabled, 1u);

	// A new driver programs the queue again (nic_interface FULL_DRIVER) and
	// brings the function up from scratch.
	drv.init_queue();
	emu.poll_once();
	ASSERT_EQ(enable().status, st::OK);
	EXPECT_EQ(emu.hca_state(), HcaState::ENABLED);
}

TEST_F(HcaTest, FastTeardownNeedsTheCapAndThePrepare)
{
	drv.bring_up();
	// DISABLED without PREPARE_FAST_TEARDOWN: nothing happens.
	uint32_t v = plat.rd(prm::iseg::CMDQ_ADDR_L_SZ);
	plat.wr(prm::iseg::CMDQ_ADDR_L_SZ, (v & 0xfffff000u) | 1u << 8);
	emu.poll_once();
	EXPECT_EQ(emu.hca_state(), HcaState::INITIALIZED);
	plat.wr(prm::iseg::CMDQ_ADDR_L_SZ, v & 0xfffff000u);
	emu.poll_once();
	EXPECT_EQ(emu.counters().fast_teardowns, 0u);

	Profile p = quiet();
	using cap = prm::cmd_hca_cap;
	prm::set<cap::fast_teardown>(Ref<cap>(p.cap(prm::cap::GENERAL).cur.data()), 0);
	prm::set<cap::fast_teardown>(Ref<cap>(p.cap(prm::cap::GENERAL).max.data()), 0);
	Rig r2(p, Stage::INITIALIZED, 16u << 20);
	Msg m = make_in<prm::teardown_hca_in>(op::TEARDOWN_HCA);
	prm::set<prm::teardown_hca_in::profile>(m.as<prm::teardown_hca_in>(),
						prm::teardown_profile::PREPARE_FAST_TEARDOWN);
	Answer a = r2.drv.run<prm::teardown_hca_out>(m);
	EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(a.syndrome, synd::TEARDOWN_FAST_UNSUPPORTED);
}

TEST_F(HcaTest, TeardownDropsLeftoverObjects)
{
	drv.bring_up();
	ASSERT_EQ(drv.run<prm::alloc_uar_out>(make_in<prm::alloc_uar_in>(op::ALLOC_UAR)).status, st::OK);
	ASSERT_EQ(emu.uar_count(), 1u);
	ASSERT_EQ(teardown().status, st::OK);
	EXPECT_EQ(emu.uar_count(), 0u);
	EXPECT_EQ(emu.counters().objects_leaked, 1u);
}

TEST_F(HcaTest, QueryAdapter)
{
	ASSERT_EQ(enable().status, st::OK);
	Answer a = drv.run<prm::query_adapter_out>(make_in<prm::query_adapter_in>(op::QUERY_ADAPTER));
	ASSERT_EQ(a.status, st::OK);
	using pb = prm::query_adapter_param_block;
	CRef<pb> b = prm::sub<prm::query_adapter_out::query_adapter_struct, pb>(a.as<prm::query_adapter_out>());
	EXPECT_EQ(prm::get<pb::vsd_vendor_id>(b), 0x15b3u);
	EXPECT_EQ(prm::get<pb::ieee_vendor_id>(b), 0x0002c9u);
	std::string psid((const char *)prm::bytes<pb::vsd_contd_psid>(b), 13);
	EXPECT_EQ(psid, emu.profile().psid);
}

TEST_F(HcaTest, SetDriverVersion)
{
	drv.bring_up();
	Msg m = make_in<prm::set_driver_version_in>(op::SET_DRIVER_VERSION);
	std::memcpy(prm::bytes<prm::set_driver_version_in::driver_version>(m.as<prm::set_driver_version_in>()),
		    "cxprm,1.0", 9);
	EXPECT_EQ(drv.run<prm::set_driver_version_out>(m).status, st::OK);
}

TEST(Profiles, Connectx7)
{
	Profile p = Profile::connectx7();
	EXPECT_EQ(p.device_id, 0x1021);
	EXPECT_EQ(p.fw_rev.major, 28);
	EXPECT_EQ(prm::get<prm::cmd_hca_cap::hca_cap_2>(CRef<prm::cmd_hca_cap>(p.caps[prm::cap::GENERAL].cur.data())),
		  1u);
	p.init_delay_ms = 0;
	Rig r(p, Stage::INITIALIZED, 64u << 20);
	EXPECT_EQ(r.emu.hca_state(), HcaState::INITIALIZED);
	EXPECT_EQ(Profile::connectx5().device_id, 0x1017);
}

TEST(Syndromes, NamesAndStatuses)
{
	EXPECT_STREQ(syndrome_name(synd::GIVE_DUPLICATE), "GIVE_DUPLICATE");
	EXPECT_EQ(syndrome_name(0x12345678), nullptr);
	EXPECT_NE(syndrome_text(synd::WRONG_STATE), nullptr);
}

} // namespace
} // namespace cxprm::emu::test

namespace cxprm::emu::test {
namespace {

TEST(HcaReserved, EnableHcaReservedBits)
{
	Rig r(quiet());
	Msg m = make_in<prm::enable_hca_in>(op::ENABLE_HCA);
	m.b[8] = 0x40; // bit 0x41: reserved between embedded_cpu_function and function_id
	Answer a = r.drv.exec(m, 16);
	EXPECT_EQ(a.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(a.syndrome, synd::IN_RESERVED);
	EXPECT_EQ(r.emu.hca_state(), HcaState::DISABLED);
	m = make_in<prm::enable_hca_in>(op::ENABLE_HCA);
	prm::set<prm::enable_hca_in::function_id>(m.as<prm::enable_hca_in>(), 1);
	EXPECT_EQ(r.drv.exec(m, 16).syndrome, synd::ENABLE_BAD_FUNCTION);
}

TEST(HcaConstruction, RejectsBadSetups)
{
	FakePlatform small(1 << 20, 0x100);
	EXPECT_THROW(Emulator(small, quiet()), std::invalid_argument);
	FakePlatform plat;
	Profile p = quiet();
	p.log_cmdq_size = 6;
	EXPECT_THROW(Emulator(plat, p), std::invalid_argument);
	p = quiet();
	p.log_cmdq_stride = 8;
	EXPECT_THROW(Emulator(plat, p), std::invalid_argument);
}

} // namespace
} // namespace cxprm::emu::test
