// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// KUnit suite cxprm_core_mailbox: mailbox chains in kernel memory (the
// loopback host's DMA arena): the signature helpers against an
// independent XOR, chain layout at the block boundaries, every way a
// device could tamper with a chain, allocation failure.
#include "kt.h"
#include "loopback.h"

#include "cxprm/errors.h"
#include "cxprm/mailbox.h"
#include "cxprm/prm/transport.h"

using namespace cxprm;
using namespace cxprm::kt;
using prm::cmd_if_box;

namespace {
constexpr u32 MAXLEN = 16 + 9 * 512;

struct MbEnv : Placement {
	Loopback lb;
	MailboxChain chain;
	u8 msg[MAXLEN + 512];
	u8 back[MAXLEN + 512];
};

MbEnv *setup(kunit *t)
{
	MbEnv *m = make<MbEnv>(t);

	if (m)
		m->lb.init(t);
	KT_EXPECT(t, m != nullptr);
	return m;
}

void teardown(kunit *t, MbEnv *m)
{
	m->chain.release(m->lb.host());
	KT_EXPECT_EQ(t, m->lb.dma_live(), 0);
	m->lb.fini();
}
} // namespace

void cxprm_kt_mailbox_signature_helpers(kunit *t)
{
	u8 b[576];

	pattern(b, sizeof(b), 1);
	mailbox_sign(b);
	/* ctrl_signature covers 0x200..0x23e, signature the whole block. */
	KT_EXPECT_EQ(t, xor_bytes(b + 0x200, 0x3f), 0xff);
	KT_EXPECT_EQ(t, xor_bytes(b, 576), 0xff);
	KT_EXPECT(t, mailbox_sig_ok(b));
	b[5] ^= 0x10; /* data: only the block signature sees it */
	KT_EXPECT(t, !mailbox_sig_ok(b));
	b[5] ^= 0x10;
	b[0x238] ^= 1; /* control part: both signatures */
	KT_EXPECT(t, !mailbox_sig_ok(b));
	b[0x238] ^= 1;
	KT_EXPECT(t, mailbox_sig_ok(b));
	KT_EXPECT_EQ(t, xor8(b, 576), xor_bytes(b, 576));
}

void cxprm_kt_mailbox_boundaries_round_trip(kunit *t)
{
	static const u32 lens[] = {16, 17, 528, 529, 1040, 1041, 4112, MAXLEN};
	MbEnv *m = setup(t);

	if (!m)
		return;
	for (u32 len : lens) {
		u32 n = prm::mailbox_blocks(len);
		pattern(m->msg, len, len);
		if (!KT_EXPECT_EQ(t, m->chain.reserve(m->lb.host(), n), OK))
			break;
		m->chain.format(m->msg, len, 0x5a, true);
		KT_EXPECT_EQ(t, m->chain.blocks(), n);
		for (u32 i = 0; i < n; i++) {
			prm::CRef<cmd_if_box> b(m->chain.block(i));
			KT_EXPECT_EQ(t, prm::get<cmd_if_box::block_number>(b), i);
			KT_EXPECT_EQ(t, prm::get<cmd_if_box::token>(b), 0x5a);
			KT_EXPECT_EQ(t, xor_bytes(m->chain.block(i), 576), 0xff);
			KT_EXPECT_EQ(t, m->chain.block_bus(i) % 1024, 0);
			u64 next = prm::get<cmd_if_box::next_pointer_63_32>(b) << 32 |
				   prm::get<cmd_if_box::next_pointer_31_10>(b) << 10;
			KT_EXPECT_EQ(t, next, i + 1 < n ? m->chain.block_bus(i + 1) : 0);
		}
		/* Bus addresses above 4 GiB: the high half is carried. */
		if (n)
			KT_EXPECT_EQ(t, m->chain.first_bus() >> 32, Loopback::BUS_BASE >> 32);
		for (u32 i = 0; i < len; i++)
			m->back[i] = 0;
		KT_EXPECT_EQ(t, m->chain.read(m->back, len, true), OK);
		u32 bad = 0;
		for (u32 i = 16; i < len; i++)
			bad += m->back[i] != m->msg[i];
		KT_EXPECT_EQ(t, bad, 0);
	}
	teardown(t, m);
}

void cxprm_kt_mailbox_tampering_detected(kunit *t)
{
	const u32 len = 16 + 3 * 512;
	MbEnv *m = setup(t);

	if (!m)
		return;
	pattern(m->msg, len, 9);
	if (!KT_EXPECT_EQ(t, m->chain.reserve(m->lb.host(), 3), OK)) {
		teardown(t, m);
		return;
	}
	MailboxChain &c = m->chain;

	c.format(m->msg, len, 9, true);
	KT_EXPECT_EQ(t, c.read(m->back, len, true), OK); /* another token: not checked (A12) */

	c.format(m->msg, len, 9, true);
	c.block(1)[100] ^= 1;
	KT_EXPECT_EQ(t, c.read(m->back, len, true), E_BADMSG); /* data signature */
	KT_EXPECT_EQ(t, c.read(m->back, len, false), OK);      /* signatures off */

	c.format(m->msg, len, 9, true);
	prm::Ref<cmd_if_box> b1(c.block(1));
	prm::set<cmd_if_box::block_number>(b1, 7);
	mailbox_sign(c.block(1));
	KT_EXPECT_EQ(t, c.read(m->back, len, true), E_PROTO); /* block number */

	/* A next pointer to memory we never chained (still 1 KiB aligned). */
	c.format(m->msg, len, 9, true);
	prm::Ref<cmd_if_box> b0(c.block(0));
	prm::set<cmd_if_box::next_pointer_31_10>(b0, prm::get<cmd_if_box::next_pointer_31_10>(b0) + 8);
	mailbox_sign(c.block(0));
	KT_EXPECT_EQ(t, c.read(m->back, len, true), E_PROTO);

	/* A last block that claims a successor. */
	c.format(m->msg, len, 9, true);
	prm::Ref<cmd_if_box> b2(c.block(2));
	prm::set<cmd_if_box::next_pointer_31_10>(b2, 1);
	mailbox_sign(c.block(2));
	KT_EXPECT_EQ(t, c.read(m->back, len, true), E_PROTO);

	/* Asking for more than the chain holds never reads past it. */
	c.format(m->msg, len, 9, true);
	KT_EXPECT_EQ(t, c.read(m->back, len + 512, true), E_PROTO);

	/* Unsigned format: only a reader that skips signatures accepts it. */
	c.format(m->msg, len, 9, false);
	KT_EXPECT_EQ(t, c.read(m->back, len, false), OK);
	teardown(t, m);
}

void cxprm_kt_mailbox_allocation_failure(kunit *t)
{
	MbEnv *m = setup(t);

	if (!m)
		return;
	m->lb.fail_dma_after = 0;
	KT_EXPECT_EQ(t, m->chain.reserve(m->lb.host(), 2), E_NOMEM);
	KT_EXPECT_EQ(t, m->chain.capacity(), 0);
	KT_EXPECT_EQ(t, m->lb.dma_live(), 0);
	KT_EXPECT_EQ(t, m->chain.reserve(m->lb.host(), 2), OK);
	KT_EXPECT_EQ(t, m->chain.capacity(), 2);
	KT_EXPECT_EQ(t, m->chain.reserve(m->lb.host(), 1), OK); /* kept */
	KT_EXPECT_EQ(t, m->lb.dma_live(), 1);
	KT_EXPECT_EQ(t, m->chain.reserve(m->lb.host(), 4), OK); /* grown: one buffer */
	KT_EXPECT_EQ(t, m->lb.dma_live(), 1);
	KT_EXPECT_EQ(t, m->lb.dma_allocs(), 2);
	teardown(t, m);
}
