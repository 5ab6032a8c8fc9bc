// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the emulator keeps of NVMF objects, as its inspection calls
// (Emulator::xrq_info(), nvmf_backend()) report it.
#pragma once

#include <cstdint>

namespace cxprm::emu {

// An NVMF XRQ as CREATE_XRQ made it (Emulator::xrq_info()): stride in
// log2 bytes, pages of its queue and of its staging buffer (first pas).
struct XrqInfo {
	uint8_t log_stride = 0, wq_type = 0, offload_type = 0;
	uint32_t queue_pages = 0, staging_pages = 0;
	uint64_t staging_pa = 0;
};

// A backend controller's CQ and SQ addresses (Emulator::nvmf_backend()).
struct NvmfBackendInfo {
	uint64_t cq = 0, sq = 0;
};

} // namespace cxprm::emu
