// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The layout layer: big-endian bit placement, derived sizes, neighbours
// left alone, register helpers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "cxprm/prm/pages.h"
#include "cxprm/prm/transport.h"
#include "../../kunit/core/test_layout.h"

using namespace cxprm;
using namespace cxprm::prm;

using cxprm::test::test_layout;

TEST(Layout, DerivedSizesAndDescriptors)
{
	EXPECT_EQ(test_layout::size_bytes, 32u);
	EXPECT_EQ(test_layout::nfields, 6u);
	EXPECT_STREQ(test_layout::fields[2].name, "low_23");
	EXPECT_EQ(test_layout::fields[2].offset, 9u);
	EXPECT_EQ(test_layout::fields[2].width, 23u);
	EXPECT_EQ(cmd_queue_entry::size_bytes, 64u);
	EXPECT_EQ(cmd_if_box::size_bytes, 576u);
	EXPECT_EQ(initial_seg::health_syndrome::offset / 8, 0x1010u);
}

TEST(Layout, BigEndianPlacement)
{
	uint8_t b[32] = {};
	Ref<test_layout> r(b);
	cxprm::test::place_values(r);
	EXPECT_EQ(0, std::memcmp(b, cxprm::test::placed_bytes, 16));
	EXPECT_EQ(get<test_layout::top_byte>(r), 0xabu);
	EXPECT_EQ(get<test_layout::one_bit>(r), 1u);
	EXPECT_EQ(get<test_layout::low_23>(r), 0x123456u);
	EXPECT_EQ(get<test_layout::quad>(r), 0x0102030405060708ull);
	EXPECT_EQ(bytes<test_layout::blob>(r), b + 16);
}

TEST(Layout, SetTruncatesAndKeepsNeighbours)
{
	uint8_t b[32];
	std::memset(b, 0xff, sizeof(b));
	Ref<test_layout> r(b);
	set<test_layout::one_bit>(r, 2); // only bit 0 of the value fits
	EXPECT_EQ(get<test_layout::one_bit>(r), 0u);
	EXPECT_EQ(get<test_layout::top_byte>(r), 0xffu);
	EXPECT_EQ(get<test_layout::low_23>(r), 0x7fffffu);
	EXPECT_TRUE(fits<test_layout::low_23>(0x7fffff));
	EXPECT_FALSE(fits<test_layout::low_23>(0x800000));
}

TEST(Layout, RegisterHelpers)
{
	// cmdq_phy_addr_31_12's dword: address | nic_interface | size | stride.
	uint32_t v = 0x12345000u | (1u << 8) | (5u << 4) | 6u;
	EXPECT_EQ(dword_byte_offset<initial_seg::log_cmdq_size>(), 0x14u);
	EXPECT_EQ(from_dword<initial_seg::log_cmdq_size>(v), 5u);
	EXPECT_EQ(from_dword<initial_seg::log_cmdq_stride>(v), 6u);
	EXPECT_EQ(from_dword<initial_seg::nic_interface>(v), 1u);
	EXPECT_EQ(from_dword<initial_seg::cmdq_phy_addr_31_12>(v), 0x12345u);
	EXPECT_EQ(to_dword<initial_seg::initializing>(1), 0x80000000u);
	EXPECT_EQ(mailbox_blocks(16), 0u);
	EXPECT_EQ(mailbox_blocks(17), 1u);
	EXPECT_EQ(mailbox_blocks(528), 1u);
	EXPECT_EQ(mailbox_blocks(529), 2u);
}

// fill_pas_of writes any byte range of a pas message exactly as set_pas lays
// out the whole of it: whole entries, and ranges that start or end inside
// one (low 12 bits of each address dropped, as cmd_pas reserves them).
TEST(Flex, FillPasMatchesSetPas)
{
	using T = prm::manage_pages_in_pas;
	constexpr uint32_t N = 70;
	uint64_t addrs[N];
	for (uint32_t i = 0; i < N; i++)
		addrs[i] = 0x1234567000ull * (i + 1) + 0xabc;
	std::vector<uint8_t> flat(T::bytes_for(N), 0);
	prm::Ref<prm::manage_pages_in> r(flat.data());
	for (uint32_t i = 0; i < N; i++)
		prm::set_pas<T>(r, i, addrs[i] & ~0xfffull);
	const uint32_t base = prm::manage_pages_in::size_bytes;
	for (uint32_t off : {base, base + 1, base + 7, base + 8, base + 13, base + 512})
		for (uint32_t n : {1u, 7u, 8u, 9u, 64u, 301u}) {
			if (off + n > flat.size())
				continue;
			std::vector<uint8_t> got(n, 0xee);
			prm::fill_pas_of<T>([&addrs](uint32_t i) { return addrs[i]; }, off, got.data(), n);
			EXPECT_TRUE(std::equal(got.begin(), got.end(), flat.begin() + off)) << off << "+" << n;
		}
}
