// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// PiecePool for firmware pages: 4 KiB pieces of larger host pages, as
// mlx5_core's pagealloc.c does; and the page tracker using it through a
// whole bring-up and teardown on a 16 KiB-page host.
#include "support/harness.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "cxprm/device.h"
#include "cxprm/piece_pool.h"
#include "cxprm/prm/hca_cap.h"

using namespace cxprm;

namespace {

struct Pool : ::testing::TestWithParam<uint32_t> {
	test::Harness h;
	PiecePool pool;
	void SetUp() override
	{
		h.uh.set_page_shift(GetParam());
		ASSERT_EQ(pool.init_fw_pages(h.host()), OK);
	}
	void TearDown() override
	{
		pool.destroy();
		EXPECT_EQ(h.uh.dma_live(), 0u);
		EXPECT_EQ(h.uh.mem_live(), 0u);
	}
	uint32_t per() const { return 1u << (GetParam() - 12); }
};

TEST_P(Pool, PiecesShareSystemPagesAndAllGoBack)
{
	EXPECT_EQ(pool.pieces_per_page(), per());
	std::vector<cxprm_dma_buf> b(10);
	std::set<uint64_t> bus;
	for (auto &x : b) {
		ASSERT_EQ(pool.alloc(&x), OK);
		EXPECT_EQ(x.bus % 4096, 0u);
		EXPECT_EQ(x.size, 4096u);
		bus.insert(x.bus);
	}
	EXPECT_EQ(bus.size(), b.size()) << "ten distinct pieces";
	EXPECT_EQ(pool.system_pages(), (10 + per() - 1) / per());
	EXPECT_EQ(h.uh.dma_live(), pool.system_pages()) << "one host allocation per system page";
	for (auto &x : b)
		pool.free(&x);
	EXPECT_EQ(pool.system_pages(), 0u);
	EXPECT_EQ(pool.bad_frees(), 0u);
}

TEST_P(Pool, AFreedPieceIsReusedBeforeANewPage)
{
	std::vector<cxprm_dma_buf> b(per());
	for (auto &x : b)
		ASSERT_EQ(pool.alloc(&x), OK);
	ASSERT_EQ(pool.system_pages(), 1u);
	uint64_t freed = b[per() / 2].bus;
	pool.free(&b[per() / 2]);
	ASSERT_EQ(pool.alloc(&b[per() / 2]), OK);
	EXPECT_EQ(b[per() / 2].bus, freed);
	EXPECT_EQ(pool.system_pages(), 1u);
	for (auto &x : b)
		pool.free(&x);
	EXPECT_EQ(pool.system_pages(), 0u);
}

INSTANTIATE_TEST_SUITE_P(HostPages, Pool, ::testing::Values(12u, 14u, 16u),
			 [](const auto &i) { return std::to_string(1u << (i.param - 10)) + "KiB"; });

// On a 4 KiB host a piece is the host page itself: only pieces of larger
// pages can be checked against their page.
TEST(FwPages16K, APieceFreedTwiceIsCountedNotFreed)
{
	test::Harness h;
	h.uh.set_page_shift(14);
	PiecePool pool;
	ASSERT_EQ(pool.init_fw_pages(h.host()), OK);
	cxprm_dma_buf a, b;
	ASSERT_EQ(pool.alloc(&a), OK);
	ASSERT_EQ(pool.alloc(&b), OK);
	cxprm_dma_buf again = a;
	pool.free(&a);
	pool.free(&again);
	EXPECT_EQ(pool.bad_frees(), 1u);
	EXPECT_EQ(pool.system_pages(), 1u) << "b still lent";
	pool.free(&b);
	EXPECT_EQ(pool.system_pages(), 0u);
	pool.destroy();
	EXPECT_EQ(h.uh.dma_live(), 0u);
}

// A whole life on a 16 KiB-page host: every firmware page the emulator
// asks for is a quarter of a host page, and all come back.
TEST(FwPagesBringup, SixteenKiBHostPacksFourPerPage)
{
	auto p = emu::Profile::connectx7();
	p.boot_pages = 40;
	p.init_pages = 24;
	p.regular_pages = 0;
	test::Harness h(p);
	h.uh.set_page_shift(14);
	h.emu.start();
	Device dev;
	ASSERT_EQ(dev.bringup(h.host(), test::quick_config()), OK);
	EXPECT_EQ(h.emu.pages_held(), 64u);
	EXPECT_EQ(dev.pages().system_pages(), 16u) << "64 firmware pages in 16 host pages";
	dev.teardown();
	EXPECT_EQ(h.emu.pages_held(), 0u);
	EXPECT_EQ(h.emu.counters().pages_leaked, 0u);
	EXPECT_EQ(h.uh.dma_live(), 0u);
}

} // namespace
