// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The command transport: fetch a rung entry by DMA, check it like firmware
// (descriptor type, signatures, lengths, pointer alignment, reserved bits,
// the input and output mailbox chains: block numbers, tokens), assemble the
// input message, hand it to the device model, scatter the output message
// into the inline bytes and the output chain, sign them when checksums are
// on (CUR cmdif_checksum, or Profile::sign_outputs_always) and hand the
// entry back (status/ownership byte last, after a release fence).
//
// Nothing the driver wrote is trusted: every length is bounded by the
// profile's max_msg_bytes, a chain is walked for exactly the blocks the
// declared length needs, and a chain that ends early, loops or points at
// memory the Platform refuses is a delivery error, never a wild access.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "cxprm/prm/transport.h"
#include "cxprm_emu/emulator.h"
#include "fault_plan.h"

namespace cxprm::emu {

// Runs one command: in[0..inlen) -> out[0..outlen) (out zeroed).  A
// nonzero return is a delivery status to report instead of the output
// (Emulator::set_answer_hook).
// Runs one delivered command; returns a forced delivery status or 0.  A
// borrowed callable (the caller's lambda outlives the call), so that
// serving a command allocates nothing.
class ExecFn {
public:
	template <class F> ExecFn(const F &f) // NOLINT: implicit, as std::function
		: obj_(&f), call_([](const void *o, const uint8_t *in, uint32_t inlen, uint8_t *out, uint32_t outlen) {
			  return (uint8_t)(*static_cast<const F *>(o))(in, inlen, out, outlen);
		  })
	{
	}
	uint8_t operator()(const uint8_t *in, uint32_t inlen, uint8_t *out, uint32_t outlen) const
	{
		return call_(obj_, in, inlen, out, outlen);
	}

private:
	const void *obj_;
	uint8_t (*call_)(const void *, const uint8_t *, uint32_t, uint8_t *, uint32_t);
};

struct SlotResult {
	enum Kind : uint8_t {
		IGNORED,     // slot out of range or not owned by hardware: untouched
		UNREACHABLE, // the entry itself cannot be read: cannot be answered
		COMPLETED,   // entry handed back (delivery status in 'delivery')
		SWALLOWED,   // consumed, never handed back (Faults::never_complete)
	} kind = IGNORED;
	uint8_t delivery = 0;
	uint16_t opcode = 0, op_mod = 0; // from the inline input (even when not executed)
	uint32_t inlen = 0, outlen = 0;  // the entry's input_length / output_length
	bool executed = false;
};

class CmdTransport {
public:
	CmdTransport(Platform &platform, const Profile &profile) : p_(platform), prof_(profile) {}

	// Processes slot 'slot' of the queue at 'qbase'.  checksums: the CUR
	// cmdif_checksum is on (input block signatures are checked, outputs
	// signed).
	SlotResult process(uint64_t qbase, unsigned slot, bool checksums, Faults &faults, const ExecFn &exec);

	// One mailbox block as read from the host, and where it was.
	struct Block {
		uint64_t addr = 0;
		std::array<uint8_t, prm::MAILBOX_SIZE> raw{};
	};

private:
	Platform &p_;
	const Profile &prof_;
	// Scratch of process(), kept from command to command (process() runs
	// on the emulator's thread only, under its lock): no heap work per
	// command once a message of that size has been seen.
	std::vector<uint8_t> in_, out_;
	std::vector<Block> iblocks_, oblocks_;
	void trim_scratch();
};

// Signature helpers (exposed for the tests).
bool entry_signature_ok(const uint8_t *entry64);
void sign_entry(uint8_t *entry64);
bool block_signatures_ok(const uint8_t *block576);
void sign_block(uint8_t *block576);

} // namespace cxprm::emu
