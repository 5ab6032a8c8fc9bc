// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// One raw firmware command through CXPRM_IOC_RAW (the driver builds the
// queue entry and mailboxes), its output decoded, and the optional wire
// dump (struct cxprm_raw_dump + mailbox blocks).  Shared by 'raw' and 'probe'.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <uapi/linux/cxprm.h>

#include "cli_device.h"
#include "fwstatus.h"
#include "hex.h"
#include "json.h"
#include "table.h"

namespace cxprm::tool {

struct RawRun {
	Bytes in, out;
	FwResult fw;
	int err = 0;       // the ioctl's errno (0: out and fw are the command's)
	std::string error; // its message
	bool dumped = false;
	cxprm_raw_dump dump{};
	std::vector<Bytes> in_blocks, out_blocks; // 576 bytes each, as captured

	uint16_t opcode() const;
	uint16_t op_mod() const;
};

// Runs 'in' (a full PRM input, header included) asking outlen bytes back.
// An ioctl error does not throw: it is in err/error, with whatever status
// and dump the driver handed back (the caller decides).
RawRun run_raw(DevFile &f, const Bytes &in, uint32_t outlen, bool dump);

// The output decoded: by the core's decoder when it has one for the opcode
// ("core"), else field by field with the opcode's *_out layout from the
// registry ("layout:<name>"), else nothing ("none").  The capability image
// of a type the core does not decode and a register's data (with the
// input, for its register_id) are decoded with their own layouts after the
// core's keys ("core+layout:<name>").
struct OutDecoding {
	std::string source;
	std::string result; // "OK" or why not
	bool malformed = false; // the bytes are too short or inconsistent for the layout
	KvList kv;
	Json json;
};
OutDecoding decode_any(uint16_t opcode, uint16_t op_mod, const Bytes &out, const Bytes *in = nullptr);

// The wire dump: queue entry as posted and as completed (cmd_queue_entry
// fields), then each mailbox block (cmd_if_box control fields + data).
Json dump_json(const RawRun &r);
std::vector<std::string> dump_lines(const RawRun &r);

// Command input of length >= 16 with opcode/uid/op_mod in the cmd_in header.
Bytes make_input(uint16_t opcode, uint16_t op_mod, uint16_t uid, const Bytes &body, size_t min_len);

} // namespace cxprm::tool
