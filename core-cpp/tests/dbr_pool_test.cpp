// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// DbrPool: doorbell records from shared pages (dbr_pool.h), and QueueMem
// taking its record from one.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "cxprm/dbr_pool.h"
#include "cxprm/errors.h"
#include "cxprm/queue_mem.h"
#include "user_host.h"

using namespace cxprm;
using cxprm::hosted::UserHost;

namespace {

class DbrPoolTest : public ::testing::Test {
protected:
	UserHost uh{8u << 20};
	DbrPool pool;
	void SetUp() override { ASSERT_EQ(pool.init(uh.host()), OK); }
};

} // namespace

TEST_F(DbrPoolTest, SixtyFourRecordsShareAPageEachACacheLineOfItsOwn)
{
	std::vector<Dbr> d(DbrPool::PER_PAGE + 1);
	std::set<u64> bus;
	for (Dbr &r : d) {
		ASSERT_EQ(pool.alloc(&r), OK);
		EXPECT_EQ(r.bus % DbrPool::RECORD_BYTES, 0u);
		bus.insert(r.bus);
	}
	EXPECT_EQ(bus.size(), d.size());
	EXPECT_EQ(pool.pages(), 2u); // the 65th record opened a second page
	EXPECT_EQ(uh.dma_live(), 2u);
	EXPECT_EQ(d[DbrPool::PER_PAGE - 1].bus - d[0].bus, (DbrPool::PER_PAGE - 1) * (u64)DbrPool::RECORD_BYTES);
	EXPECT_EQ(pool.in_use(), DbrPool::PER_PAGE + 1);

	// The second page goes with its only record; the first stays while one is out.
	pool.free(&d[DbrPool::PER_PAGE]);
	EXPECT_EQ(d[DbrPool::PER_PAGE].page, nullptr);
	EXPECT_EQ(pool.pages(), 1u);
	for (u32 i = 1; i < DbrPool::PER_PAGE; i++)
		pool.free(&d[i]);
	EXPECT_EQ(pool.pages(), 1u);
	pool.free(&d[0]);
	EXPECT_EQ(pool.pages(), 0u);
	EXPECT_EQ(uh.dma_live(), 0u);
	EXPECT_EQ(uh.mem_live(), 0u); // nor the page's bookkeeping
	pool.fini();
	EXPECT_EQ(pool.leaked(), 0u);
}

TEST_F(DbrPoolTest, ARecordComesBackZeroedAndTheLowestFreeIsTakenFirst)
{
	Dbr a, b;
	ASSERT_EQ(pool.alloc(&a), OK);
	ASSERT_EQ(pool.alloc(&b), OK);
	for (u32 i = 0; i < DbrPool::RECORD_BYTES; i++)
		a.cpu[i] = b.cpu[i] = 0xa5; // the counters of a queue now gone
	u64 was = a.bus;
	pool.free(&a);
	ASSERT_EQ(pool.alloc(&a), OK);
	EXPECT_EQ(a.bus, was);
	for (u32 i = 0; i < DbrPool::RECORD_BYTES; i++)
		ASSERT_EQ(a.cpu[i], 0) << i;
	EXPECT_EQ(b.cpu[0], 0xa5); // the neighbour is left alone
	pool.free(&a);
	pool.free(&b);
	pool.free(&b); // empty: a no-op
	EXPECT_EQ(pool.in_use(), 0u);
}

TEST_F(DbrPoolTest, AFailedPageLeavesNothingAndFiniCountsWhatWasNotBack)
{
	Dbr d;
	uh.fail_alloc_after(0); // the page's bookkeeping
	EXPECT_EQ(pool.alloc(&d), E_NOMEM);
	uh.fail_alloc_after(1); // its DMA
	EXPECT_EQ(pool.alloc(&d), E_NOMEM);
	uh.fail_alloc_after(-1);
	EXPECT_EQ(d.page, nullptr);
	EXPECT_EQ(uh.dma_live(), 0u);
	EXPECT_EQ(uh.mem_live(), 0u);

	ASSERT_EQ(pool.alloc(&d), OK);
	pool.fini(); // a record still out: counted, its page freed all the same
	EXPECT_EQ(pool.leaked(), 1u);
	EXPECT_EQ(uh.dma_live(), 0u);
	EXPECT_EQ(uh.mem_live(), 0u);
	Dbr e;
	EXPECT_EQ(pool.alloc(&e), E_INVAL); // after fini
	EXPECT_EQ(pool.alloc(nullptr), E_INVAL);
}

TEST_F(DbrPoolTest, QueueMemTakesItsRecordFromThePool)
{
	QueueMem a, b;
	ASSERT_EQ(a.init(uh.host(), 2 * QueueMem::PAGE, &pool), OK);
	ASSERT_EQ(b.init(uh.host(), QueueMem::PAGE, &pool), OK);
	EXPECT_EQ(uh.dma_live(), 3u); // two buffers and one page of records
	EXPECT_EQ(b.dbr_bus(), a.dbr_bus() + QueueMem::DBR_BYTES);
	EXPECT_EQ(b.dbr() - a.dbr(), (ptrdiff_t)QueueMem::DBR_BYTES);
	a.fini();
	b.fini();
	EXPECT_EQ(pool.pages(), 0u);
	EXPECT_EQ(uh.dma_live(), 0u);

	// The record failing frees the buffer again.
	uh.fail_alloc_after(1);
	EXPECT_EQ(a.init(uh.host(), QueueMem::PAGE, &pool), E_NOMEM);
	uh.fail_alloc_after(-1);
	EXPECT_FALSE(a.ready());
	EXPECT_EQ(uh.dma_live(), 0u);
	EXPECT_EQ(pool.in_use(), 0u);
}
