// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm-bench-floor: the protocol floor of one command, the driver's side
// of the transport and nothing else, for instruction counts under
// `valgrind --tool=callgrind` (tools/bench/bench.sh counts each F_*
// function inclusively and prints it next to the driver's instructions for
// the same command; Documentation/performance.rst, "Commands").
//
// Per command, what any driver must do (Linux mlx5 cmd.c does each of it):
//   - the 16-byte input header (opcode, op_mod) in the entry's inline part;
//   - each output block's control words (next pointer, block number,
//     token); its data is the device's to write;
//   - the 64-byte entry (type, lengths, mailbox pointers, token, owner);
//   - the doorbell: one 32-bit store after a write barrier;
//   - the owner byte read back (once: the device here has already
//     answered) and the status and token checked;
//   - the output copied out: the 16 inline bytes and each block's data;
//   - the command's own status, in the output's header (cmd_out.status):
//     what the caller is told (added 2026-12-06: without it the floor did
//     not say whether the command succeeded, which no driver can skip).
// Not in the floor: signatures (off by default, cmd_checksum), slot and
// token allocation, locks, clocks, statistics, the typed builder and the
// decoder: the driver's count has them, so the ratio says what they cost.
//
// The three commands of the table: QUERY_PAGES (16 B each way, inline),
// QUERY_ISSI (112 B out: one block, 96 data bytes) and QUERY_HCA_CAP
// (4 KiB + 16 out: eight blocks).  Exits non-zero if the copied output is
// not what the "device" left, so the work cannot be optimised away.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cxprm/layout.h"
#include "cxprm/prm/transport.h"

using namespace cxprm;
using prm::cmd_if_box;
using prm::cmd_queue_entry;

#define NOINLINE extern "C" __attribute__((noinline))

namespace {

constexpr u32 STRIDE = 1024, MAX_BLOCKS = 8;

struct Mem {
	alignas(64) u8 entry[cmd_queue_entry::size_bytes];
	alignas(STRIDE) u8 blocks[MAX_BLOCKS][STRIDE];
	alignas(64) u8 out[prm::INLINE_BYTES + MAX_BLOCKS * prm::MAILBOX_DATA];
	volatile u32 doorbell;
	u64 blocks_bus;
};

Mem mem;

} // namespace

// One command of outlen output bytes (input: the 16-byte header alone).
NOINLINE int F_command(Mem *m, u16 opcode, u32 outlen, u8 token)
{
	u32 nblk = prm::mailbox_blocks(outlen);
	for (u32 i = 0; i < nblk; i++) {
		u8 *b = m->blocks[i];
		u64 next = i + 1 < nblk ? m->blocks_bus + (u64)(i + 1) * STRIDE : 0;
		store_be64(b + cmd_if_box::next_pointer_63_32::offset / 8, next);
		store_be32(b + cmd_if_box::block_number::offset / 8, i);
		b[cmd_if_box::token::offset / 8] = token;
	}
	u8 *e = m->entry;
	prm::Ref<cmd_queue_entry> r(e);
	prm::set<cmd_queue_entry::type>(r, prm::CMD_TYPE_PCIE);
	prm::set<cmd_queue_entry::input_length>(r, prm::INLINE_BYTES);
	prm::set<cmd_queue_entry::input_mailbox_pointer_63_32>(r, 0);
	prm::set<cmd_queue_entry::input_mailbox_pointer_31_9>(r, 0);
	u8 *in = prm::bytes<cmd_queue_entry::command_input_inline_data>(r);
	store_be32(in, (u32)opcode << 16);
	store_be32(in + 4, 0);
	store_be64(in + 8, 0);
	u64 out_bus = nblk ? m->blocks_bus : 0;
	prm::set<cmd_queue_entry::output_mailbox_pointer_63_32>(r, out_bus >> 32);
	prm::set<cmd_queue_entry::output_mailbox_pointer_31_9>(r, (u32)out_bus >> 9);
	prm::set<cmd_queue_entry::output_length>(r, outlen);
	prm::set<cmd_queue_entry::token>(r, token);
	/* The owner byte last (status 0, owner 1 = hardware); then the doorbell. */
	__atomic_store_n(e + cmd_queue_entry::ownership::offset / 8, (u8)1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	m->doorbell = __builtin_bswap32(1u);
	/* The "device" answered at once: here it only hands the entry back. */
	e[cmd_queue_entry::ownership::offset / 8] = 0;
	u8 own = __atomic_load_n(e + cmd_queue_entry::ownership::offset / 8, __ATOMIC_ACQUIRE);
	if ((own & 1) || prm::get<cmd_queue_entry::status>(prm::CRef<cmd_queue_entry>(e)) ||
	    prm::get<cmd_queue_entry::token>(prm::CRef<cmd_queue_entry>(e)) != token)
		return -1;
	std::memcpy(m->out, prm::bytes<cmd_queue_entry::command_output_inline_data>(r), prm::INLINE_BYTES);
	for (u32 i = 0, off = prm::INLINE_BYTES; i < nblk; i++, off += prm::MAILBOX_DATA) {
		u32 n = outlen - off < prm::MAILBOX_DATA ? outlen - off : prm::MAILBOX_DATA;
		std::memcpy(m->out + off, m->blocks[i], n);
	}
	return prm::get<prm::cmd_out::status>(prm::CRef<prm::cmd_out>(m->out)) ? -1 : 0;
}

NOINLINE int F_inline(Mem *m, u8 token) { return F_command(m, 0x107 /* QUERY_PAGES */, 16, token); }
NOINLINE int F_one_block(Mem *m, u8 token) { return F_command(m, 0x10a /* QUERY_ISSI */, 112, token); }
NOINLINE int F_eight_blocks(Mem *m, u8 token)
{
	return F_command(m, 0x100 /* QUERY_HCA_CAP */, 16 + 4096, token);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : 1000;
	mem.blocks_bus = 0x10000000;
	for (u32 i = 0; i < MAX_BLOCKS; i++)
		std::memset(mem.blocks[i], (int)(0x11 * (i + 1)), prm::MAILBOX_DATA);
	int bad = 0;
	for (long k = 0; k < n; k++) {
		u8 token = (u8)(k | 1);
		bad |= F_inline(&mem, token) | F_one_block(&mem, token) | F_eight_blocks(&mem, token);
	}
	/* The last QUERY_HCA_CAP's output: each block's fill, in order. */
	for (u32 i = 0; i < MAX_BLOCKS; i++)
		if (mem.out[prm::INLINE_BYTES + i * prm::MAILBOX_DATA] != (u8)(0x11 * (i + 1)))
			bad = 1;
	if (bad)
		std::fprintf(stderr, "cxprm-bench-floor: the output is not what the device left\n");
	return bad;
}
