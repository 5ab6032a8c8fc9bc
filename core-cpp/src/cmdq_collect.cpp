// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The command engine's completion side (cmdq.h): the completed entry
// checked, the output copied out, the capture, the statistics record
// that frees the slot, and the statistics' readers.
#include "cxprm/cmdq.h"

namespace cxprm {

using prm::cmd_queue_entry;

namespace {
constexpr u32 ENTRY_BYTES = cmd_queue_entry::size_bytes; /* 64 */

/*
 * The first 16 bytes of a message of len >= 8 bytes, zero-padded.  The
 * usual len >= 16 is a constant-size copy, which the compiler inlines.
 */
void head_bytes(u8 (&dst)[16], const u8 *msg, u32 len)
{
	if (len >= sizeof(dst)) {
		mem_copy(dst, msg, sizeof(dst));
		return;
	}
	mem_copy(dst, msg, len);
	mem_zero(dst + len, sizeof(dst) - len);
}
} // namespace

void Cmdq::OutBuf::zero() const
{
	mem_zero(head, min_of(len, prm::INLINE_BYTES));
	if (len > prm::INLINE_BYTES)
		mem_zero(tail, len - prm::INLINE_BYTES);
}

/*
 * Every byte of the output is written: what the device answered, or zeros
 * where nothing trustworthy was read (MailboxChain::read zeroes what it did
 * not copy).  No zeroing pass before the command, then.
 */
int Cmdq::collect(u32 slot, const OutBuf &out, CmdResult *res)
{
	int err = check_entry(slot, res);
	if (err) {
		out.zero();
		return err;
	}
	const u8 *inl = prm::bytes<cmd_queue_entry::command_output_inline_data>(prm::CRef<cmd_queue_entry>(entry(slot)));
	if (out.len >= prm::INLINE_BYTES)
		mem_copy(out.head, inl, prm::INLINE_BYTES); /* constant size: inlined */
	else
		mem_copy(out.head, inl, out.len);
	err = slots_[slot].out.read_tail(out.tail, out.len, cfg_.verify_signatures);
	if (err)
		return err;
	prm::CRef<prm::cmd_out> hdr(out.head);
	res->st.status = (u8)prm::get<prm::cmd_out::status>(hdr);
	res->st.syndrome = (u32)prm::get<prm::cmd_out::syndrome>(hdr);
	return res->st.status ? E_REMOTEIO : OK;
}

/* The completed entry's delivery status, signature and mailbox pointers. */
int Cmdq::check_entry(u32 slot, CmdResult *res) const
{
	const u8 *e = entry(slot);
	prm::CRef<cmd_queue_entry> r(e);
	const Slot &s = slots_[slot];

	res->st.delivery = (u8)prm::get<cmd_queue_entry::status>(r);
	if (cfg_.verify_signatures && xor8(e, ENTRY_BYTES) != 0xff)
		return E_BADMSG;
	/*
	 * The mailbox pointers are ours and firmware keeps them (rdma-core
	 * writes them once per slot and reuses the entry).  Token and lengths
	 * are not checked: Linux and rdma-core never read them back, so
	 * nothing shows what firmware leaves there (prm-notes-transport.rst, A12); the
	 * output is read for the length we asked, never for one firmware
	 * wrote.
	 */
	u64 ip = prm::get<cmd_queue_entry::input_mailbox_pointer_63_32>(r) << 32 |
		 prm::get<cmd_queue_entry::input_mailbox_pointer_31_9>(r) << 9;
	u64 op = prm::get<cmd_queue_entry::output_mailbox_pointer_63_32>(r) << 32 |
		 prm::get<cmd_queue_entry::output_mailbox_pointer_31_9>(r) << 9;
	if (ip != s.in.first_bus() || op != s.out.first_bus())
		return E_PROTO;
	return res->st.delivery ? E_IO : OK;
}

void Cmdq::capture_blocks(const MailboxChain &c, CmdCapture *cap, u32 *count)
{
	for (u32 i = 0; i < c.blocks(); i++) {
		u32 used = cap->hdr.in_blocks + cap->hdr.out_blocks;
		if (used >= cap->blocks_cap || !cap->blocks) {
			cap->hdr.truncated = 1;
			return;
		}
		mem_copy(cap->blocks + (usize)used * prm::MAILBOX_SIZE, c.block(i), prm::MAILBOX_SIZE);
		(*count)++;
	}
}

/*
 * The statistics record, written in place into the ring (no record built
 * and then copied), under the one lock that also frees the slot, or
 * quarantines it: after a timeout the device may still write to it.
 * 'now' is the completion's clock read (the latency's end).
 */
void Cmdq::finish(u32 slot, const u8 *in, u32 inlen, const OutBuf &out, int err, const CmdResult &res,
		  u64 now)
{
	host_->ops->lock(host_->ctx, lock_);
	CmdRecord &rec = stats_.claim();
	rec.time_ns = now;
	rec.opcode = res.st.opcode;
	rec.op_mod = res.op_mod;
	rec.slot = (u8)slot;
	rec.token = res.token;
	rec.delivery = res.st.delivery;
	rec.status = res.st.status;
	rec.syndrome = res.st.syndrome;
	rec.err = err;
	rec.inlen = inlen;
	rec.outlen = out.len;
	rec.latency_ns = res.st.latency_ns;
	head_bytes(rec.in, in, inlen);
	head_bytes(rec.out, out.head, out.len); /* the head holds the first 16 bytes */
	stats_.count(rec);
	if (err == E_TIMEDOUT || err == E_NODEV || err == E_HOSTDOWN) {
		slots_[slot].stuck = true; /* the device may still write to it */
		stuck_mask_ |= 1u << slot;
	} else {
		busy_mask_ &= ~(1u << slot);
	}
	bool wake = slot_waiters_ && !(stuck_mask_ & (1u << slot));
	slot_wakes_ += wake;
	host_->ops->unlock(host_->ctx, lock_);
	if (wake)
		host_->ops->waiter_signal(host_->ctx, slot_freed_);
}

/* Snapshots of the statistics the records above feed. */
u32 Cmdq::stats_opcodes(OpcodeStats *out, u32 max) const
{
	reader_lock();
	u32 n = stats_.opcodes(out, max);
	reader_unlock();
	return n;
}

u32 Cmdq::stats_last(CmdRecord *out, u32 max) const
{
	reader_lock();
	u32 n = stats_.last(out, max);
	reader_unlock();
	return n;
}

u64 Cmdq::stats_total() const
{
	reader_lock();
	u64 n = stats_.total();
	reader_unlock();
	return n;
}

} // namespace cxprm
