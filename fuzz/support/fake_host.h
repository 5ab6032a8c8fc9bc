// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The fuzz targets' fake host: a deterministic host (the core's host
// interface: DMA memory with made-up bus addresses above 4 GiB and a
// budget, BAR bytes, a clock that moves only when the core reads it or
// sleeps, single-thread locks that catch a deadlock) in front of the
// firmware emulator in its synchronous mode, which answers inside the
// doorbell write on the same clock (emu::Emulator::register_written).
//
// On top, a fault-injection layer: a target replaces or rewrites answers
// (handler, which sees the emulator's answer), corrupts what was handed
// back (after_complete), holds completions back (complete = false: a
// timeout, completed at a later doorbell), makes the device vanish or its
// firmware die, suppresses CMD events, and writes event entries into the
// EQ the core created, well-formed or arbitrary bytes.
//
// Everything here is deterministic: no threads, every timeout expires in
// microseconds of real time, and a fuzz input always runs the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "cxprm/host.h"

namespace cxprm::emu {
class Emulator;
class Platform;
} // namespace cxprm::emu

namespace cxprm::fuzz {

class FakeHost {
public:
	static constexpr uint64_t kBusBase = 0x2'0000'0000ull;
	static constexpr uint32_t kBarBytes = 256u << 10;

	// dma_budget: bytes of DMA memory the host hands out before failing.
	// A queue geometry firmware must not report (log_cmdq_stride < 6 or
	// size + stride > 12) is published as is, for the core to refuse.
	explicit FakeHost(size_t dma_budget = 8u << 20, uint32_t log_cmdq_size = 5,
			    uint32_t log_cmdq_stride = 6);
	~FakeHost();
	FakeHost(const FakeHost &) = delete;
	FakeHost &operator=(const FakeHost &) = delete;

	const cxprm_host *host() const { return &host_; }

	// ---- device side ----
	// [bus, bus + len) inside one live DMA allocation, or null.
	uint8_t *dma(uint64_t bus, size_t len);
	uint32_t bar_read(uint32_t off) const;
	void bar_write(uint32_t off, uint32_t v); // as the device (no doorbell)
	// Firmware death as the driver judges it: health buffer rfr + synd.
	void set_fw_dead(bool dead);
	// The device is gone (fw_rev reads all ones), or back.
	void set_gone(bool gone);

	// A command as the emulator answered it.
	struct Command {
		uint32_t slot;
		std::vector<uint8_t> in;  // input message (inline + blocks)
		std::vector<uint8_t> out; // the emulator's output, outlen bytes
		uint8_t delivery = 0;     // entry status to report (0 = delivered)
	};
	// Sees every answer and may rewrite it (none: the emulator's stands).
	std::function<void(Command &)> handler;
	// false: the emulator's device model does not run, handler alone
	// answers (c.out zeroed) and the device's state stays as it is.
	bool model = true;
	// A handler: every command succeeds with an all-zero output.
	static void answer_ok_zeroed(Command &c);

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
	// late).  Dead firmware (set_fw_dead) or a device that is gone
	// (set_gone) also answers nothing.
	bool complete = true;
	// Completions post CMD events to an EQ that subscribed them.
	bool command_events = true;

	// The EQ the core created (CREATE_EQ), if any.
	bool eq_created() const;
	// Posts an event entry to the EQs subscribed to its type (the
	// emulator's producer); false when none took it (none, or full).
	bool post_eqe(uint8_t type, uint8_t sub_type, const uint8_t *data28);
	// Overwrites entry idx (mod size) of the core's EQ with 64 arbitrary bytes.
	bool write_eqe_raw(uint32_t idx, const uint8_t *bytes64);

	// ---- host bookkeeping ----
	size_t dma_live() const { return dma_.size(); }
	size_t mem_live() const { return mem_.size(); }
	size_t locks_live() const { return locks_; }
	uint64_t now() const { return now_ns_; }
	uint64_t commands() const { return commands_; }
	const std::vector<uint8_t> &last_in() const { return last_in_; }

private:
	void doorbell(uint32_t mask);
	void completed(uint32_t mask);
	void set_hook();
	uint8_t answer(unsigned slot, const uint8_t *in, uint32_t inlen, uint8_t *out, uint32_t outlen);
	bool answering() const;

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
	uint32_t fw_rev_ = 0; // while gone
	uint64_t commands_ = 0;
	std::vector<uint8_t> last_in_;
	// The core's EQ ring as CREATE_EQ gave it (write_eqe_raw).
	std::vector<uint64_t> eq_pas_;
	uint32_t eq_log_size_ = 0, eq_page_shift_ = 12;

	bool hook_model_ = true; // 'model' as the emulator was last told
	std::unique_ptr<emu::Platform> plat_;
	std::unique_ptr<emu::Emulator> emu_;

	friend struct HostOps;
	friend class HostPlatform;
};

} // namespace cxprm::fuzz
