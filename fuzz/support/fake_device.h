// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A synchronous fake ConnectX for the fuzz targets: the core's host
// interface (DMA arena with made-up bus addresses above 4 GiB, BAR bytes,
// a fake clock, no threads) with a small firmware behind the command
// doorbell that answers at once, inside the doorbell write.
//
// The firmware walks the rung entry and its mailbox chains as a device
// does, runs a handler (the default plays just enough of a device for
// bring-up, events and teardown: ISSI 0, pages it keeps and returns, a
// UAR, one EQ), writes the output inline and into the output blocks, signs
// blocks and entry and hands the entry back.  Fuzz targets then corrupt
// what was handed back (after_complete), hold a completion back (timeout),
// make the device vanish or its firmware die, and write event entries
// into the EQ the core created.
//
// Everything here is deterministic: the clock moves only when the core
// reads it or sleeps, so every timeout expires in microseconds of real
// time, and a fuzz input always runs the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "cxprm/host.h"

namespace cxprm::fuzz {

class FakeDevice {
public:
	static constexpr uint64_t kBusBase = 0x2'0000'0000ull;
	static constexpr uint32_t kBarBytes = 256u << 10;
	static constexpr uint32_t kUar = 32; // ALLOC_UAR's answer: BAR offset 128 KiB
	static constexpr uint8_t kEqn = 7;   // CREATE_EQ's answer

	// dma_budget: bytes of DMA memory the host hands out before failing.
	explicit FakeDevice(size_t dma_budget = 8u << 20, uint32_t log_cmdq_size = 5,
			    uint32_t log_cmdq_stride = 6);
	~FakeDevice();
	FakeDevice(const FakeDevice &) = delete;
	FakeDevice &operator=(const FakeDevice &) = delete;

	const cxprm_host *host() const { return &host_; }

	// ---- device side ----
	// [bus, bus + len) inside one live DMA allocation, or null.
	uint8_t *dma(uint64_t bus, size_t len);
	uint32_t bar_read(uint32_t off) const;
	void bar_write(uint32_t off, uint32_t v); // as the device (no doorbell)
	// Firmware death as the driver judges it: health buffer rfr + synd.
	void set_fw_dead(bool dead);

	// A command as the firmware saw it, and what it answers.
	struct Command {
		uint32_t slot;
		std::vector<uint8_t> in;  // input message (inline + blocks)
		std::vector<uint8_t> out; // output message, outlen bytes, zeroed
		uint8_t delivery = 0;     // entry status to report (0 = delivered)
	};
	// The firmware's handler (default_handler() unless replaced).
	std::function<void(Command &)> handler;
	void default_handler(Command &c);

	// Called after each completion, before the core looks: the entry and
	// the output blocks as written (a target corrupts them here).
	struct Completed {
		uint32_t slot;
		uint8_t *entry;               // 64 bytes
		std::vector<uint8_t *> blocks; // output blocks, 576 bytes each
	};
	std::function<void(Completed &)> after_complete;
	// Slots rung while this is false stay owned by the device until a
	// later doorbell with it true (a command that times out and completes
	// late).  Dead firmware (set_fw_dead) or fw_rev all ones also stops
	// all answers: dead firmware, a device that is gone.
	bool complete = true;
	// Post a CMD event (completion vector) for each completion when the
	// EQ subscribes CMD.
	bool command_events = true;

	// The EQ the core created (CREATE_EQ), if any.
	bool eq_created() const { return eq_log_size_ != 0; }
	uint32_t eq_entries() const { return eq_created() ? 1u << eq_log_size_ : 0; }
	// Writes the next event entry (owner bit by the producer's pass);
	// false when there is no EQ or it is full.
	bool post_eqe(uint8_t type, uint8_t sub_type, const uint8_t *data28);
	// Overwrites entry idx (mod size) with 64 arbitrary bytes.
	bool write_eqe_raw(uint32_t idx, const uint8_t *bytes64);
	uint32_t eq_consumer() const { return eq_ci_; } // as the doorbell said

	// ---- host bookkeeping ----
	size_t dma_live() const { return dma_.size(); }
	size_t mem_live() const { return mem_.size(); }
	size_t locks_live() const { return locks_; }
	uint64_t now() const { return now_ns_; }
	uint64_t commands() const { return commands_; }
	uint64_t pages_held() const { return pages_.size(); }
	const std::vector<uint8_t> &last_in() const { return last_in_; }

private:
	void doorbell(uint32_t mask);
	void run_slot(uint32_t slot);
	bool gather(uint64_t ptr, uint32_t len, uint8_t token, std::vector<uint8_t> &msg);
	bool scatter(uint64_t ptr, const std::vector<uint8_t> &msg, std::vector<uint8_t *> *blocks);
	uint8_t *entry(uint32_t slot);

	static const cxprm_host_ops ops_;
	cxprm_host host_{};
	std::vector<uint8_t> bar_;
	size_t dma_budget_, dma_used_ = 0;
	uint64_t next_bus_ = kBusBase;
	struct Alloc {
		uint8_t *cpu;
		size_t size;
	};
	std::map<uint64_t, Alloc> dma_; // bus -> allocation
	std::map<void *, size_t> mem_;
	size_t locks_ = 0;
	uint64_t now_ns_ = 1'000'000'000ull;
	uint32_t geometry_; // log_cmdq_size/stride bits of the queue dword
	uint64_t cmdq_bus_ = 0;
	uint32_t pending_ = 0; // rung, not completed yet
	uint64_t commands_ = 0;
	std::vector<uint8_t> last_in_;
	// Lent by MANAGE_PAGES GIVE: (bus address, function id | ec << 16);
	// TAKE returns only the function's own (per-function accounting, A7).
	std::vector<std::pair<uint64_t, uint32_t>> pages_;
	std::vector<uint64_t> eq_pas_;
	uint32_t eq_log_size_ = 0, eq_pi_ = 0, eq_ci_ = 0;
	bool eq_cmd_ = false;

	friend struct FakeOps;
};

} // namespace cxprm::fuzz
