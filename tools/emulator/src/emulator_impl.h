// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Emulator::Impl: the pieces the Emulator owns (init segment, transport,
// device model), the lock that serialises them, the polling thread, the
// clock, and the step state.  Split by concern:
//   emulator.cpp          construction, thread, synchronous mode, clock, hooks
//   emulator_step.cpp     one step: faults, health, 'initializing', queue
//                         address, nic_interface, doorbells, timed work
//   emulator_slots.cpp    serving a slot, lost-doorbell rescue
//   emulator_latency.cpp  the firmware latency model, the thread's poll policy
//   emulator_inspect.cpp  the inspection getters
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "cmd_transport.h"
#include "emu_device.h"
#include "init_segment.h"

#include "cxprm/prm/transport.h"
#include "cxprm_emu/emulator.h"

namespace cxprm::emu {

struct Emulator::Impl {
	Impl(Platform &platform, Profile profile)
		: p(platform), prof(std::move(profile)), bar(platform.bar(), platform.bar_size()), iseg(bar, prof),
		  transport(platform, prof), dev(platform, bar, prof)
	{
	}

	Platform &p;
	const Profile prof;
	Bar bar;
	InitSegment iseg;
	CmdTransport transport;
	Device dev;
	Faults faults;

	mutable std::mutex mu;
	std::thread thread;
	std::mutex thread_mu;
	std::condition_variable thread_cv;
	bool stop_req = false;
	bool wake_req = false; // Emulator::wake(): look at once
	bool running = false;

	// The clock (ns, monotonic): steady_clock unless set_clock() gave one.
	std::function<uint64_t()> clock_fn;
	bool t0_set = false;
	uint64_t t0 = 0;
	// FW_PRE_INIT: 'initializing' set until init_until (ns on the clock):
	// Profile::init_delay_ms from the start, fw_reset_ms or the caller's
	// init_ms after a firmware restart.
	bool initializing = true;
	uint64_t init_until = 0;
	// FW_INIT: raised again by a new command-queue address (Profile::
	// cmdq_init_delay_ms), cleared at cmdq_init_until.
	bool cmdq_initializing = false;
	uint64_t cmdq_init_from = 0, cmdq_init_until = 0;
	uint32_t deferred_bell = 0; // rung within early_grace_ms: served after

	uint64_t last_cmdq_addr = 0;
	// Lost-doorbell rescue: when each slot was first seen owned without a
	// doorbell (0 = not), and per slot an entry (0x100 | token) never to
	// serve again while it stays owned (swallowed, or rung too early).
	uint64_t owned_since[prm::MAX_CMDQ_ENTRIES] = {};
	uint32_t candidates = 0; // a superset of the slots with owned_since set
	uint16_t skip_token[prm::MAX_CMDQ_ENTRIES] = {};
	// When each slot's doorbell was taken (the trace's seen_ns).
	uint64_t bell_seen[prm::MAX_CMDQ_ENTRIES] = {};
	// Scan only a queue known to be reachable: a command completed through
	// it since the address was written, and no scan read failed since.
	bool queue_reachable = false;
	bool crashed = false;
	bool gone = false;
	bool nic_disabled = false; // fast teardown done, queue not programmed again
	std::function<void(const TraceRecord &)> trace_fn;
	AnswerHook answer_hook;
	bool hook_replaces_model = false;
	uint64_t trace_seq = 0;
	bool sw_reset = false;     // nic_interface SW_RESET: nothing is answered
	bool ticked = false;
	uint64_t last_tick_ns = 0; // health counter
	// Answers nothing (crashed without crash_answers_int_err, or resetting).
	bool mute() const { return (crashed && !faults.crash_answers_int_err.load()) || sw_reset; }
	uint8_t last_delivery = 0;
	// Firmware latency model (latency.h; emulator_latency.cpp): rung slots
	// in service until due_ns, when each firmware engine is free again,
	// and nanoseconds from the last step to the first due (NONE: none).
	static constexpr uint64_t NONE = ~0ull;
	uint32_t pending_mask = 0;
	uint64_t due_ns[prm::MAX_CMDQ_ENTRIES] = {};
	uint64_t served_ns[prm::MAX_CMDQ_ENTRIES] = {}; // 0: not served since reset
	std::vector<uint64_t> engine_free;
	std::atomic<uint64_t> ns_to_due{NONE};

	// --- emulator.cpp ---
	uint64_t clock_now() const;
	void start_clock();
	uint64_t now(); // since the clock started (starts it)
	void thread_main();

	// --- emulator_step.cpp ---
	bool step(bool tick_health);
	void raise(const std::vector<uint32_t> &irqs);
	void take_fatal();
	bool step_locked(bool tick_health);
	bool check_nic_interface();
	// A crashed firmware the driver asked to reset (nic_interface
	// SW_RESET with Profile::fw_reset_supported): restarts.
	bool check_fw_reset_request();
	// Emulator::function_reset's drops, with the lock held.
	void reset_locked();
	// Emulator::firmware_restart with the lock held.
	void restart_locked(uint32_t init_ms);
	// A doorbell within Profile::early_grace_ms of noticing a new queue
	// address is kept and served once 'initializing' clears
	// (emulator_step.cpp).
	bool cmdq_address_step(uint64_t now);

	// --- emulator_latency.cpp ---
	void schedule_slot(unsigned slot, uint64_t now);
	uint32_t take_bells(uint64_t now);
	bool bells_open() const;
	bool serve_due(uint64_t now, uint32_t *rung);
	void drop_pending();
	uint64_t thread_sleep_ns(bool did, uint64_t quiet_ns, uint32_t *idle_sleep_us) const;

	// --- emulator_slots.cpp ---
	unsigned queue_entries() const { return 1u << prof.log_cmdq_size; }
	bool entry_tail(unsigned slot, uint8_t tail[4]);
	void skip_entry(unsigned slot);
	void note_unrung_owned(uint32_t bell, uint64_t now);
	bool rescue_lost_doorbells(uint64_t now);
	void process_slot(unsigned slot);
};

} // namespace cxprm::emu
