// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Mailbox chains on their own: layout of the blocks, the boundaries, and
// every way a device could tamper with an output chain.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cxprm/errors.h"
#include "cxprm/mailbox.h"
#include "cxprm/prm/transport.h"
#include "user_host.h"

using namespace cxprm;
using prm::cmd_if_box;

namespace {
std::vector<uint8_t> pattern(uint32_t len)
{
	std::vector<uint8_t> v(len);
	for (uint32_t i = 0; i < len; i++)
		v[i] = uint8_t(i * 7 + 3);
	return v;
}

struct MailboxTest : ::testing::Test {
	hosted::UserHost uh{4u << 20};
	MailboxChain chain;
	void TearDown() override
	{
		chain.release(uh.host());
		EXPECT_EQ(uh.dma_live(), 0u);
	}
};
} // namespace

TEST_F(MailboxTest, BoundariesRoundTrip)
{
	for (uint32_t len : {16u, 17u, 528u, 529u, 1040u, 1041u, 4112u, 0x1010u}) {
		auto msg = pattern(len);
		uint32_t n = prm::mailbox_blocks(len);
		ASSERT_EQ(chain.reserve(uh.host(), n), OK);
		chain.format(msg.data(), len, 0x5a, true);
		EXPECT_EQ(chain.blocks(), n) << len;
		for (uint32_t i = 0; i < n; i++) {
			prm::CRef<cmd_if_box> b(chain.block(i));
			EXPECT_EQ(prm::get<cmd_if_box::block_number>(b), i);
			EXPECT_EQ(prm::get<cmd_if_box::token>(b), 0x5au);
			EXPECT_TRUE(mailbox_sig_ok(chain.block(i)));
			EXPECT_EQ(chain.block_bus(i) % 1024, 0u);
		}
		std::vector<uint8_t> back(len, 0);
		ASSERT_EQ(chain.read(back.data(), len, true), OK) << len;
		EXPECT_TRUE(std::equal(msg.begin() + std::min(16u, len), msg.end(),
				       back.begin() + std::min(16u, len)))
			<< len;
	}
}

// A message given as a head plus a fill lays out the same blocks, byte for
// byte, as the flat message: head ends inside the inline part's boundary,
// inside a block and past one; fills start at odd offsets.
TEST_F(MailboxTest, MsgSourceMatchesFlatMessage)
{
	struct Ctx {
		const uint8_t *msg;
		uint32_t calls;
	};
	auto fill = [](const void *c, u32 off, u8 *dst, u32 n) {
		auto *x = (Ctx *)c;
		x->calls++;
		memcpy(dst, x->msg + off, n);
	};
	for (uint32_t len : {16u, 17u, 528u, 529u, 1041u, 4112u})
		for (uint32_t head : {16u, 21u, 527u, 600u, 1041u}) {
			if (head > len)
				continue;
			auto msg = pattern(len);
			uint32_t n = prm::mailbox_blocks(len);
			ASSERT_EQ(chain.reserve(uh.host(), n), OK);
			chain.format(msg.data(), len, 0x33, true);
			std::vector<uint8_t> flat(chain.block(0), chain.block(0) + n * MailboxChain::STRIDE);
			Ctx ctx{msg.data(), 0};
			MsgSource src{msg.data(), head, len, fill, &ctx};
			ASSERT_TRUE(src.valid());
			memset(chain.block(0), 0xee, n * MailboxChain::STRIDE);
			chain.format(src, 0x33, true);
			for (uint32_t i = 0; i < n; i++)
				EXPECT_EQ(0, memcmp(chain.block(i), flat.data() + i * MailboxChain::STRIDE,
						    cmd_if_box::size_bytes))
					<< "len " << len << " head " << head << " block " << i;
			EXPECT_EQ(ctx.calls > 0, head < len) << len << " " << head;
		}
	// A fill is needed for a tail, and the head covers the inline bytes.
	uint8_t m[32] = {};
	EXPECT_FALSE((MsgSource{m, 16, 32, nullptr, nullptr}.valid()));
	EXPECT_FALSE((MsgSource{m, 8, 32, fill, nullptr}.valid()));
	EXPECT_FALSE((MsgSource{nullptr, 16, 16, nullptr, nullptr}.valid()));
	EXPECT_TRUE(MsgSource::flat(m, 12).valid());
}

TEST_F(MailboxTest, TamperingIsDetected)
{
	const uint32_t len = 16 + 3 * 512;
	auto msg = pattern(len);
	std::vector<uint8_t> back(len);
	ASSERT_EQ(chain.reserve(uh.host(), 3), OK);
	// A fresh chain whose block i 'edit' changes, signed again: what read says.
	auto read_edited = [&](uint32_t i, auto edit) {
		chain.format(msg.data(), len, 9, true);
		prm::Ref<cmd_if_box> b(chain.block(i));
		edit(b);
		mailbox_sign(chain.block(i));
		return chain.read(back.data(), len, true);
	};

	// The token is not checked (A12: no reference driver reads it back).
	EXPECT_EQ(read_edited(0, [](auto b) { prm::set<cmd_if_box::token>(b, 10); }), OK) << "another token";

	chain.format(msg.data(), len, 9, true);
	chain.block(1)[100] ^= 1;
	EXPECT_EQ(chain.read(back.data(), len, true), E_BADMSG) << "data signature";
	EXPECT_EQ(chain.read(back.data(), len, false), OK) << "signatures off";

	EXPECT_EQ(read_edited(1, [](auto b) { prm::set<cmd_if_box::block_number>(b, 7); }), E_PROTO)
		<< "block number";

	// A next pointer to memory we never chained (still 1 KiB aligned).
	using next = cmd_if_box::next_pointer_31_10;
	EXPECT_EQ(read_edited(0, [](auto b) { prm::set<next>(b, prm::get<next>(b) + 8); }), E_PROTO)
		<< "foreign next pointer";

	// A last block that claims a successor.
	EXPECT_EQ(read_edited(2, [](auto b) { prm::set<next>(b, 1); }), E_PROTO) << "chain too long";

	// Asking for more than the chain holds never reads past it.
	chain.format(msg.data(), len, 9, true);
	std::vector<uint8_t> big(len + 512);
	EXPECT_EQ(chain.read(big.data(), len + 512, true), E_PROTO);
}

TEST_F(MailboxTest, AllocationFailureIsReported)
{
	uh.fail_alloc_after(0);
	EXPECT_EQ(chain.reserve(uh.host(), 2), -12);
	uh.fail_alloc_after(-1);
	EXPECT_EQ(chain.reserve(uh.host(), 2), OK);
	EXPECT_EQ(chain.capacity(), 2u);
	EXPECT_EQ(chain.reserve(uh.host(), 1), OK); // kept
	EXPECT_EQ(uh.dma_live(), 1u);
}

// The signatures' XOR (eight bytes at a time) is the byte-wise XOR for
// every length and alignment.
TEST(Signature, XorMatchesByteWise)
{
	auto buf = pattern(700);
	for (uint32_t start = 0; start < 9; start++)
		for (uint32_t n = 0; n <= 600; n += (n < 80 ? 1 : 37)) {
			uint8_t want = 0;
			for (uint32_t i = 0; i < n; i++)
				want ^= buf[start + i];
			EXPECT_EQ(xor8(buf.data() + start, n), want) << start << "+" << n;
		}
}
