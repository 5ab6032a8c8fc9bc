// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// KUnit suite cxprm_core_engine_faults: the command engine (cmdq.h) against
// the in-kernel loopback device (loopback.h) when firmware answers wrongly
// or not at all: command status apart from delivery status, stuck owner
// bits and their slots, every way the output can be wrong, dead and gone
// devices, a health syndrome without rfr, the page slot kept free.
#include "engine_env.h"

#include "cxprm/errors.h"

using namespace cxprm;
using namespace cxprm::kt;
using namespace cxprm::kt::eng;

namespace {
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
	KT_EXPECT_EQ(t, next.st.delivery, 0);
}

/*
 * A fault of the two places a knob names (1 the entry, 2 the first output
 * block), each once_then_ok with outlen and want.
 */
void at_both_places(kunit *t, EngEnv *e, u8 LoopFaults::*knob, u32 outlen, int want)
{
	for (u8 where = 1; where <= 2; where++) {
		e->lb.faults.*knob = where;
		once_then_ok(t, e, outlen, want);
	}
}
} // namespace

void cxprm_kt_engine_faults_status_apart_from_delivery(kunit *t)
{
	const u32 outlen = 16 + 100;
	EngEnv *e = start(t);

	if (!e)
		return;
	CmdResult res;
	e->lb.faults.fw_status = 0x2;
	e->lb.faults.syndrome = 0x1234abcd;
	KT_EXPECT_EQ(t, run(e, 16, outlen, &res), E_REMOTEIO);
	KT_EXPECT_EQ(t, res.st.delivery, 0);
	KT_EXPECT_EQ(t, res.st.status, 0x2);
	KT_EXPECT_EQ(t, res.st.syndrome, 0x1234abcd);
	KT_EXPECT_EQ(t, e->out[0], 0x2);
	KT_EXPECT(t, answered(e, 16, outlen)); /* the output is valid */
	e->lb.faults = {};
	KT_EXPECT_EQ(t, run(e, 16, outlen, &res), OK);
	KT_EXPECT_EQ(t, res.st.status, 0);
	stop(t, e);
}

void cxprm_kt_engine_faults_stuck_owner_times_out(kunit *t)
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
	KT_EXPECT_GE(t, res.st.latency_ns, 50 * MS);
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

void cxprm_kt_engine_faults_stuck_slot_reused_after_handback(kunit *t)
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

void cxprm_kt_engine_faults_corrupt_output_signature(kunit *t)
{
	const u32 outlen = 16 + 512;
	EngEnv *e = start(t);

	if (!e)
		return;
	at_both_places(t, e, &LoopFaults::corrupt_signature, outlen, E_BADMSG);
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

void cxprm_kt_engine_faults_wrong_token(kunit *t)
{
	const u32 outlen = 16 + 512;
	EngEnv *e = start(t);

	if (!e)
		return;
	/* Not checked (A12: no reference driver reads the token back). */
	at_both_places(t, e, &LoopFaults::wrong_token, outlen, OK);
	stop(t, e);
}

void cxprm_kt_engine_faults_delivery_status(kunit *t)
{
	EngEnv *e = start(t);

	if (!e)
		return;
	CmdResult res;
	e->lb.faults.delivery_status = 0x06;
	once_then_ok(t, e, 16 + 64, E_IO, &res);
	KT_EXPECT_EQ(t, res.st.delivery, 0x06);
	stop(t, e);
}

void cxprm_kt_engine_faults_output_length_lie(kunit *t)
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

void cxprm_kt_engine_faults_broken_chain(kunit *t)
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

void cxprm_kt_engine_faults_dead_or_gone_while_waiting(kunit *t)
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
		KT_EXPECT_EQ(t, run(e, 16, 16), gone ? E_NODEV : E_HOSTDOWN);
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
void cxprm_kt_engine_faults_syndrome_without_rfr_not_fatal(kunit *t)
{
	EngEnv *e = start(t, 300);

	if (!e)
		return;
	e->lb.faults.stuck_owner = true;
	e->lb.set_health_syndrome(0x10, false);
	KT_EXPECT_EQ(t, run(e, 16, 16), E_TIMEDOUT);
	KT_EXPECT_EQ(t, e->q.failed(), OK);
	KT_EXPECT_EQ(t, e->health.poll(), OK);
	stop(t, e);
}

void cxprm_kt_engine_faults_page_slot_reserved(kunit *t)
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
