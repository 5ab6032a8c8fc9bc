// SPDX-License-Identifier: GPL-2.0
/*
 * Soak: CXPRM_SOAK_IOCTLS (default 3000) ioctls in all from PROCS (8)
 * processes at once, each a random mix (its own seed, printed) of every
 * ioctl type with valid and invalid arguments: QUERY_CAPS (known, unknown
 * and out-of-range types, max > 1, reserved fields), NVMF_NS (any xrqn),
 * ESW_FUNCTIONS, DCT lifecycles (create, query, drain, destroy; arguments
 * out of range; DCT numbers not the file's), STATS (any capacity, a bad
 * pointer), RAW (QUERY_ISSI, NOP, bad lengths and flags, opcodes refused
 * for everyone, a bad input pointer), SUBSCRIBE with any mask and event
 * reads, an unknown ioctl number, and closing and reopening the file (with
 * DCTs still owned: the close destroys them).  Meanwhile a chaos process
 * injects the emulator's recoverable faults at random through the control
 * page: delivery errors on a random query opcode, slow firmware, page
 * requests both ways, a health warning syndrome raised and cleared.  The
 * fatal faults (crash, device gone, a command never completed) are the
 * fault test's; here the device must stay UP.  Afterwards:
 *   - no ioctl failed in a way its arguments do not explain (a timeout is
 *     a lost completion) and every answer was its own;
 *   - per opcode: STATS grew by exactly the commands the processes sent
 *     (the DCT queries and drains a destroy or close sends itself: at
 *     least), the firmware ran exactly those not failed on purpose, and
 *     the EIOs equal the delivery errors the emulator injected;
 *   - the emulator holds no DCT more than before, the page books agree,
 *     no EQ overran, the device is UP and not given up.
 * (The first DCT sets RoCE up, QUERY_HCA_CAP among its commands: one is
 * made and destroyed before the counts start.)
 *
 * mixed_ioctls_under_recoverable_crashes (only with CXPRM_SOAK_CRASHES=N,
 * which skips the first case; the module loaded with health_poll_ms > 0
 * and recovery_grace_ms=1: step soak-crash): the same, and the chaos
 * process also crashes the firmware N times (CXPRM_EMUD_FAULT_CRASH), the
 * k-th once the processes made k/(N+1) of their ioctls; the driver
 * recovers by itself (Documentation/recovery.rst).  Each crash window is marked in a shared
 * epoch: odd before the crash, even once INFO showed the device UP with
 * one more recovery, DONE; the next crash waits for that.  A process
 * accounts an -EHOSTDOWN to a crash only if the epoch was odd before the
 * call or moved during it, an -ESTALE only for a DCT or object made at an
 * earlier epoch (or in a window); cxprm_soak.h.  Afterwards: no other
 * failure, every answer its own, N crashes injected and recoveries grown
 * by exactly N (the emulator restarted N times), the last one DONE, the
 * device UP and not failed, no DCT beyond what was there before, the page
 * books agree, no EQ overran.  What cannot be exact across a firmware
 * restart, and is checked as a bound:
 *   - STATS >= the commands sent per opcode, not equal: each recovery's
 *     bring-up (QUERY_HCA_CAP, QUERY_ISSI, ...) and the RoCE set-up after
 *     it are recorded too, and a command failed with -EHOSTDOWN is
 *     recorded if it was in flight, not if it was refused at once;
 *   - the firmware ran <= STATS - EIO per opcode: a command in flight
 *     when the firmware crashed is in STATS but may never have run;
 *   - EIO <= the delivery errors injected: a command the emulator failed
 *     with one just before the crash may be woken with -EHOSTDOWN before
 *     its completion is read.  (The chaos process clears the armed faults
 *     before each crash: one left armed would fail the recovery's bring-up
 *     instead of a soak command; the crash swallows it.)
 * The figures are printed (crashes, recovery times, the -EHOSTDOWN and
 * -ESTALE accounted, per opcode).  kmemleak/KASAN/DMA-API findings are
 * the guest runner's debug-check (run_guest_tests.sh, make soak on the
 * debug kernel).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "cxprm_harness.h"
#include "cxprm_emu_load.h"
#include "cxprm_soak.h"

/* The opcodes the chaos process may fail: a destroy's own QUERY/DRAIN stay exact. */
static const uint16_t fault_ops[] = { OP_QUERY_HCA_CAP, OP_QUERY_NVMF_NAMESPACE_CONTEXT,
				      OP_QUERY_ESW_FUNCTIONS, OP_QUERY_ISSI, OP_NOP };

/* Bound of one recovery (cxprm_recover_test.c's). */
#define RECOVER_BOUND_S 30

struct chaos_tally {
	long long armed, slow, page_reqs, health;
	long long crashes, crash_fail, recover_ns, recover_max_ns;
};

/* The device UP, not failed, its last recovery DONE and not the one of before. */
static int recovered_since(const struct cxprm_info *i, uint32_t before)
{
	return i->recoveries != before && i->state == CXPRM_STATE_UP &&
	       !(i->flags & CXPRM_INFO_FAILED) && i->recovery == CXPRM_RECOVERY_DONE;
}

/*
 * One firmware crash, its window marked: the epoch odd, every fault
 * cleared (an armed delivery error would fail the recovery's bring-up
 * instead of a soak command: the crash swallows it), the crash, INFO
 * until the device is UP with one recovery more, DONE; the epoch even.
 * The restart dropped every page the firmware had asked for.
 */
static void crash(struct emuctl *e, int fd, struct chaos_tally *c, int32_t *held)
{
	struct cxprm_info i;
	uint64_t t0, end, dt;
	uint32_t before;

	if (ioctl(fd, CXPRM_IOC_INFO, &i)) {
		c->crash_fail++;
		return;
	}
	before = i.recoveries;
	__atomic_add_fetch(soak_epoch, 1, __ATOMIC_SEQ_CST);
	t0 = now_ns();
	end = t0 + RECOVER_BOUND_S * 1000000000ull;
	if (emuctl_fault_clear(e) != CXPRM_EMUD_ST_OK ||
	    emuctl_fault(e, CXPRM_EMUD_FAULT_CRASH, 1, 0) != CXPRM_EMUD_ST_OK) {
		c->crash_fail++;
		__atomic_add_fetch(soak_epoch, 1, __ATOMIC_SEQ_CST);
		return;
	}
	c->crashes++;
	*held = 0;
	if (wait_info(fd, &i, end, 5000, recovered_since, before))
		c->crash_fail++; /* the window closes: what fails from now is unexplained */
	dt = now_ns() - t0;
	c->recover_ns += dt;
	c->recover_max_ns = dt > c->recover_max_ns ? dt : c->recover_max_ns;
	__atomic_add_fetch(soak_epoch, 1, __ATOMIC_SEQ_CST);
}

static long long progress(const struct tally *t)
{
	long long n = 0;
	int p;

	for (p = 0; p < PROCS; p++)
		n += __atomic_load_n(&t[p].ioctls, __ATOMIC_RELAXED);
	return n;
}

/*
 * Recoverable faults at random until *stop; the page requests given back
 * at the end.  With ncrash > 0, also that many firmware crashes, the k-th
 * once the processes have made k/(ncrash+1) of their total ioctls (all of
 * them before it stops; soak_gate() holds back a process that gets too
 * far ahead), each after the last one's grace period.
 */
static void chaos(uint64_t seed, volatile int *stop, struct chaos_tally *c, const struct tally *t,
		  long long total, long long ncrash, int grace_ms)
{
	uint64_t s = seed ^ 0x5deece66dull;
	struct emuctl e;
	int32_t held = 0, n;
	int fd = -1;

	if (emuctl_open(&e, cxprm_bdf()))
		_exit(1);
	if (ncrash)
		fd = cxprm_open();
	if (ncrash && fd < 0)
		_exit(1);
	while (!*stop || (c->crashes < ncrash && !c->crash_fail)) {
		if (c->crashes < ncrash && !c->crash_fail &&
		    (*stop || progress(t) >= (c->crashes + 1) * total / (ncrash + 1))) {
			crash(&e, fd, c, &held);
			usleep((grace_ms + 10) * 1000);
			continue;
		}
		switch (rnd(&s) % 6) {
		case 0:
		case 1: /* a few delivery errors on one query opcode */
			if (emuctl_fault(&e, CXPRM_EMUD_FAULT_ONLY_OPCODE, fault_ops[rnd(&s) % ARRAY_SIZE(fault_ops)], 0) == CXPRM_EMUD_ST_OK &&
			    emuctl_fault(&e, CXPRM_EMUD_FAULT_DELIVERY_STATUS, 0x6, 1 + rnd(&s) % 4) == CXPRM_EMUD_ST_OK)
				c->armed++;
			break;
		case 2: /* slow firmware, or fast again */
			if (emuctl_fault(&e, CXPRM_EMUD_FAULT_SLOW_MS, rnd(&s) % 3, 0) == CXPRM_EMUD_ST_OK)
				c->slow++;
			break;
		case 3:
		case 4: /* the firmware asks for pages, or gives some back */
			n = (rnd(&s) & 1) && held ? -(int32_t)(1 + rnd(&s) % held) : (int32_t)(1 + rnd(&s) % 16);
			if (emuctl_request_pages(&e, n) == CXPRM_EMUD_ST_OK) {
				held += n;
				c->page_reqs++;
			}
			break;
		default: /* a health warning (no reset required), then cleared */
			if (emuctl_fault(&e, CXPRM_EMUD_FAULT_HEALTH_SYNDROME, (rnd(&s) & 1) ? 0x10 : 0, 0) == CXPRM_EMUD_ST_OK)
				c->health++;
		}
		usleep(5000 + rnd(&s) % 20000);
	}
	emuctl_fault(&e, CXPRM_EMUD_FAULT_HEALTH_SYNDROME, 0, 0);
	if (held && emuctl_request_pages(&e, -held) == CXPRM_EMUD_ST_OK)
		c->page_reqs++;
	if (fd >= 0)
		close(fd);
	emuctl_close(&e);
	_exit(0);
}

struct snapshot {
	long long stats[K_NUM], fw[K_NUM], total, deliv, overruns, dcts, restarts;
	struct cxprm_info info;
};

static void snapshot(int fd, struct emuctl *e, struct snapshot *s)
{
	int k;

	s->total = load_stats(fd, k_opcode, K_NUM, s->stats, NULL);
	for (k = 0; k < K_NUM; k++)
		s->fw[k] = emuctl_query(e, CXPRM_EMUD_Q_OPCODE_COUNT, k_opcode[k], 0, 0);
	s->deliv = emuctl_query(e, CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_DELIVERY_ERRORS, 0, 0);
	s->overruns = emuctl_query(e, CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_EQ_OVERRUNS, 0, 0);
	s->dcts = emuctl_query(e, CXPRM_EMUD_Q_DCTS, 0, 0, 0);
	s->restarts = emuctl_query(e, CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_FW_RESTARTS, 0, 0);
	memset(&s->info, 0, sizeof(s->info));
	if (ioctl(fd, CXPRM_IOC_INFO, &s->info))
		s->info.state = (uint32_t)-1;
}

CXPRM_EMU_FIXTURE(soak)

struct shared {
	struct tally t[PROCS];
	struct chaos_tally ct;
	int stop;
	long epoch;
};

_Static_assert(sizeof(struct shared) <= 4096 * 4, "shared");

/* The processes and the chaos process, ncrash crashes among its faults; the checks. */
static void soak_run(struct __test_metadata *_metadata, int fd, struct emuctl *emu, long long ncrash)
{
	const char *env = getenv("CXPRM_SOAK_IOCTLS");
	long long total = env ? atoll(env) : 3000, held = -1, live = -1, sum_sent = 0, eio = 0, down = 0, stale = 0;
	uint64_t seed = getenv("CXPRM_SOAK_SEED") ? strtoull(getenv("CXPRM_SOAK_SEED"), NULL, 0)
						   : now_ns() % 1000000;
	int with_nop = cxprm_param("allow_raw_write") == 1, grace = cxprm_param("recovery_grace_ms"), k, p;
	struct snapshot s0, s1;
	struct chaos_tally *ct;
	struct dct_objs objs;
	struct shared *sh;
	struct cxprm_dct d;
	struct tally sum;
	pid_t pids[PROCS], cpid;
	uint64_t t0, dt;

	sh = mmap(NULL, 4096 * 4, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	memset(sh, 0, 4096 * 4);
	ct = &sh->ct;
	soak_epoch = ncrash ? &sh->epoch : NULL;
	soak_crashes = ncrash;
	TH_LOG("seed %llu (CXPRM_SOAK_SEED), %lld ioctls from %d processes, cmd_mode %s, %s, %lld crashes",
	       (unsigned long long)seed, total, PROCS, cxprm_param_text("cmd_mode") ?: "?",
	       getenv("CXPRM_TEST_MSIX") ? "MSI-X" : "no MSI-X", ncrash);
	/* The first DCT sets RoCE up (QUERY_HCA_CAP and more): before the counts start. */
	ASSERT_EQ(0, dct_objs_create(fd, &objs));
	dct_minimal(&d, &objs);
	ASSERT_EQ(0, ioctl(fd, CXPRM_IOC_DCT_CREATE, &d));
	ASSERT_EQ(0, d.st.status);
	ASSERT_EQ(0, ioctl(fd, CXPRM_IOC_DCT_DESTROY, &d));
	snapshot(fd, emu, &s0);
	ASSERT_LT(0, s0.total);

	t0 = now_ns();
	fflush(NULL);
	cpid = fork();
	ASSERT_LE(0, cpid);
	if (cpid == 0)
		chaos(seed, &sh->stop, ct, sh->t, total, ncrash, grace);
	for (p = 0; p < PROCS; p++) {
		pids[p] = fork();
		ASSERT_LE(0, pids[p]);
		if (pids[p] == 0) {
			child(p, (int)((total + PROCS - 1) / PROCS), seed, &sh->t[p], with_nop);
			_exit(0);
		}
	}
	EXPECT_EQ(0, load_reap(pids, PROCS)) TH_LOG("a process did not exit 0");
	__atomic_store_n(&sh->stop, 1, __ATOMIC_SEQ_CST);
	EXPECT_EQ(0, load_reap(&cpid, 1)) TH_LOG("the chaos process did not exit 0");
	dt = now_ns() - t0;
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault_clear(emu));

	memset(&sum, 0, sizeof(sum));
	for (p = 0; p < PROCS; p++) {
		struct tally *t = &sh->t[p];

		load_add(&sum.c, &t->c);
		sum.ioctls += t->ioctls;
		sum.refused += t->refused;
		sum.nocmd += t->nocmd;
		sum.events += t->events;
		sum.other_down += t->other_down;
		sum.obj_stale += t->obj_stale;
		sum.obj_remade += t->obj_remade;
		EXPECT_EQ(0, t->c.other_err) TH_LOG("process %d: step %d failed: %s", p, t->c.first_kind,
						    strerror(t->c.first_errno));
		EXPECT_EQ(0, t->c.wrong) TH_LOG("process %d: an answer that was not its own", p);
	}
	snapshot(fd, emu, &s1);
	TH_LOG("%lld ioctls in %llu ms (%.0f/s): %lld refused by their arguments, %lld without a command, "
	       "%lld events read", sum.ioctls, (unsigned long long)dt / 1000000,
	       sum.ioctls * 1e9 / (double)(dt ? dt : 1), sum.refused, sum.nocmd, sum.events);
	TH_LOG("faults: %lld delivery errors injected (%lld armings), %lld slow settings, %lld page requests, "
	       "%lld health syndromes", s1.deliv - s0.deliv, ct->armed, ct->slow, ct->page_reqs, ct->health);
	for (k = 0; k < K_NUM; k++) {
		long long stats = s1.stats[k] - s0.stats[k], fw = s1.fw[k] - s0.fw[k];

		sum_sent += sum.c.sent[k];
		eio += sum.c.eio[k];
		down += sum.c.hostdown[k];
		stale += sum.c.stale[k];
		if (ncrash) {
			TH_LOG("  %-22s sent %6lld  EIO %4lld  EHOSTDOWN %4lld  ESTALE %3lld  STATS +%lld  "
			       "firmware ran +%lld", k_name[k], sum.c.sent[k], sum.c.eio[k], sum.c.hostdown[k],
			       sum.c.stale[k], stats, fw);
			/* Bounds only: see the header comment. */
			EXPECT_LE(sum.c.sent[k], stats) TH_LOG("%s: STATS", k_name[k]);
			EXPECT_LE(fw, stats - sum.c.eio[k]) TH_LOG("%s: firmware", k_name[k]);
			continue;
		}
		TH_LOG("  %-22s sent %6lld  EIO %4lld  STATS +%lld  firmware ran +%lld", k_name[k], sum.c.sent[k],
		       sum.c.eio[k], stats, fw);
		/* A destroy (and a close) sends QUERY_DCT, DRAIN_DCT and DESTROY_DCT of its own. */
		if (k == K_DCT_QUERY || k == K_DCT_DRAIN || k == K_DCT_DESTROY) {
			EXPECT_LE(sum.c.sent[k], stats) TH_LOG("%s: STATS", k_name[k]);
		} else {
			EXPECT_EQ(sum.c.sent[k], stats) TH_LOG("%s: STATS (a lost or extra completion)", k_name[k]);
		}
		EXPECT_EQ(stats - sum.c.eio[k], fw) TH_LOG("%s: firmware", k_name[k]);
	}
	EXPECT_LT(0, sum_sent);
	EXPECT_EQ(s0.overruns, s1.overruns);
	if (ncrash) {
		TH_LOG("crashes: %lld injected, %u recovered (%lld restarts), %.2f s on average, %.2f s at most; "
		       "EHOSTDOWN accounted %lld (+%lld without a command), ESTALE accounted %lld DCTs, %lld objects "
		       "(%lld PD/CQ/SRQ sets made again)", ct->crashes, s1.info.recoveries - s0.info.recoveries,
		       s1.restarts - s0.restarts, ct->crashes ? ct->recover_ns / 1e9 / ct->crashes : 0.0,
		       ct->recover_max_ns / 1e9, down, sum.other_down, stale, sum.obj_stale, sum.obj_remade);
		EXPECT_EQ(ncrash, ct->crashes);
		EXPECT_EQ(0, ct->crash_fail) TH_LOG("a crash not injected, or not recovered within %d s",
						    RECOVER_BOUND_S);
		EXPECT_EQ(ct->crashes, s1.info.recoveries - s0.info.recoveries);
		EXPECT_EQ(ct->crashes, s1.restarts - s0.restarts);
		EXPECT_EQ(CXPRM_RECOVERY_DONE, s1.info.recovery)
			TH_LOG("recovery %u err %d attempts %u", s1.info.recovery, s1.info.recovery_err,
			       s1.info.recovery_attempts);
		/* A crash can swallow an armed delivery error (crash()): not exact. */
		EXPECT_LE(eio, s1.deliv - s0.deliv) TH_LOG("EIO seen %lld, injected %lld", eio, s1.deliv - s0.deliv);
		EXPECT_LE(s1.dcts, s0.dcts) TH_LOG("DCTs left in the firmware");
	} else {
		EXPECT_EQ(s1.deliv - s0.deliv, eio) TH_LOG("EIO seen %lld, injected %lld", eio, s1.deliv - s0.deliv);
		EXPECT_EQ(s0.dcts, s1.dcts) TH_LOG("DCTs left in the firmware");
	}
	EXPECT_TRUE(pages_agree(fd, emu, &held, &live))
		TH_LOG("pages: firmware holds %lld, driver says %lld", held, live);
	EXPECT_EQ(CXPRM_STATE_UP, s1.info.state);
	EXPECT_EQ(0, s1.info.flags & CXPRM_INFO_FAILED);
	TH_LOG("device %s, pages lent %lld, commands %lld sent by the soak, STATS total +%lld",
	       s1.info.state == CXPRM_STATE_UP ? "UP" : "not UP", live, sum_sent, s1.total - s0.total);
	soak_epoch = NULL;
	munmap(sh, 4096 * 4);
}

/*
 * One case per run (this harness has no test filter): with
 * CXPRM_SOAK_CRASHES the crash case only.
 */
TEST_F_TIMEOUT(soak, mixed_ioctls_under_random_faults, 3600)
{
	if (getenv("CXPRM_SOAK_CRASHES"))
		SKIP(return, "CXPRM_SOAK_CRASHES set: the crash case runs instead");
	if (!self->emu.page)
		return;
	soak_run(_metadata, self->fd, &self->emu, 0);
}

TEST_F_TIMEOUT(soak, mixed_ioctls_under_recoverable_crashes, 3600)
{
	const char *env = getenv("CXPRM_SOAK_CRASHES");

	if (!env)
		SKIP(return, "set CXPRM_SOAK_CRASHES=N (N firmware crashes; module loaded with recovery_grace_ms=1)");
	if (!self->emu.page)
		return;
	ASSERT_LT(0, cxprm_param("health_poll_ms")) TH_LOG("the health poller is off: no crash is found");
	ASSERT_LT(0, cxprm_param("recovery_grace_ms"));
	ASSERT_GE(1000, cxprm_param("recovery_grace_ms")) TH_LOG("load with recovery_grace_ms=1");
	ASSERT_LT(0, atoll(env));
	soak_run(_metadata, self->fd, &self->emu, atoll(env));
}

TEST_HARNESS_MAIN
