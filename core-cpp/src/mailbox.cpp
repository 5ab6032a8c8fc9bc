// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cxprm/mailbox.h"
#include "cxprm/errors.h"
#include "cxprm/prm/transport.h"

namespace cxprm {

using prm::cmd_if_box;

namespace {
/* Byte ranges the two block signatures cover (cmd_if_box). */
constexpr u32 CTRL_START = cmd_if_box::mailbox_data::width / 8; /* 0x200 */
constexpr u32 CTRL_SIG = cmd_if_box::ctrl_signature::offset / 8; /* 0x23e */
constexpr u32 SIG = cmd_if_box::signature::offset / 8;           /* 0x23f */

/*
 * The control part [0x200, 0x240): 48 reserved bytes, then the tail
 * [0x230, 0x240): next pointer (its low 10 bits reserved), block number,
 * reserved, token and the two signatures.  mailbox_format_block composes
 * the part on the stack and stores it once.
 */
constexpr u32 CTRL_BYTES = cmd_if_box::size_bytes - CTRL_START; /* 64 */
constexpr u32 TAIL = cmd_if_box::next_pointer_63_32::offset / 8; /* 0x230 */
static_assert(CTRL_BYTES == 64 && TAIL + 16 == cmd_if_box::size_bytes &&
	      cmd_if_box::next_pointer_31_10::offset / 8 == TAIL + 4 && cmd_if_box::next_pointer_31_10::offset % 32 == 0 && cmd_if_box::next_pointer_31_10::width == 22 &&
	      cmd_if_box::block_number::offset / 8 == TAIL + 8 && cmd_if_box::token::offset / 8 == TAIL + 13 &&
	      CTRL_SIG == TAIL + 14 && SIG == TAIL + 15,
	      "cmd_if_box's tail moved: mailbox_format_block composes it by hand");
} // namespace

/* Each signature byte written once: neither covers itself. */
void mailbox_sign(u8 *b)
{
	u8 ctrl = (u8)~xor8(b + CTRL_START, CTRL_SIG - CTRL_START);
	b[CTRL_SIG] = ctrl;
	b[SIG] = (u8)~(xor8(b, CTRL_SIG) ^ ctrl);
}

bool mailbox_sig_ok(const u8 *b)
{
	return xor8(b + CTRL_START, SIG - CTRL_START) == 0xff &&
	       xor8(b, cmd_if_box::size_bytes) == 0xff;
}

int MailboxChain::reserve(const cxprm_host *host, u32 n)
{
	if (n <= cap_)
		return OK;
	release(host);
	int err = host->ops->dma_alloc(host->ctx, (usize)n * STRIDE, STRIDE, &buf_);
	if (err)
		return err < 0 ? err : E_NOMEM;
	if (buf_.bus % STRIDE) {
		/* The host broke its alignment promise: refuse to chain it. */
		host->ops->dma_free(host->ctx, &buf_);
		buf_ = {};
		return E_NOMEM;
	}
	cap_ = n;
	return OK;
}

void MailboxChain::release(const cxprm_host *host)
{
	if (cap_)
		host->ops->dma_free(host->ctx, &buf_);
	buf_ = {};
	cap_ = 0;
	nblocks_ = 0;
}

void MsgSource::copy(u32 off, u8 *dst, u32 n) const
{
	u32 h = off < head_len ? min_of(n, head_len - off) : 0;
	if (h)
		mem_copy(dst, head + off, h);
	if (n > h)
		fill(ctx, off + h, dst + h, n - h);
}

void MsgSource::in_place(const void *, u32, u8 *, u32) {}

void MailboxChain::format(const MsgSource &src, u8 token, bool sign)
{
	nblocks_ = prm::mailbox_blocks(src.len);
	for (u32 i = 0; i < nblocks_; i++)
		mailbox_format_block(block(i), src, i, i + 1 < nblocks_ ? block_bus(i + 1) : 0, token, sign);
}

void mailbox_format_block(u8 *blk, const MsgSource &src, u32 i, u64 next, u8 token, bool sign)
{
	u32 off = prm::INLINE_BYTES + i * prm::MAILBOX_DATA;
	/*
	 * Each byte of the block stored once (576 B a block: 9.00 B a page
	 * for MANAGE_PAGES, CTest page_mailbox_bytes): the input data copied,
	 * the rest of a last block's data zeroed, then the 64-byte control
	 * part (48 reserved zeros and the tail) composed on the stack and
	 * copied whole.  A constant-size copy, not a memset of the reserved
	 * bytes: an inlined memset of a size it does not know stores its
	 * head and tail words over its middle.
	 */
	u32 n = src.head ? min_of(prm::MAILBOX_DATA, src.len - off) : 0;
	if (n)
		src.copy(off, blk, n);
	if (n < prm::MAILBOX_DATA)
		mem_zero(blk + n, prm::MAILBOX_DATA - n);
	u8 c[CTRL_BYTES] = {};
	u8 *t = c + (TAIL - CTRL_START);
	store_be64(t, next & ~0x3ffull);
	store_be32(t + 8, i);
	store_be32(t + 12, (u32)token << 16);
	if (sign) {
		/* The reserved zeros do not change either xor. */
		u8 ctrl = (u8)~xor8(t, CTRL_SIG - TAIL);
		t[CTRL_SIG - TAIL] = ctrl;
		t[SIG - TAIL] = (u8)~(xor8(blk, n) ^ xor8(t, SIG - TAIL));
	}
	mem_copy(blk + CTRL_START, c, CTRL_BYTES);
}

int MailboxChain::read(u8 *msg, u32 len, bool verify_sig) const
{
	return read_tail(len > prm::INLINE_BYTES ? msg + prm::INLINE_BYTES : msg, len, verify_sig);
}

/* tail[k] is message byte 16 + k. */
int MailboxChain::read_tail(u8 *tail, u32 len, bool verify_sig) const
{
	u32 off = prm::INLINE_BYTES;
	int err = E_PROTO;

	if (prm::mailbox_blocks(len) != nblocks_)
		goto fail;
	for (u32 i = 0; i < nblocks_; i++, off += prm::MAILBOX_DATA) {
		prm::CRef<cmd_if_box> b(block(i));
		u64 next = prm::get<cmd_if_box::next_pointer_63_32>(b) << 32 |
			   prm::get<cmd_if_box::next_pointer_31_10>(b) << 10;
		u64 want = i + 1 < nblocks_ ? block_bus(i + 1) : 0;
		/*
		 * Next pointer and block number are ours and firmware keeps
		 * them (rdma-core writes them once per block and reuses the
		 * chain); the token is not checked: no reference driver reads
		 * it back (Documentation/prm-notes-transport.rst, A12).
		 */
		if (next != want || prm::get<cmd_if_box::block_number>(b) != i)
			goto fail;
		if (verify_sig && !mailbox_sig_ok(b.p)) {
			err = E_BADMSG;
			goto fail;
		}
		mem_copy(tail + (off - prm::INLINE_BYTES), prm::bytes<cmd_if_box::mailbox_data>(b),
			 min_of(prm::MAILBOX_DATA, len - off));
	}
	return OK;
fail:
	/* What was not copied is zeroed: nothing stale is left in msg. */
	if (off < len)
		mem_zero(tail + (off - prm::INLINE_BYTES), len - off);
	return err;
}

} // namespace cxprm
