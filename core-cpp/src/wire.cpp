// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// A command's queue entry and its wire image (wire.h).
#include "cxprm/wire.h"

#include "cxprm/prm/transport.h"

namespace cxprm {

using prm::cmd_queue_entry;

namespace {
constexpr u32 ENTRY_BYTES = cmd_queue_entry::size_bytes; /* 64 */
constexpr u32 OWNER_BYTE = cmd_queue_entry::ownership::offset / 8;
} // namespace

u8 cmd_entry_format(u8 *e, const u8 *in, u32 inlen, u32 outlen, u64 ip, u64 op, u8 token)
{
	prm::Ref<cmd_queue_entry> r(e);
	mem_zero(e, ENTRY_BYTES);
	prm::set<cmd_queue_entry::type>(r, prm::CMD_TYPE_PCIE);
	prm::set<cmd_queue_entry::input_length>(r, inlen);
	prm::set<cmd_queue_entry::output_length>(r, outlen);
	prm::set<cmd_queue_entry::input_mailbox_pointer_63_32>(r, ip >> 32);
	prm::set<cmd_queue_entry::input_mailbox_pointer_31_9>(r, (u32)ip >> 9);
	prm::set<cmd_queue_entry::output_mailbox_pointer_63_32>(r, op >> 32);
	prm::set<cmd_queue_entry::output_mailbox_pointer_31_9>(r, (u32)op >> 9);
	u8 *inl = prm::bytes<cmd_queue_entry::command_input_inline_data>(r);
	if (inlen >= prm::INLINE_BYTES)
		mem_copy(inl, in, prm::INLINE_BYTES); /* constant size: inlined, no call */
	else
		mem_copy(inl, in, inlen);
	prm::set<cmd_queue_entry::token>(r, token);
	/*
	 * The entry signature makes the XOR of all 64 bytes 0xff, the owner
	 * byte's 1 (status 0, ownership 1) included.  The caller stores
	 * status_own last, as one byte: nothing writes the entry after the
	 * device may own it.  (The field setters rewrite the whole dword
	 * 0x3c, owner byte included; a signature set after the owner bit
	 * could hand back an entry the device had already completed, and it
	 * would run twice.)
	 */
	u8 own = (u8)prm::to_dword<cmd_queue_entry::ownership>(1);
	prm::set<cmd_queue_entry::signature>(r, (u8)~(xor8(e, ENTRY_BYTES) ^ own));
	return own;
}

void cmd_wire_layout(const CmdWire &w, const u8 *in, u32 inlen, u32 outlen, u8 token, bool sign)
{
	const u32 nin = prm::mailbox_blocks(inlen), nout = prm::mailbox_blocks(outlen);
	const MsgSource src = MsgSource::flat(in, inlen), none = MsgSource::flat(nullptr, outlen);
	for (u32 i = 0; i < nin; i++)
		mailbox_format_block(w.in_blocks + (usize)i * prm::cmd_if_box::size_bytes, src, i,
				     i + 1 < nin ? w.in_bus + (u64)(i + 1) * MailboxChain::STRIDE : 0, token, sign);
	for (u32 i = 0; i < nout; i++)
		mailbox_format_block(w.out_blocks + (usize)i * prm::cmd_if_box::size_bytes, none, i,
				     i + 1 < nout ? w.out_bus + (u64)(i + 1) * MailboxChain::STRIDE : 0, token, sign);
	w.entry[OWNER_BYTE] = cmd_entry_format(w.entry, in, inlen, outlen, nin ? w.in_bus : 0,
					       nout ? w.out_bus : 0, token);
}

} // namespace cxprm
