/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a command puts on the wire: the 64-byte queue entry and the mailbox
 * blocks, laid out by the functions the command engine posts with
 * (Cmdq::post, MailboxChain::format), so that a tool can show a command
 * byte for byte without a device (cxprm raw --dry-run).
 */
#pragma once

#include "mailbox.h"
#include "types.h"

namespace cxprm {

/*
 * Writes the whole queue entry of a command at e (64 bytes): type PCIe,
 * lengths, the first 16 input bytes inline, the mailbox pointers (0 where
 * a direction needs no block), the token and the signature, which makes
 * the XOR of the 64 bytes 0xff once the owner byte is stored.  The
 * status_own byte is left 0; the return value is that byte (ownership 1,
 * status 0), for the poster to store last.
 */
u8 cmd_entry_format(u8 *e, const u8 *in, u32 inlen, u32 outlen, u64 in_bus, u64 out_bus, u8 token);

/*
 * A command's wire image in caller memory, addresses made up: the entry as
 * posted (owner byte stored), the input then output blocks, each
 * cmd_if_box::size_bytes long, block i of a chain at bus address
 * base + i * MailboxChain::STRIDE (the engine's spacing).
 */
struct CmdWire {
	u8 *entry;      /* 64 bytes */
	u8 *in_blocks;  /* prm::mailbox_blocks(inlen) blocks */
	u8 *out_blocks; /* prm::mailbox_blocks(outlen) blocks */
	u64 in_bus;     /* the input chain's first block (1 KiB aligned) */
	u64 out_bus;    /* the output chain's */
};
void cmd_wire_layout(const CmdWire &w, const u8 *in, u32 inlen, u32 outlen, u8 token, bool sign);

} // namespace cxprm
