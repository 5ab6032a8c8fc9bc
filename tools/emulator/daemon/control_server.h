// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The daemon side of the test control page (control.h): publishes the
// magic, watches SEQ, runs the command against the Emulator, writes
// STATUS/RESULT and then ACK.
#pragma once

#include <cstdint>

#include "cxprm_emu/emulator.h"
#include "file_platform.h"
#include "log.h"

namespace cxprm::emud {

class ControlServer {
public:
	// page: the control page (CXPRM_EMUD_CTRL_SIZE bytes in the BAR mapping).
	ControlServer(uint8_t *page, emu::Emulator &emu, FilePlatform &plat, Log &log);

	// Writes everything but the magic, then the magic (the page is valid).
	void publish();
	// Clears the magic: the daemon is going away.
	void withdraw();
	// Runs a pending command if SEQ moved; true if it ran one.
	bool poll();
	// The heartbeat moves on by 'ms' (the milliseconds since the last one).
	void heartbeat(uint32_t ms = 1);
	uint64_t answered() const { return answered_; }

	// Reads/writes a little-endian control dword.
	uint32_t rd(uint32_t off) const;
	void wr(uint32_t off, uint32_t v);

private:
	struct Result {
		uint32_t status = 0;
		uint64_t value = 0;
	};
	Result execute(uint32_t cmd, const uint32_t *arg);
	Result fault(const uint32_t *arg);
	Result query(const uint32_t *arg);
	// Field 'field' (CXPRM_EMUD_NVMEQ_FIELDS) of NVMe queue qid, which
	// 'take' hands to the client (nvme_take_queue) first; BAD_ARG for no
	// such queue.
	Result nvme_queue_field(uint32_t qid, bool take, uint32_t field);

	uint8_t *page_;
	emu::Emulator &emu_;
	FilePlatform &plat_;
	Log &log_;
	uint32_t last_seq_ = 0;
	uint32_t heartbeat_ = 0;
	uint64_t answered_ = 0;
};

} // namespace cxprm::emud
