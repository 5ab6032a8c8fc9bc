// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The in-kernel loopback device (loopback.h).  Its checks of what the core
// wrote are its own code on purpose: a bug in the core's signature or
// chain helpers must not be mirrored by the responder.
#include "loopback.h"

#include "cxprm/errors.h"
#include "cxprm/prm/transport.h"

namespace cxprm::kt {

using E = prm::cmd_queue_entry;
using B = prm::cmd_if_box;

namespace {
constexpr u32 ENTRY = 64;
constexpr u32 BLOCK = 576;
constexpr u32 DATA = 512;
constexpr u32 INLINE = 16;
constexpr u32 OWNER_BYTE = 63;
constexpr u32 CTRL_FROM = 0x200; /* control part of a block */
constexpr u32 CTRL_SIG_AT = 0x23e;
constexpr u32 SIG_AT = 0x23f;

/* Delivery statuses (PRM cmd_queue_entry.status). */
constexpr u8 D_SIGNATURE = 0x01, D_TOKEN = 0x02, D_BLOCK_NUM = 0x03, D_OUT_PTR = 0x04,
	     D_IN_PTR = 0x05, D_IN_LEN = 0x07, D_OUT_LEN = 0x08, D_TYPE = 0x10;

u32 blocks_for(u32 len)
{
	return len <= INLINE ? 0 : (len - INLINE + DATA - 1) / DATA;
}

u64 next_of(const u8 *b)
{
	prm::CRef<B> r(b);
	return prm::get<B::next_pointer_63_32>(r) << 32 | prm::get<B::next_pointer_31_10>(r) << 10;
}

void set_next(u8 *b, u64 bus)
{
	prm::Ref<B> r(b);
	prm::set<B::next_pointer_63_32>(r, bus >> 32);
	prm::set<B::next_pointer_31_10>(r, (u32)bus >> 10);
}

bool block_sig_ok(const u8 *b)
{
	return xor_bytes(b + CTRL_FROM, CTRL_SIG_AT + 1 - CTRL_FROM) == 0xff &&
	       xor_bytes(b, BLOCK) == 0xff;
}

void sign_block(u8 *b)
{
	b[CTRL_SIG_AT] = 0;
	b[SIG_AT] = 0;
	b[CTRL_SIG_AT] = (u8)~xor_bytes(b + CTRL_FROM, CTRL_SIG_AT - CTRL_FROM);
	b[SIG_AT] = (u8)~xor_bytes(b, SIG_AT);
}

u8 out_byte(u32 j, bool have_in, u8 in)
{
	return have_in ? (u8)(in ^ 0xa5) : (u8)j;
}
} // namespace

void Loopback::init(kunit *t, u32 log_size, u32 log_stride)
{
	t_ = t;
	log_stride_ = log_stride;
	ops_.dma_alloc = dma_alloc_cb;
	ops_.dma_free = dma_free_cb;
	ops_.mem_alloc = [](void *, cxprm_size n) { return cxprm_kt_zalloc(n); };
	ops_.mem_free = [](void *, void *p) { cxprm_kt_free(p); };
	ops_.ioread32be = ioread_cb;
	ops_.iowrite32be = iowrite_cb;
	ops_.wmb = [](void *) { __atomic_thread_fence(__ATOMIC_RELEASE); };
	ops_.rmb = [](void *) { __atomic_thread_fence(__ATOMIC_ACQUIRE); };
	ops_.lock_create = lock_create_cb;
	ops_.lock_destroy = [](void *, void *m) { cxprm_kt_mutex_destroy(m); };
	ops_.lock = [](void *, void *m) { cxprm_kt_mutex_lock(m); };
	ops_.unlock = [](void *, void *m) { cxprm_kt_mutex_unlock(m); };
	ops_.relax = [](void *) { cxprm_kt_relax(); };
	ops_.sleep_us = [](void *, u32 us) { cxprm_kt_sleep_us(us); };
	ops_.now_ns = [](void *) { return cxprm_kt_now_ns(); };
	ops_.waiter_create = [](void *) { return cxprm_kt_completion_create(); };
	ops_.waiter_destroy = [](void *, void *w) { cxprm_kt_completion_destroy(w); };
	ops_.waiter_wait = [](void *, void *w, u64 ns) { return cxprm_kt_completion_wait(w, ns); };
	ops_.waiter_signal = [](void *, void *w) { cxprm_kt_completion_signal(w); };
	ops_.log = nullptr;
	host_.ops = &ops_;
	host_.ctx = this;
	table_lock_ = cxprm_kt_mutex_create();
	KT_EXPECT(t, table_lock_ != nullptr);

	using S = prm::initial_seg;
	iseg_[prm::iseg::FW_REV / 4] = prm::to_dword<S::fw_rev_minor>(39) | prm::to_dword<S::fw_rev_major>(28);
	iseg_[prm::iseg::CMDIF_REV / 4] = prm::to_dword<S::cmd_interface_rev>(prm::CMDIF_REV) |
					  prm::to_dword<S::fw_rev_subminor>(1002);
	iseg_[prm::iseg::CMDQ_ADDR_L_SZ / 4] =
		prm::to_dword<S::log_cmdq_size>(log_size) | prm::to_dword<S::log_cmdq_stride>(log_stride);
}

void Loopback::fini()
{
	for (u32 i = 0; i < MAX_BUFS; i++)
		if (bufs_[i].live) {
			cxprm_kt_free(bufs_[i].cpu);
			bufs_[i] = {};
		}
	live_ = 0;
	if (table_lock_)
		cxprm_kt_mutex_destroy(table_lock_);
	table_lock_ = nullptr;
}

void *Loopback::lock_create_cb(void *)
{
	return cxprm_kt_mutex_create();
}

int Loopback::dma_alloc_cb(void *ctx, cxprm_size size, cxprm_size align, cxprm_dma_buf *buf)
{
	Loopback *lb = (Loopback *)ctx;
	int err = E_NOMEM;

	if (!size || !align || (align & (align - 1)))
		return E_INVAL;
	cxprm_kt_mutex_lock(lb->table_lock_);
	if (lb->fail_dma_after == 0) {
		lb->fail_dma_after = -1;
		goto out;
	}
	if (lb->fail_dma_after > 0)
		lb->fail_dma_after--;
	for (u32 i = 0; i < MAX_BUFS; i++) {
		Buf &b = lb->bufs_[i];
		if (b.live)
			continue;
		b.cpu = (u8 *)cxprm_kt_zalloc(size);
		if (!b.cpu)
			goto out;
		u64 a = align < 64 ? 64 : align;
		b.bus = (lb->next_bus_ + a - 1) & ~(a - 1);
		/* A gap after each buffer: an overrun is never another buffer. */
		lb->next_bus_ = b.bus + ((size + 63) & ~(u64)63) + 4096;
		b.size = size;
		b.live = true;
		lb->live_++;
		lb->allocs_++;
		buf->cpu = b.cpu;
		buf->bus = b.bus;
		buf->size = size;
		buf->cookie = &b;
		err = OK;
		goto out;
	}
	KT_EXPECT(lb->t_, !"loopback: DMA table full");
out:
	cxprm_kt_mutex_unlock(lb->table_lock_);
	return err;
}

void Loopback::dma_free_cb(void *ctx, cxprm_dma_buf *buf)
{
	Loopback *lb = (Loopback *)ctx;
	Buf *b = (Buf *)buf->cookie;

	if (!KT_EXPECT(lb->t_, b && b->live && b->cpu == buf->cpu))
		return;
	cxprm_kt_mutex_lock(lb->table_lock_);
	cxprm_kt_free(b->cpu);
	*b = {};
	lb->live_--;
	cxprm_kt_mutex_unlock(lb->table_lock_);
	*buf = {};
}

u8 *Loopback::cpu(u64 bus, u32 len)
{
	u8 *p = nullptr;

	cxprm_kt_mutex_lock(table_lock_);
	for (u32 i = 0; i < MAX_BUFS; i++) {
		const Buf &b = bufs_[i];
		if (b.live && bus >= b.bus && bus + len <= b.bus + b.size) {
			p = b.cpu + (bus - b.bus);
			break;
		}
	}
	cxprm_kt_mutex_unlock(table_lock_);
	return p;
}

u32 Loopback::reg(u32 off) const
{
	return off < ISEG_BYTES ? iseg_[off / 4] : 0;
}

u32 Loopback::ioread_cb(void *ctx, u32 off)
{
	Loopback *lb = (Loopback *)ctx;

	if (!KT_EXPECT(lb->t_, off % 4 == 0 && off < ISEG_BYTES))
		return 0;
	if (__atomic_load_n(&lb->gone_, __ATOMIC_ACQUIRE))
		return 0xffffffffu;
	return __atomic_load_n(&lb->iseg_[off / 4], __ATOMIC_ACQUIRE);
}

void Loopback::iowrite_cb(void *ctx, u32 off, u32 val)
{
	Loopback *lb = (Loopback *)ctx;

	if (!KT_EXPECT(lb->t_, off % 4 == 0 && off < ISEG_BYTES))
		return;
	if (off == prm::iseg::DOORBELL) {
		__atomic_fetch_add(&lb->doorbells_, 1, __ATOMIC_RELAXED);
		for (u32 slot = 0; slot < 32; slot++)
			if (val & (1u << slot))
				lb->answer(slot);
		return;
	}
	if (off == prm::iseg::CMDQ_ADDR_L_SZ) /* size and stride are the device's */
		val = (val & 0xfffff000u) | (lb->iseg_[off / 4] & 0xfffu);
	__atomic_store_n(&lb->iseg_[off / 4], val, __ATOMIC_RELEASE);
}

void Loopback::set_gone(bool gone)
{
	__atomic_store_n(&gone_, gone, __ATOMIC_RELEASE);
}

/*
 * Firmware's word on its health, where Linux reads it: the health buffer's
 * synd, with rfr (reset required) when 'rfr' (fatal), without it a warning.
 */
void Loopback::set_health_syndrome(u8 syndrome, bool rfr)
{
	using H = prm::health_buffer;
	u32 rfr_off = prm::iseg::HEALTH + prm::dword_byte_offset<H::rfr>();
	u32 synd_off = prm::iseg::HEALTH + prm::dword_byte_offset<H::synd>();

	__atomic_store_n(&iseg_[synd_off / 4], prm::to_dword<H::synd>(syndrome), __ATOMIC_RELEASE);
	__atomic_store_n(&iseg_[rfr_off / 4], prm::to_dword<H::rfr>(rfr ? 1 : 0), __ATOMIC_RELEASE);
}

/*
 * Signs the entry for its final byte 63 (status << 1, ownership 0), then
 * stores that byte last: the core's acquire load of it sees the rest.
 */
static void hand_back(u8 *e, u8 status, bool corrupt)
{
	u8 final63 = (u8)(status << 1);

	e[61] = 0;
	e[61] = (u8)~(xor_bytes(e, ENTRY) ^ e[OWNER_BYTE] ^ final63);
	if (corrupt)
		e[61] ^= 0x5a;
	__atomic_store_n(e + OWNER_BYTE, final63, __ATOMIC_RELEASE);
}

void Loopback::refuse(u8 *e, u8 status)
{
	__atomic_fetch_add(&refused_, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&last_refusal_, status, __ATOMIC_RELAXED);
	hand_back(e, status, false);
}

void Loopback::answer(u32 slot)
{
	u64 page = (u64)iseg_[prm::iseg::CMDQ_ADDR_H / 4] << 32 |
		   (iseg_[prm::iseg::CMDQ_ADDR_L_SZ / 4] & 0xfffff000u);
	u8 *e = cpu(page + ((u64)slot << log_stride_), ENTRY);

	if (!KT_EXPECT(t_, e != nullptr))
		return;
	if (!(__atomic_load_n(e + OWNER_BYTE, __ATOMIC_ACQUIRE) & 1)) {
		/* Rung without handing the entry over: firmware ignores it. */
		__atomic_fetch_add(&refused_, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&last_refusal_, (u8)0xff, __ATOMIC_RELAXED);
		return;
	}
	if (faults.stuck_owner) {
		if (faults.once)
			faults = {};
		return;
	}
	u8 st = deliver(e, slot);
	if (st)
		refuse(e, st);
	else
		finish(e, slot);
	if (faults.once)
		faults = {};
}

void Loopback::complete_late(u32 slot)
{
	bool stuck = faults.stuck_owner;

	faults.stuck_owner = false;
	answer(slot);
	faults.stuck_owner = stuck;
}

/*
 * Validates the entry and both chains and writes the answer into the
 * output chain.  Returns a delivery status, 0 when delivered.
 */
u8 Loopback::deliver(u8 *e, u32)
{
	prm::CRef<E> r(e);

	if (xor_bytes(e, ENTRY) != 0xff)
		return D_SIGNATURE;
	if (prm::get<E::type>(r) != prm::CMD_TYPE_PCIE)
		return D_TYPE;
	u32 inlen = (u32)prm::get<E::input_length>(r);
	u32 outlen = (u32)prm::get<E::output_length>(r);
	u8 token = (u8)prm::get<E::token>(r);
	__atomic_store_n(&last_token_, token, __ATOMIC_RELAXED);
	u64 ip = prm::get<E::input_mailbox_pointer_63_32>(r) << 32 |
		 prm::get<E::input_mailbox_pointer_31_9>(r) << 9;
	u64 op = prm::get<E::output_mailbox_pointer_63_32>(r) << 32 |
		 prm::get<E::output_mailbox_pointer_31_9>(r) << 9;
	u32 nin = blocks_for(inlen), nout = blocks_for(outlen);

	/* The input chain: every block ours, numbered, tokened, signed. */
	if (nin && ip % 1024)
		return D_IN_PTR;
	u64 bus = ip;
	for (u32 i = 0; i < nin; i++) {
		const u8 *b = cpu(bus, BLOCK);
		if (!b)
			return D_IN_PTR;
		prm::CRef<B> br(b);
		if (prm::get<B::block_number>(br) != i)
			return D_BLOCK_NUM;
		if (prm::get<B::token>(br) != token)
			return D_TOKEN;
		if (check_input_signatures && !block_sig_ok(b))
			return D_SIGNATURE;
		bus = next_of(b);
		if ((i + 1 < nin) != (bus != 0))
			return D_IN_LEN;
	}
	/* The output chain the driver prepared. */
	if (nout && op % 1024)
		return D_OUT_PTR;
	bus = op;
	for (u32 i = 0; i < nout; i++) {
		const u8 *b = cpu(bus, BLOCK);
		if (!b)
			return D_OUT_PTR;
		prm::CRef<B> br(b);
		if (prm::get<B::block_number>(br) != i || prm::get<B::token>(br) != token)
			return D_OUT_LEN;
		bus = next_of(b);
		if ((i + 1 < nout) != (bus != 0))
			return D_OUT_LEN;
	}

	/* The answer: header, then the input's bytes ^ 0xa5, then (u8)j. */
	const u8 *in_inline = prm::bytes<E::command_input_inline_data>(r);
	u8 *out_inline = e + E::command_output_inline_data::offset / 8;
	u8 hdr[8] = {faults.fw_status, 0, 0, 0};
	store_be32(hdr + 4, faults.syndrome);
	for (u32 j = 0; j < INLINE; j++)
		out_inline[j] = j < 8 ? hdr[j] : j < outlen ? out_byte(j, j < inlen, in_inline[j]) : 0;
	const u8 *inb = nin ? cpu(ip, BLOCK) : nullptr;
	u8 *outb = nout ? cpu(op, BLOCK) : nullptr;
	for (u32 k = 0; k < nout; k++) {
		/* The chain as we found it, before a fault bends it. */
		u8 *next_out = k + 1 < nout ? cpu(next_of(outb), BLOCK) : nullptr;
		for (u32 x = 0; x < DATA; x++) {
			u32 j = INLINE + k * DATA + x;
			outb[x] = j < outlen ? out_byte(j, j < inlen, inb ? inb[x] : 0) : 0;
		}
		sign_block(outb);
		if (k == 0 && faults.wrong_token == 2) {
			prm::Ref<B> br(outb);
			prm::set<B::token>(br, token ^ 0x80);
			sign_block(outb);
		}
		if (k == 0 && faults.broken_chain) {
			set_next(outb, next_of(outb) ? next_of(outb) + 8 * 1024 : BUS_BASE + 0x40000000ull);
			sign_block(outb);
		}
		if (k == 0 && faults.corrupt_signature == 2)
			outb[SIG_AT] ^= 0x5a;
		if (inb)
			inb = next_of(inb) ? cpu(next_of(inb), BLOCK) : nullptr;
		outb = next_out;
	}
	return 0;
}

/* Hands a delivered entry back: lengths, token, signature, ownership. */
void Loopback::finish(u8 *e, u32 slot)
{
	prm::Ref<E> r(e);

	if (faults.length_lie)
		prm::set<E::output_length>(r, prm::get<E::output_length>(r) + faults.length_lie);
	if (faults.wrong_token == 1)
		prm::set<E::token>(r, prm::get<E::token>(r) ^ 0x80);
	hand_back(e, faults.delivery_status, faults.corrupt_signature == 1);
	__atomic_fetch_add(&answered_, 1, __ATOMIC_RELAXED);
	if (notify)
		notify->complete_vector(1u << slot);
}

void make_input(u8 *in, u32 inlen, u16 opcode, u16 op_mod, u32 seed)
{
	pattern(in, inlen, seed);
	prm::Ref<prm::cmd_in> r(in);
	mem_zero(in, min_of(inlen, prm::cmd_in::size_bytes));
	prm::set<prm::cmd_in::opcode>(r, opcode);
	prm::set<prm::cmd_in::op_mod>(r, op_mod);
}

bool answer_ok(const u8 *in, u32 inlen, const u8 *out, u32 outlen)
{
	for (u32 j = 8; j < outlen; j++)
		if (out[j] != out_byte(j, j < inlen, j < inlen ? in[j] : 0))
			return false;
	return true;
}

} // namespace cxprm::kt
