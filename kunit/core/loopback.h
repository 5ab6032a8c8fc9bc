/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * An in-kernel loopback device for the engine's KUnit cases: a host
 * interface (struct cxprm_host) whose "BAR" is an init segment in memory
 * and whose command doorbell completes the rung entries on the spot.
 *
 * DMA memory comes from the kernel (kvzalloc through the bridge) with
 * made-up bus addresses above 4 GiB (so the high halves of every pointer
 * matter); the responder finds memory by bus address, as a device would.
 *
 * On a doorbell the responder checks what the core wrote with its own
 * code, not the core's helpers: ownership, type, the entry signature (XOR
 * of the 64 bytes 0xff), the input chain (pointers, block numbers, tokens,
 * both block signatures), the output chain.  A violation is answered with
 * the PRM delivery status and counted.  Otherwise it answers: command
 * status and syndrome from the knobs, output byte i = input byte i ^ 0xa5
 * (i >= 8, while the input reaches), else (u8)i; signs the output blocks
 * and the entry and clears the ownership bit.  Fault knobs spoil the
 * answer the ways firmware can.
 *
 * No heap, no library: freestanding like the core.  Thread-safe for
 * commands in different slots (the doorbell of each thread carries only
 * its own slot's bit).
 */
#pragma once

#include "kt.h"
#include "cxprm/cmdq.h"
#include "cxprm/host.h"
#include "cxprm/types.h"

namespace cxprm::kt {

struct LoopFaults {
	bool stuck_owner;        /* never hand the entry back */
	u8 corrupt_signature;    /* 1 entry, 2 first output block */
	u8 wrong_token;          /* 1 entry, 2 first output block */
	u8 delivery_status;      /* answer this delivery status */
	u32 length_lie;          /* added to output_length */
	bool broken_chain;       /* first output block points elsewhere */
	u8 fw_status;            /* cmd_out.status */
	u32 syndrome;            /* cmd_out.syndrome */
	bool once;               /* the next command only, then all off */
};

class Loopback : public Placement {
public:
	static constexpr u32 MAX_BUFS = 160;
	static constexpr u64 BUS_BASE = 0x1234500000ull;
	static constexpr u32 ISEG_BYTES = 0x2000;

	/* Queue geometry the init segment reports. */
	void init(kunit *t, u32 log_size = 5, u32 log_stride = 6);
	void fini();
	const cxprm_host *host() const { return &host_; }

	LoopFaults faults{};
	/* The Cmdq to signal in event mode (complete_vector), or null. */
	Cmdq *notify = nullptr;
	/* Check input block signatures (off when the core does not sign). */
	bool check_input_signatures = true;
	/* Fails the n-th dma_alloc from now (0 = the next); -1 never. */
	int fail_dma_after = -1;

	/* Device state. */
	void set_gone(bool gone);
	void set_health_syndrome(u8 syndrome, bool rfr = true);
	/* Completes a slot that was left stuck (owner bit still 1). */
	void complete_late(u32 slot);

	/* Counters. */
	u32 dma_live() const { return live_; }
	u32 dma_allocs() const { return allocs_; }
	u32 doorbells() const { return __atomic_load_n(&doorbells_, __ATOMIC_RELAXED); }
	u32 answered() const { return __atomic_load_n(&answered_, __ATOMIC_RELAXED); }
	/* Commands the responder refused (each with its delivery status). */
	u32 refused() const { return __atomic_load_n(&refused_, __ATOMIC_RELAXED); }
	u8 last_refusal() const { return __atomic_load_n(&last_refusal_, __ATOMIC_RELAXED); }
	u8 last_token() const { return __atomic_load_n(&last_token_, __ATOMIC_RELAXED); }
	u32 reg(u32 off) const;
	/* CPU address of a bus address we handed out (len bytes inside it), or null. */
	u8 *cpu(u64 bus, u32 len);

private:
	static int dma_alloc_cb(void *ctx, cxprm_size size, cxprm_size align, cxprm_dma_buf *buf);
	static void dma_free_cb(void *ctx, cxprm_dma_buf *buf);
	static u32 ioread_cb(void *ctx, u32 off);
	static void iowrite_cb(void *ctx, u32 off, u32 val);
	static void *lock_create_cb(void *ctx);

	struct Buf {
		u8 *cpu;
		u64 bus;
		usize size;
		bool live;
	};

	void answer(u32 slot);
	u8 deliver(u8 *e, u32 slot);
	void refuse(u8 *e, u8 status);
	void finish(u8 *e, u32 slot);

	kunit *t_ = nullptr;
	cxprm_host_ops ops_{};
	cxprm_host host_{};
	void *table_lock_ = nullptr;
	Buf bufs_[MAX_BUFS] = {};
	u64 next_bus_ = BUS_BASE;
	u32 live_ = 0, allocs_ = 0;
	u32 iseg_[ISEG_BYTES / 4] = {};
	u32 log_stride_ = 6;
	bool gone_ = false;
	u32 doorbells_ = 0, answered_ = 0, refused_ = 0;
	u8 last_refusal_ = 0, last_token_ = 0;
};

/* An input of inlen bytes with opcode/op_mod and a pattern after the header. */
void make_input(u8 *in, u32 inlen, u16 opcode, u16 op_mod, u32 seed);
/* Whether out is the loopback's answer to in (status bytes excluded). */
bool answer_ok(const u8 *in, u32 inlen, const u8 *out, u32 outlen);

} // namespace cxprm::kt
