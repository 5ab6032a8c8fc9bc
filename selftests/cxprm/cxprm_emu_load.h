/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests that load the device under the emulator's faults share
 * (cxprm_stress_test.c, cxprm_soak_test.c): the page books settling,
 * and a fixture that
 * opens the device and the control page (SKIP without one) and clears
 * every fault before and after.  Include after kselftest_harness.h and
 * cxprm_test.h.
 */
#ifndef CXPRM_EMU_LOAD_H
#define CXPRM_EMU_LOAD_H

/* The firmware's page count matches the driver's (page requests settled). */
static inline int pages_agree(int fd, struct emuctl *e, long long *held, long long *live)
{
	struct cxprm_info i;
	int n;

	for (n = 0; n < 300; n++) {
		if (ioctl(fd, CXPRM_IOC_INFO, &i))
			return 0;
		*live = (long long)(i.pages_given - i.pages_reclaimed);
		*held = emuctl_query(e, CXPRM_EMUD_Q_PAGES_HELD, 0, 0, 0);
		if (*held == *live)
			return 1;
		sleep_ms(10);
	}
	return 0;
}

/*
 * STATS: the total (-1 if the ioctl failed), and the count and errors of
 * each of ops[0..n) (0 when absent); errors may be NULL.
 */
static inline long long load_stats(int fd, const uint16_t *ops, int n, long long *count, long long *errors)
{
	struct cxprm_opcode_stats e[64];
	struct cxprm_stats st;
	uint32_t i;
	int k;

	memset(&st, 0, sizeof(st));
	st.capacity = ARRAY_SIZE(e);
	st.entries = (uintptr_t)e;
	for (k = 0; k < n; k++) {
		count[k] = 0;
		if (errors)
			errors[k] = 0;
	}
	if (ioctl(fd, CXPRM_IOC_STATS, &st))
		return -1;
	for (i = 0; i < st.count && i < ARRAY_SIZE(e); i++)
		for (k = 0; k < n; k++)
			if (e[i].opcode == ops[k]) {
				count[k] = (long long)e[i].count;
				if (errors)
					errors[k] = (long long)e[i].errors;
			}
	return (long long)st.total;
}

/*
 * One process's commands: per kind (the test's own numbering, up to
 * LOAD_KINDS), those that reached the engine (ioctl 0, or EIO: a delivery
 * error) and the EIOs; any other failure, and answers that were not ours.
 * Under recoverable crashes (load_account_crash()) also the -EHOSTDOWNs
 * and -ESTALEs a crash explains, neither counted in sent.
 */
#define LOAD_KINDS 16
struct load_count {
	long long sent[LOAD_KINDS];
	long long eio[LOAD_KINDS];
	long long hostdown[LOAD_KINDS];
	long long stale[LOAD_KINDS];
	long long other_err;	/* must stay 0 */
	long long wrong;	/* must stay 0 */
	int first_errno, first_kind;
};

/* Remembers the first failure (errno, kind) for the report. */
static inline void load_first(struct load_count *c, int kind)
{
	if (!c->first_errno) {
		c->first_errno = errno ? errno : -1;
		c->first_kind = kind;
	}
}

static inline void load_fail(struct load_count *c, int kind)
{
	c->other_err++;
	load_first(c, kind);
}

/* One ioctl that sends 'opcode': counts it, returns 0 if it worked. */
static inline int load_account(struct load_count *c, int kind, uint16_t opcode, int ret,
			       const struct cxprm_cmd_status *st)
{
	if (ret == 0) {
		c->sent[kind]++;
		if (st->delivery || st->opcode != opcode) {
			c->wrong++;
			load_first(c, kind);
			return -1;
		}
		return 0;
	}
	if (errno == EIO) {
		c->sent[kind]++;
		c->eio[kind]++;
		return -1;
	}
	load_fail(c, kind);
	return -1;
}

/*
 * load_account() where the firmware may crash and be recovered: an
 * -EHOSTDOWN is counted, not a failure, when 'down' (a crash window
 * overlapped the call), an -ESTALE when 'stale' (the object it names was
 * made before the last crash).  With both 0 it is load_account().
 */
static inline int load_account_crash(struct load_count *c, int kind, uint16_t opcode, int ret,
				     const struct cxprm_cmd_status *st, int down, int stale)
{
	if (ret == -1 && errno == EHOSTDOWN && down) {
		c->hostdown[kind]++;
		return -1;
	}
	if (ret == -1 && errno == ESTALE && stale) {
		c->stale[kind]++;
		return -1;
	}
	return load_account(c, kind, opcode, ret, st);
}

static inline void load_add(struct load_count *sum, const struct load_count *c)
{
	int k;

	for (k = 0; k < LOAD_KINDS; k++) {
		sum->sent[k] += c->sent[k];
		sum->eio[k] += c->eio[k];
		sum->hostdown[k] += c->hostdown[k];
		sum->stale[k] += c->stale[k];
	}
	sum->other_err += c->other_err;
	sum->wrong += c->wrong;
}

/* Waits for the n processes: how many did not exit 0. */
static inline int load_reap(const pid_t *pids, int n)
{
	int p, st, bad = 0;

	for (p = 0; p < n; p++)
		if (waitpid(pids[p], &st, 0) != pids[p] || !WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	return bad;
}

/* FIXTURE(name) with fd (the device) and emu (its control page). */
#define CXPRM_EMU_FIXTURE(name)								\
	FIXTURE(name) {									\
		int fd;									\
		struct emuctl emu;							\
	};										\
	FIXTURE_SETUP(name)								\
	{										\
		int r;									\
											\
		self->fd = cxprm_open();						\
		ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", cxprm_dev_path(), strerror(errno)); \
		r = emuctl_open(&self->emu, cxprm_bdf());				\
		if (r)									\
			SKIP(return, "no emulator control page (%s): " #name " needs the fault knobs", \
			     strerror(-r));						\
		ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault_clear(&self->emu));		\
	}										\
	FIXTURE_TEARDOWN(name)								\
	{										\
		if (self->emu.page) {							\
			emuctl_fault_clear(&self->emu);					\
			emuctl_close(&self->emu);					\
		}									\
		if (self->fd >= 0)							\
			close(self->fd);						\
	}

#endif
