// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A model of an NVMe controller (NVMe base specification 1.4) reachable
// peer to peer from the adapter, enough for the NVMF offload's backend:
// CAP and VS, the doorbell registers, and a controller memory buffer
// (CMBSZ SQS/CQS) that holds its I/O queue pairs, which its "driver" set
// up before the offload took them.  Read, Write and Flush complete at
// once, with the status a real controller gives for a bad namespace,
// LBA range or opcode; data is not moved.  Not thread-safe (the device
// model runs under the emulator's lock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cxprm_emu/nvme_ssd.h"

namespace cxprm::emu {

class NvmeSsd {
public:
	explicit NvmeSsd(const NvmeSsdProfile &p);

	// Whether [bus, bus + len) lies in its BAR (registers and CMB).
	bool claims(uint64_t bus, size_t len) const;
	// A peer access: false for what the controller does not decode
	// (outside the BAR, a register access not of 4 aligned bytes).
	bool read(uint64_t bus, void *dst, size_t len);
	bool write(uint64_t bus, const void *src, size_t len);

	// Queue pair qid (1..io_queues); false for any other.
	bool queue(uint16_t qid, NvmeQueueInfo *out) const;
	// What its driver does before handing qid to a peer: the pair deleted
	// and created again (heads, tails and phase from the start, memory
	// zeroed).
	bool reset_queue(uint16_t qid);
	const NvmeSsdStats &stats() const { return stats_; }

	// NVMe status codes (generic command status, SCT 0) it answers.
	static constexpr uint16_t SC_SUCCESS = 0x00, SC_INVALID_OPCODE = 0x01, SC_INVALID_FIELD = 0x02,
				  SC_INVALID_NS = 0x0b, SC_LBA_RANGE = 0x80;
	static constexpr uint8_t OP_FLUSH = 0x00, OP_WRITE = 0x01, OP_READ = 0x02;

private:
	struct Queue {
		uint16_t sq_head = 0, sq_tail = 0; // tail: as the doorbell wrote it
		uint16_t cq_tail = 0, cq_head = 0;
		bool phase = true;                 // phase tag of the next CQE
	};
	uint64_t db_bytes() const { return 4ull << p_.dstrd; }
	uint64_t sq_off(uint16_t qid) const;   // CMB offsets of a pair's queues
	uint64_t cq_off(uint16_t qid) const;
	void doorbell(uint64_t reg_off, uint32_t value);
	void run_sq(uint16_t qid);             // consume SQEs while the CQ has room
	uint16_t execute(const uint8_t *sqe);

	NvmeSsdProfile p_;
	uint64_t cmb_off_ = 0, pair_bytes_ = 0, bar_bytes_ = 0;
	std::vector<uint8_t> regs_, cmb_;
	std::vector<Queue> q_; // index qid - 1
	NvmeSsdStats stats_;
};

} // namespace cxprm::emu
