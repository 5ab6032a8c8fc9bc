// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Filling a TraceRecord from a command's input and output messages.
#pragma once

#include <cstdint>

#include "cxprm_emu/emulator.h"

namespace cxprm::emu {

// Function id/ec (HCA and page commands), GIVE's page count.
void trace_fill_input(TraceRecord &t, const uint8_t *in, uint32_t inlen);
// Status, syndrome, TAKE's pages returned, QUERY_PAGES' num_pages.
void trace_fill_output(TraceRecord &t, const uint8_t *out, uint32_t outlen);

} // namespace cxprm::emu
