// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Serving a rung slot through the transport, and the lost-doorbell rescue
// (emulator_impl.h).
#include "emulator_impl.h"
#include "trace.h"

namespace cxprm::emu {

// The last 4 bytes of a slot's entry: token, signature, -, status_own.
bool Emulator::Impl::entry_tail(unsigned slot, uint8_t tail[4])
{
	using E = prm::cmd_queue_entry;
	static_assert(E::token::offset / 8 + 4 == E::size_bytes);
	uint64_t a = iseg.cmdq_base() + ((uint64_t)slot << prof.log_cmdq_stride) + E::token::offset / 8;
	return p.dma_read(a, tail, 4);
}

// Remembers the entry in 'slot' (if owned) as one never to serve again.
void Emulator::Impl::skip_entry(unsigned slot)
{
	uint8_t t[4];
	owned_since[slot] = 0;
	if (entry_tail(slot, t) && (t[3] & 1))
		skip_token[slot] = (uint16_t)(0x100 | t[0]);
}

// A doorbell store can only lose another slot's bit by overwriting it:
// a lost doorbell's entry is owned at the moment a doorbell for some
// other slot is taken.  Those entries become candidates (owned_since).
// An entry that turns owned with no doorbell at all is never one: a
// freed queue page that memory reuse fills with an owner bit must not
// run as a command (the driver frees it after turning bus mastering
// off, which the ivshmem device cannot show the emulator).
void Emulator::Impl::note_unrung_owned(uint32_t bell, uint64_t now)
{
	if (!prof.lost_doorbell_us || !iseg.cmdq_base() || !queue_reachable || mute())
		return;
	uint32_t look = 0;
	for (unsigned slot = 0; slot < queue_entries(); slot++)
		if (!((bell | pending_mask) >> slot & 1) && !owned_since[slot])
			look |= 1u << slot;
	if (!look)
		return;
	// The queue is one page (the profile check in emulator.cpp keeps
	// log_cmdq_size + log_cmdq_stride <= 12): one read of it, not one a slot.
	uint8_t q[4096];
	const size_t stride = (size_t)1 << prof.log_cmdq_stride, bytes = queue_entries() * stride;
	if (bytes > sizeof(q) || !p.dma_read(iseg.cmdq_base(), q, bytes)) {
		queue_reachable = false;
		return;
	}
	using E = prm::cmd_queue_entry;
	for (unsigned slot = 0; slot < queue_entries(); slot++) {
		if (!(look >> slot & 1))
			continue;
		const uint8_t *t = q + slot * stride + E::token::offset / 8; // as entry_tail()
		if ((t[3] & 1) && skip_token[slot] != (0x100 | t[0])) {
			owned_since[slot] = now | 1;
			candidates |= 1u << slot;
		}
	}
}

// A candidate still owned by hardware lost_doorbell_us after it was
// noted is served.  Not at once: mlx5 drivers set status_own before
// the signature and the doorbell, so the entry may still be written
// and its own doorbell on the way.
bool Emulator::Impl::rescue_lost_doorbells(uint64_t now)
{
	if (!candidates || !prof.lost_doorbell_us || !iseg.cmdq_base() || !queue_reachable || mute())
		return false;
	bool did = false;
	uint32_t left = 0;
	for (unsigned slot = 0; slot < queue_entries(); slot++) {
		if (!owned_since[slot])
			continue;
		left |= 1u << slot;
		if ((pending_mask >> slot) & 1)
			continue;
		// owned_since is the time noted | 1 (0 = not a candidate).
		uint64_t since = owned_since[slot] & ~1ull;
		if (now < since || now - since < (uint64_t)prof.lost_doorbell_us * 1000ull)
			continue;
		uint8_t t[4];
		if (!entry_tail(slot, t)) {
			queue_reachable = false;
			return did;
		}
		owned_since[slot] = 0;
		left &= ~(1u << slot);
		if (!(t[3] & 1) || skip_token[slot] == (0x100 | t[0]))
			continue;
		dev.counters.lost_doorbells++;
		bell_seen[slot] = now;
		process_slot(slot);
		did = true;
	}
	candidates = left;
	return did;
}

void Emulator::Impl::process_slot(unsigned slot)
{
	if (mute()) {
		// Dead or resetting firmware: the doorbell is swallowed, nothing answers.
		dev.counters.commands_processed++;
		skip_entry(slot);
		return;
	}
	Device::EqSet eligible = crashed ? Device::EqSet{} : dev.cmd_eq_snapshot();
	TraceRecord t;
	const bool tracing = (bool)trace_fn;
	auto exec = [this, &t, tracing, slot](const uint8_t *in, uint32_t inlen, uint8_t *out, uint32_t outlen) {
		if (!hook_replaces_model && crashed)
			dev.execute_crashed(in, inlen, out, outlen);
		else if (!hook_replaces_model)
			dev.execute(in, inlen, out, outlen);
		uint8_t forced = answer_hook ? answer_hook(slot, in, inlen, out, outlen) : 0;
		if (tracing) {
			t.opcode = (uint16_t)prm::get<prm::cmd_in::opcode>(prm::CRef<prm::cmd_in>(in));
			t.op_mod = (uint16_t)prm::get<prm::cmd_in::op_mod>(prm::CRef<prm::cmd_in>(in));
			trace_fill_input(t, in, inlen);
			trace_fill_output(t, out, outlen);
		}
		return forced;
	};
	SlotResult r = transport.process(iseg.cmdq_base(), slot, dev.checksums_enabled(), faults, ExecFn(exec));
	switch (r.kind) {
	case SlotResult::IGNORED:
		dev.counters.ignored_doorbells++;
		break;
	case SlotResult::UNREACHABLE:
		dev.counters.unreachable_entries++;
		break;
	case SlotResult::SWALLOWED:
		dev.counters.commands_processed++;
		skip_entry(slot);
		break;
	case SlotResult::COMPLETED:
		queue_reachable = true;
		dev.counters.commands_processed++;
		last_delivery = r.delivery;
		if (r.delivery)
			dev.counters.delivery_errors++;
		if (!faults.no_cmd_events.load())
			dev.post_cmd_completion(1u << slot, eligible);
		break;
	}
	if (tracing && (r.kind == SlotResult::COMPLETED || r.kind == SlotResult::SWALLOWED)) {
		t.seq = ++trace_seq;
		t.time_ns = now();
		t.seen_ns = bell_seen[slot] ? bell_seen[slot] : t.time_ns;
		t.slot = slot;
		t.opcode = r.opcode;
		t.op_mod = r.op_mod;
		t.inlen = r.inlen;
		t.outlen = r.outlen;
		t.completed = r.kind == SlotResult::COMPLETED;
		t.delivery = r.delivery;
		if (!r.executed)
			t.executed = false;
		trace_fn(t);
	}
}

} // namespace cxprm::emu
