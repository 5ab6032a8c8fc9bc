// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A command's slot reserved before its input is known (cmdq.h, Reserved):
// the caller writes the message's tail into the slot's input mailbox
// blocks itself, and exec_reserved() posts it with what is left of each
// block.  MANAGE_PAGES GIVE on the page slot is the user: each page's
// address is stored as the page is mapped, as mlx5_core's give_pages()
// (pagealloc.c) builds its `in` while it allocates the pages, outside
// mlx5_cmd_do(), which then copies it into the blocks.  cxprm copies
// nothing: the addresses are in the blocks already.
#include "cxprm/cmdq.h"

namespace cxprm {

int Cmdq::reserve(u32 inlen, u32 flags, Reserved *r)
{
	if (!r || r->q_)
		return E_INVAL;
	if (!page_.cpu)
		return E_SHUTDOWN;
	if (int f = failed())
		return f;
	/* A tail to write (else exec() is the way), and no more than exec() takes. */
	if (inlen <= prm::INLINE_BYTES || inlen > cfg_.max_msg_bytes)
		return E_INVAL;
	u32 slot;
	u8 token;
	int err = alloc_slot(flags | SLOT_RESERVE, &slot, &token);
	if (err)
		return err;
	/* The chain is the slot's, and the slot ours: grown outside the lock. */
	err = slots_[slot].in.reserve(host_, prm::mailbox_blocks(inlen));
	if (err) {
		unreserve(slot);
		return err;
	}
	r->q_ = this;
	r->slot_ = slot;
	r->token_ = token;
	r->len_ = inlen;
	return OK;
}

u8 *Cmdq::Reserved::data(u32 off) const
{
	u32 t = off - prm::INLINE_BYTES;
	return q_->slots_[slot_].in.block(t / prm::MAILBOX_DATA) + t % prm::MAILBOX_DATA;
}

void Cmdq::Reserved::release()
{
	if (!q_)
		return;
	Cmdq *q = q_;
	q_ = nullptr;
	q->unreserve(slot_);
}

/*
 * The slot back unused.  A caller waiting for one is signalled while the
 * reservation still counts, so fini() (which waits for reserved_) cannot
 * have destroyed slot_freed_ under the signal.
 */
void Cmdq::unreserve(u32 slot)
{
	host_->ops->lock(host_->ctx, lock_);
	busy_mask_ &= ~(1u << slot);
	bool wake = slot_waiters_ != 0;
	slot_wakes_ += wake;
	host_->ops->unlock(host_->ctx, lock_);
	if (wake)
		host_->ops->waiter_signal(host_->ctx, slot_freed_);
	host_->ops->lock(host_->ctx, lock_);
	reserved_--;
	host_->ops->unlock(host_->ctx, lock_);
}

/*
 * submit()'s slot for a reserved command: from here it is a command in
 * flight as any other (fini() waits for it as for them), unless the queue
 * is shutting down: then it is never posted, and the caller's release()
 * gives the slot back.
 */
int Cmdq::take_reserved(Reserved *r, u32 *slot, u8 *token)
{
	host_->ops->lock(host_->ctx, lock_);
	bool down = shutting_down_;
	if (!down) {
		reserved_--;
		r->q_ = nullptr;
	}
	host_->ops->unlock(host_->ctx, lock_);
	if (down)
		return E_SHUTDOWN;
	*slot = r->slot_;
	*token = r->token_;
	return OK;
}

/*
 * Posts what the holder wrote: the entry, and of each block only the
 * bytes past the tail's end, next pointer, block number, token and
 * signatures (MailboxChain::format of a MsgSource::in_place tail).  Refused
 * before posting (failed device, shut down, bad lengths): the slot goes
 * back, the output is zeroed.
 */
int Cmdq::exec_reserved(Reserved *r, const u8 *head, void *out, u32 outlen, CmdResult *res)
{
	const OutBuf o = OutBuf::flat(out, outlen);
	if (!r || r->q_ != this)
		return refused(o.head && (outlen <= prm::INLINE_BYTES || o.tail), o, E_INVAL);
	MsgSource msg = MsgSource::flat(head, prm::INLINE_BYTES);
	msg.len = r->len_;
	msg.fill = MsgSource::in_place; /* the tail is in the blocks: format writes the rest */
	int err = run(msg, o, res, 0, nullptr, r);
	r->release(); /* still held only when refused before its slot was taken */
	return err;
}

} // namespace cxprm
