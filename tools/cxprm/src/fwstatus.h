// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Firmware results in words: the delivery status (cmd_queue_entry.status),
// the command status (cmd_out.status) by PRM name with the core's sentence
// (status.h), and the syndrome.  Real firmware syndromes are opaque 32-bit
// numbers; the ones of the cxprm firmware emulator (0xE3AAnnnn, the QEMU
// emulated device) are also named, marked "emulator".
#pragma once

#include <cstdint>
#include <string>

#include "json.h"

struct cxprm_cmd_status;

namespace cxprm::tool {

struct FwResult {
	uint8_t delivery = 0, status = 0; // cmd_queue_entry.status, cmd_out.status
	uint16_t opcode = 0;
	uint32_t syndrome = 0;
	uint64_t latency_ns = 0;

	static FwResult from(const cxprm_cmd_status &st);
	bool ok() const { return delivery == 0 && status == 0; }
};

// "OK", or e.g. "BAD_RES_ERR (0x05): the resource does not exist or is not
// owned by the caller; syndrome 0xe304000b (emulator DCT_UNKNOWN_QUERY:
// QUERY_DCT of a DCT that does not exist)"; a delivery failure says
// "not delivered: SIGNAT_ERR (0x01): ...".
std::string describe(const FwResult &r);

// Emulator syndrome name/text, or null when 'syndrome' is not one.
const char *emulator_syndrome_name(uint32_t syndrome);
const char *emulator_syndrome_text(uint32_t syndrome);

// {"delivery": "OK", "delivery_code": 0, "status": "OK", "status_code": 0,
//  "syndrome": 0[, "syndrome_name": "..."], "message": "..."[, "latency_ns": n]}
Json status_json(const FwResult &r, bool with_latency);

// Throws FwError("<what>: <describe(r)>") unless r.ok().
void check_fw(const FwResult &r, const std::string &what);

} // namespace cxprm::tool
