// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The Emulator's synchronous mode: the device answers inside the host's
// register write (emulator.h, "synchronous mode").  A file of its own so
// that poll_once() stays a frame of its own under callgrind (the benchmark
// counts the emulator's instructions below it).
#include "emulator_impl.h"

namespace cxprm::emu {

void Emulator::set_clock(std::function<uint64_t()> now_ns)
{
	std::lock_guard<std::mutex> g(impl_->mu);
	impl_->clock_fn = std::move(now_ns);
	impl_->t0_set = false;
}

// One step at least: a new queue address is noticed only by a step.
bool Emulator::settle(bool need_queue, uint64_t limit_ns)
{
	uint64_t end;
	{
		std::lock_guard<std::mutex> g(impl_->mu);
		end = impl_->now() + limit_ns;
	}
	bool late;
	do {
		poll_once();
		std::lock_guard<std::mutex> g(impl_->mu);
		late = impl_->now() >= end;
	} while (!late && (initializing() || (need_queue && cmdq_address() == 0)));
	return !initializing() && (!need_queue || cmdq_address() != 0);
}

bool Emulator::register_written(uint32_t off)
{
	if (off == prm::iseg::DOORBELL)
		return poll_once();
	if (off == prm::iseg::CMDQ_ADDR_L_SZ)
		return settle(true);
	return false;
}

} // namespace cxprm::emu
