// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The hosted DMA arena (core-cpp/hosted/user_host.cpp): first fit, also
// with the hints that keep an allocation from walking every live range
// (HostBase::FitHints: the packed prefix, the lowest page that may fit).
#include <cerrno>
#include <map>
#include <random>
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

// Queue buffers and their 64 B doorbell records, as QP creates make them,
// then frees here and there, at random: every placement is the plain
// first fit's (a walk over every live range from the bottom).
TEST(HostedDma, HintsGiveThePlainFirstFitsAnswer)
{
	Arena a;
	std::map<uint64_t, size_t> model; // offset -> size
	auto plain = [&](size_t size, size_t align) {
		uint64_t at = 0;
		for (auto &r : model) {
			uint64_t aligned = (at + align - 1) & ~(uint64_t)(align - 1);
			if (aligned + size <= r.first)
				break;
			at = r.first + r.second;
		}
		at = (at + align - 1) & ~(uint64_t)(align - 1);
		model[at] = size;
		return at;
	};
	std::mt19937 rng(7);
	const size_t sizes[] = {64, 64, 100, 4096, 4096, 8192, 12288};
	for (unsigned step = 0; step < 3000; step++) {
		if (!model.empty() && rng() % 3 == 0) {
			auto it = model.begin();
			std::advance(it, rng() % model.size());
			a.free_at(it->first);
			model.erase(it);
			continue;
		}
		size_t size = sizes[rng() % 7];
		size_t align = size < 4096 ? 64 : 4096;
		uint64_t want = plain(size, align);
		if (want + size > (1u << 20)) { // the arena is full there: both refuse
			model.erase(want);
			cxprm_dma_buf b{};
			EXPECT_EQ(a.uh.dma_alloc(size, align, &b), -ENOMEM);
			continue;
		}
		ASSERT_EQ(a.alloc(size, align), want) << "step " << step;
	}
}

} // namespace
