// SPDX-License-Identifier: GPL-2.0
/*
 * Transport failures as userspace sees them, injected with the emulator's
 * fault knobs (control page, CXPRM_EMUD_CMD_FAULT) on one opcode only
 * (QUERY_ISSI through CXPRM_IOC_RAW):
 *   delivery status       -EIO, st.delivery set, dump still written
 *   bad entry signature   -EBADMSG with checksums on (cmd_checksum=1),
 *   bad block signature     else unnoticed (nothing verifies, as in Linux)
 *   wrong token, output length lie: accepted (not read back, as in Linux;
 *                         the output is read for the length asked)
 *   slow firmware         success, latency_ns >= the delay
 *   no completion         -ETIMEDOUT after cmd_timeout_ms, device still UP
 * and, only with CXPRM_TEST_CRASH=1 (sticky: the emulator stays crashed),
 * a firmware crash: INFO says ERROR and the health syndrome, commands fail
 * with -EHOSTDOWN instead of hanging, the device is marked failed and a
 * reader blocked in read() is woken with -EHOSTDOWN (with the health poller
 * off too: the failing command marks it), and unbinding still completes.
 *
 * Only with CXPRM_TEST_STALL=1 (the driver gives the device up for good:
 * run last but the crash), health as Linux judges it: a stopped health
 * counter and a syndrome without rfr are only reported (a CXPRM_EVENT_HEALTH
 * record, the device stays UP and answers); then a firmware reset
 * (nic_interface SW_RESET) is fatal: commands stuck in the firmware are
 * woken with -EHOSTDOWN long before cmd_timeout_ms, later ones fail at
 * once without reaching it, INFO says ERROR + CXPRM_INFO_FAILED, read() and
 * poll() do not wait for events that cannot come, debugfs health FAILED.
 *
 * Only with CXPRM_TEST_GONE=1: surprise removal (the BAR reads all ones):
 * commands stuck in the firmware end with -ENODEV at once, the poller
 * marks the device GONE within health_poll_ms, later commands, read()
 * and poll() as above with -ENODEV.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "cxprm_test.h"

#define TARGET OP_QUERY_ISSI

FIXTURE(fault) {
	int fd;
	struct emuctl emu;
	int run;
};

static int emu_fault(struct emuctl *e, uint32_t knob, uint32_t v, uint32_t v2)
{
	uint32_t a[3] = { knob, v, v2 };

	return emuctl_cmd(e, CXPRM_EMUD_CMD_FAULT, a, 3, NULL);
}

static int emu_fault_clear(struct emuctl *e)
{
	return emuctl_cmd(e, CXPRM_EMUD_CMD_FAULT_CLEAR, NULL, 0, NULL);
}

/* Arms one knob for the next TARGET command only. */
static int arm(struct emuctl *e, uint32_t knob, uint32_t v, uint32_t v2)
{
	if (emu_fault_clear(e) || emu_fault(e, CXPRM_EMUD_FAULT_ONLY_OPCODE, TARGET, 0) ||
	    emu_fault(e, CXPRM_EMUD_FAULT_ONCE, 1, 0))
		return -1;
	return emu_fault(e, knob, v, v2);
}

/* The device and the control page, no fault armed (0, or the test failed). */
static void open_dev_and_emu(struct __test_metadata *_metadata, int *fd, struct emuctl *emu)
{
	int r;

	*fd = cxprm_open();
	ASSERT_LE(0, *fd) TH_LOG("open %s: %s", cxprm_dev_path(), strerror(errno));
	r = emuctl_open(emu, cxprm_bdf());
	ASSERT_EQ(0, r) TH_LOG("emulator control page: %s", strerror(-r));
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emu_fault_clear(emu));
}

FIXTURE_SETUP(fault)
{
	if (getenv("CXPRM_TEST_CRASH") || getenv("CXPRM_TEST_STALL") || getenv("CXPRM_TEST_GONE"))
		SKIP(return, "CXPRM_TEST_CRASH/STALL/GONE set: only that case runs");
	open_dev_and_emu(_metadata, &self->fd, &self->emu);
	self->run = 1;
}

FIXTURE_TEARDOWN(fault)
{
	if (self->emu.page)
		emu_fault_clear(&self->emu);
	emuctl_close(&self->emu);
	if (self->fd > 0)
		close(self->fd);
}

#define NEED_RUN() do { if (!self->run) return; } while (0)

/* QUERY_ISSI, with a dump; returns the ioctl's result, errno kept. */
static int issi(int fd, struct cxprm_raw_cmd *r, uint8_t *dump, uint32_t dump_len)
{
	static uint8_t in[CMD_HDR], out[QUERY_ISSI_OUT];

	cmd_hdr(in, sizeof(in), TARGET, 0);
	memset(r, 0, sizeof(*r));
	r->in = (uintptr_t)in;
	r->out = (uintptr_t)out;
	r->inlen = sizeof(in);
	r->outlen = sizeof(out);
	if (dump) {
		r->flags = CXPRM_RAW_DUMP;
		r->dump = (uintptr_t)dump;
		r->dump_len = dump_len;
	}
	return ioctl(fd, CXPRM_IOC_RAW, r);
}

static void still_fine(struct __test_metadata *_metadata, int fd)
{
	struct cxprm_raw_cmd r;
	struct cxprm_info i;

	EXPECT_EQ(0, issi(fd, &r, NULL, 0)) TH_LOG("the next command failed: %s", strerror(errno));
	EXPECT_EQ(ST_OK, r.st.status);
	ASSERT_EQ(0, ioctl(fd, CXPRM_IOC_INFO, &i));
	EXPECT_EQ(CXPRM_STATE_UP, i.state);
}

TEST_F(fault, delivery_status_eio)
{
	uint8_t dump[sizeof(struct cxprm_raw_dump) + 4 * CXPRM_MAILBOX_BYTES];
	struct cxprm_raw_dump *d = (struct cxprm_raw_dump *)dump;
	struct cxprm_raw_cmd r;
	long long n0, e0 = 0, e1 = 0;
	struct cxprm_opcode_stats e[64];
	struct cxprm_stats s;
	uint32_t k;

	NEED_RUN();
	n0 = stats_opcode_count(self->fd, TARGET);
	memset(&s, 0, sizeof(s));
	s.capacity = 64;
	s.entries = (uintptr_t)e;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_STATS, &s));
	for (k = 0; k < s.count; k++)
		if (e[k].opcode == TARGET)
			e0 = e[k].errors;

	ASSERT_EQ(CXPRM_EMUD_ST_OK, arm(&self->emu, CXPRM_EMUD_FAULT_DELIVERY_STATUS, 0x7, 1));
	memset(dump, 0, sizeof(dump));
	errno = 0;
	EXPECT_EQ(-1, issi(self->fd, &r, dump, sizeof(dump)));
	EXPECT_EQ(EIO, errno) TH_LOG("%s", strerror(errno));
	/* The status and the dump come back on transport errors too. */
	EXPECT_EQ(0x7, r.st.delivery);
	EXPECT_EQ(TARGET, r.st.opcode);
	EXPECT_LT(0, r.dump_len) TH_LOG("no dump on a delivery error");
	EXPECT_EQ(0x7, d->entry_completed[63] >> 1);
	EXPECT_EQ(0, d->entry_completed[63] & 1);

	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_STATS, &s));
	for (k = 0; k < s.count; k++)
		if (e[k].opcode == TARGET) {
			e1 = e[k].errors;
			EXPECT_EQ(0x7, e[k].last_delivery);
			/* sign not specified by the UAPI: accept EIO either way */
			EXPECT_EQ(EIO, abs(e[k].last_errno)) TH_LOG("last_errno %d", e[k].last_errno);
		}
	EXPECT_EQ(e0 + 1, e1);
	EXPECT_EQ(n0 + 1, stats_opcode_count(self->fd, TARGET));
	still_fine(_metadata, self->fd);
}

/* Command checksums on (INFO flag, from cmd_checksum=1). */
static int checksums_on(int fd)
{
	struct cxprm_info i;

	return !ioctl(fd, CXPRM_IOC_INFO, &i) && (i.flags & CXPRM_INFO_CMD_CHECKSUM);
}

/* A corrupt signature: -EBADMSG with checksums on, unnoticed without. */
static void corrupt_signature(struct __test_metadata *_metadata, int fd, struct emuctl *emu,
			      uint32_t where)
{
	struct cxprm_raw_cmd r;
	int csum = checksums_on(fd);

	ASSERT_EQ(CXPRM_EMUD_ST_OK, arm(emu, CXPRM_EMUD_FAULT_CORRUPT_SIGNATURE, where, 0));
	errno = 0;
	if (csum) {
		EXPECT_EQ(-1, issi(fd, &r, NULL, 0));
		EXPECT_EQ(EBADMSG, errno) TH_LOG("%s", strerror(errno));
	} else {
		EXPECT_EQ(0, issi(fd, &r, NULL, 0)) TH_LOG("checksums off: %s", strerror(errno));
	}
	still_fine(_metadata, fd);
}

TEST_F(fault, bad_entry_signature_ebadmsg)
{
	NEED_RUN();
	corrupt_signature(_metadata, self->fd, &self->emu, 1);
}

TEST_F(fault, bad_block_signature_ebadmsg)
{
	NEED_RUN();
	corrupt_signature(_metadata, self->fd, &self->emu, 2);
}

/* A12: the token is not read back (Linux and rdma-core never do). */
TEST_F(fault, wrong_token_accepted)
{
	struct cxprm_raw_cmd r;

	NEED_RUN();
	ASSERT_EQ(CXPRM_EMUD_ST_OK, arm(&self->emu, CXPRM_EMUD_FAULT_WRONG_TOKEN, 1, 0));
	errno = 0;
	EXPECT_EQ(0, issi(self->fd, &r, NULL, 0)) TH_LOG("%s", strerror(errno));
	still_fine(_metadata, self->fd);
}

/* A12: nor the lengths; the output is read for the length we asked. */
TEST_F(fault, output_length_lie_accepted)
{
	struct cxprm_raw_cmd r;

	NEED_RUN();
	ASSERT_EQ(CXPRM_EMUD_ST_OK, arm(&self->emu, CXPRM_EMUD_FAULT_OUTPUT_LENGTH_LIE, 64, 0));
	errno = 0;
	EXPECT_EQ(0, issi(self->fd, &r, NULL, 0)) TH_LOG("%s", strerror(errno));
	still_fine(_metadata, self->fd);
}

TEST_F(fault, slow_firmware_latency)
{
	struct cxprm_raw_cmd r;
	uint64_t t0 = now_ns();

	NEED_RUN();
	ASSERT_EQ(CXPRM_EMUD_ST_OK, arm(&self->emu, CXPRM_EMUD_FAULT_SLOW_MS, 80, 0));
	ASSERT_EQ(0, issi(self->fd, &r, NULL, 0)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ST_OK, r.st.status);
	EXPECT_LE(80000000ull, r.st.latency_ns) TH_LOG("latency %llu ns", (unsigned long long)r.st.latency_ns);
	EXPECT_LE(80000000ull, now_ns() - t0);
}

TEST_F_TIMEOUT(fault, no_completion_etimedout, 60)
{
	int tmo = cxprm_param("cmd_timeout_ms");
	struct cxprm_raw_cmd r;
	uint64_t t0, dt;

	NEED_RUN();
	if (tmo <= 0 || tmo > 10000)
		SKIP(return, "cmd_timeout_ms=%d: load with cmd_timeout_ms<=10000 to test timeouts", tmo);
	ASSERT_EQ(CXPRM_EMUD_ST_OK, arm(&self->emu, CXPRM_EMUD_FAULT_NEVER_COMPLETE, 1, 0));
	t0 = now_ns();
	errno = 0;
	EXPECT_EQ(-1, issi(self->fd, &r, NULL, 0));
	dt = now_ns() - t0;
	EXPECT_EQ(ETIMEDOUT, errno) TH_LOG("%s", strerror(errno));
	EXPECT_LE((uint64_t)tmo * 1000000ull, dt) TH_LOG("gave up after %llu ms", (unsigned long long)dt / 1000000);
	EXPECT_GT((uint64_t)tmo * 1000000ull + 3000000000ull, dt) TH_LOG("took %llu ms", (unsigned long long)dt / 1000000);
	/* One slot is lost for good (the device may still write it); the rest work. */
	still_fine(_metadata, self->fd);
}

/* ---- firmware crash: sticky, run last (CXPRM_TEST_CRASH=1) ---- */

FIXTURE(crash) {
	int fd;
	struct emuctl emu;
	int run;
};

FIXTURE_SETUP(crash)
{
	int r;

	if (!getenv("CXPRM_TEST_CRASH") || getenv("CXPRM_TEST_STALL") || getenv("CXPRM_TEST_GONE"))
		SKIP(return, "set CXPRM_TEST_CRASH=1 (the emulator stays crashed afterwards)");
	self->fd = cxprm_open();
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", cxprm_dev_path(), strerror(errno));
	r = emuctl_open(&self->emu, cxprm_bdf());
	ASSERT_EQ(0, r) TH_LOG("emulator control page: %s", strerror(-r));
	self->run = 1;
}

FIXTURE_TEARDOWN(crash)
{
	emuctl_close(&self->emu);
	if (self->fd > 0)
		close(self->fd);
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
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emu_fault(&self->emu, CXPRM_EMUD_FAULT_CRASH, 1, 0));
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
	EXPECT_EQ(-1, issi(self->fd, &r, NULL, 0));
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
	open_dev_and_emu(_metadata, &self->fd, &self->emu);
	self->run = 1;
}

FIXTURE_TEARDOWN(given_up)
{
	if (self->emu.page) {
		emu_fault(&self->emu, CXPRM_EMUD_FAULT_HEALTH_STALL, 0, 0);
		emu_fault(&self->emu, CXPRM_EMUD_FAULT_HEALTH_SYNDROME, 0, 0);
		emu_fault_clear(&self->emu);
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
		EXPECT_GT(100000000ull, now_ns() - t0);
	}
	EXPECT_EQ(esw0, emuctl_query(emu, CXPRM_EMUD_Q_OPCODE_COUNT, OP_QUERY_ESW_FUNCTIONS, 0, 0))
		TH_LOG("a failed device sent commands");
	errno = 0;
	t0 = now_ns();
	ret = (int)read(fd, &ev, sizeof(ev));
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
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emu_fault(&self->emu, CXPRM_EMUD_FAULT_ONLY_OPCODE, TARGET, 0));
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emu_fault(&self->emu, CXPRM_EMUD_FAULT_NEVER_COMPLETE, 1, 0));
	ASSERT_EQ(0, pipe(self->pipes));
	fflush(NULL);
	for (k = 0; k < n; k++) {
		self->pids[k] = fork();
		ASSERT_LE(0, self->pids[k]);
		if (self->pids[k] == 0) {
			int res[2];

			close(self->pipes[0]);
			errno = 0;
			res[0] = issi(self->fd, &r, NULL, 0) ? errno : 0;
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

TEST_F_TIMEOUT(given_up, health_counter_stall, 90)
{
	int poll_ms = cxprm_param("health_poll_ms"), stall_polls = cxprm_param("health_stall_polls");
	uint64_t t0, t_failed;
	struct cxprm_info i;
	char *health, path[300];

	NEED_RUN();
	if (!getenv("CXPRM_TEST_STALL"))
		SKIP(return, "set CXPRM_TEST_STALL=1");
	if (poll_ms <= 0 || stall_polls <= 0)
		SKIP(return, "no health poller (health_poll_ms=%d)", poll_ms);

	/* The firmware's heart stops; no syndrome: a warning, not death. */
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emu_fault(&self->emu, CXPRM_EMUD_FAULT_HEALTH_STALL, 1, 0));
	EXPECT_TRUE(wait_health_event(self->fd, CXPRM_HEALTH_STALL, (stall_polls + 2) * poll_ms + 1000))
		TH_LOG("no stall report within %d polls", stall_polls + 2);
	still_fine(_metadata, self->fd);
	EXPECT_EQ(CXPRM_EMUD_ST_OK, emu_fault(&self->emu, CXPRM_EMUD_FAULT_HEALTH_STALL, 0, 0));
	/* HIGH_TEMP without rfr: reported, the device kept. */
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emu_fault(&self->emu, CXPRM_EMUD_FAULT_HEALTH_SYNDROME, 0x10, 0));
	EXPECT_TRUE(wait_health_event(self->fd, CXPRM_HEALTH_SYNDROME, 3 * poll_ms + 1000))
		TH_LOG("no syndrome report");
	still_fine(_metadata, self->fd);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	EXPECT_EQ(0, i.flags & CXPRM_INFO_FAILED);
	EXPECT_EQ(0x10, i.health_syndrome);
	EXPECT_EQ(CXPRM_EMUD_ST_OK, emu_fault(&self->emu, CXPRM_EMUD_FAULT_HEALTH_SYNDROME, 0, 0));

	/* A firmware reset (nic_interface SW_RESET) is fatal (sticky). */
	start_stuck(_metadata, self, 4);
	t0 = now_ns();
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emu_fault(&self->emu, CXPRM_EMUD_FAULT_SW_RESET, 1, 0));
	/* The waiting commands see it themselves within ms. */
	expect_stuck_ended(_metadata, self, EHOSTDOWN, t0, 1000);
	t_failed = wait_failed(_metadata, self->fd, t0, &i);
	ASSERT_NE(0, t_failed) TH_LOG("the device was never marked failed");
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
	uint64_t t0, t_failed;
	struct cxprm_info i;

	NEED_RUN();
	if (!getenv("CXPRM_TEST_GONE"))
		SKIP(return, "set CXPRM_TEST_GONE=1");
	if (poll_ms <= 0)
		SKIP(return, "no health poller (health_poll_ms=%d)", poll_ms);
	start_stuck(_metadata, self, 2);

	t0 = now_ns();
	/* Answered once the device part of the BAR reads all ones. */
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emu_fault(&self->emu, CXPRM_EMUD_FAULT_DEVICE_GONE, 1, 0));
	expect_stuck_ended(_metadata, self, ENODEV, t0, 1000);
	t_failed = wait_failed(_metadata, self->fd, t0, &i);
	ASSERT_NE(0, t_failed) TH_LOG("the device was never marked failed");
	TH_LOG("surprise removal: device marked failed after %llu ms (health_poll_ms %d)",
	       (unsigned long long)(t_failed - t0) / 1000000, poll_ms);
	EXPECT_GT((uint64_t)poll_ms * 1000000ull + 1000000000ull, t_failed - t0);
	EXPECT_EQ(CXPRM_STATE_GONE, i.state);
	expect_failed_device(_metadata, self->fd, &self->emu, ENODEV);
}

TEST_HARNESS_MAIN
