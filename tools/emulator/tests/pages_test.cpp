// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// MANAGE_PAGES validation and page requests.
#include "test_driver.h"

namespace cxprm::emu::test {
namespace {

struct PagesTest : EnabledTest {
	PagesTest() : EnabledTest(quiet(), 32u << 20) {}
	Msg give_msg(const std::vector<uint64_t> &pas, int32_t declared = -1)
	{
		using tail = prm::manage_pages_in_pas;
		Msg m = make_in<prm::manage_pages_in>(op::MANAGE_PAGES, prm::manage_pages_op::GIVE, pas.size() * 8);
		prm::set<prm::manage_pages_in::input_num_entries>(m.as<prm::manage_pages_in>(),
								   declared < 0 ? pas.size() : (uint32_t)declared);
		for (size_t i = 0; i < pas.size(); i++)
			store_be64(prm::tail_entry<tail>(m.as<prm::manage_pages_in>(), (uint32_t)i), pas[i]);
		return m;
	}
};

TEST_F(PagesTest, GiveValidation)
{
	uint64_t a = plat.alloc(4096), b = plat.alloc(4096);
	Answer r = drv.run<prm::manage_pages_out>(give_msg({a, b + 0x800}));
	EXPECT_EQ(r.status, st::BAD_PARAM_ERR);
	EXPECT_EQ(r.syndrome, synd::GIVE_UNALIGNED);
	EXPECT_EQ(emu.pages_held(), 0u) << "a failed GIVE keeps nothing";

	plat.deny(b, 4096);
	r = drv.run<prm::manage_pages_out>(give_msg({a, b}));
	EXPECT_EQ(r.syndrome, synd::GIVE_UNREACHABLE);
	plat.allow_all();

	r = drv.run<prm::manage_pages_out>(give_msg({a, a}));
	EXPECT_EQ(r.syndrome, synd::GIVE_DUPLICATE);

	r = drv.run<prm::manage_pages_out>(give_msg({a, b}, 3));
	EXPECT_EQ(r.status, st::BAD_INP_LEN_ERR);
	EXPECT_EQ(r.syndrome, synd::GIVE_INLEN);

	ASSERT_EQ(drv.run<prm::manage_pages_out>(give_msg({a, b})).status, st::OK);
	EXPECT_EQ(emu.pages_held(), 2u);
	r = drv.run<prm::manage_pages_out>(give_msg({b}));
	EXPECT_EQ(r.syndrome, synd::GIVE_DUPLICATE) << "already held";
	EXPECT_EQ(emu.pages_wanted(prm::query_pages_op::BOOT), emu.profile().boot_pages - 2);
}

TEST_F(PagesTest, BadOpModAndFunction)
{
	Answer r = drv.exec(make_in<prm::query_pages_in>(op::QUERY_PAGES, 4), 16);
	EXPECT_EQ(r.syndrome, synd::QUERY_PAGES_BAD_OPMOD);
	Msg m = make_in<prm::query_pages_in>(op::QUERY_PAGES, 1);
	prm::set<prm::query_pages_in::function_id>(m.as<prm::query_pages_in>(), 2);
	EXPECT_EQ(drv.exec(m, 16).syndrome, synd::QUERY_PAGES_BAD_FUNCTION);
	EXPECT_EQ(drv.exec(make_in<prm::manage_pages_in>(op::MANAGE_PAGES, 3), 16).syndrome,
		  synd::MANAGE_PAGES_BAD_OPMOD);
}

// Before INIT_HCA firmware gives back whatever it holds, most recently given
// first (mlx5_core's reclaim_boot_pages and the failed function_open path
// take boot and init pages back while the HCA is ENABLED and WARN when any
// stays with firmware).  The old behaviour answered 0 pages here.
TEST_F(PagesTest, TakeBeforeInitReturnsHeldPages)
{
	std::vector<uint64_t> given;
	ASSERT_EQ(drv.give_pages(4, &given).status, st::OK);
	EXPECT_EQ(emu.pages_wanted(prm::query_pages_op::BOOT), emu.profile().boot_pages - 4);
	Msg m = make_in<prm::manage_pages_in>(op::MANAGE_PAGES, prm::manage_pages_op::TAKE);
	prm::set<prm::manage_pages_in::input_num_entries>(m.as<prm::manage_pages_in>(), 3);
	Answer r = drv.run<prm::manage_pages_out>(m, 3 * 8);
	ASSERT_EQ(r.status, st::OK);
	ASSERT_EQ(prm::get<prm::manage_pages_out::output_num_entries>(r.as<prm::manage_pages_out>()), 3u);
	for (uint32_t i = 0; i < 3; i++)
		EXPECT_EQ(prm::get_pas<prm::manage_pages_out_pas>(r.as<prm::manage_pages_out>(), i), given[3 - i]);
	EXPECT_EQ(emu.pages_held(), 1u);
	EXPECT_EQ(emu.pages_wanted(prm::query_pages_op::BOOT), emu.profile().boot_pages - 1)
		<< "pages taken back are owed again";
}

// A bring-up that stops after the boot and init pages (as when SET_HCA_CAP
// or INIT_HCA fails): TAKE until firmware has nothing left, then
// DISABLE_HCA, and nothing is leaked.
TEST_F(PagesTest, AbortedBringupGetsAllPagesBack)
{
	int32_t boot = emu.pages_wanted(prm::query_pages_op::BOOT);
	int32_t init = emu.pages_wanted(prm::query_pages_op::INIT);
	ASSERT_EQ(drv.give_pages((uint32_t)boot).status, st::OK);
	ASSERT_EQ(drv.give_pages((uint32_t)init + 5).status, st::OK) << "5 beyond the demand";
	ASSERT_EQ(emu.pages_wanted(prm::query_pages_op::INIT), 0);
	uint64_t total = emu.pages_held();
	ASSERT_EQ(total, (uint64_t)(boot + init + 5));
	uint64_t back = 0;
	for (int rounds = 0; rounds < 100; rounds++) {
		Msg m = make_in<prm::manage_pages_in>(op::MANAGE_PAGES, prm::manage_pages_op::TAKE);
		prm::set<prm::manage_pages_in::input_num_entries>(m.as<prm::manage_pages_in>(), 768);
		Answer r = drv.run<prm::manage_pages_out>(m, 768 * 8);
		ASSERT_EQ(r.status, st::OK);
		uint64_t n = prm::get<prm::manage_pages_out::output_num_entries>(r.as<prm::manage_pages_out>());
		if (!n)
			break;
		back += n;
	}
	EXPECT_EQ(back, total);
	EXPECT_EQ(emu.pages_held(), 0u);
	EXPECT_EQ(emu.pages_wanted(prm::query_pages_op::BOOT), boot);
	EXPECT_EQ(emu.pages_wanted(prm::query_pages_op::INIT), init);
	Msg si = make_in<prm::set_issi_in>(op::SET_ISSI);
	prm::set<prm::set_issi_in::current_issi>(si.as<prm::set_issi_in>(), 1);
	ASSERT_EQ(drv.run<prm::set_issi_out>(si).status, st::OK);
	EXPECT_EQ(drv.run<prm::init_hca_out>(make_in<prm::init_hca_in>(op::INIT_HCA)).syndrome,
		  synd::INIT_BOOT_PAGES_MISSING);
	ASSERT_EQ(drv.run<prm::disable_hca_out>(make_in<prm::disable_hca_in>(op::DISABLE_HCA)).status, st::OK);
	EXPECT_EQ(emu.counters().pages_leaked, 0u);
	EXPECT_EQ(emu.pages_taken_total(), total);
}

struct PageRequestTest : InitializedTest {};

TEST_F(PageRequestTest, PositiveAndNegativeRequests)
{
	EXPECT_EQ(emu.pages_wanted(prm::query_pages_op::REGULAR), 0);
	ASSERT_TRUE(emu.request_pages(10));
	EXPECT_EQ(emu.pages_wanted(prm::query_pages_op::REGULAR), 10);
	ASSERT_EQ(drv.give_pages(10).status, st::OK);
	EXPECT_EQ(emu.pages_wanted(prm::query_pages_op::REGULAR), 0);

	uint64_t held = emu.pages_held();
	ASSERT_TRUE(emu.request_pages(-6));
	EXPECT_EQ(emu.pages_wanted(prm::query_pages_op::REGULAR), -6);
	Msg m = make_in<prm::manage_pages_in>(op::MANAGE_PAGES, prm::manage_pages_op::TAKE);
	prm::set<prm::manage_pages_in::input_num_entries>(m.as<prm::manage_pages_in>(), 100);
	// Output too short for the 6 pages firmware would return.
	Answer r = drv.exec(m, 16 + 8);
	EXPECT_EQ(r.status, st::BAD_OUTP_LEN_ERR);
	EXPECT_EQ(r.syndrome, synd::TAKE_OUTLEN);
	r = drv.run<prm::manage_pages_out>(m, 100 * 8);
	ASSERT_EQ(r.status, st::OK);
	EXPECT_EQ(prm::get<prm::manage_pages_out::output_num_entries>(r.as<prm::manage_pages_out>()), 6u);
	EXPECT_EQ(emu.pages_held(), held - 6);
	EXPECT_EQ(emu.pages_wanted(prm::query_pages_op::REGULAR), 0);

	EXPECT_FALSE(emu.request_pages(-(int32_t)emu.pages_held() - 1));
}

TEST_F(PageRequestTest, CantGiveClearsDemand)
{
	ASSERT_TRUE(emu.request_pages(3));
	Answer r = drv.run<prm::manage_pages_out>(
		make_in<prm::manage_pages_in>(op::MANAGE_PAGES, prm::manage_pages_op::CANT_GIVE));
	EXPECT_EQ(r.status, st::OK);
	EXPECT_EQ(emu.pages_wanted(prm::query_pages_op::REGULAR), 0);
}

} // namespace
} // namespace cxprm::emu::test
