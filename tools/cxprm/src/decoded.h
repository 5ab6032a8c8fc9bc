// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The core's offline decoders (commands/decode.h) as the tool shows them:
// decode_output()/decode_input() fill key/value text; here they become
// "key: value" lines or JSON.  JSON: a value that is a decimal number
// becomes a number, anything else ("0x1f", names, strings) a string; keys
// the decoder repeats (pas, host_sf_enable, event_bitmask, or any other
// that occurs twice) become arrays.
#pragma once

#include <cstdint>
#include <string>

#include "json.h"
#include "table.h"

namespace cxprm::tool {

struct Decoded {
	int err = 0;          // the core's Err: OK, E_NOTSUP, E_INVAL, E_PROTO
	KvList kv;
	uint32_t dropped = 0; // entries that did not fit (should not happen)

	bool supported() const;
	// "OK", "no decoder for this opcode", "message shorter than its layout", ...
	std::string result_text() const;
};

Decoded decode_out(uint16_t opcode, uint16_t op_mod, const uint8_t *out, uint32_t outlen);
Decoded decode_in(const uint8_t *in, uint32_t inlen);
Json decoded_json(const Decoded &d);

} // namespace cxprm::tool
