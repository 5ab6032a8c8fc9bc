// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// One step of the Emulator (emulator_impl.h):
//
//   device gone?  -> fill the BAR with 0xff once, then do nothing ever again
//   crash fault?  -> health error once, health counter stops
//   crashed and the driver wrote nic_interface SW_RESET? -> firmware restart
//   health tick, 'initializing' check (nothing else until it clears)
//   queue geometry bits restored if the driver's address write clobbered them
//   a new queue address: 'initializing' again for cmdq_init_delay_ms, and
//     doorbells meanwhile dropped (A2/B2)
//   EQ doorbells (consumer indexes, arming)
//   doorbell vector: take the bits, process each rung slot in slot order
//     (with the latency model: give each to a firmware engine, and serve
//     those whose service has ended);
//     each completion posts a CMD event to the EQs that took CMD events
//     when the command was fetched
//   lost doorbells: an entry that was owned by hardware when another slot's
//     doorbell was taken, and still is lost_doorbell_us later, is served
//   timed work (DCT drain completion, NVMF auto I/O)
//
// Interrupts are raised after the lock is dropped.
#include "emulator_impl.h"

#include "cxprm/status.h"

namespace cxprm::emu {

bool Emulator::Impl::step(bool tick_health)
{
	std::vector<uint32_t> irqs;
	bool did;
	{
		std::lock_guard<std::mutex> g(mu);
		did = step_locked(tick_health);
		irqs.swap(dev.pending_irqs);
	}
	raise(irqs);
	return did;
}

void Emulator::Impl::raise(const std::vector<uint32_t> &irqs)
{
	for (uint32_t v : irqs)
		p.raise_irq(v);
	if (!irqs.empty()) {
		std::lock_guard<std::mutex> g(mu);
		dev.counters.irqs_raised += irqs.size();
	}
}

// The doorbell vector's bits (and those deferred): each rung slot given to
// a firmware engine (latency model) or served now, in slot order.
uint32_t Emulator::Impl::take_bells(uint64_t now)
{
	uint32_t bell = iseg.take_doorbell() | deferred_bell;
	deferred_bell = 0;
	const uint32_t rung = bell;
	for (unsigned slot = 0; bell; slot++, bell >>= 1) {
		if (!(bell & 1))
			continue;
		owned_since[slot] = skip_token[slot] = 0; // a new command
		bell_seen[slot] = now;
		if (prof.latency.enabled)
			schedule_slot(slot, now);
		else
			process_slot(slot);
	}
	return rung;
}

// Whether serve_due may take doorbells between two answers: only while
// nothing the step checks before its own take has changed (no crash or
// removal pending, the interface on, the same queue address).
bool Emulator::Impl::bells_open() const
{
	return !gone && !crashed && !sw_reset && !nic_disabled && !initializing && !cmdq_initializing &&
	       !faults.crash.load() && !faults.device_gone.load() && !faults.sw_reset.load() &&
	       iseg.cmdq_base() == last_cmdq_addr;
}

// A fatal syndrome the device model raised (EQ overrun): firmware
// death with that syndrome and rfr.
void Emulator::Impl::take_fatal()
{
	if (dev.fatal_synd && !crashed) {
		crashed = true;
		iseg.set_health_error(dev.fatal_synd);
	}
}

bool Emulator::Impl::step_locked(bool tick_health)
{
	if (gone)
		return false;
	if (faults.device_gone.load()) {
		iseg.fill_gone();
		gone = true;
		return true;
	}
	if (faults.crash.load() && !crashed) {
		crashed = true;
		iseg.set_health_error(cxprm::health_synd::FW_INTERNAL_ERR);
	}
	take_fatal();
	if (!crashed && iseg.health_synd() != faults.health_syndrome.load())
		iseg.set_health_warning(faults.health_syndrome.load());
	if (faults.sw_reset.load())
		sw_reset = true;
	if (sw_reset) // firmware's, whatever the driver writes there
		iseg.set_nic_interface(7);
	if (check_fw_reset_request())
		return true;
	uint64_t now = this->now();
	uint64_t period = (uint64_t)prof.health_tick_ms * 1000000ull;
	if (tick_health && (!ticked || now - last_tick_ns >= period)) {
		ticked = true;
		last_tick_ns = period ? now - (now - last_tick_ns) % period : now;
		if (!crashed && !faults.health_stall.load())
			iseg.tick_health();
	}
	if (initializing) {
		if (now < init_until)
			return false;
		iseg.clear_initializing();
		initializing = false;
	}
	iseg.enforce_geometry();
	if (cmdq_address_step(now))
		return true;

	bool did = false;
	if (!crashed && !sw_reset)
		did |= check_nic_interface();
	if (nic_disabled) {
		// The command interface is off (fast teardown): a doorbell is
		// not served until the driver programs the queue again.
		if (iseg.take_doorbell())
			dev.counters.doorbells_while_disabled++;
		return did;
	}
	if (!crashed && !sw_reset)
		did |= dev.scan_eq_doorbells();

	uint32_t rung = take_bells(now);
	did |= rung != 0;
	did |= serve_due(now, &rung);
	if (rung)
		note_unrung_owned(rung, now);
	did |= rescue_lost_doorbells(now);
	if (!crashed && !sw_reset)
		did |= dev.tick(now);
	take_fatal();
	return did;
}

// nic_interface (cmdq_addr_l_sz bits 9:8) as the driver wrote it.
// DISABLED after PREPARE_FAST_TEARDOWN completes the fast teardown; the
// interface stays off until a queue address write puts FULL_DRIVER (0)
// back.  DISABLED without the prepare is left alone.
bool Emulator::Impl::check_nic_interface()
{
	constexpr uint8_t FULL_DRIVER = 0, DISABLED = 1; // MLX5_NIC_IFC_*
	uint8_t nic = iseg.nic_interface();
	if (!nic_disabled && nic == DISABLED && dev.fast_teardown_prepared) {
		dev.finish_fast_teardown();
		nic_disabled = true;
		return true;
	}
	if (nic_disabled && nic == FULL_DRIVER) {
		nic_disabled = false;
		return true;
	}
	return false;
}

// The driver asks a crashed firmware (fatal syndrome with rfr) to reset
// by writing nic_interface SW_RESET (7) into cmdq_addr_l_sz (Linux
// health.c reset_fw_if_needed, only when the init segment advertises
// fw_reset_supported).  Firmware that is not crashed, or does not
// advertise it, ignores the write (nic_interface keeps what the driver
// wrote); so does one under the no_restart fault; the sw_reset fault's
// own SW_RESET is not a request.
bool Emulator::Impl::check_fw_reset_request()
{
	constexpr uint8_t SW_RESET = 7; // MLX5_NIC_IFC_SW_RESET
	if (!crashed || sw_reset || !prof.fw_reset_supported || faults.no_restart.load() ||
	    iseg.nic_interface() != SW_RESET)
		return false;
	restart_locked(prof.fw_reset_ms);
	return true;
}

// A new command-queue address (written with nic_interface FULL_DRIVER)
// raises 'initializing' for cmdq_init_delay_ms.  Hardware sees the
// address write at once; the emulator notices it at its next poll, so
// a driver may have read the bit as 0 just before and ring a little
// later (under QEMU TCG, milliseconds later): a doorbell within
// early_grace_ms of the notice is kept and served once the bit clears.
// Later ones are dropped (unless serve_early_doorbells).  True while
// the bit holds.
bool Emulator::Impl::cmdq_address_step(uint64_t now)
{
	uint64_t base = iseg.cmdq_base();
	if (base != last_cmdq_addr) {
		last_cmdq_addr = base;
		for (unsigned i = 0; i < prm::MAX_CMDQ_ENTRIES; i++)
			owned_since[i] = skip_token[i] = 0;
		deferred_bell = 0;
		drop_pending();
		queue_reachable = false;
		if (base && iseg.nic_interface() == 0 && prof.cmdq_init_delay_ms) {
			cmdq_initializing = true;
			cmdq_init_from = now;
			cmdq_init_until = now + (uint64_t)prof.cmdq_init_delay_ms * 1000000ull;
			iseg.set_initializing();
		}
	}
	if (!cmdq_initializing)
		return false;
	if (now >= cmdq_init_until) {
		cmdq_initializing = false;
		iseg.clear_initializing();
		return false;
	}
	if (prof.serve_early_doorbells)
		return true;
	uint32_t bell = iseg.take_doorbell();
	if (now - cmdq_init_from < (uint64_t)prof.early_grace_ms * 1000000ull) {
		dev.counters.deferred_doorbells += (unsigned)__builtin_popcount(bell & ~deferred_bell);
		deferred_bell |= bell;
		return true;
	}
	for (unsigned slot = 0; bell; slot++, bell >>= 1) {
		if (!(bell & 1) || slot >= queue_entries())
			continue;
		dev.counters.early_doorbells++;
		skip_entry(slot);
	}
	return true;
}

} // namespace cxprm::emu
