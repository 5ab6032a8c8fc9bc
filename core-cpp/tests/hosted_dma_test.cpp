// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The hosted DMA arena (core-cpp/hosted/user_host.cpp): first fit, also
// with the packed-prefix hint that keeps an allocation from walking every
// live range (HostBase::first_fit's dense argument).
#include <cerrno>
#include <vector>

#include <gtest/gtest.h>

#include "user_host.h"

namespace {

using cxprm::hosted::UserHost;

struct Arena {
	UserHost uh{1u << 20, 4096};
	uint64_t alloc(size_t size, size_t align = 4096)
	{
		cxprm_dma_buf b{};
		EXPECT_EQ(uh.dma_alloc(size, align, &b), 0);
		bufs.push_back(b);
		return b.bus - UserHost::kBusBase;
	}
	void free_at(uint64_t off)
	{
		for (auto it = bufs.begin(); it != bufs.end(); ++it)
			if (it->bus - UserHost::kBusBase == off) {
				uh.dma_free(&*it);
				bufs.erase(it);
				return;
			}
		ADD_FAILURE() << "no buffer at " << off;
	}
	~Arena()
	{
		for (auto &b : bufs)
			uh.dma_free(&b);
	}
	std::vector<cxprm_dma_buf> bufs;
};

TEST(HostedDma, FirstFitFillsTheLowestHoleThatHolds)
{
	Arena a;
	EXPECT_EQ(a.alloc(4096), 0u);
	EXPECT_EQ(a.alloc(4096), 4096u);
	EXPECT_EQ(a.alloc(8192), 8192u);
	a.free_at(4096);
	EXPECT_EQ(a.alloc(8192), 16384u); // the hole is too small
	EXPECT_EQ(a.alloc(4096), 4096u);  // fits the hole exactly
	EXPECT_EQ(a.alloc(64, 64), 24576u);
	a.free_at(0);
	EXPECT_EQ(a.alloc(100, 64), 0u); // below the packed prefix again
	EXPECT_EQ(a.alloc(64, 64), 128u);
	EXPECT_EQ(a.alloc(4096), 28672u); // page-aligned: past the 64 B one
}

TEST(HostedDma, FreedRangesAreReusedInAddressOrder)
{
	Arena a;
	for (unsigned i = 0; i < 64; i++)
		EXPECT_EQ(a.alloc(4096), i * 4096u);
	for (unsigned i = 10; i < 20; i++)
		a.free_at(i * 4096u);
	EXPECT_EQ(a.alloc(4096 * 3), 10 * 4096u);
	EXPECT_EQ(a.alloc(4096 * 8), 64 * 4096u); // 7 pages left in the hole
	EXPECT_EQ(a.alloc(4096 * 7), 13 * 4096u);
	EXPECT_EQ(a.alloc(4096), 72 * 4096u);
}

TEST(HostedDma, FullArenaRefusesThenTakesTheFreedPage)
{
	Arena a;
	for (unsigned i = 0; i < 256; i++)
		EXPECT_EQ(a.alloc(4096), i * 4096u);
	cxprm_dma_buf b{};
	EXPECT_EQ(a.uh.dma_alloc(4096, 4096, &b), -ENOMEM);
	a.free_at(200 * 4096u);
	EXPECT_EQ(a.alloc(4096), 200 * 4096u);
}

} // namespace
