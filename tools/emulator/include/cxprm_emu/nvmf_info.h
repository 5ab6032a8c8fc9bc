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
	uint16_t nvme_queue_size = 0; // entries of each backend NVMe queue
};

// A backend controller as CREATE_NVMF_BACKEND_CTRL made it
// (Emulator::nvmf_backend()): its NVMe queue pair and doorbells, and the
// firmware's side of that pair (nvmf_backend_io.cpp).
struct NvmfBackendInfo {
	uint64_t cq = 0, sq = 0;           // the address list: CQ at +0, SQ at +64
	uint64_t cqh_db = 0, sqt_db = 0;   // cqh_dbr_addr, sqt_dbr_addr
	uint8_t cq_log_pages = 0, sq_log_pages = 0; // *_log_page_size: log2 of 4 KiB pages
	uint16_t depth = 0;                // entries: the XRQ's nvme_queue_size
	uint16_t sq_tail = 0, cq_head = 0, next_cid = 0;
	bool phase = true;                 // of the next CQE to take
	uint64_t submitted = 0;            // SQEs written and rung
	uint64_t completed = 0;            // CQEs with success for one of ours
	uint64_t failed = 0;               // CQE with an error, or the SQE write failed
	uint64_t timed_out = 0;            // no CQE: log_cmd_timeout_us passed
};

} // namespace cxprm::emu
