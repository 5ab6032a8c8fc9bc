// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What a command puts on the wire, as text and JSON: the queue entry and
// the mailbox blocks.  Used for the driver's dump of a command that ran
// (raw --dump) and for a command laid out here by the core's own encoder
// without any device (raw --dry-run; any subcommand that builds an input
// message can show it the same way with print_dry_run).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hex.h"
#include "json.h"

namespace cxprm::tool {

struct Ctx;

// A command laid out by the core (cmd_wire_layout, the encoder Cmdq::post
// and MailboxChain::format use) in memory, with made-up bus addresses: the
// input chain at DRY_IN_BUS, the output chain at DRY_OUT_BUS, block i at
// +i * 1024 (the engine's spacing); token DRY_TOKEN (the first one a
// driver hands out).  'sign' signs the blocks as the driver does with
// cmd_checksum=1; the entry is always signed.
inline constexpr uint64_t DRY_IN_BUS = 0x10000000, DRY_OUT_BUS = 0x20000000;
inline constexpr uint8_t DRY_TOKEN = 0x01;
struct WireImage {
	Bytes entry; // 64 bytes, as posted (owner byte set)
	std::vector<Bytes> in_blocks, out_blocks; // 576 bytes each
	bool sign = false;
};
WireImage wire_encode(const Bytes &in, uint32_t outlen, bool sign);

// The pieces, shared with the driver's dump (raw_exec.cpp).
Json entry_json(const uint8_t *entry);	// {"fields": {cmd_queue_entry}, "hex"}
Json block_json(const Bytes &block);	// {"control": {cmd_if_box}, "data": [hex]}
void entry_lines(std::vector<std::string> &out, const std::string &title, const uint8_t *entry);
void block_lines(std::vector<std::string> &out, const char *dir, size_t i, const Bytes &block);
// Both chains: "input_mailboxes" and "output_mailboxes" set on j; the lines
// "input block N: ..." then "output block N: ...".
void mailboxes_json(Json &j, const std::vector<Bytes> &in, const std::vector<Bytes> &out);
void mailboxes_lines(std::vector<std::string> &lines, const std::vector<Bytes> &in, const std::vector<Bytes> &out);

// {"token", "input_chain", "output_chain", "addresses", "mailbox_signatures",
//  "in_blocks", "out_blocks", "entry": {...}, "input_mailboxes": [...], "output_mailboxes": [...]}
Json wire_json(const WireImage &w);
std::vector<std::string> wire_lines(const WireImage &w);

// The dry run of one input message: the command (opcode, op_mod, lengths),
// the input, and its wire image, as text or (json) one JSON object
// {"dry_run": true, "opcode", "opcode_name", "op_mod", "inlen", "outlen",
// "input": [hex], "wire": wire_json}.  Opens nothing.
void print_dry_run(Ctx &ctx, bool json, const Bytes &in, uint32_t outlen, bool sign);

} // namespace cxprm::tool
