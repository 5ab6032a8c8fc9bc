// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cmd_transport.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "cxprm/prm/transport.h"
#include "cxprm/status.h"
#include "layout_check.h"

namespace cxprm::emu {

using prm::cmd_if_box;
using prm::cmd_queue_entry;
using prm::CRef;
using prm::Ref;
namespace ds = cxprm::delivery_status;

namespace {

constexpr uint32_t ENTRY = cmd_queue_entry::size_bytes;        // 64
constexpr uint32_t BLOCK = cmd_if_box::size_bytes;             // 576
constexpr uint32_t DATA = cmd_if_box::mailbox_data::width / 8; // 512
constexpr uint32_t CTRL_SIG = cmd_if_box::ctrl_signature::offset / 8;
constexpr uint32_t SIG = cmd_if_box::signature::offset / 8;
constexpr uint32_t STATUS_BYTE = cmd_queue_entry::status::offset / 8;
static_assert(DATA == prm::MAILBOX_DATA && BLOCK == prm::MAILBOX_SIZE);
static_assert(CTRL_SIG + 1 == SIG && SIG + 1 == BLOCK);
static_assert(STATUS_BYTE == ENTRY - 1, "status/ownership must be the last entry byte");

using Block = CmdTransport::Block;

uint64_t entry_in_ptr(CRef<cmd_queue_entry> e)
{
	return (uint64_t)prm::get<cmd_queue_entry::input_mailbox_pointer_63_32>(e) << 32 |
	       prm::get<cmd_queue_entry::input_mailbox_pointer_31_9>(e) << 9;
}

uint64_t entry_out_ptr(CRef<cmd_queue_entry> e)
{
	return (uint64_t)prm::get<cmd_queue_entry::output_mailbox_pointer_63_32>(e) << 32 |
	       prm::get<cmd_queue_entry::output_mailbox_pointer_31_9>(e) << 9;
}

// Walks a chain of n blocks starting at 'first'.  Returns a delivery status.
uint8_t walk_chain(Platform &p, uint64_t first, uint32_t n, uint8_t token, bool input, bool checksums,
		   std::vector<Block> &blocks)
{
	const uint8_t len_err = input ? ds::IN_LENGTH_ERR : ds::OUT_LENGTH_ERR;
	const uint8_t align_err = input ? ds::IN_PTR_ALIGN_ERR : ds::OUT_PTR_ALIGN_ERR;

	// Every block used is read whole below: no zeroing (a reused vector
	// keeps its size, so this allocates and zeroes only when it grows).
	blocks.resize(n);
	uint64_t ptr = first;
	for (uint32_t i = 0; i < n; i++) {
		if (i > 0) {
			CRef<cmd_if_box> prev(blocks[i - 1].raw.data());
			if (bits_below<cmd_if_box::next_pointer_31_10>(prev.p))
				return align_err;
			ptr = (uint64_t)prm::get<cmd_if_box::next_pointer_63_32>(prev) << 32 |
			      prm::get<cmd_if_box::next_pointer_31_10>(prev) << 10;
		}
		if (ptr == 0)
			return len_err; // the chain ends before the declared length
		Block &b = blocks[i];
		b.addr = ptr;
		if (!p.dma_read(ptr, b.raw.data(), BLOCK))
			return ds::FW_ERR;
		CRef<cmd_if_box> box(b.raw.data());
		if (prm::get<cmd_if_box::block_number>(box) != i)
			return ds::BAD_BLK_NUM_ERR;
		if (prm::get<cmd_if_box::token>(box) != token)
			return ds::TOK_ERR;
		if (input && checksums && !block_signatures_ok(b.raw.data()))
			return ds::SIGNAT_ERR;
	}
	return ds::OK;
}

} // namespace

bool entry_signature_ok(const uint8_t *e) { return xor8(e, ENTRY) == 0xff; }

void sign_entry(uint8_t *e)
{
	Ref<cmd_queue_entry> ent(e);
	prm::set<cmd_queue_entry::signature>(ent, 0);
	prm::set<cmd_queue_entry::signature>(ent, (uint8_t)~xor8(e, ENTRY));
}

bool block_signatures_ok(const uint8_t *b)
{
	return xor8(b + DATA, SIG - DATA) == 0xff && xor8(b, BLOCK) == 0xff;
}

void sign_block(uint8_t *b)
{
	Ref<cmd_if_box> box(b);
	prm::set<cmd_if_box::ctrl_signature>(box, 0);
	prm::set<cmd_if_box::signature>(box, 0);
	prm::set<cmd_if_box::ctrl_signature>(box, (uint8_t)~xor8(b + DATA, CTRL_SIG - DATA));
	prm::set<cmd_if_box::signature>(box, (uint8_t)~xor8(b, SIG));
}

// A message far above the usual (a MANAGE_PAGES of 2^18 pages is 2 MiB)
// does not keep its scratch.
void CmdTransport::trim_scratch()
{
	constexpr size_t KEEP_BYTES = 64 * 1024;
	if (in_.capacity() > KEEP_BYTES)
		std::vector<uint8_t>().swap(in_);
	if (out_.capacity() > KEEP_BYTES)
		std::vector<uint8_t>().swap(out_);
	if (iblocks_.capacity() * sizeof(Block) > KEEP_BYTES)
		std::vector<Block>().swap(iblocks_);
	if (oblocks_.capacity() * sizeof(Block) > KEEP_BYTES)
		std::vector<Block>().swap(oblocks_);
}

SlotResult CmdTransport::process(uint64_t qbase, unsigned slot, bool checksums, Faults &faults, const ExecFn &exec)
{
	SlotResult r;
	if (slot >= (1u << prof_.log_cmdq_size))
		return r;

	const uint64_t addr = qbase + ((uint64_t)slot << prof_.log_cmdq_stride);
	uint8_t e[ENTRY];
	if (!p_.dma_read(addr, e, ENTRY)) {
		r.kind = SlotResult::UNREACHABLE;
		return r;
	}
	Ref<cmd_queue_entry> ent(e);
	if (!prm::get<cmd_queue_entry::ownership>(ent))
		return r; // not handed to hardware: ignore the doorbell bit

	const uint8_t token = (uint8_t)prm::get<cmd_queue_entry::token>(ent);
	const uint32_t inlen = (uint32_t)prm::get<cmd_queue_entry::input_length>(ent);
	const uint32_t outlen = (uint32_t)prm::get<cmd_queue_entry::output_length>(ent);
	CRef<prm::cmd_in> inl(prm::bytes<cmd_queue_entry::command_input_inline_data>(ent));
	r.opcode = (uint16_t)prm::get<prm::cmd_in::opcode>(inl);
	r.op_mod = (uint16_t)prm::get<prm::cmd_in::op_mod>(inl);
	r.inlen = inlen;
	r.outlen = outlen;

	const FaultPlan plan = plan_faults(faults, r.opcode);
	std::vector<uint8_t> &in = in_, &out = out_;
	std::vector<Block> &iblocks = iblocks_, &oblocks = oblocks_; // sized by walk_chain

	// --- delivery checks, in firmware's order of discovery ---
	uint8_t st = plan.delivery;
	if (!st && prm::get<cmd_queue_entry::type>(ent) != prm::CMD_TYPE_PCIE)
		st = ds::CMD_DESCR_ERR;
	if (!st && (checksums || prof_.always_check_entry_signature) && !entry_signature_ok(e))
		st = ds::SIGNAT_ERR;
	if (!st && (inlen < prm::cmd_in::size_bytes || inlen > prof_.max_msg_bytes))
		st = ds::IN_LENGTH_ERR;
	// Never below the status + syndrome words, whatever the profile says.
	const uint32_t min_out = prof_.min_out_bytes > prm::cmd_out::syndrome::offset / 8 + 4
					 ? prof_.min_out_bytes
					 : prm::cmd_out::syndrome::offset / 8 + 4;
	if (!st && (outlen < min_out || outlen > prof_.max_msg_bytes))
		st = ds::OUT_LENGTH_ERR;
	if (!st && inlen > prm::INLINE_BYTES && bits_below<cmd_queue_entry::input_mailbox_pointer_31_9>(e))
		st = ds::IN_PTR_ALIGN_ERR;
	if (!st && outlen > prm::INLINE_BYTES && bits_below<cmd_queue_entry::output_mailbox_pointer_31_9>(e))
		st = ds::OUT_PTR_ALIGN_ERR;
	if (!st && prof_.check_entry_reserved) {
		// Pointer low bits were judged above (or the pointer is unused).
		uint8_t c[ENTRY];
		std::memcpy(c, e, ENTRY);
		using in_ptr = cmd_queue_entry::input_mailbox_pointer_31_9;
		using out_ptr = cmd_queue_entry::output_mailbox_pointer_31_9;
		constexpr uint32_t ip = prm::dword_byte_offset<in_ptr>();
		constexpr uint32_t op = prm::dword_byte_offset<out_ptr>();
		store_be32(c + ip, load_be32(c + ip) & ~low_bits_mask<in_ptr>());
		store_be32(c + op, load_be32(c + op) & ~low_bits_mask<out_ptr>());
		if (!reserved_clear<cmd_queue_entry>(c))
			st = ds::RES_FLD_NOT_CLR_ERR;
	}
	if (!st)
		st = walk_chain(p_, entry_in_ptr(ent), prm::mailbox_blocks(inlen), token, true, checksums, iblocks);
	if (!st)
		st = walk_chain(p_, entry_out_ptr(ent), prm::mailbox_blocks(outlen), token, false, checksums,
				oblocks);

	// --- run it ---
	if (!st) {
		in.assign(inlen, 0);
		std::memcpy(in.data(), prm::bytes<cmd_queue_entry::command_input_inline_data>(ent),
			    inlen < prm::INLINE_BYTES ? inlen : prm::INLINE_BYTES);
		for (uint32_t i = 0; i < iblocks.size(); i++) {
			uint32_t off = prm::INLINE_BYTES + i * DATA;
			uint32_t n = inlen - off < DATA ? inlen - off : DATA;
			std::memcpy(in.data() + off, iblocks[i].raw.data(), n);
		}
		out.assign(outlen, 0);
		st = exec(in.data(), inlen, out.data(), outlen);
		r.executed = true;
	}

	if (plan.never_complete) {
		r.kind = SlotResult::SWALLOWED;
		trim_scratch();
		return r;
	}
	if (plan.slow_ms) {
		std::this_thread::sleep_for(std::chrono::milliseconds(plan.slow_ms));
		// Firmware that died while the command ran never answers it (the
		// crash fault took effect meanwhile; the next step raises the
		// health error).
		if (faults.crash.load()) {
			r.kind = SlotResult::SWALLOWED;
			trim_scratch();
			return r;
		}
	}

	// --- scatter the output ---
	// Signed only with checksums on (Linux and rdma-core never verify
	// with them off); otherwise the signature bytes keep what the driver
	// wrote, as firmware that does not sign leaves them.
	const bool sign = checksums || prof_.sign_outputs_always;
	if (!st) {
		std::memcpy(prm::bytes<cmd_queue_entry::command_output_inline_data>(ent), out.data(),
			    outlen < prm::INLINE_BYTES ? outlen : prm::INLINE_BYTES);
		for (uint32_t i = 0; i < oblocks.size() && !st; i++) {
			uint8_t *b = oblocks[i].raw.data();
			Ref<cmd_if_box> box(b);
			uint32_t off = prm::INLINE_BYTES + i * DATA;
			uint32_t n = outlen - off < DATA ? outlen - off : DATA;
			std::memset(b, 0, DATA);
			std::memcpy(b, out.data() + off, n);
			uint8_t btok = (plan.wrong_token & Faults::BLOCKS) ? (uint8_t)~token : token;
			prm::set<cmd_if_box::token>(box, btok);
			if (plan.broken_chain && i == 0) {
				prm::set<cmd_if_box::block_number>(box, prm::get<cmd_if_box::block_number>(box) ^ 0x5a5a);
				prm::set<cmd_if_box::next_pointer_63_32>(
					box, prm::get<cmd_if_box::next_pointer_63_32>(box) ^ 0xdead0000u);
			}
			if (sign)
				sign_block(b);
			if ((plan.corrupt_sig & Faults::BLOCKS) && i == 0)
				prm::set<cmd_if_box::signature>(box, prm::get<cmd_if_box::signature>(box) ^ 0x5a);
			if (!p_.dma_write(oblocks[i].addr, b, BLOCK))
				st = ds::FW_ERR;
		}
	}

	trim_scratch();

	// --- hand the entry back ---
	if (plan.length_lie)
		prm::set<cmd_queue_entry::output_length>(ent, (uint64_t)outlen + plan.length_lie);
	if (plan.wrong_token & Faults::ENTRY)
		prm::set<cmd_queue_entry::token>(ent, (uint8_t)~token);
	prm::set<cmd_queue_entry::status>(ent, st);
	prm::set<cmd_queue_entry::ownership>(ent, 0);
	if (sign)
		sign_entry(e);
	if (plan.corrupt_sig & Faults::ENTRY)
		prm::set<cmd_queue_entry::signature>(ent, prm::get<cmd_queue_entry::signature>(ent) ^ 0x5a);

	// Everything but the status/ownership byte, then that byte last.
	bool ok = p_.dma_write(addr, e, STATUS_BYTE);
	std::atomic_thread_fence(std::memory_order_release);
	ok = p_.dma_write(addr + STATUS_BYTE, e + STATUS_BYTE, 1) && ok;
	if (!ok) {
		r.kind = SlotResult::UNREACHABLE;
		return r;
	}
	r.kind = SlotResult::COMPLETED;
	r.delivery = st;
	return r;
}

} // namespace cxprm::emu
