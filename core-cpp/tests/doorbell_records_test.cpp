// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Doorbell records from shared pages (PiecePool::init_doorbell_records,
// piece_pool.h), and QueueMem taking its record from them.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <vector>

#include "cxprm/errors.h"
#include "cxprm/piece_pool.h"
#include "cxprm/queue_mem.h"
#include "user_host.h"

using namespace cxprm;
using cxprm::hosted::UserHost;

namespace {

constexpr u32 PER_PAGE = PiecePool::DOORBELL_PAGE / PiecePool::DOORBELL_BYTES;

class DoorbellRecords : public ::testing::Test {
protected:
	UserHost uh{8u << 20};
	PiecePool pool;
	void SetUp() override { ASSERT_EQ(pool.init_doorbell_records(uh.host()), OK); }
};

} // namespace

TEST_F(DoorbellRecords, SixtyFourShareAPageEachACacheLineOfItsOwn)
{
	EXPECT_EQ(pool.piece_bytes(), 64u);
	EXPECT_EQ(pool.pieces_per_page(), PER_PAGE);
	std::vector<cxprm_dma_buf> d(PER_PAGE + 1);
	std::set<u64> bus;
	for (cxprm_dma_buf &r : d) {
		ASSERT_EQ(pool.alloc(&r), OK);
		EXPECT_EQ(r.bus % PiecePool::DOORBELL_BYTES, 0u);
		EXPECT_EQ(r.size, PiecePool::DOORBELL_BYTES);
		bus.insert(r.bus);
	}
	EXPECT_EQ(bus.size(), d.size());
	EXPECT_EQ(pool.system_pages(), 2u); // the 65th record opened a second page
	EXPECT_EQ(uh.dma_live(), 2u);
	EXPECT_EQ(d[0].bus % PiecePool::DOORBELL_PAGE, 0u);
	EXPECT_EQ(d[PER_PAGE - 1].bus - d[0].bus, (PER_PAGE - 1) * (u64)PiecePool::DOORBELL_BYTES);
	EXPECT_EQ(pool.in_use(), PER_PAGE + 1);

	// The second page goes with its only record; the first stays while one is out.
	pool.free(&d[PER_PAGE]);
	EXPECT_EQ(d[PER_PAGE].cpu, nullptr);
	EXPECT_EQ(pool.system_pages(), 1u);
	for (u32 i = 1; i < PER_PAGE; i++)
		pool.free(&d[i]);
	EXPECT_EQ(pool.system_pages(), 1u);
	pool.free(&d[0]);
	EXPECT_EQ(pool.system_pages(), 0u);
	EXPECT_EQ(uh.dma_live(), 0u);
	EXPECT_EQ(uh.mem_live(), 0u); // nor the page's bookkeeping
	pool.destroy();
	EXPECT_EQ(pool.leaked(), 0u);
	EXPECT_EQ(pool.bad_frees(), 0u);
}

TEST_F(DoorbellRecords, TheLowestFreeIsTakenFirstAndTwiceFreedIsCounted)
{
	cxprm_dma_buf a, b;
	ASSERT_EQ(pool.alloc(&a), OK);
	ASSERT_EQ(pool.alloc(&b), OK);
	cxprm_dma_buf again = a;
	u64 was = a.bus;
	pool.free(&a);
	pool.free(&again); // a's piece is free already
	EXPECT_EQ(pool.bad_frees(), 1u);
	ASSERT_EQ(pool.alloc(&a), OK);
	EXPECT_EQ(a.bus, was);
	pool.free(&a);
	pool.free(&b);
	pool.free(&b); // emptied by the free before: a no-op
	EXPECT_EQ(pool.in_use(), 0u);
	EXPECT_EQ(pool.bad_frees(), 1u);
}

TEST_F(DoorbellRecords, AFailedPageLeavesNothingAndDestroyKeepsWhatIsOut)
{
	cxprm_dma_buf d;
	uh.fail_alloc_after(0); // the page's bookkeeping
	EXPECT_EQ(pool.alloc(&d), E_NOMEM);
	uh.fail_alloc_after(1); // its DMA
	EXPECT_EQ(pool.alloc(&d), E_NOMEM);
	uh.fail_alloc_after(-1);
	EXPECT_EQ(d.cpu, nullptr);
	EXPECT_EQ(uh.dma_live(), 0u);
	EXPECT_EQ(uh.mem_live(), 0u);

	ASSERT_EQ(pool.alloc(&d), OK);
	pool.destroy(); // a record still out: counted, and its page kept
	EXPECT_EQ(pool.leaked(), 1u);
	EXPECT_EQ(uh.dma_live(), 1u) << "the device may still write the record";
	EXPECT_EQ(uh.mem_live(), 1u);
	cxprm_dma_buf e;
	EXPECT_EQ(pool.alloc(&e), E_INVAL); // after destroy
	EXPECT_EQ(pool.alloc(nullptr), E_INVAL);
	pool.free(&d); // ignored after destroy
	EXPECT_EQ(uh.dma_live(), 1u);

	// The test frees what the pool kept: d is the page's first record.
	cxprm_dma_buf page = {d.cpu, d.bus, PiecePool::DOORBELL_PAGE, nullptr};
	uh.host()->ops->dma_free(uh.host()->ctx, &page);
	uh.host()->ops->mem_free(uh.host()->ctx, d.cookie);
}

TEST_F(DoorbellRecords, BadShapesAreRefused)
{
	PiecePool p;
	EXPECT_EQ(p.init(nullptr, 6, 12, PiecePool::Source::COHERENT), E_INVAL);
	EXPECT_EQ(p.init(uh.host(), 5, 12, PiecePool::Source::COHERENT), E_INVAL); // under 64 bytes
	EXPECT_EQ(p.init(uh.host(), 6, 13, PiecePool::Source::COHERENT), E_INVAL); // 128 a page
	EXPECT_EQ(p.init(uh.host(), 13, 12, PiecePool::Source::COHERENT), E_INVAL);
	EXPECT_EQ(pool.init_doorbell_records(uh.host()), E_INVAL); // twice
	EXPECT_EQ(uh.mem_live(), 0u);
}

TEST_F(DoorbellRecords, QueueMemTakesItsRecordZeroed)
{
	QueueMem a, b;
	ASSERT_EQ(a.init(uh.host(), 2 * QueueMem::PAGE, &pool), OK);
	ASSERT_EQ(b.init(uh.host(), QueueMem::PAGE, &pool), OK);
	EXPECT_EQ(uh.dma_live(), 3u); // two buffers and one page of records
	EXPECT_EQ(b.dbr_bus(), a.dbr_bus() + QueueMem::DBR_BYTES);
	EXPECT_EQ(b.dbr() - a.dbr(), (ptrdiff_t)QueueMem::DBR_BYTES);

	// A record given back holds its queue's counters; the next queue's starts at 0.
	std::memset(a.dbr(), 0xa5, QueueMem::DBR_BYTES);
	std::memset(b.dbr(), 0xa5, QueueMem::DBR_BYTES);
	u64 was = a.dbr_bus();
	a.fini();
	ASSERT_EQ(a.init(uh.host(), QueueMem::PAGE, &pool), OK);
	EXPECT_EQ(a.dbr_bus(), was);
	for (u32 i = 0; i < QueueMem::DBR_BYTES; i++)
		ASSERT_EQ(a.dbr()[i], 0) << i;
	EXPECT_EQ(b.dbr()[0], 0xa5); // the neighbour is left alone
	a.fini();
	b.fini();
	EXPECT_EQ(pool.system_pages(), 0u);
	EXPECT_EQ(uh.dma_live(), 0u);

	// The record failing frees the buffer again.
	uh.fail_alloc_after(1);
	EXPECT_EQ(a.init(uh.host(), QueueMem::PAGE, &pool), E_NOMEM);
	uh.fail_alloc_after(-1);
	EXPECT_FALSE(a.ready());
	EXPECT_EQ(uh.dma_live(), 0u);
	EXPECT_EQ(pool.in_use(), 0u);
}
