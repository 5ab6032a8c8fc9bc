// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// KUnit suite cxprm_core_engine: the command engine (cmdq.h) as the kernel
// build compiles it, against the in-kernel loopback device (loopback.h):
// queue geometry, entry layout and signature, tokens, mailbox chains at
// their boundaries, owner-bit completion, timeouts and stuck slots, every
// way firmware output can be wrong, dead and gone devices, the page slot,
// allocation failures, event-mode completion, kernel threads sharing the
// queue, shutdown and statistics.
#include "kt.h"
#include "loopback.h"

#include "cxprm/cmdq.h"
#include "cxprm/errors.h"
#include "cxprm/prm/transport.h"

using namespace cxprm;
using namespace cxprm::kt;
using E = prm::cmd_queue_entry;

namespace {
constexpr u64 MS = 1000 * 1000;
constexpr u32 MAXLEN = 16 + 8 * 512;
constexpr u32 THREADS = 8;
constexpr u32 PER_THREAD = 100;
constexpr u32 TLEN = 16 + 2 * 300;
constexpr u16 OPCODE = 0x123;

struct EngEnv : Placement {
	kunit *t;
	Loopback lb;
	Cmdq q;
	u8 in[MAXLEN];
	u8 out[MAXLEN];
	u8 blocks[4 * prm::MAILBOX_SIZE];
	/* concurrent_commands */
	u8 tin[THREADS][TLEN];
	u8 tout[THREADS][TLEN];
	u32 tfail[THREADS];
	u32 tbad[THREADS];
};

CmdqConfig config(u64 timeout_ms)
{
	CmdqConfig c;

	c.timeout_ns = timeout_ms * MS;
	c.slot_wait_ns = 100 * MS;
	/* The loopback signs like firmware with checksums on. */
	c.verify_signatures = true;
	return c;
}

/* A loopback and a queue on it; null (and a failed check) if not. */
EngEnv *start_with(kunit *t, const CmdqConfig &cfg, u32 log_size = 5, bool sign_inputs = true)
{
	EngEnv *e = make<EngEnv>(t);

	if (!KT_EXPECT(t, e != nullptr))
		return nullptr;
	e->t = t;
	e->lb.init(t, log_size);
	e->lb.check_input_signatures = sign_inputs;
	if (!KT_EXPECT_EQ(t, e->q.init(e->lb.host(), cfg), OK)) {
		e->lb.fini();
		return nullptr;
	}
	return e;
}

EngEnv *start(kunit *t, u64 timeout_ms = 50, u32 log_size = 5)
{
	return start_with(t, config(timeout_ms), log_size);
}

/* Frees the queue; every DMA buffer must be back. */
void stop(kunit *t, EngEnv *e)
{
	e->lb.set_gone(false);
	e->q.fini();
	KT_EXPECT_EQ(t, e->lb.dma_live(), 0);
	e->lb.fini();
}

int run(EngEnv *e, u32 inlen, u32 outlen, CmdResult *res = nullptr, u32 seed = 1, u32 flags = 0,
	u16 opcode = OPCODE)
{
	make_input(e->in, inlen, opcode, 0, seed);
	for (u32 i = 0; i < outlen; i++)
		e->out[i] = 0xee;
	return e->q.exec(e->in, inlen, e->out, outlen, res, flags);
}

bool answered(EngEnv *e, u32 inlen, u32 outlen)
{
	return answer_ok(e->in, inlen, e->out, outlen);
}

u64 elapsed_ms(u64 t0)
{
	return (cxprm_kt_now_ns() - t0) / MS;
}

/*
 * One command with the fault armed for it alone must fail with 'want'
 * (its result in *res), the next one must go through.
 */
void once_then_ok(kunit *t, EngEnv *e, u32 outlen, int want, CmdResult *res = nullptr)
{
	CmdResult next;

	e->lb.faults.once = true;
	KT_EXPECT_EQ(t, run(e, 16, outlen, res), want);
	KT_EXPECT_EQ(t, run(e, 16, outlen, &next), OK);
	KT_EXPECT_EQ(t, next.delivery, 0);
}
} // namespace

void cxprm_kt_engine_geometry_from_init_segment(kunit *t)
{
	EngEnv *e = start(t);

	if (!e)
		return;
	KT_EXPECT_EQ(t, e->q.entries(), 32);
	KT_EXPECT_EQ(t, e->q.log_stride(), 6);
	u64 bus = e->q.queue_page().bus;
	KT_EXPECT_EQ(t, bus % 4096, 0);
	KT_EXPECT_EQ(t, bus >> 32, Loopback::BUS_BASE >> 32);
	KT_EXPECT_EQ(t, e->lb.reg(prm::iseg::CMDQ_ADDR_H), (u32)(bus >> 32));
	u32 lo = e->lb.reg(prm::iseg::CMDQ_ADDR_L_SZ);
	KT_EXPECT_EQ(t, lo & 0xfffff000u, (u32)bus);
	KT_EXPECT_EQ(t, lo & 0xff, 5 << 4 | 6);
	KT_EXPECT_EQ(t, e->lb.doorbells(), 0);
	KT_EXPECT_EQ(t, e->lb.dma_live(), 1); /* the queue page; chains grow on demand */
	KT_EXPECT_EQ(t, e->q.in_flight(), 0);
	stop(t, e);
}

void cxprm_kt_engine_refuses_bad_geometry(kunit *t)
{
	static const struct {
		u32 log_size, log_stride;
		int want;
	} cases[] = {
		{3, 6, OK},       /* 8 entries */
		{0, 6, OK},       /* 1 entry */
		{6, 6, E_PROTO},  /* 64 entries: more than the doorbell has bits */
		{5, 8, E_PROTO},  /* 32 x 256 bytes: beyond the 4 KiB page */
		{4, 5, E_PROTO},  /* 32-byte entries */
	};
	for (const auto &c : cases) {
		EngEnv *e = make<EngEnv>(t);
		if (!KT_EXPECT(t, e != nullptr))
			return;
		e->lb.init(t, c.log_size, c.log_stride);
		KT_EXPECT_EQ(t, e->q.init(e->lb.host(), config(50)), c.want);
		if (c.want == OK)
			KT_EXPECT_EQ(t, e->q.entries(), 1u << c.log_size);
		e->q.fini();
		KT_EXPECT_EQ(t, e->lb.dma_live(), 0);
		e->lb.fini();
	}
	/* A device that reads all ones is gone, not misconfigured. */
	EngEnv *e = make<EngEnv>(t);
	if (!KT_EXPECT(t, e != nullptr))
		return;
	e->lb.init(t);
	e->lb.set_gone(true);
	KT_EXPECT_EQ(t, e->q.init(e->lb.host(), config(50)), E_NODEV);
	KT_EXPECT_EQ(t, e->lb.dma_live(), 0);
	e->lb.fini();
}

void cxprm_kt_engine_bad_arguments(kunit *t)
{
	EngEnv *e = make<EngEnv>(t);

	if (!KT_EXPECT(t, e != nullptr))
		return;
	/* Not initialised yet. */
	KT_EXPECT_EQ(t, e->q.exec(e->in, 16, e->out, 16), E_SHUTDOWN);
	e->lb.init(t);
	if (!KT_EXPECT_EQ(t, e->q.init(e->lb.host(), config(50)), OK)) {
		e->lb.fini();
		return;
	}
	KT_EXPECT_EQ(t, e->q.init(e->lb.host(), config(50)), E_INVAL); /* twice */
	KT_EXPECT_EQ(t, e->q.exec(nullptr, 16, e->out, 16), E_INVAL);
	KT_EXPECT_EQ(t, e->q.exec(e->in, 16, nullptr, 16), E_INVAL);
	KT_EXPECT_EQ(t, e->q.exec(e->in, 7, e->out, 16), E_INVAL);
	KT_EXPECT_EQ(t, e->q.exec(e->in, 16, e->out, 11), E_INVAL);
	KT_EXPECT_EQ(t, e->q.exec(e->in, e->q.config().max_msg_bytes + 1, e->out, 16), E_INVAL);
	KT_EXPECT_EQ(t, e->lb.doorbells(), 0);
	stop(t, e);
}

void cxprm_kt_engine_entry_format_and_signature(kunit *t)
{
	const u32 inlen = 16 + 512 + 1, outlen = 16 + 512;
	EngEnv *e = start(t);

	if (!e)
		return;
	CmdCapture cap;
	CmdResult res;
	cap.blocks = e->blocks;
	cap.blocks_cap = 4;
	make_input(e->in, inlen, OPCODE, 0x5, 77);
	KT_EXPECT_EQ(t, e->q.exec(e->in, inlen, e->out, outlen, &res, 0, &cap), OK);
	KT_EXPECT_EQ(t, e->lb.refused(), 0);
	KT_EXPECT_EQ(t, e->lb.answered(), 1);
	KT_EXPECT_EQ(t, e->lb.doorbells(), 1);
	KT_EXPECT(t, answered(e, inlen, outlen));

	prm::CRef<E> posted(cap.entry_posted), done(cap.entry_completed);
	KT_EXPECT_EQ(t, prm::get<E::type>(posted), prm::CMD_TYPE_PCIE);
	KT_EXPECT_EQ(t, prm::get<E::input_length>(posted), inlen);
	KT_EXPECT_EQ(t, prm::get<E::output_length>(posted), outlen);
	KT_EXPECT_EQ(t, prm::get<E::ownership>(posted), 1);
	KT_EXPECT_EQ(t, prm::get<E::status>(posted), 0);
	KT_EXPECT_EQ(t, prm::get<E::token>(posted), res.token);
	KT_EXPECT_EQ(t, e->lb.last_token(), res.token);
	/* The signature: the 64 bytes XOR to 0xff, as rung and as handed back. */
	KT_EXPECT_EQ(t, xor_bytes(cap.entry_posted, 64), 0xff);
	KT_EXPECT_EQ(t, xor_bytes(cap.entry_completed, 64), 0xff);
	KT_EXPECT_EQ(t, prm::get<E::ownership>(done), 0);
	u32 same = 0;
	for (u32 i = 0; i < 16; i++)
		same += cap.entry_posted[16 + i] == e->in[i];
	KT_EXPECT_EQ(t, same, 16);
	u64 ip = prm::get<E::input_mailbox_pointer_63_32>(posted) << 32 |
		 prm::get<E::input_mailbox_pointer_31_9>(posted) << 9;
	KT_EXPECT_EQ(t, ip >> 32, Loopback::BUS_BASE >> 32);
	KT_EXPECT_EQ(t, ip % 1024, 0);
	/* Two input blocks, one output block, each numbered, tokened, signed. */
	KT_EXPECT_EQ(t, cap.in_blocks, 2);
	KT_EXPECT_EQ(t, cap.out_blocks, 1);
	KT_EXPECT(t, !cap.truncated);
	for (u32 b = 0; b < cap.in_blocks + cap.out_blocks; b++) {
		const u8 *blk = e->blocks + b * prm::MAILBOX_SIZE;
		prm::CRef<prm::cmd_if_box> br(blk);
		KT_EXPECT_EQ(t, prm::get<prm::cmd_if_box::token>(br), res.token);
		KT_EXPECT_EQ(t, prm::get<prm::cmd_if_box::block_number>(br), b < 2 ? b : 0);
		KT_EXPECT_EQ(t, xor_bytes(blk, prm::MAILBOX_SIZE), 0xff);
		KT_EXPECT_EQ(t, xor_bytes(blk + 0x200, 0x3f), 0xff);
	}
	same = 0;
	for (u32 i = 0; i < 512; i++)
		same += e->blocks[i] == e->in[16 + i];
	KT_EXPECT_EQ(t, same, 512);
	KT_EXPECT_EQ(t, e->blocks[prm::MAILBOX_SIZE], e->in[528]);
	KT_EXPECT_EQ(t, res.delivery, 0);
	KT_EXPECT_EQ(t, res.status, 0);
	stop(t, e);
}

void cxprm_kt_engine_tokens_skip_zero(kunit *t)
{
	EngEnv *e = start(t);

	if (!e)
		return;
	u32 prev = 0, wraps = 0, bad = 0, fails = 0, mismatch = 0;
	for (u32 i = 0; i < 600; i++) {
		CmdResult res;
		if (run(e, 16, 16, &res, i) != OK) {
			fails++;
			continue;
		}
		bad += res.token == 0;
		mismatch += res.token != e->lb.last_token();
		if (prev && res.token != prev + 1) {
			bad += !(prev == 255 && res.token == 1);
			wraps++;
		}
		prev = res.token;
	}
	KT_EXPECT_EQ(t, fails, 0);
	KT_EXPECT_EQ(t, bad, 0);
	KT_EXPECT_EQ(t, mismatch, 0);
	KT_EXPECT_EQ(t, wraps, 2);
	stop(t, e);
}

void cxprm_kt_engine_chain_boundaries(kunit *t)
{
	static const u32 lens[] = {16, 17, 528, 529, 1040, 1041, MAXLEN};
	EngEnv *e = start(t);

	if (!e)
		return;
	u32 n = 0;
	for (u32 inlen : lens)
		for (u32 outlen : lens) {
			CmdResult res;
			int err = run(e, inlen, outlen, &res, inlen ^ outlen);
			if (!KT_EXPECT_EQ(t, err, OK) || !KT_EXPECT(t, answered(e, inlen, outlen)))
				cxprm_kt_note(t, "lengths in/out", (long long)inlen << 32 | outlen);
			n++;
		}
	KT_EXPECT_EQ(t, e->lb.answered(), n);
	KT_EXPECT_EQ(t, e->lb.refused(), 0);
	/* The queue page and slot 0's two chains, grown to the largest message. */
	KT_EXPECT_EQ(t, e->lb.dma_live(), 3);
	stop(t, e);
}

void cxprm_kt_engine_status_apart_from_delivery(kunit *t)
{
	const u32 outlen = 16 + 100;
	EngEnv *e = start(t);

	if (!e)
		return;
	CmdResult res;
	e->lb.faults.fw_status = 0x2;
	e->lb.faults.syndrome = 0x1234abcd;
	KT_EXPECT_EQ(t, run(e, 16, outlen, &res), E_REMOTEIO);
	KT_EXPECT_EQ(t, res.delivery, 0);
	KT_EXPECT_EQ(t, res.status, 0x2);
	KT_EXPECT_EQ(t, res.syndrome, 0x1234abcd);
	KT_EXPECT_EQ(t, e->out[0], 0x2);
	KT_EXPECT(t, answered(e, 16, outlen)); /* the output is valid */
	e->lb.faults = {};
	KT_EXPECT_EQ(t, run(e, 16, outlen, &res), OK);
	KT_EXPECT_EQ(t, res.status, 0);
	stop(t, e);
}

void cxprm_kt_engine_stuck_owner_times_out(kunit *t)
{
	EngEnv *e = start(t, 50);

	if (!e)
		return;
	CmdResult res;
	e->lb.faults.stuck_owner = true;
	u64 t0 = cxprm_kt_now_ns();
	KT_EXPECT_EQ(t, run(e, 16, 16, &res), E_TIMEDOUT);
	u64 ms = elapsed_ms(t0);
	KT_EXPECT_GE(t, ms, 50);
	KT_EXPECT_LT(t, ms, 5000);
	KT_EXPECT_GE(t, res.latency_ns, 50 * MS);
	u8 stuck = res.slot;
	/* The slot stays reserved: the device may still write into it. */
	KT_EXPECT_EQ(t, e->q.in_flight(), 1);
	e->lb.faults = {};
	KT_EXPECT_EQ(t, run(e, 16, 16, &res), OK);
	KT_EXPECT_NE(t, res.slot, stuck);
	KT_EXPECT_EQ(t, e->q.in_flight(), 1);
	CmdRecord rec[2];
	KT_EXPECT_EQ(t, e->q.stats_last(rec, 2), 2);
	KT_EXPECT_EQ(t, rec[0].err, E_TIMEDOUT);
	KT_EXPECT_EQ(t, rec[1].err, OK);
	stop(t, e);
}

void cxprm_kt_engine_stuck_slot_reused_after_handback(kunit *t)
{
	EngEnv *e = start(t, 30);

	if (!e)
		return;
	CmdResult res;
	e->lb.faults.stuck_owner = true;
	KT_EXPECT_EQ(t, run(e, 16, 16, &res), E_TIMEDOUT);
	u8 first = res.slot;
	KT_EXPECT_EQ(t, run(e, 16, 16, &res), E_TIMEDOUT);
	KT_EXPECT_NE(t, res.slot, first);
	u8 second = res.slot;
	KT_EXPECT_EQ(t, e->q.in_flight(), 2);
	/* The device hands both back late. */
	e->lb.faults = {};
	e->lb.complete_late(first);
	e->lb.complete_late(second);
	KT_EXPECT_EQ(t, run(e, 16, 16, &res), OK);
	KT_EXPECT_EQ(t, res.slot, first < second ? first : second);
	KT_EXPECT_EQ(t, e->q.in_flight(), 0);
	stop(t, e);
}

void cxprm_kt_engine_corrupt_output_signature(kunit *t)
{
	const u32 outlen = 16 + 512;
	EngEnv *e = start(t);

	if (!e)
		return;
	for (u8 where = 1; where <= 2; where++) {
		e->lb.faults.corrupt_signature = where;
		once_then_ok(t, e, outlen, E_BADMSG);
	}
	stop(t, e);

	/* With signatures off, a bad output signature goes unnoticed. */
	CmdqConfig c = config(50);
	c.verify_signatures = false;
	e = start_with(t, c, 5, false);
	if (!e)
		return;
	e->lb.faults.corrupt_signature = 2;
	KT_EXPECT_EQ(t, run(e, 16 + 600, outlen), OK);
	KT_EXPECT(t, answered(e, 16 + 600, outlen));
	stop(t, e);
}

void cxprm_kt_engine_wrong_token(kunit *t)
{
	const u32 outlen = 16 + 512;
	EngEnv *e = start(t);

	if (!e)
		return;
	/* Not checked (A12: no reference driver reads the token back). */
	for (u8 where = 1; where <= 2; where++) {
		e->lb.faults.wrong_token = where;
		once_then_ok(t, e, outlen, OK);
	}
	stop(t, e);
}

void cxprm_kt_engine_delivery_status(kunit *t)
{
	EngEnv *e = start(t);

	if (!e)
		return;
	CmdResult res;
	e->lb.faults.delivery_status = 0x06;
	once_then_ok(t, e, 16 + 64, E_IO, &res);
	KT_EXPECT_EQ(t, res.delivery, 0x06);
	stop(t, e);
}

void cxprm_kt_engine_output_length_lie(kunit *t)
{
	EngEnv *e = start(t);

	if (!e)
		return;
	static const u32 lies[] = {1, 4096};

	/* Not read back (A12): the output is read for the length asked. */
	for (u32 lie : lies) {
		e->lb.faults.length_lie = lie;
		once_then_ok(t, e, 16 + 512, OK);
	}
	stop(t, e);
}

void cxprm_kt_engine_broken_chain(kunit *t)
{
	EngEnv *e = start(t);

	if (!e)
		return;
	/*
	 * A first block pointing at memory we never chained, and a single
	 * block claiming a successor.
	 */
	static const u32 outlens[] = {16 + 2 * 512, 16 + 512};

	for (u32 outlen : outlens) {
		e->lb.faults.broken_chain = true;
		once_then_ok(t, e, outlen, E_PROTO);
	}
	stop(t, e);
}

void cxprm_kt_engine_dead_or_gone_while_waiting(kunit *t)
{
	for (int gone = 0; gone < 2; gone++) {
		EngEnv *e = start(t, 10000);
		if (!e)
			return;
		e->lb.faults.stuck_owner = true;
		if (gone)
			e->lb.set_gone(true);
		else
			e->lb.set_health_syndrome(0x07);
		u64 t0 = cxprm_kt_now_ns();
		KT_EXPECT_EQ(t, run(e, 16, 16), gone ? E_NODEV : E_FWDEAD);
		KT_EXPECT_LT(t, elapsed_ms(t0), 3000); /* not left to the 10 s timeout */
		KT_EXPECT_EQ(t, e->q.device_gone(), gone);
		KT_EXPECT_EQ(t, e->q.in_flight(), 1); /* the slot stays with the device */
		stop(t, e);
	}
}

/*
 * Linux's rule: a syndrome without rfr is no reason to give up, nor is the
 * old initial_seg.health_syndrome byte (never read): the command times out
 * like any other, the device is not marked failed.
 */
void cxprm_kt_engine_syndrome_without_rfr_not_fatal(kunit *t)
{
	EngEnv *e = start(t, 300);

	if (!e)
		return;
	e->lb.faults.stuck_owner = true;
	e->lb.set_health_syndrome(0x10, false);
	KT_EXPECT_EQ(t, run(e, 16, 16), E_TIMEDOUT);
	KT_EXPECT_EQ(t, e->q.failed(), OK);
	KT_EXPECT_EQ(t, e->q.health_poll(), OK);
	stop(t, e);
}

void cxprm_kt_engine_page_slot_reserved(kunit *t)
{
	EngEnv *e = start(t, 20, 2); /* 4 entries: 3 regular, 1 for MANAGE_PAGES */

	if (!e)
		return;
	CmdResult res;
	u32 seen = 0;
	e->lb.faults.stuck_owner = true;
	for (u32 i = 0; i < 3; i++) {
		KT_EXPECT_EQ(t, run(e, 16, 16, &res), E_TIMEDOUT);
		seen |= 1u << res.slot;
	}
	KT_EXPECT_EQ(t, seen, 0x7);
	e->lb.faults = {};
	/* Every regular slot is stuck: a regular command waits, then gives up. */
	KT_EXPECT_EQ(t, run(e, 16, 16, &res), E_BUSY);
	/* Page supply still gets through on the reserved slot. */
	KT_EXPECT_EQ(t, run(e, 16, 16, &res, 1, EXEC_PAGE_SLOT), OK);
	KT_EXPECT_EQ(t, res.slot, 3);
	for (u32 s = 0; s < 3; s++)
		e->lb.complete_late(s);
	KT_EXPECT_EQ(t, run(e, 16, 16, &res), OK);
	KT_EXPECT_EQ(t, e->q.in_flight(), 0);
	stop(t, e);
}

void cxprm_kt_engine_allocation_failures(kunit *t)
{
	const u32 inlen = 16 + 1024, outlen = 16 + 1024;
	EngEnv *e = make<EngEnv>(t);

	if (!KT_EXPECT(t, e != nullptr))
		return;
	e->lb.init(t);
	e->lb.fail_dma_after = 0; /* the queue page */
	KT_EXPECT_EQ(t, e->q.init(e->lb.host(), config(50)), E_NOMEM);
	KT_EXPECT_EQ(t, e->lb.dma_live(), 0);
	if (!KT_EXPECT_EQ(t, e->q.init(e->lb.host(), config(50)), OK)) {
		e->lb.fini();
		return;
	}
	/* The input chain, then the output chain, cannot be allocated. */
	for (int n = 0; n < 2; n++) {
		e->lb.fail_dma_after = n;
		KT_EXPECT_EQ(t, run(e, inlen, outlen), E_NOMEM);
		KT_EXPECT_EQ(t, e->q.in_flight(), 0);
	}
	KT_EXPECT_EQ(t, e->lb.doorbells(), 0);
	KT_EXPECT_EQ(t, run(e, inlen, outlen), OK);
	KT_EXPECT(t, answered(e, inlen, outlen));
	stop(t, e);
}

void cxprm_kt_engine_event_mode_completion(kunit *t)
{
	EngEnv *e = start(t, 40);

	if (!e)
		return;
	e->lb.notify = &e->q;
	KT_EXPECT_EQ(t, e->q.set_mode(CmdqMode::EVENTS), OK);
	u32 fails = 0;
	for (u32 i = 0; i < 100; i++)
		fails += run(e, 16 + i, 16 + 2 * i, nullptr, i) != OK || !answered(e, 16 + i, 16 + 2 * i);
	KT_EXPECT_EQ(t, fails, 0);
	/* No completion event: the waiter times out like the poller. */
	e->lb.faults.stuck_owner = true;
	u64 t0 = cxprm_kt_now_ns();
	KT_EXPECT_EQ(t, run(e, 16, 16), E_TIMEDOUT);
	KT_EXPECT_GE(t, elapsed_ms(t0), 40);
	e->lb.faults = {};
	KT_EXPECT_EQ(t, e->q.set_mode(CmdqMode::POLLING), OK);
	e->lb.notify = nullptr;
	KT_EXPECT_EQ(t, run(e, 16, 16), OK);
	stop(t, e);
}

namespace {
void worker(void *ctx, unsigned int i)
{
	EngEnv *e = (EngEnv *)ctx;
	u8 *in = e->tin[i], *out = e->tout[i];

	for (u32 k = 0; k < PER_THREAD; k++) {
		u32 inlen = 16 + (k % 3) * 300, outlen = 16 + ((k + 1) % 3) * 300;
		make_input(in, inlen, OPCODE, (u16)i, i * 1000 + k);
		CmdResult res;
		if (e->q.exec(in, inlen, out, outlen, &res) != OK)
			e->tfail[i]++;
		else if (!answer_ok(in, inlen, out, outlen) || res.token == 0)
			e->tbad[i]++;
	}
}
} // namespace

void cxprm_kt_engine_concurrent_commands(kunit *t)
{
	EngEnv *e = start(t, 5000);

	if (!e)
		return;
	KT_EXPECT_EQ(t, cxprm_kt_run_threads(THREADS, worker, e), 0);
	u32 fails = 0, bad = 0;
	for (u32 i = 0; i < THREADS; i++) {
		fails += e->tfail[i];
		bad += e->tbad[i];
	}
	KT_EXPECT_EQ(t, fails, 0);
	KT_EXPECT_EQ(t, bad, 0);
	KT_EXPECT_EQ(t, e->lb.answered(), THREADS * PER_THREAD);
	KT_EXPECT_EQ(t, e->lb.refused(), 0);
	KT_EXPECT_EQ(t, e->q.stats_total(), THREADS * PER_THREAD);
	KT_EXPECT_EQ(t, e->q.in_flight(), 0);
	stop(t, e);
}

void cxprm_kt_engine_shutdown_and_stats(kunit *t)
{
	EngEnv *e = start(t);

	if (!e)
		return;
	for (u32 i = 0; i < 3; i++)
		KT_EXPECT_EQ(t, run(e, 16, 16, nullptr, i), OK);
	e->lb.faults.fw_status = 0x5;
	e->lb.faults.syndrome = 0x77;
	KT_EXPECT_EQ(t, run(e, 16, 16, nullptr, 9, 0, OPCODE + 1), E_REMOTEIO);
	e->lb.faults = {};

	OpcodeStats ops[8];
	u32 n = e->q.stats_opcodes(ops, 8);
	KT_EXPECT_EQ(t, n, 2);
	u32 found = 0;
	for (u32 i = 0; i < n; i++) {
		if (ops[i].opcode == OPCODE) {
			found++;
			KT_EXPECT_EQ(t, ops[i].count, 3);
			KT_EXPECT_EQ(t, ops[i].errors, 0);
		} else if (ops[i].opcode == OPCODE + 1) {
			found++;
			KT_EXPECT_EQ(t, ops[i].count, 1);
			KT_EXPECT_EQ(t, ops[i].errors, 1);
			KT_EXPECT_EQ(t, ops[i].last_status, 0x5);
			KT_EXPECT_EQ(t, ops[i].last_syndrome, 0x77);
		}
	}
	KT_EXPECT_EQ(t, found, 2);
	CmdRecord rec[4];
	KT_EXPECT_EQ(t, e->q.stats_last(rec, 4), 4);
	KT_EXPECT_EQ(t, rec[3].opcode, OPCODE + 1);
	KT_EXPECT_EQ(t, rec[3].err, E_REMOTEIO);
	KT_EXPECT_EQ(t, rec[0].seq + 3, rec[3].seq);

	e->q.fini();
	KT_EXPECT_EQ(t, run(e, 16, 16), E_SHUTDOWN);
	KT_EXPECT_EQ(t, e->lb.dma_live(), 0);
	/* The history outlives the queue (debugfs after a failed bring-up). */
	KT_EXPECT_EQ(t, e->q.stats_total(), 4);
	KT_EXPECT_EQ(t, e->q.in_flight(), 0);
	e->lb.fini();
}
