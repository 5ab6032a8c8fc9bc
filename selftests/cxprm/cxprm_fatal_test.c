// SPDX-License-Identifier: GPL-2.0
/*
 * Sticky firmware failures as userspace sees them, injected with the
 * emulator's fault knobs (control page, CXPRM_EMUD_CMD_FAULT); each leaves
 * the device given up, so the runner runs one case per load with its
 * variable set (run_guest_tests.sh steps crash, stall, gone).
 *
 * CXPRM_TEST_CRASH=1 (the emulator stays crashed): a firmware crash: INFO
 * says ERROR and the health syndrome, commands fail with -EHOSTDOWN instead
 * of hanging, the device is marked failed and a reader blocked in read() is
 * woken with -EHOSTDOWN (with the health poller off too: the failing command
 * marks it), and unbinding still completes.
 *
 * CXPRM_TEST_STALL=1 (the driver gives the device up for good), health as
 * Linux judges it: a stopped health counter and a syndrome without rfr are
 * only reported (a CXPRM_EVENT_HEALTH record, the device stays UP and
 * answers); then a firmware reset
 * (nic_interface SW_RESET) is fatal: commands stuck in the firmware are
 * woken with -EHOSTDOWN long before cmd_timeout_ms, later ones fail at
 * once without reaching it, INFO says ERROR + CXPRM_INFO_FAILED, read() and
 * poll() do not wait for events that cannot come, debugfs health FAILED.
 *
 * CXPRM_TEST_GONE=1: surprise removal (the BAR reads all ones):
 * commands stuck in the firmware end with -ENODEV at once, the poller
 * marks the device GONE within health_poll_ms, later commands, read()
 * and poll() as above with -ENODEV.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "cxprm_harness.h"

#define NEED_RUN() do { if (!self->run) return; } while (0)

/* ---- firmware crash: sticky, run last (CXPRM_TEST_CRASH=1) ---- */

FIXTURE(crash) {
	int fd;
	struct emuctl emu;
	int run;
};

FIXTURE_SETUP(crash)
{
	if (!getenv("CXPRM_TEST_CRASH") || getenv("CXPRM_TEST_STALL") || getenv("CXPRM_TEST_GONE"))
		SKIP(return, "set CXPRM_TEST_CRASH=1 (the emulator stays crashed afterwards)");
	self->fd = dev_open_emu(_metadata, &self->emu);
	self->run = 1;
}

FIXTURE_TEARDOWN(crash)
{
	dev_emu_close(self->fd, &self->emu);
}

TEST_F_TIMEOUT(crash, firmware_crash, 90)
{
	struct cxprm_esw_functions f;
	struct cxprm_raw_cmd r;
	struct cxprm_info i;
	uint64_t t0, dt;
	int fd2, n, status = 0;
	pid_t reader;

	NEED_RUN();
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	ASSERT_EQ(CXPRM_STATE_UP, i.state);
	/*
	 * A reader blocked for events: once a command finds the firmware
	 * dead it is woken with -EHOSTDOWN, even with the health poller off
	 * (step crash loads health_poll_ms=0).
	 */
	reader = fork();
	ASSERT_LE(0, reader);
	if (reader == 0) {
		struct cxprm_event ev;
		int rfd = cxprm_open();

		if (rfd < 0)
			_exit(100);
		if (read(rfd, &ev, sizeof(ev)) < 0)
			_exit(errno);
		_exit(101);
	}
	usleep(200000);
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault(&self->emu, CXPRM_EMUD_FAULT_CRASH, 1, 0));
	/* The emulator applies the crash on its next poll. */
	for (int n = 0; n < 200 && emuctl_query(&self->emu, CXPRM_EMUD_Q_CRASHED, 0, 0, 0) != 1; n++)
		usleep(10000);
	ASSERT_EQ(1, emuctl_query(&self->emu, CXPRM_EMUD_Q_CRASHED, 0, 0, 0));

	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i)) TH_LOG("INFO on crashed firmware: %s", strerror(errno));
	EXPECT_EQ(CXPRM_STATE_ERROR, i.state);
	EXPECT_EQ(1, i.health_syndrome) TH_LOG("health_syndrome 0x%x", i.health_syndrome);

	/* A command does not hang until cmd_timeout_ms: the health check ends it. */
	t0 = now_ns();
	errno = 0;
	EXPECT_EQ(-1, raw_issi_dump(self->fd, &r, NULL, 0));
	dt = now_ns() - t0;
	EXPECT_EQ(EHOSTDOWN, errno) TH_LOG("%s", strerror(errno));
	EXPECT_GT(5000000000ull, dt) TH_LOG("took %llu ms", (unsigned long long)dt / 1000000);
	/* The device is failed now: INFO says so, the reader is woken. */
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	EXPECT_EQ(CXPRM_INFO_FAILED, i.flags & CXPRM_INFO_FAILED);
	for (n = 0; n < 500 && waitpid(reader, &status, WNOHANG) == 0; n++)
		usleep(10000);
	EXPECT_LT(n, 500) TH_LOG("a reader blocked in read() was not woken by the failure");
	if (n == 500) {
		kill(reader, SIGKILL);
		waitpid(reader, &status, 0);
	} else {
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(EHOSTDOWN, WEXITSTATUS(status))
			TH_LOG("read() ended with %d", WEXITSTATUS(status));
		TH_LOG("blocked reader woken after %d ms", n * 10);
	}
	memset(&f, 0, sizeof(f));
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_ESW_FUNCTIONS, &f));
	EXPECT_TRUE(errno == EHOSTDOWN || errno == ENODEV) TH_LOG("ESW_FUNCTIONS on crashed firmware: %s", strerror(errno));

	/* Unbinding a device with dead firmware completes (pages may be stranded). */
	t0 = now_ns();
	ASSERT_EQ(0, sysfs_write("/sys/bus/pci/drivers/cxprm/unbind", cxprm_bdf()));
	dt = now_ns() - t0;
	TH_LOG("unbind with dead firmware took %llu ms", (unsigned long long)dt / 1000000);
	EXPECT_GT(30000000000ull, dt);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	EXPECT_EQ(ENODEV, errno);
	fd2 = cxprm_open();
	EXPECT_EQ(-1, fd2);
	if (fd2 >= 0)
		close(fd2);
}

/*
 * ---- the driver gives the device up (sticky: run last but the crash) ----
 * CXPRM_TEST_STALL=1: the health counter stops; CXPRM_TEST_GONE=1: the
 * device disappears.
 */

FIXTURE(given_up) {
	int fd;
	struct emuctl emu;
	int run;
	int pipes[2];		/* stuck commands report {errno, ms} here */
	pid_t pids[4];
	int nstuck;
};

FIXTURE_SETUP(given_up)
{
	if (!getenv("CXPRM_TEST_STALL") && !getenv("CXPRM_TEST_GONE"))
		SKIP(return, "set CXPRM_TEST_STALL=1 or CXPRM_TEST_GONE=1 (the driver gives the device up)");
	self->fd = dev_open_emu_clear(_metadata, &self->emu);
	self->run = 1;
}

FIXTURE_TEARDOWN(given_up)
{
	if (self->emu.page) {
		emuctl_fault(&self->emu, CXPRM_EMUD_FAULT_HEALTH_STALL, 0, 0);
		emuctl_fault(&self->emu, CXPRM_EMUD_FAULT_HEALTH_SYNDROME, 0, 0);
		emuctl_fault_clear(&self->emu);
	}
	emuctl_close(&self->emu);
	if (self->fd > 0)
		close(self->fd);
}

/*
 * A device the driver gave up: commands fail at once with 'err' and never
 * reach the firmware; read() and poll() do not wait for events.
 */
static void expect_failed_device(struct __test_metadata *_metadata, int fd, struct emuctl *emu, int err)
{
	struct cxprm_esw_functions f;
	struct cxprm_event ev;
	struct pollfd pfd;
	long long esw0;
	uint64_t t0;
	int k, ret;

	esw0 = emuctl_query(emu, CXPRM_EMUD_Q_OPCODE_COUNT, OP_QUERY_ESW_FUNCTIONS, 0, 0);
	for (k = 0; k < 10; k++) {
		memset(&f, 0, sizeof(f));
		t0 = now_ns();
		errno = 0;
		EXPECT_EQ(-1, ioctl(fd, CXPRM_IOC_ESW_FUNCTIONS, &f));
		EXPECT_EQ(err, errno) TH_LOG("%s", strerror(errno));
		/*
		 * At once: no command time (up to cmd_timeout_ms); 1 s
		 * leaves room for a loaded TCG host's scheduling.
		 */
		EXPECT_GT(1000000000ull, now_ns() - t0);
	}
	EXPECT_EQ(esw0, emuctl_query(emu, CXPRM_EMUD_Q_OPCODE_COUNT, OP_QUERY_ESW_FUNCTIONS, 0, 0))
		TH_LOG("a failed device sent commands");
	/*
	 * Records queued before the failure are still read first (a pipe
	 * drains before its end): the health poller's warnings, e.g. a
	 * counter stall it saw while the emulator starved under load.  Only
	 * those; then the error, at once.
	 */
	t0 = now_ns();
	for (k = 0; k <= CXPRM_EVENT_QUEUE; k++) {
		errno = 0;
		ret = (int)read(fd, &ev, sizeof(ev));
		if (ret != (int)sizeof(ev))
			break;
		EXPECT_EQ(CXPRM_EVENT_HEALTH, ev.type) TH_LOG("record of type 0x%x queued", ev.type);
		TH_LOG("read a queued health record (sub_type %u) first", ev.sub_type);
	}
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(err, errno) TH_LOG("read: %s", strerror(errno));
	EXPECT_GT(1000000000ull, now_ns() - t0);
	pfd.fd = fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	EXPECT_EQ(1, poll(&pfd, 1, 1000));
	EXPECT_TRUE(pfd.revents & POLLERR);
}

/* n processes each send a command the firmware swallows (would wait cmd_timeout_ms). */
static void start_stuck(struct __test_metadata *_metadata, FIXTURE_DATA(given_up) *self, int n)
{
	struct cxprm_raw_cmd r;
	struct cxprm_info i;
	int k;

	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	ASSERT_EQ(CXPRM_STATE_UP, i.state);
	ASSERT_EQ(0, i.flags & CXPRM_INFO_FAILED);
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault(&self->emu, CXPRM_EMUD_FAULT_ONLY_OPCODE, OP_QUERY_ISSI, 0));
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault(&self->emu, CXPRM_EMUD_FAULT_NEVER_COMPLETE, 1, 0));
	ASSERT_EQ(0, pipe(self->pipes));
	fflush(NULL);
	for (k = 0; k < n; k++) {
		self->pids[k] = fork();
		ASSERT_LE(0, self->pids[k]);
		if (self->pids[k] == 0) {
			int res[2];

			close(self->pipes[0]);
			errno = 0;
			res[0] = raw_issi_dump(self->fd, &r, NULL, 0) ? errno : 0;
			res[1] = (int)(now_ns() / 1000000);
			_exit(write(self->pipes[1], res, sizeof(res)) == sizeof(res) ? 0 : 1);
		}
	}
	self->nstuck = n;
	close(self->pipes[1]);
	sleep_ms(300);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	EXPECT_EQ(CXPRM_STATE_UP, i.state) TH_LOG("failed before the fault");
}

/* Each stuck command ended with err within max_ms of 'since'. */
static void expect_stuck_ended(struct __test_metadata *_metadata, FIXTURE_DATA(given_up) *self,
			       int err, uint64_t since, int max_ms)
{
	int k, st;

	for (k = 0; k < self->nstuck; k++) {
		int res[2] = { -1, 0 };

		EXPECT_EQ((ssize_t)sizeof(res), read(self->pipes[0], res, sizeof(res)));
		EXPECT_EQ(err, res[0]) TH_LOG("stuck command %d: %s", k, strerror(res[0]));
		EXPECT_GT(max_ms, res[1] - (int)(since / 1000000))
			TH_LOG("stuck command %d ended %d ms late", k, res[1] - (int)(since / 1000000));
	}
	for (k = 0; k < self->nstuck; k++) {
		ASSERT_EQ(self->pids[k], waitpid(self->pids[k], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	close(self->pipes[0]);
}

/* When INFO first says CXPRM_INFO_FAILED (0 if not within 10 s); *i as then. */
static uint64_t wait_failed(struct __test_metadata *_metadata, int fd, uint64_t t0, struct cxprm_info *i)
{
	while (now_ns() - t0 < 10000000000ull) {
		EXPECT_EQ(0, ioctl(fd, CXPRM_IOC_INFO, i));
		if (i->flags & CXPRM_INFO_FAILED)
			return now_ns();
		sleep_ms(5);
	}
	return 0;
}

/* The next CXPRM_EVENT_HEALTH record of kind 'sub' within ms, else 0. */
static int wait_health_event(int fd, int sub, int ms)
{
	struct cxprm_event ev;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint64_t t0 = now_ns();

	while (now_ns() - t0 < (uint64_t)ms * 1000000ull) {
		if (poll(&pfd, 1, 100) != 1)
			continue;
		if (read(fd, &ev, sizeof(ev)) != sizeof(ev))
			return 0;
		if (ev.type == CXPRM_EVENT_HEALTH && ev.sub_type == sub)
			return 1;
	}
	return 0;
}

/*
 * With n commands stuck in the firmware, sets a fatal fault knob: they end
 * with err within 3 s, the device is marked failed (INFO in *i).  How long
 * that took, in ns.
 */
static uint64_t fail_with_stuck(struct __test_metadata *_metadata, FIXTURE_DATA(given_up) *self,
				int n, uint32_t knob, int err, struct cxprm_info *i)
{
	uint64_t t0, t_failed;

	start_stuck(_metadata, self, n);
	t0 = now_ns();
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault(&self->emu, knob, 1, 0));
	/* Seconds, not cmd_timeout_ms (60 s): room for a loaded host. */
	expect_stuck_ended(_metadata, self, err, t0, 3000);
	t_failed = wait_failed(_metadata, self->fd, t0, i);
	ASSERT_NE(0, t_failed) TH_LOG("the device was never marked failed");
	return t_failed - t0;
}

TEST_F_TIMEOUT(given_up, health_counter_stall, 90)
{
	int poll_ms = cxprm_param("health_poll_ms"), stall_polls = cxprm_param("health_stall_polls");
	struct cxprm_info i;
	char *health, path[300];

	NEED_RUN();
	if (!getenv("CXPRM_TEST_STALL"))
		SKIP(return, "set CXPRM_TEST_STALL=1");
	if (poll_ms <= 0 || stall_polls <= 0)
		SKIP(return, "no health poller (health_poll_ms=%d)", poll_ms);

	/* The firmware's heart stops; no syndrome: a warning, not death. */
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault(&self->emu, CXPRM_EMUD_FAULT_HEALTH_STALL, 1, 0));
	EXPECT_TRUE(wait_health_event(self->fd, CXPRM_HEALTH_STALL, (stall_polls + 2) * poll_ms + 1000))
		TH_LOG("no stall report within %d polls", stall_polls + 2);
	expect_still_fine(_metadata, self->fd);
	EXPECT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault(&self->emu, CXPRM_EMUD_FAULT_HEALTH_STALL, 0, 0));
	/* HIGH_TEMP without rfr: reported, the device kept. */
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault(&self->emu, CXPRM_EMUD_FAULT_HEALTH_SYNDROME, 0x10, 0));
	EXPECT_TRUE(wait_health_event(self->fd, CXPRM_HEALTH_SYNDROME, 3 * poll_ms + 1000))
		TH_LOG("no syndrome report");
	expect_still_fine(_metadata, self->fd);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	EXPECT_EQ(0, i.flags & CXPRM_INFO_FAILED);
	EXPECT_EQ(0x10, i.health_syndrome);
	EXPECT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault(&self->emu, CXPRM_EMUD_FAULT_HEALTH_SYNDROME, 0, 0));

	/* A firmware reset (nic_interface SW_RESET) is fatal (sticky). */
	/* The waiting commands see it themselves within ms. */
	fail_with_stuck(_metadata, self, 4, CXPRM_EMUD_FAULT_SW_RESET, EHOSTDOWN, &i);
	EXPECT_EQ(CXPRM_STATE_ERROR, i.state);
	expect_failed_device(_metadata, self->fd, &self->emu, EHOSTDOWN);
	snprintf(path, sizeof(path), "/sys/kernel/debug/cxprm/%s/health", cxprm_bdf());
	health = slurp(path, NULL);
	ASSERT_NE(NULL, health) TH_LOG("%s: %s", path, strerror(errno));
	EXPECT_NE(NULL, strstr(health, "device FAILED: EHOSTDOWN")) TH_LOG("%s", health);
	EXPECT_NE(NULL, strstr(health, "NIC_SW_RESET")) TH_LOG("%s", health);
	free(health);
}

TEST_F_TIMEOUT(given_up, surprise_removal, 60)
{
	int poll_ms = cxprm_param("health_poll_ms");
	struct cxprm_info i;
	uint64_t dt;

	NEED_RUN();
	if (!getenv("CXPRM_TEST_GONE"))
		SKIP(return, "set CXPRM_TEST_GONE=1");
	if (poll_ms <= 0)
		SKIP(return, "no health poller (health_poll_ms=%d)", poll_ms);
	/* Answered once the device part of the BAR reads all ones. */
	dt = fail_with_stuck(_metadata, self, 2, CXPRM_EMUD_FAULT_DEVICE_GONE, ENODEV, &i);
	TH_LOG("surprise removal: device marked failed after %llu ms (health_poll_ms %d)",
	       (unsigned long long)dt / 1000000, poll_ms);
	EXPECT_GT((uint64_t)poll_ms * 1000000ull + 3000000000ull, dt);
	EXPECT_EQ(CXPRM_STATE_GONE, i.state);
	expect_failed_device(_metadata, self->fd, &self->emu, ENODEV);
}

TEST_HARNESS_MAIN
