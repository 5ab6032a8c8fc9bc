// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The backend NVMe controller the NVMF offload forwards to (an "SSD"),
// as the emulator models it: what it is (NvmeSsdProfile, part of
// NvmfProfile), where one of its I/O queue pairs is (NvmeQueueInfo,
// Emulator::nvme_queue()) and what it has done (NvmeSsdStats).  The model
// itself is tools/emulator/src/nvme_ssd_model.cpp; prm-notes-nvmf.rst "NVMF
// backend" says what it rests on.
#pragma once

#include <cstdint>

namespace cxprm::emu {

struct NvmeSsdProfile {
	// Where its BAR0 sits on the bus.  The adapter reaches it peer to
	// peer; nothing else does, so it only needs to be clear of RAM: the
	// q35 and arm64 virt guests and the test arena have nothing there.
	uint64_t bar_bus = 0xf000000000ull;
	uint8_t dstrd = 0;          // CAP.DSTRD: doorbells 4 << dstrd bytes apart
	uint16_t io_queues = 4;     // I/O queue pairs 1..n, set up by "its driver"
	uint16_t queue_depth = 64;  // entries of each SQ and CQ
	uint32_t namespaces = 1;    // nsid 1..n
	uint64_t ns_blocks = 1ull << 21; // blocks of each namespace
	uint8_t lba_shift = 9;      // 512-byte blocks
};

// One I/O queue pair of the SSD: what its NVMe driver would hand the
// offload (the vendor's nvme_peer_get_resource): queue addresses in its
// controller memory buffer, the SQ tail doorbell (the CQ head's follows
// at 4 << db_stride), entries per queue.
struct NvmeQueueInfo {
	uint64_t sq_bus = 0, cq_bus = 0, sqt_db_bus = 0;
	uint8_t db_stride = 0;
	uint16_t depth = 0;
};

// What the SSD saw and did, all queues together.
struct NvmeSsdStats {
	uint64_t sq_doorbells = 0, cq_doorbells = 0, bad_doorbells = 0;
	uint64_t commands = 0, reads = 0, writes = 0, flushes = 0, errors = 0;
	uint64_t blocks_read = 0, blocks_written = 0;
};

} // namespace cxprm::emu
