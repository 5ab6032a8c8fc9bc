// SPDX-License-Identifier: GPL-2.0
/*
 * Automatic recovery (Documentation/recovery.rst), run by the step
 * 'recover' with CXPRM_TEST_RECOVER=1 (the first case; the device has
 * seen crashes afterwards):
 *
 * 1. The firmware crashes with an object of an open file alive.  The
 *    driver finds it (health_poll_ms), asks the firmware for a reset
 *    (nic_interface SW_RESET; the emulator restarts as after a real
 *    reset: initializing, then ready with every state lost) and brings
 *    the function up again by itself within RECOVER_BOUND_S.  The open
 *    file survives: its PD is -ESTALE once, then unknown; new commands
 *    and objects work; a reader got RECOVERING then RECOVERED.
 * 2. The firmware crashes again at once, within the grace period: no
 *    recovery, the device stays failed with the reason in INFO
 *    (CXPRM_RECOVERY_GRACE) and in dmesg; read() returns -EHOSTDOWN.
 * 3. The admin recovers it on demand (debugfs 'recover'), whatever the
 *    grace period says: the write returns once the device is up again;
 *    on a healthy device it is -EINVAL.
 *
 * With CXPRM_TEST_RECOVER=norestart (step 'recover-norestart', loaded with
 * recovery_attempts=2), the second case: the firmware crashes and never
 * restarts (emulator fault no_restart: the driver's SW_RESET request is
 * ignored).  Each attempt waits for the reset (2 s), then for a moving
 * health counter (5 s); the device ends failed with NOT_READY and
 * -ETIMEDOUT in INFO, the records RECOVERING twice then RECOVERY_FAILED,
 * and commands and read() fail with -EHOSTDOWN.  It leaves the device
 * failed (the step resets the emulated function after rmmod).
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "cxprm_harness.h"

/*
 * Bound of one recovery here: the poller's interval, the reset's 200 ms,
 * wait_vital's first counter moves (health ticks), the bring-up under TCG.
 */
#define RECOVER_BOUND_S 30

FIXTURE(recover) {
	int fd;
	struct emuctl emu;
	int run;
};

/* Whether this case is the one CXPRM_TEST_RECOVER asks for. */
static int recover_mode(const char *want)
{
	const char *m = getenv("CXPRM_TEST_RECOVER");

	return m && !strcmp(!strcmp(m, "1") ? "restart" : m, want);
}

FIXTURE_SETUP(recover)
{
	if (!getenv("CXPRM_TEST_RECOVER"))
		SKIP(return, "set CXPRM_TEST_RECOVER=1 or norestart (the device has crashed afterwards)");
	self->fd = dev_open_emu(_metadata, &self->emu);
	self->run = 1;
}

FIXTURE_TEARDOWN(recover)
{
	dev_emu_close(self->fd, &self->emu);
}

/* INFO's recovery field is want (DONE: with the device UP). */
static int recovery_is(const struct cxprm_info *i, uint32_t want)
{
	return i->recovery == want && (want != CXPRM_RECOVERY_DONE || i->state == CXPRM_STATE_UP);
}

/* INFO until its recovery field is want or ms; returns the last INFO's. */
static uint32_t wait_recovery(int fd, uint32_t want, unsigned int ms, struct cxprm_info *i)
{
	wait_info(fd, i, now_ns() + (uint64_t)ms * 1000000, 20000, recovery_is, want);
	return i->recovery;
}

/* The sub-types of the CXPRM_EVENT_HEALTH records queued on fd (at most max). */
static int health_records(int fd, uint32_t *subs, int max)
{
	struct cxprm_event ev;
	int n = 0;

	while (n < max && wait_readable(fd, 100) > 0 && read(fd, &ev, sizeof(ev)) == sizeof(ev))
		if (ev.type == CXPRM_EVENT_HEALTH)
			subs[n++] = ev.sub_type;
	return n;
}

static void crash(struct __test_metadata *_metadata, struct emuctl *e)
{
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault(e, CXPRM_EMUD_FAULT_CRASH, 1, 0));
}

TEST_F_TIMEOUT(recover, crash_restart_then_crash_within_grace, 150)
{
	struct cxprm_caps caps;
	struct cxprm_event ev;
	struct cxprm_info i;
	uint32_t pd = 0, pd2 = 0, subs[8];
	char dbg[320];
	int n = 0, k, restarts0;
	uint64_t t0;

	if (!self->run || !recover_mode("restart"))
		return;
	ASSERT_EQ(0, pd_ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &pd)) TH_LOG("PD: %s", strerror(errno));
	restarts0 = (int)emuctl_query(&self->emu, CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_FW_RESTARTS, 0, 0);

	t0 = now_ns();
	crash(_metadata, &self->emu);
	ASSERT_EQ(CXPRM_RECOVERY_DONE, wait_recovery(self->fd, CXPRM_RECOVERY_DONE, RECOVER_BOUND_S * 1000, &i))
		TH_LOG("state %u recovery %u err %d attempts %u", i.state, i.recovery, i.recovery_err,
		       i.recovery_attempts);
	TH_LOG("recovered in %.1f s, %u attempt(s)", (now_ns() - t0) / 1e9, i.recovery_attempts);
	EXPECT_EQ(CXPRM_STATE_UP, i.state);
	EXPECT_EQ(1, i.recoveries);
	EXPECT_EQ(0, i.flags & CXPRM_INFO_FAILED);
	/* The driver asked for the reset; the emulator did it. */
	EXPECT_EQ(restarts0 + 1,
		  (int)emuctl_query(&self->emu, CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_FW_RESTARTS, 0, 0));

	/* The file survived; its PD did not. */
	EXPECT_EQ(-ESTALE, pd_ioctl(self->fd, CXPRM_IOC_OBJ_DESTROY, &pd));
	EXPECT_EQ(-ENOENT, pd_ioctl(self->fd, CXPRM_IOC_OBJ_DESTROY, &pd));
	memset(&caps, 0, sizeof(caps));
	EXPECT_EQ(0, ioctl(self->fd, CXPRM_IOC_QUERY_CAPS, &caps)) TH_LOG("caps: %s", strerror(errno));
	EXPECT_EQ(0, caps.st.status);
	ASSERT_EQ(0, pd_ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &pd2));
	EXPECT_EQ(0, pd_ioctl(self->fd, CXPRM_IOC_OBJ_DESTROY, &pd2));

	/* The records: RECOVERING (per attempt), then RECOVERED. */
	n = health_records(self->fd, subs, ARRAY_SIZE(subs));
	ASSERT_LE(2, n);
	EXPECT_EQ(CXPRM_HEALTH_RECOVERING, subs[0]);
	EXPECT_EQ(CXPRM_HEALTH_RECOVERED, subs[n - 1]);
	for (k = 1; k < n - 1; k++)
		EXPECT_EQ(CXPRM_HEALTH_RECOVERING, subs[k]);

	/* Again at once: within the grace period, the device stays failed. */
	crash(_metadata, &self->emu);
	EXPECT_EQ(CXPRM_RECOVERY_GRACE, wait_recovery(self->fd, CXPRM_RECOVERY_GRACE, RECOVER_BOUND_S * 1000, &i));
	EXPECT_NE(0, i.flags & CXPRM_INFO_FAILED);
	EXPECT_EQ(1, i.recoveries);
	memset(&caps, 0, sizeof(caps));
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_QUERY_CAPS, &caps));
	EXPECT_EQ(EHOSTDOWN, errno);
	EXPECT_EQ(-1, read(self->fd, &ev, sizeof(ev)));
	EXPECT_EQ(EHOSTDOWN, errno);

	/* On demand: recovered in the writer's task, the write returns after. */
	snprintf(dbg, sizeof(dbg), "/sys/kernel/debug/cxprm/%s/recover", cxprm_bdf());
	ASSERT_EQ(0, sysfs_write(dbg, "1")) TH_LOG("%s: %s", dbg, strerror(errno));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	EXPECT_EQ(CXPRM_STATE_UP, i.state);
	EXPECT_EQ(CXPRM_RECOVERY_DONE, i.recovery);
	EXPECT_EQ(2, i.recoveries);
	memset(&caps, 0, sizeof(caps));
	EXPECT_EQ(0, ioctl(self->fd, CXPRM_IOC_QUERY_CAPS, &caps)) TH_LOG("caps: %s", strerror(errno));
	EXPECT_EQ(-EINVAL, sysfs_write(dbg, "1"));
}

TEST_F_TIMEOUT(recover, crash_without_restart_ends_failed, 150)
{
	struct cxprm_caps caps;
	struct cxprm_event ev;
	struct cxprm_info i;
	uint32_t subs[8];
	int n = 0, restarts0;

	if (!self->run || !recover_mode("norestart"))
		return;
	restarts0 = (int)emuctl_query(&self->emu, CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_FW_RESTARTS, 0, 0);
	ASSERT_EQ(2, cxprm_param("recovery_attempts")) TH_LOG("the step loads recovery_attempts=2");
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault(&self->emu, CXPRM_EMUD_FAULT_NO_RESTART, 1, 0));
	crash(_metadata, &self->emu);
	EXPECT_EQ(CXPRM_RECOVERY_NOT_READY,
		  wait_recovery(self->fd, CXPRM_RECOVERY_NOT_READY, 2 * RECOVER_BOUND_S * 1000, &i))
		TH_LOG("state %u recovery %u err %d attempts %u", i.state, i.recovery, i.recovery_err,
		       i.recovery_attempts);
	EXPECT_NE(0, i.flags & CXPRM_INFO_FAILED);
	EXPECT_EQ(-ETIMEDOUT, i.recovery_err);
	EXPECT_EQ(2, i.recovery_attempts);
	EXPECT_EQ(0, i.recoveries);
	EXPECT_EQ(restarts0,
		  (int)emuctl_query(&self->emu, CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_FW_RESTARTS, 0, 0));

	n = health_records(self->fd, subs, ARRAY_SIZE(subs));
	ASSERT_EQ(3, n);
	EXPECT_EQ(CXPRM_HEALTH_RECOVERING, subs[0]);
	EXPECT_EQ(CXPRM_HEALTH_RECOVERING, subs[1]);
	EXPECT_EQ(CXPRM_HEALTH_RECOVERY_FAILED, subs[2]);

	memset(&caps, 0, sizeof(caps));
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_QUERY_CAPS, &caps));
	EXPECT_EQ(EHOSTDOWN, errno);
	EXPECT_EQ(-1, read(self->fd, &ev, sizeof(ev)));
	EXPECT_EQ(EHOSTDOWN, errno);
}

TEST_HARNESS_MAIN
