// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The firmware latency model (latency.h, emulator_impl.h): a rung command
// is given to the engine that frees first and is served (fetched, run,
// answered) when its service time there ends.  And the emulator thread's
// poll policy: spin after work, sleep when quiet, sleep longer when idle.
#include <algorithm>

#include "emulator_impl.h"

namespace cxprm::emu {

void Emulator::Impl::schedule_slot(unsigned slot, uint64_t now)
{
	using E = prm::cmd_queue_entry;
	if ((pending_mask >> slot) & 1)
		return; // rung again while in service: one answer
	uint8_t head[4] = {};
	uint64_t a = iseg.cmdq_base() + ((uint64_t)slot << prof.log_cmdq_stride) +
		     E::command_input_inline_data::offset / 8;
	// Unreadable: served at once, the transport reports it.
	uint64_t service = p.dma_read(a, head, sizeof(head)) ? prof.latency.service_ns((uint16_t)(head[0] << 8 | head[1]))
							     : 0;
	size_t k = std::max<uint32_t>(1, prof.latency.engines);
	if (engine_free.size() != k)
		engine_free.assign(k, 0);
	auto engine = std::min_element(engine_free.begin(), engine_free.end());
	uint64_t due = std::max(now, *engine) + service;
	*engine = due;
	LatencyCounters &c = dev.counters.latency;
	c.engine_wait_ns += due - service - now;
	if (served_ns[slot]) {
		c.slot_reuses++;
		c.slot_idle_ns += now - served_ns[slot];
	}
	due_ns[slot] = due;
	pending_mask |= 1u << slot;
}

/*
 * Serves every slot whose service has ended, earliest first.  Between two
 * answers it takes the doorbells rung meanwhile (*rung gets their bits):
 * firmware's engines see a doorbell when it is rung, not when the engine
 * that answers others is done (answering a burst of ten commands took
 * the emulator 10 us, and a command rung meanwhile started that late).
 */
bool Emulator::Impl::serve_due(uint64_t now, uint32_t *rung)
{
	bool did = false;
	// At most a queue's worth a call: the step's other work (EQ
	// doorbells, the health counter) is not held off by a steady stream.
	for (unsigned n = 0; pending_mask && n < prm::MAX_CMDQ_ENTRIES; n++) {
		unsigned best = (unsigned)__builtin_ctz(pending_mask);
		for (uint32_t m = pending_mask & (pending_mask - 1); m; m &= m - 1) {
			unsigned s = (unsigned)__builtin_ctz(m);
			if (due_ns[s] < due_ns[best])
				best = s;
		}
		if (due_ns[best] > now) {
			ns_to_due.store(due_ns[best] - now);
			return did;
		}
		pending_mask &= ~(1u << best);
		dev.counters.latency.served++;
		dev.counters.latency.late_ns += now - due_ns[best];
		served_ns[best] = now;
		process_slot(best);
		did = true;
		if (prof.latency.enabled && bells_open()) {
			now = this->now();
			*rung |= take_bells(now);
		}
	}
	ns_to_due.store(pending_mask ? 0 : NONE);
	return did;
}

void Emulator::Impl::drop_pending()
{
	pending_mask = 0;
	engine_free.clear();
	std::fill(std::begin(served_ns), std::end(served_ns), 0);
	ns_to_due.store(NONE);
}

uint64_t PollPolicy::next_sleep_ns(bool did, uint64_t quiet_ns, uint32_t *grow) const
{
	if (did || quiet_ns < (uint64_t)spin_us * 1000) {
		*grow = sleep_us;
		return 0;
	}
	if (quiet_ns < (uint64_t)idle_after_ms * 1000000)
		return (uint64_t)sleep_us * 1000;
	uint32_t cap = std::max(idle_sleep_us, sleep_us);
	if (deep_after_ms && quiet_ns >= (uint64_t)deep_after_ms * 1000000)
		cap = std::max(cap, deep_sleep_us);
	uint64_t ns = (uint64_t)std::min(*grow, cap) * 1000;
	*grow = std::min(std::max(*grow, 1u) * 2, cap);
	return ns;
}

// How long the thread sleeps after a step: PollPolicy's answer, cut short
// by a command in service: the thread wakes SPIN_MARGIN_NS before it is
// due and spins to the moment.
uint64_t Emulator::Impl::thread_sleep_ns(bool did, uint64_t quiet_ns, uint32_t *idle_sleep_us) const
{
	constexpr uint64_t SPIN_MARGIN_NS = 60 * 1000; // a wake-up's usual lateness
	uint64_t ns = prof.poll.next_sleep_ns(did, quiet_ns, idle_sleep_us);
	uint64_t due = ns_to_due.load();
	if (due != NONE)
		ns = std::min(ns, due > SPIN_MARGIN_NS ? due - SPIN_MARGIN_NS : 0);
	return ns;
}

} // namespace cxprm::emu
