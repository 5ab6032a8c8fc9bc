// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The Emulator: construction, the polling thread, the clock, and the test
// hooks (emulator_impl.h says where the rest lives).  Interrupts are
// raised after the lock is dropped.
#include <chrono>
#include <stdexcept>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "emulator_impl.h"

namespace cxprm::emu {

uint64_t Emulator::Impl::clock_now() const
{
	if (clock_fn)
		return clock_fn();
	return (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
		       std::chrono::steady_clock::now().time_since_epoch())
		.count();
}

void Emulator::Impl::start_clock()
{
	if (!t0_set) {
		t0 = clock_now();
		t0_set = true;
	}
}

uint64_t Emulator::Impl::now()
{
	start_clock();
	return clock_now() - t0;
}

// Spins after work, sleeps when quiet (thread_sleep_ns: Profile::poll);
// the health counter ticks every Profile::health_tick_ms.
void Emulator::Impl::thread_main()
{
#ifdef __linux__
	// Sleeps of tens of microseconds stay that short (default slack: 50 us).
	prctl(PR_SET_TIMERSLACK, 1000ul, 0ul, 0ul, 0ul);
#endif
	auto last_work = std::chrono::steady_clock::now();
	uint32_t idle_sleep_us = prof.poll.sleep_us;
	std::unique_lock<std::mutex> lk(thread_mu);
	while (!stop_req) {
		lk.unlock();
		bool did = step(true);
		auto now = std::chrono::steady_clock::now();
		if (did)
			last_work = now;
		uint64_t quiet = (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(now - last_work).count();
		uint64_t ns = thread_sleep_ns(did, quiet, &idle_sleep_us);
		if (!ns)
			std::this_thread::yield();
		lk.lock();
		if (ns && !stop_req && !wake_req)
			thread_cv.wait_for(lk, std::chrono::nanoseconds(ns));
		if (wake_req) {
			wake_req = false;
			idle_sleep_us = prof.poll.sleep_us;
		}
	}
}

Emulator::Emulator(Platform &platform, Profile profile)
{
	if (!platform.bar() || platform.bar_size() < prm::iseg::SIZE)
		throw std::invalid_argument("cxprm emulator: the BAR must hold the init segment");
	if (profile.log_cmdq_size > 5 || profile.log_cmdq_size + profile.log_cmdq_stride > 12 ||
	    (1u << profile.log_cmdq_stride) < prm::cmd_queue_entry::size_bytes)
		throw std::invalid_argument("cxprm emulator: unusable command queue geometry");
	impl_ = std::make_unique<Impl>(platform, std::move(profile));
	impl_->initializing = impl_->prof.init_delay_ms != 0;
	impl_->init_until = (uint64_t)impl_->prof.init_delay_ms * 1000000ull; // the clock starts at 0
	impl_->iseg.reset(impl_->initializing, true); // no thread, no reader yet
}

Emulator::~Emulator() { stop(); }

void Emulator::start()
{
	std::lock_guard<std::mutex> g(impl_->thread_mu);
	if (impl_->running)
		return;
	{
		std::lock_guard<std::mutex> d(impl_->mu);
		impl_->start_clock();
	}
	impl_->stop_req = false;
	impl_->running = true;
	impl_->thread = std::thread([this] { impl_->thread_main(); });
}

void Emulator::stop()
{
	{
		std::lock_guard<std::mutex> g(impl_->thread_mu);
		if (!impl_->running)
			return;
		impl_->stop_req = true;
	}
	impl_->thread_cv.notify_all();
	impl_->thread.join();
	std::lock_guard<std::mutex> g(impl_->thread_mu);
	impl_->running = false;
}

void Emulator::wake()
{
	{
		std::lock_guard<std::mutex> g(impl_->thread_mu);
		impl_->wake_req = true;
	}
	impl_->thread_cv.notify_all();
}

bool Emulator::running() const
{
	std::lock_guard<std::mutex> g(impl_->thread_mu);
	return impl_->running;
}

bool Emulator::poll_once() { return impl_->step(true); }

Faults &Emulator::faults() { return impl_->faults; }

void Emulator::set_trace(std::function<void(const TraceRecord &)> fn)
{
	std::lock_guard<std::mutex> g(impl_->mu);
	impl_->trace_fn = std::move(fn);
}
void Emulator::set_answer_hook(AnswerHook fn, bool replaces_model)
{
	std::lock_guard<std::mutex> g(impl_->mu);
	impl_->answer_hook = std::move(fn);
	impl_->hook_replaces_model = impl_->answer_hook && replaces_model;
}

const Profile &Emulator::profile() const { return impl_->prof; }

// --- hooks ---

namespace {
template <class F> auto with_irqs(Emulator::Impl &m, F &&f)
{
	std::vector<uint32_t> irqs;
	decltype(f()) r;
	{
		std::lock_guard<std::mutex> g(m.mu);
		if (!m.crashed && !m.gone)
			m.dev.scan_eq_doorbells(); // fresh consumer indexes before posting
		r = f();
		m.take_fatal();
		irqs.swap(m.dev.pending_irqs);
	}
	m.raise(irqs);
	return r;
}
} // namespace

bool Emulator::set_num_vfs(uint16_t n)
{
	return with_irqs(*impl_, [&] { return !impl_->gone && impl_->dev.set_num_vfs(n); });
}

bool Emulator::request_pages(int32_t n)
{
	return with_irqs(*impl_, [&] { return !impl_->gone && !impl_->crashed && impl_->dev.request_pages(n); });
}

bool Emulator::request_pages(int32_t n, uint16_t function_id, bool ec_function)
{
	return with_irqs(*impl_, [&] {
		return !impl_->gone && !impl_->crashed &&
		       impl_->dev.request_pages(n, Device::fn_key(function_id, ec_function));
	});
}

bool Emulator::release_all_pages(uint16_t function_id, bool ec_function)
{
	return with_irqs(*impl_, [&] {
		return !impl_->gone && !impl_->crashed &&
		       impl_->dev.release_all_pages(Device::fn_key(function_id, ec_function));
	});
}

unsigned Emulator::post_event(uint8_t type, uint8_t sub_type, const uint8_t *data28)
{
	return with_irqs(*impl_, [&] { return impl_->gone ? 0u : impl_->dev.post_event(type, sub_type, data28); });
}

void Emulator::Impl::reset_locked()
{
	faults.crash = false;
	faults.crash_answers_int_err = false;
	faults.device_gone = false;
	faults.health_stall = false;
	faults.health_syndrome = 0;
	faults.sw_reset = false;
	faults.no_restart = false;
	crashed = gone = sw_reset = false;
	nic_disabled = false;
	dev.fast_teardown_prepared = false;
	dev.function_reset();
	dev.pending_irqs.clear();
	initializing = false;
	cmdq_initializing = false;
	last_cmdq_addr = 0;
	deferred_bell = 0;
	drop_pending();
	iseg.reset(false);
}

// After the reset the firmware boots again: the health counter runs from
// 0 at once (Linux main.c wait_vital and health.c mlx5_health_wait_pci_up
// look for it), nic_interface reads DISABLED (health.c mlx5_error_sw_reset
// waits for that before it reloads) and 'initializing' holds init_ms
// (wait_fw_init).  The driver then programs the queue address again.
void Emulator::Impl::restart_locked(uint32_t init_ms)
{
	constexpr uint8_t DISABLED = 1; // MLX5_NIC_IFC_DISABLED
	reset_locked();
	iseg.set_nic_interface(DISABLED);
	ticked = false;
	init_until = now() + (uint64_t)init_ms * 1000000ull;
	initializing = init_ms != 0;
	if (initializing)
		iseg.set_initializing();
	dev.counters.fw_restarts++;
}

void Emulator::function_reset()
{
	std::lock_guard<std::mutex> g(impl_->mu);
	impl_->reset_locked();
}

void Emulator::firmware_restart(uint32_t init_ms)
{
	std::lock_guard<std::mutex> g(impl_->mu);
	if (impl_->gone)
		return; // a removed device does not come back by itself
	impl_->restart_locked(init_ms);
}

bool Emulator::simulate_nvmf_io(uint32_t xrqn, uint32_t nsid, const NvmfIo &io)
{
	std::lock_guard<std::mutex> g(impl_->mu);
	return impl_->dev.simulate_nvmf_io(xrqn, nsid, io);
}

bool Emulator::nvmf_add_counters(uint32_t xrqn, uint32_t nsid, const NvmfIo &io)
{
	std::lock_guard<std::mutex> g(impl_->mu);
	auto it = impl_->dev.namespaces.find({xrqn, nsid});
	if (it == impl_->dev.namespaces.end())
		return false;
	NvmfIo &k = it->second.c;
	k.read_cmds += io.read_cmds;
	k.read_blocks += io.read_blocks;
	k.write_cmds += io.write_cmds;
	k.write_blocks += io.write_blocks;
	k.write_inline_cmds += io.write_inline_cmds;
	k.flush_cmds += io.flush_cmds;
	k.error_cmds += io.error_cmds;
	k.backend_error_cmds += io.backend_error_cmds;
	return true;
}

bool Emulator::set_nvmf_auto_io(bool run)
{
	std::lock_guard<std::mutex> g(impl_->mu);
	bool was = !impl_->dev.nvmf_auto_io_paused;
	impl_->dev.nvmf_auto_io_paused = !run;
	return was;
}

bool Emulator::simulate_nvmf_io(uint32_t xrqn, uint32_t nsid, uint64_t reads, uint64_t writes,
				uint64_t blocks_per_io)
{
	NvmfIo io;
	io.read_cmds = reads;
	io.read_blocks = reads * blocks_per_io;
	io.write_cmds = writes;
	io.write_blocks = writes * blocks_per_io;
	return simulate_nvmf_io(xrqn, nsid, io);
}

} // namespace cxprm::emu
