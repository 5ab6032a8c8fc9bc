// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Firmware timing in the emulator's Profile (profile.h):
//
//  - LatencyModel: a command takes a service time (per opcode) on one of K
//    parallel firmware engines.  A rung command is assigned at the doorbell
//    to the engine that frees first; it runs and its answer is written
//    when its service ends (start = max(doorbell seen, engine free)).  Off
//    by default (the tests must not slow down); `make bench` and
//    `cxprm-emud --fw-latency` turn it on.  The defaults are assumptions
//    (Documentation/prm-notes.rst, "Firmware latency model").
//  - PollPolicy: how the emulator's own thread looks for doorbells: it
//    spins (yielding) for spin_us after the last activity, then sleeps
//    sleep_us between looks, growing to idle_sleep_us once idle_after_ms
//    passed without work, and to deep_sleep_us after deep_after_ms
//    (Documentation/performance-emulator.rst, "Emulator").
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace cxprm::emu {

struct LatencyModel {
	bool enabled = false;
	uint32_t engines = 4;       // K: commands firmware runs at once (assumption)
	uint32_t default_us = 50;   // service time of an opcode not in per_opcode_us
	std::map<uint16_t, uint32_t> per_opcode_us;

	// ConnectX-7-like per-opcode values (assumptions, see prm-notes.rst).
	static LatencyModel connectx7();
	uint64_t service_ns(uint16_t opcode) const
	{
		auto it = per_opcode_us.find(opcode);
		return (uint64_t)(it == per_opcode_us.end() ? default_us : it->second) * 1000u;
	}
	// "US" (the default) or "OPCODE=US" (opcode: a number, 0x.. allowed, or
	// a PRM name such as QUERY_PAGES); false if malformed.
	bool set_from_text(const std::string &spec);
};

// Where a modelled command's time went (Counters::latency), summed over
// the commands the model served: engine_wait (doorbell seen -> an engine
// free), late (service end -> the emulator thread answered: the emulator's
// own lateness, not firmware's), slot_idle (answer written -> the next
// doorbell for that slot seen: the driver's turnaround plus the emulator's
// doorbell polling).
struct LatencyCounters {
	uint64_t served = 0, slot_reuses = 0;
	uint64_t engine_wait_ns = 0, late_ns = 0, slot_idle_ns = 0;
};

struct PollPolicy {
	uint32_t spin_us = 200;       // spin this long after the last work (0: never spin)
	uint32_t sleep_us = 50;       // then sleep this long between looks
	uint32_t idle_after_ms = 10;  // no work for this long: idle
	uint32_t idle_sleep_us = 1000; // idle: the sleep doubles up to this
	// No work for deep_after_ms (0: never): the sleep doubles on up to
	// deep_sleep_us.  The first doorbell after a quiet second waits up to
	// that long; a queue address write is covered by the A2/B2 grace.
	uint32_t deep_after_ms = 1000;
	uint32_t deep_sleep_us = 20000;

	// The sleep after a look (0: look again at once, yielding): did = the
	// look found work, quiet_ns = time since the last work, *grow = the
	// growing idle sleep (start it at sleep_us; updated).
	uint64_t next_sleep_ns(bool did, uint64_t quiet_ns, uint32_t *grow) const;
};

} // namespace cxprm::emu
