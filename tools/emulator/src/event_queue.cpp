// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Event delivery into EQ rings in host memory, and the EQ doorbells.
//
// Owner/phase: the driver initialises every EQE's owner bit to 1 and takes
// entry ci as valid when ((owner ^ (ci >> log_size)) & 1) == 0.  So the
// device writes entry number p (free-running producer count) with
// owner = (p >> log_size) & 1: 0 on the first pass, 1 on the second, ...
// The 63 other bytes are written first, then (after a release fence) the
// byte holding the owner bit.
//
// The consumer index comes from the doorbell writes at UAR + 0x40 (update
// and arm) / + 0x48 (update only): be32 (ci & 0xffffff) | eqn << 24.  The
// emulator consumes a write by swapping EQ_DB_IDLE into the dword; two
// writes to the same dword between two polls leave only the last one
// (harmless: consumer indexes only grow).  A ring with 2^log_size entries
// not yet consumed is full: the event is dropped and counted as an overrun,
// and, as on real firmware, the fatal health syndrome ASYNC_EQ_BUF_OVERRUN
// (0xc) with rfr is raised (Profile::eq_overrun_fatal; off: only counted),
// unless the EQ was created with oi (overrun ignore).
//
// Interrupts: with Profile::strict_eq_arm (default) an EQE raises the EQ's
// vector only when the EQ is armed (a doorbell at UAR + 0x40 since the
// last interrupt), as on hardware; the driver must re-arm after each pass.
// One exception, for what the RAM-backed BAR loses: EQs sharing a UAR share
// its arm dword, so when interrupt handlers of two EQs on one vector arm
// them back to back (mlx5_core's cmd, async and pages EQs), the emulator may
// see only the last write.  An unarmed EQ for which an arm doorbell naming
// another EQ on its UAR was seen since it last fired is therefore treated
// as armed (counted in Counters::eq_arms_rescued); that holds after the
// other EQ is destroyed (mlx5_core destroys its pages and async EQs, then
// waits for the DESTROY_EQ completion on the cmd EQ).  A lone EQ on its
// UAR (cxprm's) stays strict.
#include <atomic>
#include <cstring>

#include "emu_device.h"

#include "cxprm/prm/eq.h"
#include "cxprm/prm/transport.h"
#include "cxprm/status.h"

namespace cxprm::emu {

using prm::Ref;

namespace {
constexpr uint32_t OWNER_BYTE = prm::eqe::owner::offset / 8;
static_assert(OWNER_BYTE == prm::EQE_BYTES - 1);
constexpr uint32_t CI_MASK = 0xffffff;
} // namespace

bool Device::scan_eq_doorbells()
{
	bool moved = false;
	// The UARs in use, ascending and each once (an EQ number is 8 bits:
	// at most 256; a driver's EQs share one or two UARs).  On the stack:
	// this runs on every step of the emulator's thread.
	uint32_t in_use[256];
	size_t n = 0;
	for (const auto &[eqn, eq] : eqs) {
		size_t i = 0;
		while (i < n && in_use[i] < eq.uar)
			i++;
		if (i < n && in_use[i] == eq.uar)
			continue;
		for (size_t j = n++; j > i; j--)
			in_use[j] = in_use[j - 1];
		in_use[i] = eq.uar;
	}
	for (size_t k = 0; k < n; k++) {
		const uint32_t uar = in_use[k];
		uint32_t base = uar * bar_map::UAR_SIZE;
		uint32_t v = bar_.exchange32(base + bar_map::UAR_EQ_DB_NOARM, bar_map::EQ_DB_IDLE);
		if (v != bar_map::EQ_DB_IDLE) {
			eq_doorbell(v, false);
			moved = true;
		}
		v = bar_.exchange32(base + bar_map::UAR_EQ_DB_ARM, bar_map::EQ_DB_IDLE);
		if (v != bar_map::EQ_DB_IDLE) {
			note_arm_overwrite(uar, v >> 24);
			eq_doorbell(v, true);
			moved = true;
		}
	}
	return moved;
}

void Device::eq_doorbell(uint32_t value, bool arm)
{
	auto it = eqs.find((uint8_t)(value >> 24));
	if (it == eqs.end()) {
		counters.bad_eq_doorbells++;
		return;
	}
	Eq &eq = it->second;
	uint32_t ci = value & CI_MASK;
	// The driver cannot have consumed what was never produced, nor be
	// more than a ring behind.
	if (((eq.producer - ci) & CI_MASK) > (1u << eq.log_size)) {
		counters.bad_eq_doorbells++;
		return;
	}
	eq.consumer = ci;
	if (!arm)
		return;
	// Arming with EQEs past ci fires at once (as on hardware, which Linux's
	// mlx5 relies on: an EQE written between the driver's last look and
	// its arm doorbell is not lost).
	if (prof_.strict_eq_arm && eq.producer != ci) {
		pending_irqs.push_back(eq.intr);
		eq.armed = eq.arm_maybe_lost = false;
		return;
	}
	eq.armed = true;
}

bool Device::write_eqe(Eq &eq, uint8_t type, uint8_t sub_type, const uint8_t *data28)
{
	const uint32_t nent = 1u << eq.log_size;
	// A doorbell write reaches real hardware at once: look at the doorbell
	// dwords before calling the ring full.
	if (!eq.oi && ((eq.producer - eq.consumer) & CI_MASK) >= nent)
		scan_eq_doorbells();
	if (!eq.oi && ((eq.producer - eq.consumer) & CI_MASK) >= nent) {
		eq.overruns++;
		counters.eq_overruns++;
		if (prof_.eq_overrun_fatal && !fatal_synd)
			fatal_synd = cxprm::health_synd::ASYNCHRONOUS_EQ_BUF_OVERRUN;
		return false;
	}
	uint8_t e[prm::EQE_BYTES] = {};
	Ref<prm::eqe> eqe(e);
	prm::set<prm::eqe::event_type>(eqe, type);
	prm::set<prm::eqe::event_sub_type>(eqe, sub_type);
	if (data28)
		std::memcpy(prm::bytes<prm::eqe::event_data>(eqe), data28, prm::eqe::event_data::width / 8);
	prm::set<prm::eqe::owner>(eqe, (eq.producer >> eq.log_size) & 1);

	const uint64_t off = (uint64_t)(eq.producer & (nent - 1)) * prm::EQE_BYTES;
	const uint64_t pgsz = (uint64_t)prm::ADAPTER_PAGE_SIZE << eq.log_page_size;
	const uint64_t addr = eq.pas[off / pgsz] + off % pgsz;
	bool ok = p_.dma_write(addr, e, OWNER_BYTE);
	std::atomic_thread_fence(std::memory_order_release);
	ok = ok && p_.dma_write(addr + OWNER_BYTE, e + OWNER_BYTE, 1);
	if (!ok) {
		counters.eqe_dma_errors++;
		return false;
	}
	eq.producer++;
	counters.eqes_written++;
	bool fire = !prof_.strict_eq_arm || eq.armed;
	if (!fire && eq.arm_maybe_lost) {
		fire = true;
		counters.eq_arms_rescued++;
	}
	if (fire) {
		pending_irqs.push_back(eq.intr);
		eq.armed = eq.arm_maybe_lost = false; // once until re-armed
	}
	return true;
}

void Device::note_arm_overwrite(uint32_t uar, uint32_t eqn)
{
	for (auto &[n, other] : eqs)
		if (n != eqn && other.uar == uar)
			other.arm_maybe_lost = true;
}

unsigned Device::post_event(uint8_t type, uint8_t sub_type, const uint8_t *data28)
{
	unsigned n = 0;
	for (auto &[eqn, eq] : eqs)
		if (eq.subscribed(type) && write_eqe(eq, type, sub_type, data28))
			n++;
	return n;
}

Device::EqSet Device::cmd_eq_snapshot() const
{
	EqSet s;
	for (const auto &[eqn, eq] : eqs)
		if (eq.subscribed(prm::event::CMD))
			s.set(eqn);
	return s;
}

void Device::post_cmd_completion(uint32_t vector, const EqSet &eligible)
{
	if (eligible.none())
		return;
	uint8_t data[prm::cmd_inter_comp_event::size_bytes] = {};
	prm::set<prm::cmd_inter_comp_event::command_completion_vector>(Ref<prm::cmd_inter_comp_event>(data), vector);
	for (auto &[eqn, eq] : eqs)
		if (eligible.test(eqn) && eq.subscribed(prm::event::CMD))
			write_eqe(eq, prm::event::CMD, 0, data);
}

} // namespace cxprm::emu
