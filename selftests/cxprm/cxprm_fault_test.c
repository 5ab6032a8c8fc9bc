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
 *
 * The sticky failures (crash, stall, surprise removal) are cxprm_fatal_test.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "cxprm_harness.h"

#define TARGET OP_QUERY_ISSI

FIXTURE(fault) {
	int fd;
	struct emuctl emu;
};

/* Arms one knob for the next TARGET command only. */
static int arm(struct emuctl *e, uint32_t knob, uint32_t v, uint32_t v2)
{
	return emuctl_arm_once(e, TARGET, knob, v, v2);
}

FIXTURE_SETUP(fault)
{
	self->fd = dev_open_emu_clear(_metadata, &self->emu);
}

FIXTURE_TEARDOWN(fault)
{
	if (self->emu.page)
		emuctl_fault_clear(&self->emu);
	dev_emu_close(self->fd, &self->emu);
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
	EXPECT_EQ(-1, raw_issi_dump(self->fd, &r, dump, sizeof(dump)));
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
	expect_still_fine(_metadata, self->fd);
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
		EXPECT_EQ(-1, raw_issi_dump(fd, &r, NULL, 0));
		EXPECT_EQ(EBADMSG, errno) TH_LOG("%s", strerror(errno));
	} else {
		EXPECT_EQ(0, raw_issi_dump(fd, &r, NULL, 0)) TH_LOG("checksums off: %s", strerror(errno));
	}
	expect_still_fine(_metadata, fd);
}

TEST_F(fault, bad_entry_signature_ebadmsg)
{
	corrupt_signature(_metadata, self->fd, &self->emu, 1);
}

TEST_F(fault, bad_block_signature_ebadmsg)
{
	corrupt_signature(_metadata, self->fd, &self->emu, 2);
}

/* A fault Linux does not notice either: the command succeeds, the next too. */
static void expect_accepted(struct __test_metadata *_metadata, int fd, struct emuctl *emu,
			    uint32_t knob, uint32_t v)
{
	struct cxprm_raw_cmd r;

	ASSERT_EQ(CXPRM_EMUD_ST_OK, arm(emu, knob, v, 0));
	errno = 0;
	EXPECT_EQ(0, raw_issi_dump(fd, &r, NULL, 0)) TH_LOG("%s", strerror(errno));
	expect_still_fine(_metadata, fd);
}

/* A12: the token is not read back (Linux and rdma-core never do). */
TEST_F(fault, wrong_token_accepted)
{
	expect_accepted(_metadata, self->fd, &self->emu, CXPRM_EMUD_FAULT_WRONG_TOKEN, 1);
}

/* A12: nor the lengths; the output is read for the length we asked. */
TEST_F(fault, output_length_lie_accepted)
{
	expect_accepted(_metadata, self->fd, &self->emu, CXPRM_EMUD_FAULT_OUTPUT_LENGTH_LIE, 64);
}

TEST_F(fault, slow_firmware_latency)
{
	struct cxprm_raw_cmd r;
	uint64_t t0 = now_ns();

	ASSERT_EQ(CXPRM_EMUD_ST_OK, arm(&self->emu, CXPRM_EMUD_FAULT_SLOW_MS, 80, 0));
	ASSERT_EQ(0, raw_issi_dump(self->fd, &r, NULL, 0)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ST_OK, r.st.status);
	EXPECT_LE(80000000ull, r.st.latency_ns) TH_LOG("latency %llu ns", (unsigned long long)r.st.latency_ns);
	EXPECT_LE(80000000ull, now_ns() - t0);
}

TEST_F_TIMEOUT(fault, no_completion_etimedout, 60)
{
	int tmo = cxprm_param("cmd_timeout_ms");
	struct cxprm_raw_cmd r;
	uint64_t t0, dt;

	if (tmo <= 0 || tmo > 10000)
		SKIP(return, "cmd_timeout_ms=%d: load with cmd_timeout_ms<=10000 to test timeouts", tmo);
	ASSERT_EQ(CXPRM_EMUD_ST_OK, arm(&self->emu, CXPRM_EMUD_FAULT_NEVER_COMPLETE, 1, 0));
	t0 = now_ns();
	errno = 0;
	EXPECT_EQ(-1, raw_issi_dump(self->fd, &r, NULL, 0));
	dt = now_ns() - t0;
	EXPECT_EQ(ETIMEDOUT, errno) TH_LOG("%s", strerror(errno));
	EXPECT_LE((uint64_t)tmo * 1000000ull, dt) TH_LOG("gave up after %llu ms", (unsigned long long)dt / 1000000);
	EXPECT_GT((uint64_t)tmo * 1000000ull + 3000000000ull, dt) TH_LOG("took %llu ms", (unsigned long long)dt / 1000000);
	/* One slot is lost for good (the device may still write it); the rest work. */
	expect_still_fine(_metadata, self->fd);
}

TEST_HARNESS_MAIN
