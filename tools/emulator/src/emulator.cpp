// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The Emulator: owns the pieces (init segment, transport, device model),
// the lock that serialises them, and the polling thread.  One step:
//
//   device gone?  -> fill the BAR with 0xff once, then do nothing ever again
//   crash fault?  -> health error once, health counter stops
//   health tick, 'initializing' check (nothing else until it clears)
//   queue geometry bits restored if the driver's address write clobbered them
//   a new queue address: 'initializing' again for cmdq_init_delay_ms, and
//     doorbells meanwhile dropped (A2/B2)
//   EQ doorbells (consumer indexes, arming)
//   doorbell vector: take the bits, process each rung slot in slot order;
//     each completion posts a CMD event to the EQs that took CMD events
//     when the command was fetched
//   lost doorbells: an entry that was owned by hardware when another slot's
//     doorbell was taken, and still is lost_doorbell_us later, is served
//   timed work (DCT drain completion, NVMF auto I/O)
//
// Interrupts are raised after the lock is dropped.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "cmd_transport.h"
#include "device.h"
#include "init_segment.h"
#include "trace.h"

#include "cxprm/prm/transport.h"
#include "cxprm/status.h"

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
	bool running = false;

	using clock = std::chrono::steady_clock;
	bool t0_set = false;
	clock::time_point t0;
	bool initializing = true;
	// FW_INIT: raised again by a new command-queue address (Profile::
	// cmdq_init_delay_ms), cleared at cmdq_init_until.
	bool cmdq_initializing = false;
	uint64_t cmdq_init_from = 0, cmdq_init_until = 0;
	uint32_t deferred_bell = 0; // rung within EARLY_GRACE_NS: served after

	uint64_t last_cmdq_addr = 0;
	// Lost-doorbell rescue: when each slot was first seen owned without a
	// doorbell (0 = not), and per slot an entry (0x100 | token) never to
	// serve again while it stays owned (swallowed, or rung too early).
	uint64_t owned_since[prm::MAX_CMDQ_ENTRIES] = {};
	uint16_t skip_token[prm::MAX_CMDQ_ENTRIES] = {};
	// Scan only a queue known to be reachable: a command completed through
	// it since the address was written, and no scan read failed since.
	bool queue_reachable = false;
	bool crashed = false;
	bool gone = false;
	bool nic_disabled = false; // fast teardown done, queue not programmed again
	std::function<void(const TraceRecord &)> trace_fn;
	uint64_t trace_seq = 0;
	bool sw_reset = false;     // nic_interface SW_RESET: nothing is answered
	bool ticked = false;
	uint64_t last_tick_ns = 0; // health counter
	// Answers nothing (crashed without crash_answers_int_err, or resetting).
	bool mute() const { return (crashed && !faults.crash_answers_int_err.load()) || sw_reset; }
	uint8_t last_delivery = 0;

	void start_clock()
	{
		if (!t0_set) {
			t0 = clock::now();
			t0_set = true;
		}
	}

	bool step(bool tick_health)
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

	void raise(const std::vector<uint32_t> &irqs)
	{
		for (uint32_t v : irqs)
			p.raise_irq(v);
		if (!irqs.empty()) {
			std::lock_guard<std::mutex> g(mu);
			dev.counters.irqs_raised += irqs.size();
		}
	}

	// A fatal syndrome the device model raised (EQ overrun): firmware
	// death with that syndrome and rfr.
	void take_fatal()
	{
		if (dev.fatal_synd && !crashed) {
			crashed = true;
			iseg.set_health_error(dev.fatal_synd);
		}
	}

	bool step_locked(bool tick_health)
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
		start_clock();
		uint64_t now = (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t0).count();
		uint64_t period = (uint64_t)prof.health_tick_ms * 1000000ull;
		if (tick_health && (!ticked || now - last_tick_ns >= period)) {
			ticked = true;
			last_tick_ns = period ? now - (now - last_tick_ns) % period : now;
			if (!crashed && !faults.health_stall.load())
				iseg.tick_health();
		}
		if (initializing) {
			if (now < (uint64_t)prof.init_delay_ms * 1000000ull)
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

		uint32_t bell = iseg.take_doorbell() | deferred_bell;
		deferred_bell = 0;
		const uint32_t rung = bell;
		for (unsigned slot = 0; bell; slot++, bell >>= 1) {
			if (!(bell & 1))
				continue;
			did = true;
			owned_since[slot] = skip_token[slot] = 0; // a new command
			process_slot(slot);
		}
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
	bool check_nic_interface()
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

	unsigned queue_entries() const { return 1u << prof.log_cmdq_size; }

	// The last 4 bytes of a slot's entry: token, signature, -, status_own.
	bool entry_tail(unsigned slot, uint8_t tail[4])
	{
		using E = prm::cmd_queue_entry;
		static_assert(E::token::offset / 8 + 4 == E::size_bytes);
		uint64_t a = iseg.cmdq_base() + ((uint64_t)slot << prof.log_cmdq_stride) + E::token::offset / 8;
		return p.dma_read(a, tail, 4);
	}

	// Remembers the entry in 'slot' (if owned) as one never to serve again.
	void skip_entry(unsigned slot)
	{
		uint8_t t[4];
		owned_since[slot] = 0;
		if (entry_tail(slot, t) && (t[3] & 1))
			skip_token[slot] = (uint16_t)(0x100 | t[0]);
	}

	// A new command-queue address (written with nic_interface FULL_DRIVER)
	// raises 'initializing' for cmdq_init_delay_ms.  Hardware sees the
	// address write at once; the emulator notices it at its next poll, so
	// a driver may have read the bit as 0 just before and ring a little
	// later (under QEMU TCG, milliseconds later): a doorbell within
	// EARLY_GRACE_NS of the notice is kept and served once the bit clears.
	// Later ones are dropped (unless serve_early_doorbells).  True while
	// the bit holds.
	static constexpr uint64_t EARLY_GRACE_NS = 10ull * 1000 * 1000;

	bool cmdq_address_step(uint64_t now)
	{
		uint64_t base = iseg.cmdq_base();
		if (base != last_cmdq_addr) {
			last_cmdq_addr = base;
			for (unsigned i = 0; i < prm::MAX_CMDQ_ENTRIES; i++)
				owned_since[i] = skip_token[i] = 0;
			deferred_bell = 0;
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
		if (now - cmdq_init_from < EARLY_GRACE_NS) {
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

	// A doorbell store can only lose another slot's bit by overwriting it:
	// a lost doorbell's entry is owned at the moment a doorbell for some
	// other slot is taken.  Those entries become candidates (owned_since).
	// An entry that turns owned with no doorbell at all is never one: a
	// freed queue page that memory reuse fills with an owner bit must not
	// run as a command (the driver frees it after turning bus mastering
	// off, which the ivshmem device cannot show the emulator).
	void note_unrung_owned(uint32_t bell, uint64_t now)
	{
		if (!prof.lost_doorbell_us || !iseg.cmdq_base() || !queue_reachable || mute())
			return;
		for (unsigned slot = 0; slot < queue_entries(); slot++) {
			uint8_t t[4];
			if ((bell >> slot) & 1 || owned_since[slot])
				continue;
			if (!entry_tail(slot, t)) {
				queue_reachable = false;
				return;
			}
			if ((t[3] & 1) && skip_token[slot] != (0x100 | t[0]))
				owned_since[slot] = now | 1;
		}
	}

	// A candidate still owned by hardware lost_doorbell_us after it was
	// noted is served.  Not at once: mlx5 drivers set status_own before
	// the signature and the doorbell, so the entry may still be written
	// and its own doorbell on the way.
	bool rescue_lost_doorbells(uint64_t now)
	{
		if (!prof.lost_doorbell_us || !iseg.cmdq_base() || !queue_reachable ||
		    mute())
			return false;
		bool did = false;
		for (unsigned slot = 0; slot < queue_entries(); slot++) {
			if (!owned_since[slot])
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
			if (!(t[3] & 1) || skip_token[slot] == (0x100 | t[0]))
				continue;
			dev.counters.lost_doorbells++;
			process_slot(slot);
			did = true;
		}
		return did;
	}

	void process_slot(unsigned slot)
	{
		if (mute()) {
			// Dead or resetting firmware: the doorbell is swallowed, nothing answers.
			dev.counters.commands_processed++;
			skip_entry(slot);
			return;
		}
		std::set<uint8_t> eligible = crashed ? std::set<uint8_t>{} : dev.cmd_eq_snapshot();
		TraceRecord t;
		const bool tracing = (bool)trace_fn;
		ExecFn exec = [this, &t, tracing](const uint8_t *in, uint32_t inlen, uint8_t *out, uint32_t outlen) {
			if (crashed)
				dev.execute_crashed(in, inlen, out, outlen);
			else
				dev.execute(in, inlen, out, outlen);
			if (tracing) {
				t.opcode = (uint16_t)prm::get<prm::cmd_in::opcode>(prm::CRef<prm::cmd_in>(in));
				t.op_mod = (uint16_t)prm::get<prm::cmd_in::op_mod>(prm::CRef<prm::cmd_in>(in));
				trace_fill_input(t, in, inlen);
				trace_fill_output(t, out, outlen);
			}
		};
		SlotResult r = transport.process(iseg.cmdq_base(), slot, dev.checksums_enabled(), faults, exec);
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
			dev.post_cmd_completion(1u << slot, eligible);
			break;
		}
		if (tracing && (r.kind == SlotResult::COMPLETED || r.kind == SlotResult::SWALLOWED)) {
			t.seq = ++trace_seq;
			t.time_ns = (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t0)
					    .count();
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

	// Polls every ~50 us while there is traffic, every ~200 us after 10 ms
	// of idleness; the health counter ticks every Profile::health_tick_ms.
	void thread_main()
	{
		auto last_work = clock::now();
		std::unique_lock<std::mutex> lk(thread_mu);
		while (!stop_req) {
			lk.unlock();
			auto now = clock::now();
			bool did = step(true);
			if (did)
				last_work = now;
			lk.lock();
			if (!did && !stop_req) {
				bool idle = now - last_work > std::chrono::milliseconds(10);
				thread_cv.wait_for(lk, std::chrono::microseconds(idle ? 200 : 50));
			}
		}
	}
};

Emulator::Emulator(Platform &platform, Profile profile)
{
	if (!platform.bar() || platform.bar_size() < prm::iseg::SIZE)
		throw std::invalid_argument("cxprm emulator: the BAR must hold the init segment");
	if (profile.log_cmdq_size > 5 || profile.log_cmdq_size + profile.log_cmdq_stride > 12 ||
	    (1u << profile.log_cmdq_stride) < prm::cmd_queue_entry::size_bytes)
		throw std::invalid_argument("cxprm emulator: unusable command queue geometry");
	impl_ = std::make_unique<Impl>(platform, std::move(profile));
	impl_->initializing = impl_->prof.init_delay_ms != 0;
	impl_->iseg.reset(impl_->initializing);
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

void Emulator::function_reset()
{
	std::lock_guard<std::mutex> g(impl_->mu);
	Faults &f = impl_->faults;
	f.crash = false;
	f.crash_answers_int_err = false;
	f.device_gone = false;
	f.health_stall = false;
	f.health_syndrome = 0;
	f.sw_reset = false;
	impl_->crashed = impl_->gone = impl_->sw_reset = false;
	impl_->nic_disabled = false;
	impl_->dev.fast_teardown_prepared = false;
	impl_->dev.function_reset();
	impl_->dev.pending_irqs.clear();
	impl_->initializing = false;
	impl_->cmdq_initializing = false;
	impl_->last_cmdq_addr = 0;
	impl_->deferred_bell = 0;
	impl_->iseg.reset(false);
}

bool Emulator::simulate_nvmf_io(uint32_t xrqn, uint32_t nsid, const NvmfIo &io)
{
	std::lock_guard<std::mutex> g(impl_->mu);
	return impl_->dev.simulate_nvmf_io(xrqn, nsid, io);
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

// --- inspection ---

#define CXPRM_EMU_LOCKED_ std::lock_guard<std::mutex> g_(impl_->mu)

HcaState Emulator::hca_state() const { CXPRM_EMU_LOCKED_; return impl_->dev.state; }
uint16_t Emulator::current_issi() const { CXPRM_EMU_LOCKED_; return impl_->dev.issi; }
bool Emulator::initializing() const { CXPRM_EMU_LOCKED_; return impl_->initializing || impl_->cmdq_initializing; }
uint64_t Emulator::cmdq_address() const { CXPRM_EMU_LOCKED_; return impl_->last_cmdq_addr; }
bool Emulator::crashed() const { CXPRM_EMU_LOCKED_; return impl_->crashed; }
bool Emulator::sw_resetting() const { CXPRM_EMU_LOCKED_; return impl_->sw_reset; }
bool Emulator::gone() const { CXPRM_EMU_LOCKED_; return impl_->gone; }
uint32_t Emulator::health_counter() const { CXPRM_EMU_LOCKED_; return impl_->gone ? 0xffffff : impl_->iseg.health_counter(); }
uint64_t Emulator::pages_held() const { CXPRM_EMU_LOCKED_; return impl_->dev.pages.size(); }
uint64_t Emulator::pages_held(uint16_t function_id, bool ec_function) const
{
	CXPRM_EMU_LOCKED_;
	return impl_->dev.pages_held(Device::fn_key(function_id, ec_function));
}
bool Emulator::function_exists(uint16_t function_id, bool ec_function) const
{
	CXPRM_EMU_LOCKED_;
	uint32_t key = Device::fn_key(function_id, ec_function);
	return key == impl_->dev.self_key() || impl_->dev.other(key);
}
bool Emulator::function_enabled(uint16_t function_id, bool ec_function) const
{
	CXPRM_EMU_LOCKED_;
	uint32_t key = Device::fn_key(function_id, ec_function);
	if (key == impl_->dev.self_key())
		return impl_->dev.state != HcaState::DISABLED;
	const OtherFunction *f = impl_->dev.other(key);
	return f && f->enabled;
}
uint64_t Emulator::pages_given_total() const { CXPRM_EMU_LOCKED_; return impl_->dev.pages_given; }
uint64_t Emulator::pages_taken_total() const { CXPRM_EMU_LOCKED_; return impl_->dev.pages_taken; }
std::vector<uint64_t> Emulator::held_pages() const { CXPRM_EMU_LOCKED_; return impl_->dev.pages; }
int32_t Emulator::pages_wanted(uint16_t op_mod) const { CXPRM_EMU_LOCKED_; return impl_->dev.pages_wanted(op_mod); }
uint64_t Emulator::commands_processed() const { CXPRM_EMU_LOCKED_; return impl_->dev.counters.commands_processed; }
std::map<uint16_t, uint64_t> Emulator::opcode_counts() const { CXPRM_EMU_LOCKED_; return impl_->dev.opcode_counts; }
uint8_t Emulator::last_delivery_status() const { CXPRM_EMU_LOCKED_; return impl_->last_delivery; }
uint8_t Emulator::last_status() const { CXPRM_EMU_LOCKED_; return impl_->dev.last_status; }
uint32_t Emulator::last_syndrome() const { CXPRM_EMU_LOCKED_; return impl_->dev.last_syndrome; }
Counters Emulator::counters() const { CXPRM_EMU_LOCKED_; return impl_->dev.counters; }
uint32_t Emulator::uar_count() const { CXPRM_EMU_LOCKED_; return (uint32_t)impl_->dev.uars.size(); }
uint32_t Emulator::eq_count() const { CXPRM_EMU_LOCKED_; return (uint32_t)impl_->dev.eqs.size(); }
uint32_t Emulator::dct_count() const { CXPRM_EMU_LOCKED_; return (uint32_t)impl_->dev.dcts.size(); }
uint16_t Emulator::num_vfs() const { CXPRM_EMU_LOCKED_; return impl_->dev.num_vfs; }
uint32_t Emulator::nvmf_namespace_count() const { CXPRM_EMU_LOCKED_; return (uint32_t)impl_->dev.namespaces.size(); }
bool Emulator::checksums_enabled() const { CXPRM_EMU_LOCKED_; return impl_->dev.checksums_enabled(); }
std::array<uint32_t, 4> Emulator::last_sw_owner_id() const { CXPRM_EMU_LOCKED_; return impl_->dev.sw_owner_id; }

uint64_t Emulator::opcode_count(uint16_t opcode) const
{
	CXPRM_EMU_LOCKED_;
	auto it = impl_->dev.opcode_counts.find(opcode);
	return it == impl_->dev.opcode_counts.end() ? 0 : it->second;
}

bool Emulator::eq_info(uint8_t eqn, EqInfo *out) const
{
	CXPRM_EMU_LOCKED_;
	auto it = impl_->dev.eqs.find(eqn);
	if (it == impl_->dev.eqs.end())
		return false;
	const Eq &eq = it->second;
	if (out) {
		out->eqn = eq.eqn;
		out->log_size = eq.log_size;
		out->uar = eq.uar;
		out->intr = eq.intr;
		out->producer = eq.producer;
		out->consumer = eq.consumer;
		out->armed = eq.armed;
		out->overruns = eq.overruns;
		out->event_bitmask = eq.mask;
	}
	return true;
}

bool Emulator::dct_state(uint32_t dctn, DctState *out) const
{
	CXPRM_EMU_LOCKED_;
	auto it = impl_->dev.dcts.find(dctn);
	if (it == impl_->dev.dcts.end())
		return false;
	if (out)
		*out = it->second.state;
	return true;
}

bool Emulator::nvmf_counters(uint32_t xrqn, uint32_t nsid, NvmfCounters *out) const
{
	CXPRM_EMU_LOCKED_;
	auto it = impl_->dev.namespaces.find({xrqn, nsid});
	if (it == impl_->dev.namespaces.end())
		return false;
	if (out)
		*out = it->second.c;
	return true;
}

std::vector<uint8_t> Emulator::cap_cur(uint16_t type) const
{
	CXPRM_EMU_LOCKED_;
	auto it = impl_->dev.caps.find(type);
	if (it == impl_->dev.caps.end())
		return {};
	return std::vector<uint8_t>(it->second.cur.begin(), it->second.cur.end());
}

#undef CXPRM_EMU_LOCKED_

} // namespace cxprm::emu
