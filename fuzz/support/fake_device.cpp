// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The synchronous fake device of the fuzz targets (fake_device.h).
#include "fake_device.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cxprm/layout.h"
#include "cxprm/mailbox.h"
#include "cxprm/prm/adapter.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pages.h"
#include "cxprm/prm/transport.h"
#include "cxprm/status.h"

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
constexpr uint32_t UAR_BYTE = FakeDevice::kUar * ADAPTER_PAGE_SIZE;

// A host lock: single-threaded, so taking one that is held is a deadlock.
struct Lock {
	bool held = false;
};

struct Waiter {
	bool signalled = false;
};

} // namespace

// The cxprm_host_ops callbacks.
struct FakeOps {
	static FakeDevice *d(void *ctx) { return static_cast<FakeDevice *>(ctx); }

	static int dma_alloc(void *ctx, cxprm_size size, cxprm_size align, cxprm_dma_buf *buf)
	{
		FakeDevice *f = d(ctx);
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
		FakeDevice *f = d(ctx);
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
		FakeDevice *f = d(ctx);
		if (!p)
			return;
		if (!f->mem_.erase(p))
			die("mem_free of memory never allocated (or freed twice)");
		std::free(p);
	}

	static cxprm_u32 ioread32be(void *ctx, cxprm_u32 off) { return d(ctx)->bar_read(off); }

	static void iowrite32be(void *ctx, cxprm_u32 off, cxprm_u32 v)
	{
		FakeDevice *f = d(ctx);
		if (off == iseg::DOORBELL) {
			f->doorbell(v);
			return;
		}
		if (off == iseg::CMDQ_ADDR_H) {
			f->cmdq_bus_ = (uint64_t)v << 32 | (f->cmdq_bus_ & 0xffffffffu);
		} else if (off == iseg::CMDQ_ADDR_L_SZ) {
			f->cmdq_bus_ = (f->cmdq_bus_ & ~0xffffffffull) | (v & ~0xfffu);
			v = (v & ~0xfffu) | f->geometry_;
		} else if (off == UAR_BYTE + 0x40 || off == UAR_BYTE + 0x48) {
			f->eq_ci_ = v & 0xffffff;
			return;
		}
		f->bar_write(off, v);
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

const cxprm_host_ops FakeDevice::ops_ = {
	FakeOps::dma_alloc,   FakeOps::dma_free,      FakeOps::mem_alloc,   FakeOps::mem_free,
	FakeOps::ioread32be,  FakeOps::iowrite32be,   FakeOps::barrier,     FakeOps::barrier,
	FakeOps::lock_create, FakeOps::lock_destroy,  FakeOps::lock,        FakeOps::unlock,
	FakeOps::relax,       FakeOps::sleep_us,      FakeOps::now_ns,      FakeOps::waiter_create,
	FakeOps::waiter_destroy, FakeOps::waiter_wait, FakeOps::waiter_signal, FakeOps::log,
};

FakeDevice::FakeDevice(size_t dma_budget, uint32_t log_cmdq_size, uint32_t log_cmdq_stride)
	: bar_(kBarBytes), dma_budget_(dma_budget)
{
	host_.ops = &ops_;
	host_.ctx = this;
	handler = [this](Command &c) { default_handler(c); };
	using I = initial_seg;
	bar_write(iseg::FW_REV, to_dword<I::fw_rev_minor>(39) | to_dword<I::fw_rev_major>(28));
	bar_write(iseg::CMDIF_REV, to_dword<I::cmd_interface_rev>(CMDIF_REV) |
					   to_dword<I::fw_rev_subminor>(1002));
	geometry_ = to_dword<I::log_cmdq_size>(log_cmdq_size) |
		    to_dword<I::log_cmdq_stride>(log_cmdq_stride);
	bar_write(iseg::CMDQ_ADDR_L_SZ, geometry_);
	bar_write(iseg::INITIALIZING, 0);
	bar_write(iseg::HEALTH_COUNTER, to_dword<I::health_counter>(1));
}

FakeDevice::~FakeDevice()
{
	for (auto &a : dma_)
		std::free(a.second.cpu);
	for (auto &m : mem_)
		std::free(m.first);
}

uint8_t *FakeDevice::dma(uint64_t bus, size_t len)
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

void FakeDevice::set_fw_dead(bool dead)
{
	using H = health_buffer;
	bar_write(iseg::HEALTH + dword_byte_offset<H::rfr>(), to_dword<H::rfr>(dead ? 1 : 0));
	bar_write(iseg::HEALTH + dword_byte_offset<H::synd>(), to_dword<H::synd>(dead ? 1 : 0));
}

uint32_t FakeDevice::bar_read(uint32_t off) const
{
	if (off % 4 || off >= bar_.size())
		return 0xffffffffu;
	return load_be32(&bar_[off]);
}

void FakeDevice::bar_write(uint32_t off, uint32_t v)
{
	if (off % 4 || off >= bar_.size())
		die("BAR write outside the BAR or unaligned");
	store_be32(&bar_[off], v);
}

uint8_t *FakeDevice::entry(uint32_t slot)
{
	using I = initial_seg;
	uint32_t stride = from_dword<I::log_cmdq_stride>(geometry_);
	return dma(cmdq_bus_ + ((uint64_t)slot << stride), ENTRY_BYTES);
}

void FakeDevice::doorbell(uint32_t mask)
{
	uint32_t n = 1u << from_dword<initial_seg::log_cmdq_size>(geometry_);
	if (n < 32 && (mask >> n))
		die("doorbell for a slot the queue does not have");
	pending_ |= mask;
	// Dead firmware (rfr + synd) and a vanished device answer nothing.
	bool dead = from_dword<health_buffer::synd>(
			    bar_read(iseg::HEALTH + dword_byte_offset<health_buffer::synd>())) != 0;
	if (!complete || dead || bar_read(iseg::FW_REV) == 0xffffffffu)
		return;
	uint32_t todo = pending_;
	pending_ = 0;
	for (uint32_t i = 0; i < 32; i++)
		if (todo & (1u << i))
			run_slot(i);
}

bool FakeDevice::gather(uint64_t ptr, uint32_t len, uint8_t token, std::vector<uint8_t> &msg)
{
	uint32_t n = mailbox_blocks(len);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *b = dma(ptr, MAILBOX_SIZE);
		if (!b)
			return false;
		CRef<cmd_if_box> r(b);
		if (get<cmd_if_box::block_number>(r) != i || get<cmd_if_box::token>(r) != token)
			return false;
		uint32_t off = INLINE_BYTES + i * MAILBOX_DATA;
		uint32_t k = len - off < MAILBOX_DATA ? len - off : MAILBOX_DATA;
		std::memcpy(msg.data() + off, b, k);
		ptr = get<cmd_if_box::next_pointer_63_32>(r) << 32 | get<cmd_if_box::next_pointer_31_10>(r) << 10;
	}
	return true;
}

bool FakeDevice::scatter(uint64_t ptr, const std::vector<uint8_t> &msg, std::vector<uint8_t *> *blocks)
{
	uint32_t len = (uint32_t)msg.size(), n = mailbox_blocks(len);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *b = dma(ptr, MAILBOX_SIZE);
		if (!b)
			return false;
		uint32_t off = INLINE_BYTES + i * MAILBOX_DATA;
		uint32_t k = len - off < MAILBOX_DATA ? len - off : MAILBOX_DATA;
		std::memcpy(b, msg.data() + off, k);
		mailbox_sign(b);
		blocks->push_back(b);
		CRef<cmd_if_box> r(b);
		ptr = get<cmd_if_box::next_pointer_63_32>(r) << 32 | get<cmd_if_box::next_pointer_31_10>(r) << 10;
	}
	return true;
}

void FakeDevice::run_slot(uint32_t slot)
{
	uint8_t *e = entry(slot);
	if (!e)
		die("doorbell with no command queue programmed");
	if (!(e[OWNER_BYTE] & 1))
		return; // rung twice, or already handed back
	using E = cmd_queue_entry;
	Ref<E> r(e);
	uint32_t inlen = (uint32_t)get<E::input_length>(r), outlen = (uint32_t)get<E::output_length>(r);
	uint8_t token = (uint8_t)get<E::token>(r);
	if (inlen > (1u << 20) || outlen > (1u << 20))
		die("command lengths beyond any the core sends");
	uint64_t ip = get<E::input_mailbox_pointer_63_32>(r) << 32 | get<E::input_mailbox_pointer_31_9>(r) << 9;
	uint64_t op = get<E::output_mailbox_pointer_63_32>(r) << 32 | get<E::output_mailbox_pointer_31_9>(r) << 9;

	Command c;
	c.slot = slot;
	c.in.assign(inlen < 8 ? 8 : inlen, 0);
	std::memcpy(c.in.data(), bytes<E::command_input_inline_data>(r), inlen < 16 ? inlen : 16);
	bool ok = gather(ip, inlen, token, c.in);
	c.out.assign(outlen, 0);
	if (ok)
		handler(c);
	else
		c.delivery = 0x2; // bad input pointer
	commands_++;
	last_in_ = c.in;

	std::memcpy(bytes<E::command_output_inline_data>(r), c.out.data(), outlen < 16 ? outlen : 16);
	Completed done;
	done.slot = slot;
	done.entry = e;
	if (!scatter(op, c.out, &done.blocks) && !c.delivery)
		c.delivery = 0x3; // bad output pointer
	set<E::status>(r, c.delivery);
	set<E::ownership>(r, 0);
	set<E::signature>(r, 0);
	set<E::signature>(r, (uint8_t)~xor8(e, ENTRY_BYTES));
	if (after_complete)
		after_complete(done);
	if (eq_cmd_ && command_events) {
		uint8_t data[28] = {};
		store_be32(data, 1u << slot);
		post_eqe(event::CMD, 0, data);
	}
}

void FakeDevice::default_handler(Command &c)
{
	CRef<cmd_in> h(c.in.data());
	uint16_t opcode = (uint16_t)get<cmd_in::opcode>(h), op_mod = (uint16_t)get<cmd_in::op_mod>(h);
	uint32_t inlen = (uint32_t)c.in.size(), outlen = (uint32_t)c.out.size();
	uint8_t *o = c.out.data();
	switch (opcode) {
	case op::QUERY_PAGES:
		if (outlen >= query_pages_out::size_bytes && op_mod == query_pages_op::REGULAR &&
		    inlen >= query_pages_in::size_bytes) {
			CRef<query_pages_in> q(c.in.data());
			uint32_t fn = (uint32_t)get<query_pages_in::function_id>(q) |
				      (uint32_t)get<query_pages_in::embedded_cpu_function>(q) << 16;
			int32_t held = 0;
			for (const auto &p : pages_)
				held += p.second == fn;
			set<query_pages_out::num_pages>(Ref<query_pages_out>(o), (uint32_t)-held);
		}
		break;
	case op::MANAGE_PAGES: {
		if (inlen < manage_pages_in::size_bytes || outlen < manage_pages_out::size_bytes)
			break;
		CRef<manage_pages_in> in(c.in.data());
		uint64_t n = get<manage_pages_in::input_num_entries>(in);
		uint32_t fn = (uint32_t)get<manage_pages_in::function_id>(in) |
			      (uint32_t)get<manage_pages_in::embedded_cpu_function>(in) << 16;
		if (op_mod == manage_pages_op::GIVE) {
			for (uint32_t i = 0; i < n && i < manage_pages_in_pas::entries_in(inlen); i++)
				pages_.push_back({get_pas<manage_pages_in_pas>(in, i), fn});
		} else if (op_mod == manage_pages_op::TAKE) {
			Ref<manage_pages_out> out(o);
			uint32_t k = 0;
			for (size_t i = pages_.size(); i-- && k < n && k < manage_pages_out_pas::entries_in(outlen);) {
				if (pages_[i].second != fn)
					continue;
				set_pas<manage_pages_out_pas>(out, k++, pages_[i].first);
				pages_.erase(pages_.begin() + (long)i);
			}
			set<manage_pages_out::output_num_entries>(out, k);
		}
		break;
	}
	case op::ALLOC_UAR:
		if (outlen >= alloc_uar_out::size_bytes)
			set<alloc_uar_out::uar>(Ref<alloc_uar_out>(o), kUar);
		break;
	case op::CREATE_EQ: {
		if (inlen < create_eq_in::size_bytes || outlen < create_eq_out::size_bytes)
			break;
		CRef<create_eq_in> in(c.in.data());
		auto ctx = sub<create_eq_in::eq_context_entry, eqc>(in);
		uint32_t log = (uint32_t)get<eqc::log_eq_size>(ctx);
		uint32_t npas = create_eq_in_pas::entries_in(inlen);
		uint64_t need = ((uint64_t)64 << log) / ADAPTER_PAGE_SIZE;
		if (!log || log > 16 || npas < (need ? need : 1) || get<eqc::log_page_size>(ctx)) {
			set<cmd_out::status>(Ref<cmd_out>(o), cmd_status::BAD_PARAM_ERR);
			break;
		}
		eq_pas_.clear();
		for (uint32_t i = 0; i < npas; i++)
			eq_pas_.push_back(get_pas<create_eq_in_pas>(in, i));
		eq_log_size_ = log;
		eq_pi_ = eq_ci_ = 0;
		eq_cmd_ = load_be64(bytes<create_eq_in::event_bitmask>(in)) & (1ull << event::CMD);
		set<create_eq_out::eq_number>(Ref<create_eq_out>(o), kEqn);
		break;
	}
	case op::DESTROY_EQ:
		eq_log_size_ = 0;
		eq_cmd_ = false;
		eq_pas_.clear();
		break;
	default:
		break; // status OK, output zeroed
	}
}

bool FakeDevice::post_eqe(uint8_t type, uint8_t sub_type, const uint8_t *data28)
{
	if (!eq_created() || eq_pi_ - eq_ci_ >= eq_entries())
		return false;
	uint8_t raw[64] = {};
	Ref<eqe> r(raw);
	set<eqe::event_type>(r, type);
	set<eqe::event_sub_type>(r, sub_type);
	std::memcpy(bytes<eqe::event_data>(r), data28, 28);
	set<eqe::owner>(r, (eq_pi_ >> eq_log_size_) & 1);
	bool ok = write_eqe_raw(eq_pi_, raw);
	eq_pi_++;
	return ok;
}

bool FakeDevice::write_eqe_raw(uint32_t idx, const uint8_t *bytes64)
{
	if (!eq_created())
		return false;
	uint64_t off = (uint64_t)(idx & (eq_entries() - 1)) * 64;
	uint32_t page = (uint32_t)(off / ADAPTER_PAGE_SIZE);
	if (page >= eq_pas_.size())
		return false;
	uint8_t *p = dma(eq_pas_[page] + off % ADAPTER_PAGE_SIZE, 64);
	if (!p)
		return false;
	std::memcpy(p, bytes64, 64);
	return true;
}

} // namespace cxprm::fuzz
