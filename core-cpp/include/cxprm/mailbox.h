/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Mailbox chains: the part of a command message beyond the 16 inline bytes
 * travels in 512-byte data blocks (prm::cmd_if_box), chained by
 * next_pointer, numbered by block_number, stamped with the command token
 * and signed (ctrl_signature, signature).
 *
 * A chain lives in one DMA buffer, one block per 1 KiB (next_pointer_31_10
 * makes block addresses 1 KiB aligned).  Each queue slot owns one input and
 * one output chain that grow on demand and are reused.
 *
 * read() trusts nothing in a block the device wrote: the next pointer must
 * still be the block we chained there, block numbers and tokens must match,
 * signatures must check.  A violation is an error code; it never reads or
 * writes outside the caller's buffer or the chain.
 */
#pragma once

#include "host.h"
#include "types.h"
#include "prm/transport.h"

namespace cxprm {

/*
 * An input message in two parts: bytes [0, head_len) from 'head', bytes
 * [head_len, len) written by 'fill' straight into the mailbox blocks.  A
 * command with a long array (MANAGE_PAGES' pas) then writes each entry
 * once, into the DMA blocks, instead of into a flat message that is then
 * copied (Documentation/performance.rst).  A flat message is head_len ==
 * len and no fill.
 */
struct MsgSource {
	const u8 *head = nullptr;
	u32 head_len = 0;
	u32 len = 0;
	/* Writes message bytes [off, off + n) to dst; off >= head_len. */
	void (*fill)(const void *ctx, u32 off, u8 *dst, u32 n) = nullptr;
	const void *ctx = nullptr;

	static MsgSource flat(const u8 *msg, u32 len) { return {msg, len, len, nullptr, nullptr}; }
	/*
	 * The fill of a tail already in the mailbox blocks: writes nothing.
	 * A command whose slot was reserved and its blocks written before it
	 * runs (Cmdq::reserve, cmdq_page_slot.cpp); no other may pass it.
	 */
	static void in_place(const void *ctx, u32 off, u8 *dst, u32 n);
	/* head_len covers the inline part, and fill the rest. */
	bool valid() const
	{
		return head && head_len <= len && (head_len == len || fill) &&
		       (head_len >= prm::INLINE_BYTES || head_len == len);
	}
	/* Bytes [off, off + n) to dst, from the head and/or fill. */
	void copy(u32 off, u8 *dst, u32 n) const;
};

class MailboxChain {
public:
	static constexpr u32 STRIDE = 1024;

	/* Makes room for n blocks (keeps the buffer when it is big enough). */
	int reserve(const cxprm_host *host, u32 n);
	void release(const cxprm_host *host);

	/*
	 * Lays out n blocks for a message of len bytes: data from msg[16..]
	 * (msg may be null for an output chain: data zeroed), next pointers,
	 * block numbers, token; signs the blocks when 'sign' is set.
	 */
	void format(const u8 *msg, u32 len, u8 token, bool sign)
	{
		/* No msg (an output chain): a source without a head, data zeroed. */
		format(MsgSource::flat(msg, len), token, sign);
	}
	/* The same for a message given as a MsgSource (src.len bytes). */
	void format(const MsgSource &src, u8 token, bool sign);

	/*
	 * Copies the message bytes beyond the inline 16 into msg[16..len),
	 * after checking every block's next pointer and block number (which
	 * firmware preserves) and, with verify_sig, its signatures.  Returns
	 * OK, E_PROTO (chain tampered with) or E_BADMSG (signature); on an
	 * error the bytes of msg[16..len) it did not copy are zeroed.
	 */
	int read(u8 *msg, u32 len, bool verify_sig) const;
	/* The same into tail = the message's bytes [16, len) (null if len <= 16). */
	int read_tail(u8 *tail, u32 len, bool verify_sig) const;

	u64 first_bus() const { return nblocks_ ? buf_.bus : 0; }
	u32 blocks() const { return nblocks_; }
	u32 capacity() const { return cap_; }
	u8 *block(u32 i) const { return (u8 *)buf_.cpu + (usize)i * STRIDE; }
	u64 block_bus(u32 i) const { return buf_.bus + (u64)i * STRIDE; }

private:
	cxprm_dma_buf buf_{};
	u32 cap_ = 0;
	u32 nblocks_ = 0;
};

/*
 * Block i of a chain for the message src (its data src[16 + 512 i ..], or
 * zeros when src has no head), chained to 'next' (0 for the last block),
 * block number i, token; signed when 'sign' is set.  MailboxChain::format
 * and cmd_wire_layout (wire.h) lay out every block with it.
 */
void mailbox_format_block(u8 *blk, const MsgSource &src, u32 i, u64 next, u8 token, bool sign);

/* Signature helpers shared with whoever plays the device. */
void mailbox_sign(u8 *block);
bool mailbox_sig_ok(const u8 *block);

} // namespace cxprm
