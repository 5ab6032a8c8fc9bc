// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The per-command faults that apply to one command, decided once when the
// command is fetched (selectors: only_opcode, once).
#pragma once

#include <cstdint>

#include "cxprm_emu/emulator.h"

namespace cxprm::emu {

struct FaultPlan {
	bool never_complete = false;
	uint32_t corrupt_sig = 0;  // Faults::ENTRY/BLOCKS
	uint32_t wrong_token = 0;  // Faults::ENTRY/BLOCKS
	uint8_t delivery = 0;      // forced delivery status, 0 = none
	uint32_t length_lie = 0;
	bool broken_chain = false;
	uint32_t slow_ms = 0;

	bool any() const
	{
		return never_complete || corrupt_sig || wrong_token || delivery || length_lie || broken_chain ||
		       slow_ms;
	}
};

// Reads (and, for counted/once knobs, consumes) the faults for a command
// with this opcode.
FaultPlan plan_faults(Faults &f, uint16_t opcode);

} // namespace cxprm::emu
