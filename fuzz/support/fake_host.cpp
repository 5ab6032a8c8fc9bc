// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The fuzz targets' fake host (fake_host.h): a deterministic host, the
// emulator answering inside the doorbell write, faults on top.
#include "fake_host.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cxprm/layout.h"
#include "cxprm/mailbox.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/transport.h"
#include "cxprm/status.h"
#include "cxprm_emu/emulator.h"

namespace cxprm::fuzz {

using namespace prm;

namespace {

[[noreturn]] void die(const char *what)
{
	std::fprintf(stderr, "fake device: %s\n", what);
	std::abort();
}

constexpr uint32_t OWNER_BYTE = cmd_queue_entry::ownership::offset / 8;
constexpr uint32_t ENTRY_BYTES = cmd_queue_entry::size_bytes;

// A host lock: single-threaded, so taking one that is held is a deadlock.
struct Lock {
	bool held = false;
};

struct Waiter {
	bool signalled = false;
};

// The emulator's profile: a ConnectX-7 that comes up at once and answers
// without timing of its own (no init delays, no lost-doorbell rescue, no
// automatic NVMF I/O), signs every output (the core may verify), and
// survives a full EQ (the targets write entries the emulator did not).
emu::Profile fuzz_profile(uint32_t log_size, uint32_t log_stride, bool geometry_ok)
{
	emu::Profile p = emu::Profile::connectx7();
	p.boot_pages = 8;
	p.init_pages = 8;
	p.init_delay_ms = 0;
	p.cmdq_init_delay_ms = 0;
	p.lost_doorbell_us = 0;
	p.nvmf.auto_io_ms = 0;
	p.sign_outputs_always = true;
	p.eq_overrun_fatal = false;
	if (geometry_ok) {
		p.log_cmdq_size = (uint8_t)log_size;
		p.log_cmdq_stride = (uint8_t)log_stride;
	}
	return p;
}

} // namespace

// The emulator's view: the BAR and DMA through the host's allocations.
class HostPlatform : public emu::Platform {
public:
	explicit HostPlatform(FakeHost &d) : d_(d) {}
	uint8_t *bar() override { return d_.bar_.data(); }
	size_t bar_size() const override { return d_.bar_.size(); }
	bool dma_read(uint64_t bus, void *dst, size_t len) override
	{
		uint8_t *p = d_.dma(bus, len);
		if (p)
			std::memcpy(dst, p, len);
		return p != nullptr;
	}
	bool dma_write(uint64_t bus, const void *src, size_t len) override
	{
		uint8_t *p = d_.dma(bus, len);
		if (p)
			std::memcpy(p, src, len);
		return p != nullptr;
	}

private:
	FakeHost &d_;
};

// The cxprm_host_ops callbacks.
struct HostOps {
	static FakeHost *d(void *ctx) { return static_cast<FakeHost *>(ctx); }

	static int dma_alloc(void *ctx, cxprm_size size, cxprm_size align, cxprm_dma_buf *buf)
	{
		FakeHost *f = d(ctx);
		size_t bytes = (size + 4095) & ~(size_t)4095;
		if (!size || align > 4096 || (align & (align - 1)))
			die("dma_alloc: bad size or alignment");
		if (f->dma_used_ + bytes > f->dma_budget_)
			return -12;
		void *p = std::aligned_alloc(4096, bytes);
		if (!p)
			return -12;
		std::memset(p, 0, bytes);
		uint64_t bus = f->next_bus_;
		f->next_bus_ += bytes + 4096; // a hole after each: strays hit nothing
		f->dma_[bus] = {(uint8_t *)p, size};
		f->dma_used_ += bytes;
		*buf = {p, bus, size, nullptr};
		return 0;
	}

	static void dma_free(void *ctx, cxprm_dma_buf *buf)
	{
		FakeHost *f = d(ctx);
		auto it = f->dma_.find(buf->bus);
		if (it == f->dma_.end() || it->second.cpu != buf->cpu)
			die("dma_free of memory never allocated (or freed twice)");
		f->dma_used_ -= (it->second.size + 4095) & ~(size_t)4095;
		std::free(it->second.cpu);
		f->dma_.erase(it);
	}

	static void *mem_alloc(void *ctx, cxprm_size size)
	{
		void *p = std::calloc(1, size ? size : 1);
		if (p)
			d(ctx)->mem_[p] = size;
		return p;
	}

	static void mem_free(void *ctx, void *p)
	{
		FakeHost *f = d(ctx);
		if (!p)
			return;
		if (!f->mem_.erase(p))
			die("mem_free of memory never allocated (or freed twice)");
		std::free(p);
	}

	static cxprm_u32 ioread32be(void *ctx, cxprm_u32 off) { return d(ctx)->bar_read(off); }

	static void iowrite32be(void *ctx, cxprm_u32 off, cxprm_u32 v)
	{
		FakeHost *f = d(ctx);
		if (off == iseg::DOORBELL) {
			f->doorbell(v);
			return;
		}
		f->bar_write(off, v);
		// Hardware takes the queue address at once (no delay in this
		// profile: one step).
		if (off == iseg::CMDQ_ADDR_L_SZ && f->answering())
			f->emu_->poll_once();
	}

	static void barrier(void *) {}

	static void *lock_create(void *ctx)
	{
		d(ctx)->locks_++;
		return new Lock;
	}

	static void lock_destroy(void *ctx, void *l)
	{
		if (static_cast<Lock *>(l)->held)
			die("lock destroyed while held");
		d(ctx)->locks_--;
		delete static_cast<Lock *>(l);
	}

	static void lock(void *, void *l)
	{
		Lock *k = static_cast<Lock *>(l);
		if (k->held)
			die("lock taken twice by one thread (a deadlock)");
		k->held = true;
	}

	static void unlock(void *, void *l)
	{
		Lock *k = static_cast<Lock *>(l);
		if (!k->held)
			die("unlock of a lock not held");
		k->held = false;
	}

	static void relax(void *ctx) { d(ctx)->now_ns_ += 100; }
	static void sleep_us(void *ctx, cxprm_u32 us) { d(ctx)->now_ns_ += (uint64_t)us * 1000 + 1; }
	static cxprm_u64 now_ns(void *ctx) { return d(ctx)->now_ns_ += 10; }

	static void *waiter_create(void *) { return new Waiter; }
	static void waiter_destroy(void *, void *w) { delete static_cast<Waiter *>(w); }

	static int waiter_wait(void *ctx, void *w, cxprm_u64 timeout_ns)
	{
		Waiter *k = static_cast<Waiter *>(w);
		if (k->signalled) {
			k->signalled = false;
			return 0;
		}
		d(ctx)->now_ns_ += timeout_ns ? timeout_ns : 1;
		return -110;
	}

	static void waiter_signal(void *, void *w) { static_cast<Waiter *>(w)->signalled = true; }
	static void log(void *, int, const char *msg)
	{
		if (!msg)
			die("log(nullptr)");
		(void)std::strlen(msg); // must be a terminated string
	}
};

const cxprm_host_ops FakeHost::ops_ = {
	HostOps::dma_alloc,   HostOps::dma_free,      HostOps::mem_alloc,   HostOps::mem_free,
	HostOps::ioread32be,  HostOps::iowrite32be,   HostOps::barrier,     HostOps::barrier,
	HostOps::lock_create, HostOps::lock_destroy,  HostOps::lock,        HostOps::unlock,
	HostOps::relax,       HostOps::sleep_us,      HostOps::now_ns,      HostOps::waiter_create,
	HostOps::waiter_destroy, HostOps::waiter_wait, HostOps::waiter_signal, HostOps::log,
	// The optional ones (host.h): none here, the core's defaults.
	nullptr /* get_random */, nullptr /* page_shift */, nullptr /* yield */,
	nullptr /* fw_page_alloc */, nullptr /* fw_page_free */, nullptr /* health_changed */,
	nullptr /* run_parallel: a batch runs its ops one after another */,
};

// BAR buffers of devices gone, for the next: a target constructs a device
// per input, and a fresh 256 KiB allocation each time (mapped, faulted in,
// zeroed, unmapped) cost more than the input itself.  The emulator zeroes
// the BAR when it is constructed, so a reused one starts as a new one.
static std::vector<std::vector<uint8_t>> &bar_pool()
{
	static auto *pool = new std::vector<std::vector<uint8_t>>;
	return *pool;
}

FakeHost::FakeHost(size_t dma_budget, uint32_t log_cmdq_size, uint32_t log_cmdq_stride)
	: dma_budget_(dma_budget)
{
	if (bar_pool().empty()) {
		bar_.resize(kBarBytes);
	} else {
		bar_.swap(bar_pool().back());
		bar_pool().pop_back();
	}
	host_.ops = &ops_;
	host_.ctx = this;
	bool geometry_ok = log_cmdq_size <= 5 && log_cmdq_stride >= 6 && log_cmdq_size + log_cmdq_stride <= 12;
	plat_ = std::make_unique<HostPlatform>(*this);
	emu_ = std::make_unique<emu::Emulator>(*plat_, fuzz_profile(log_cmdq_size, log_cmdq_stride, geometry_ok));
	emu_->set_clock([this] { return now_ns_; });
	set_hook();
	if (!geometry_ok) {
		using I = initial_seg;
		bar_write(iseg::CMDQ_ADDR_L_SZ, to_dword<I::log_cmdq_size>(log_cmdq_size) |
							to_dword<I::log_cmdq_stride>(log_cmdq_stride));
	}
}

FakeHost::~FakeHost()
{
	emu_.reset();
	bar_pool().push_back(std::move(bar_));
	for (auto &a : dma_)
		std::free(a.second.cpu);
	for (auto &m : mem_)
		std::free(m.first);
}

uint8_t *FakeHost::dma(uint64_t bus, size_t len)
{
	auto it = dma_.upper_bound(bus);
	if (it == dma_.begin())
		return nullptr;
	--it;
	uint64_t off = bus - it->first;
	if (off > it->second.size || len > it->second.size - off)
		return nullptr;
	return it->second.cpu + off;
}

void FakeHost::set_fw_dead(bool dead)
{
	using H = health_buffer;
	bar_write(iseg::HEALTH + dword_byte_offset<H::rfr>(), to_dword<H::rfr>(dead ? 1 : 0));
	bar_write(iseg::HEALTH + dword_byte_offset<H::synd>(), to_dword<H::synd>(dead ? 1 : 0));
}

void FakeHost::set_gone(bool gone)
{
	if (gone && bar_read(iseg::FW_REV) != 0xffffffffu) {
		fw_rev_ = bar_read(iseg::FW_REV);
		bar_write(iseg::FW_REV, 0xffffffffu);
	} else if (!gone && bar_read(iseg::FW_REV) == 0xffffffffu) {
		bar_write(iseg::FW_REV, fw_rev_);
	}
}

uint32_t FakeHost::bar_read(uint32_t off) const
{
	if (off % 4 || off >= bar_.size())
		return 0xffffffffu;
	return load_be32(&bar_[off]);
}

void FakeHost::bar_write(uint32_t off, uint32_t v)
{
	if (off % 4 || off >= bar_.size())
		die("BAR write outside the BAR or unaligned");
	store_be32(&bar_[off], v);
}

// Dead firmware (rfr + synd) and a vanished device answer nothing.
bool FakeHost::answering() const
{
	bool dead = from_dword<health_buffer::synd>(
			    bar_read(iseg::HEALTH + dword_byte_offset<health_buffer::synd>())) != 0;
	return !dead && bar_read(iseg::FW_REV) != 0xffffffffu;
}

void FakeHost::doorbell(uint32_t mask)
{
	uint32_t n = 1u << emu_->profile().log_cmdq_size;
	if (n < 32 && (mask >> n))
		die("doorbell for a slot the queue does not have");
	// Rung slots accumulate (an atomic OR on hardware) until answered.
	uint32_t rung = bar_read(iseg::DOORBELL) | mask;
	bar_write(iseg::DOORBELL, rung);
	if (!complete || !answering())
		return;
	emu_->faults().no_cmd_events = !command_events;
	if (model != hook_model_)
		set_hook();
	emu_->register_written(iseg::DOORBELL);
	completed(rung);
}

void FakeHost::set_hook()
{
	hook_model_ = model;
	emu_->set_answer_hook(
		[this](unsigned slot, const uint8_t *in, uint32_t inlen, uint8_t *out, uint32_t outlen) {
			return answer(slot, in, inlen, out, outlen);
		},
		!model);
}

// The slots of 'rung' the emulator handed back, to after_complete.
void FakeHost::completed(uint32_t rung)
{
	using E = cmd_queue_entry;
	uint64_t base = (uint64_t)bar_read(iseg::CMDQ_ADDR_H) << 32 |
			(bar_read(iseg::CMDQ_ADDR_L_SZ) & ~0xfffu);
	uint32_t stride = emu_->profile().log_cmdq_stride;
	for (uint32_t slot = 0; slot < 32 && after_complete; slot++) {
		uint8_t *e = (rung >> slot) & 1 ? dma(base + ((uint64_t)slot << stride), ENTRY_BYTES) : nullptr;
		if (!e || (e[OWNER_BYTE] & 1))
			continue;
		Completed done;
		done.slot = slot;
		done.entry = e;
		Ref<E> r(e);
		uint64_t ptr = get<E::output_mailbox_pointer_63_32>(r) << 32 | get<E::output_mailbox_pointer_31_9>(r) << 9;
		uint32_t nblocks = mailbox_blocks((uint32_t)get<E::output_length>(r));
		for (uint32_t i = 0; i < nblocks; i++) {
			uint8_t *b = dma(ptr, MAILBOX_SIZE);
			if (!b)
				break;
			done.blocks.push_back(b);
			CRef<cmd_if_box> box(b);
			ptr = get<cmd_if_box::next_pointer_63_32>(box) << 32 | get<cmd_if_box::next_pointer_31_10>(box) << 10;
		}
		after_complete(done);
	}
}

uint8_t FakeHost::answer(unsigned slot, const uint8_t *in, uint32_t inlen, uint8_t *out, uint32_t outlen)
{
	commands_++;
	last_in_.assign(in, in + inlen);
	uint16_t opcode = (uint16_t)get<cmd_in::opcode>(CRef<cmd_in>(in));
	uint8_t delivery = 0;
	if (handler) {
		Command c;
		c.slot = slot;
		c.in = last_in_;
		if (c.in.size() < 8)
			c.in.resize(8);
		c.out.assign(out, out + outlen);
		handler(c);
		std::memcpy(out, c.out.data(), outlen);
		delivery = c.delivery;
	}
	// The core's EQ ring, for write_eqe_raw.
	bool ok = !delivery && outlen >= cmd_out::size_bytes && !get<cmd_out::status>(CRef<cmd_out>(out));
	if (ok && opcode == op::CREATE_EQ && inlen >= create_eq_in::size_bytes &&
	    outlen >= create_eq_out::size_bytes) {
		CRef<create_eq_in> q(in);
		auto ctx = sub<create_eq_in::eq_context_entry, eqc>(q);
		eq_pas_.clear();
		for (uint32_t i = 0; i < create_eq_in_pas::entries_in(inlen); i++)
			eq_pas_.push_back(get_pas<create_eq_in_pas>(q, i));
		eq_log_size_ = (uint32_t)get<eqc::log_eq_size>(ctx);
		eq_page_shift_ = 12 + (uint32_t)get<eqc::log_page_size>(ctx);
	} else if (ok && opcode == op::DESTROY_EQ) {
		eq_pas_.clear();
	}
	return delivery;
}

void FakeHost::answer_ok_zeroed(Command &c) { std::fill(c.out.begin(), c.out.end(), 0); }

bool FakeHost::eq_created() const { return emu_->eq_count() != 0; }

bool FakeHost::post_eqe(uint8_t type, uint8_t sub_type, const uint8_t *data28)
{
	return emu_->post_event(type, sub_type, data28) != 0;
}

bool FakeHost::write_eqe_raw(uint32_t idx, const uint8_t *bytes64)
{
	if (eq_pas_.empty() || !eq_created())
		return false;
	uint64_t off = (uint64_t)(idx & ((1u << eq_log_size_) - 1)) * 64;
	uint64_t page = off >> eq_page_shift_;
	if (page >= eq_pas_.size())
		return false;
	uint8_t *p = dma(eq_pas_[page] + (off & ((1ull << eq_page_shift_) - 1)), 64);
	if (!p)
		return false;
	std::memcpy(p, bytes64, 64);
	return true;
}

} // namespace cxprm::fuzz
