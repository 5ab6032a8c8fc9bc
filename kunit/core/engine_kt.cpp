// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// KUnit suite cxprm_core_engine: the command engine (cmdq.h) as the kernel
// build compiles it, against the in-kernel loopback device (loopback.h),
// when the device answers as it should: queue geometry, entry layout and
// signature, tokens, mailbox chains at their boundaries, allocation
// failures, event-mode completion, kernel threads sharing the queue,
// shutdown and statistics.  Firmware that answers wrongly or not at all is
// engine_faults_kt.cpp's.
#include "engine_env.h"

#include "cxprm/errors.h"

using namespace cxprm;
using namespace cxprm::kt;
using namespace cxprm::kt::eng;
using E = prm::cmd_queue_entry;

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
		EngEnv *e = make_env(t);
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
	EngEnv *e = make_env(t);
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
	EngEnv *e = make_env(t);

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
	CmdCapture cap{};
	CmdResult res;
	cap.blocks = e->blocks;
	cap.blocks_cap = 4;
	make_input(e->in, inlen, OPCODE, 0x5, 77);
	KT_EXPECT_EQ(t, e->q.exec(e->in, inlen, e->out, outlen, &res, 0, &cap), OK);
	KT_EXPECT_EQ(t, e->lb.refused(), 0);
	KT_EXPECT_EQ(t, e->lb.answered(), 1);
	KT_EXPECT_EQ(t, e->lb.doorbells(), 1);
	KT_EXPECT(t, answered(e, inlen, outlen));

	prm::CRef<E> posted(cap.hdr.entry_posted), done(cap.hdr.entry_completed);
	KT_EXPECT_EQ(t, prm::get<E::type>(posted), prm::CMD_TYPE_PCIE);
	KT_EXPECT_EQ(t, prm::get<E::input_length>(posted), inlen);
	KT_EXPECT_EQ(t, prm::get<E::output_length>(posted), outlen);
	KT_EXPECT_EQ(t, prm::get<E::ownership>(posted), 1);
	KT_EXPECT_EQ(t, prm::get<E::status>(posted), 0);
	KT_EXPECT_EQ(t, prm::get<E::token>(posted), res.token);
	KT_EXPECT_EQ(t, e->lb.last_token(), res.token);
	/* The signature: the 64 bytes XOR to 0xff, as rung and as handed back. */
	KT_EXPECT_EQ(t, xor_bytes(cap.hdr.entry_posted, 64), 0xff);
	KT_EXPECT_EQ(t, xor_bytes(cap.hdr.entry_completed, 64), 0xff);
	KT_EXPECT_EQ(t, prm::get<E::ownership>(done), 0);
	u32 same = 0;
	for (u32 i = 0; i < 16; i++)
		same += cap.hdr.entry_posted[16 + i] == e->in[i];
	KT_EXPECT_EQ(t, same, 16);
	u64 ip = prm::get<E::input_mailbox_pointer_63_32>(posted) << 32 |
		 prm::get<E::input_mailbox_pointer_31_9>(posted) << 9;
	KT_EXPECT_EQ(t, ip >> 32, Loopback::BUS_BASE >> 32);
	KT_EXPECT_EQ(t, ip % 1024, 0);
	/* Two input blocks, one output block, each numbered, tokened, signed. */
	KT_EXPECT_EQ(t, cap.hdr.in_blocks, 2);
	KT_EXPECT_EQ(t, cap.hdr.out_blocks, 1);
	KT_EXPECT(t, !cap.hdr.truncated);
	for (u32 b = 0; b < cap.hdr.in_blocks + cap.hdr.out_blocks; b++) {
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
	KT_EXPECT_EQ(t, res.st.delivery, 0);
	KT_EXPECT_EQ(t, res.st.status, 0);
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

void cxprm_kt_engine_allocation_failures(kunit *t)
{
	const u32 inlen = 16 + 1024, outlen = 16 + 1024;
	EngEnv *e = make_env(t);

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
