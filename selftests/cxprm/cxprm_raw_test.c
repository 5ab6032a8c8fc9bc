// SPDX-License-Identifier: GPL-2.0
/*
 * CXPRM_IOC_RAW: queries, the privilege policy (forbidden opcodes, write
 * scope needs CAP_SYS_RAWIO and allow_raw_write=1), length limits, bad
 * pointers, flags, and CXPRM_RAW_DUMP (the bytes that went over the wire).
 *
 * Adapts to the allow_raw_write module parameter: run it once with
 * allow_raw_write=0 and once with 1 (run_guest_tests.sh does).
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "cxprm_harness.h"

FIXTURE(raw_ioctl) {
	int fd;
	int allow_write;
	int csum;	/* command checksums on: outputs signed and verified */
	const struct emu_profile *prof;
};

FIXTURE_SETUP(raw_ioctl)
{
	struct cxprm_info i;

	self->fd = dev_open_info(_metadata, &i);
	self->prof = emu_profile_by_fw(i.fw_major);
	self->csum = !!(i.flags & CXPRM_INFO_CMD_CHECKSUM);
	self->allow_write = cxprm_param("allow_raw_write");
	ASSERT_LE(0, self->allow_write) TH_LOG("no /sys/module/cxprm/parameters/allow_raw_write");
}

FIXTURE_TEARDOWN(raw_ioctl)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* op_mod = type << 1 | mode, mode 0 = MAX (HCA_CAP_OPMOD_GET_MAX), 1 = CUR. */
static void query_caps_in(uint8_t *in, uint16_t type, int max)
{
	cmd_hdr(in, CMD_HDR, OP_QUERY_HCA_CAP, (uint16_t)(type << 1 | (max ? 0 : 1)));
}

/* ----------------------------------------------------------- happy paths */

TEST_F(raw_ioctl, query_hca_cap_matches_typed)
{
	static uint8_t out[QUERY_HCA_CAP_OUT];
	struct cxprm_caps *c = malloc(sizeof(*c));
	struct cxprm_cmd_status st;
	uint8_t in[CMD_HDR];
	int max;

	ASSERT_NE(NULL, c);
	for (max = 0; max <= 1; max++) {
		ASSERT_EQ(0, query_caps(self->fd, CAP_GENERAL, max, c));
		ASSERT_EQ(ST_OK, c->st.status);
		query_caps_in(in, CAP_GENERAL, max);
		memset(out, 0xa5, sizeof(out));
		ASSERT_EQ(0, raw_cmd(self->fd, in, sizeof(in), out, sizeof(out), &st))
			TH_LOG("RAW QUERY_HCA_CAP: %s", strerror(errno));
		EXPECT_EQ(0, st.delivery);
		EXPECT_EQ(ST_OK, st.status);
		EXPECT_EQ(OP_QUERY_HCA_CAP, st.opcode);
		EXPECT_EQ(0, st.syndrome);
		EXPECT_LT(0, st.latency_ns);
		EXPECT_EQ(0, out[0]);		/* cmd_out.status */
		EXPECT_EQ(0, be32_at(out, 4));	/* cmd_out.syndrome */
		EXPECT_EQ(0, memcmp(out + 16, c->caps, 4096)) TH_LOG("%s image differs from QUERY_CAPS",
								     max ? "MAX" : "CUR");
	}
	free(c);
}

TEST_F(raw_ioctl, query_adapter)
{
	uint8_t in[CMD_HDR], out[QUERY_ADAPTER_OUT];
	struct cxprm_cmd_status st;
	char psid[17], vsd[209];

	ASSERT_NE(NULL, self->prof);
	cmd_hdr(in, sizeof(in), OP_QUERY_ADAPTER, 0);
	ASSERT_EQ(0, raw_cmd(self->fd, in, sizeof(in), out, sizeof(out), &st));
	ASSERT_EQ(ST_OK, st.status);
	EXPECT_EQ(OP_QUERY_ADAPTER, st.opcode);
	/* query_adapter_param_block at byte 16 */
	EXPECT_EQ(0x0002c9, be32_at(out, 16 + 24) & 0xffffff); /* ieee_vendor_id */
	EXPECT_EQ(0x15b3, be16_at(out, 16 + 30));              /* vsd_vendor_id */
	memcpy(vsd, out + 16 + 32, 208);
	vsd[208] = 0;
	memcpy(psid, out + 16 + 240, 16);
	psid[16] = 0;
	EXPECT_NE(NULL, strstr(vsd, "cxprm emulator")) TH_LOG("vsd '%s'", vsd);
	EXPECT_NE(NULL, strstr(vsd, self->prof->name)) TH_LOG("vsd '%s'", vsd);
	EXPECT_STREQ(self->prof->device_id == 0x1021   ? "MT_0000000834"
		     : self->prof->device_id == 0xa2dc ? "MT_0000000884"
						       : "MT_0000000008",
		     psid);
}

TEST_F(raw_ioctl, query_issi)
{
	uint8_t out[QUERY_ISSI_OUT];
	struct cxprm_cmd_status st;

	memset(out, 0xa5, sizeof(out));
	ASSERT_EQ(0, raw_query_issi(self->fd, &st, out));
	ASSERT_EQ(ST_OK, st.status);
	EXPECT_EQ(OP_QUERY_ISSI, st.opcode);
	EXPECT_EQ(1, be16_at(out, 10));         /* current_issi */
	EXPECT_EQ(3, be32_at(out, 108) & 3);    /* supported_issi_dw0 */
}

/* A firmware error is the ioctl's success, with status and syndrome. */
TEST_F(raw_ioctl, firmware_error_is_not_errno)
{
	static uint8_t out[QUERY_HCA_CAP_OUT];
	struct cxprm_cmd_status st;
	uint8_t in[CMD_HDR];

	query_caps_in(in, 0x3f, 0);
	errno = 0;
	ASSERT_EQ(0, raw_cmd(self->fd, in, sizeof(in), out, sizeof(out), &st))
		TH_LOG("ioctl failed: %s", strerror(errno));
	EXPECT_EQ(0, st.delivery);
	EXPECT_EQ(ST_BAD_PARAM_ERR, st.status);
	EXPECT_EQ(SYND_QUERY_CAP_BAD_TYPE, st.syndrome);
	EXPECT_EQ(OP_QUERY_HCA_CAP, st.opcode);
	EXPECT_EQ(ST_BAD_PARAM_ERR, out[0]);
	EXPECT_EQ(SYND_QUERY_CAP_BAD_TYPE, be32_at(out, 4));
}

/* An opcode the firmware does not know: BAD_OP, still ioctl success (write scope). */
TEST_F(raw_ioctl, unknown_opcode)
{
	uint8_t in[CMD_HDR], out[CMD_HDR];
	struct cxprm_cmd_status st;
	int r;

	cmd_hdr(in, sizeof(in), 0x0fff, 0);
	errno = 0;
	r = raw_cmd(self->fd, in, sizeof(in), out, sizeof(out), &st);
	if (!self->allow_write) {
		EXPECT_EQ(-1, r);
		EXPECT_EQ(EPERM, errno);
		return;
	}
	ASSERT_EQ(0, r) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ST_BAD_OP_ERR, st.status);
	EXPECT_EQ(0x0fff, st.opcode);
}

/* --------------------------------------------------------------- policy */

TEST_F(raw_ioctl, forbidden_opcodes_eperm)
{
	static const uint16_t forbidden[] = {
		OP_ENABLE_HCA, OP_DISABLE_HCA, OP_INIT_HCA, OP_TEARDOWN_HCA, OP_MANAGE_PAGES,
		OP_SET_ISSI, OP_CREATE_EQ, OP_DESTROY_EQ, OP_DEALLOC_UAR,
	};
	uint8_t in[256], out[256];
	struct cxprm_info before, after;
	size_t k;

	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &before));
	for (k = 0; k < ARRAY_SIZE(forbidden); k++) {
		cmd_hdr(in, sizeof(in), forbidden[k], 0);
		errno = 0;
		EXPECT_EQ(-1, raw_cmd(self->fd, in, sizeof(in), out, sizeof(out), NULL))
			TH_LOG("forbidden opcode 0x%x went through", forbidden[k]);
		EXPECT_EQ(EPERM, errno) TH_LOG("opcode 0x%x: %s", forbidden[k], strerror(errno));
	}
	/* Nothing reached the firmware, the device is still up. */
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &after));
	EXPECT_EQ(before.commands, after.commands);
	EXPECT_EQ(CXPRM_STATE_UP, after.state);
}

TEST_F(raw_ioctl, write_scope_follows_allow_raw_write)
{
	struct cxprm_cmd_status st;
	long long n0 = stats_opcode_count(self->fd, OP_NOP);
	int r;

	errno = 0;
	r = raw_nop(self->fd, &st);
	if (self->allow_write) {
		ASSERT_EQ(0, r) TH_LOG("NOP with allow_raw_write=1 as root: %s", strerror(errno));
		EXPECT_EQ(ST_OK, st.status);
		EXPECT_EQ(OP_NOP, st.opcode);
		EXPECT_EQ(n0 + 1, stats_opcode_count(self->fd, OP_NOP));
	} else {
		EXPECT_EQ(-1, r);
		EXPECT_EQ(EPERM, errno) TH_LOG("NOP with allow_raw_write=0: %s", strerror(errno));
		EXPECT_EQ(n0, stats_opcode_count(self->fd, OP_NOP));
	}
}

/* Records the kernel logged after fd's position that contain s. */
static int kmsg_count(int fd, const char *s)
{
	char rec[2048];
	ssize_t r;
	int n = 0;

	for (;;) {
		r = read(fd, rec, sizeof(rec) - 1);
		if (r < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (r <= 0)
			return n;
		rec[r] = 0;
		n += strstr(rec, s) != NULL;
	}
}

/*
 * As fwctl's write scopes: a raw write taints the kernel (TAINT_FWCTL, bit
 * 19, where the kernel has it, else TAINT_USER, bit 6) and is logged with
 * the writer's pid and the opcode, once per open file.
 */
TEST_F(raw_ioctl, write_taints_and_is_logged_once_per_file)
{
	struct cxprm_cmd_status st;
	unsigned long tainted = 0;
	char want[64];
	int k, fd;
	FILE *t;

	if (!self->allow_write)
		SKIP(return, "needs allow_raw_write=1");
	k = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, k) TH_LOG("/dev/kmsg: %s", strerror(errno));
	ASSERT_LE(0, lseek(k, 0, SEEK_END));
	fd = cxprm_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, raw_nop(fd, &st));
	ASSERT_EQ(0, raw_nop(fd, &st));
	snprintf(want, sizeof(want), "raw write by ");
	EXPECT_EQ(1, kmsg_count(k, want)) TH_LOG("one log line for two writes of one file");
	close(fd);
	fd = cxprm_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, raw_nop(fd, &st));
	snprintf(want, sizeof(want), "(pid %d): NOP (0x%x) op_mod 0x0", getpid(), OP_NOP);
	EXPECT_EQ(1, kmsg_count(k, want)) TH_LOG("a new file logs again, with pid and opcode");
	close(fd);
	close(k);
	t = fopen("/proc/sys/kernel/tainted", "r");
	ASSERT_NE(NULL, t);
	ASSERT_EQ(1, fscanf(t, "%lu", &tainted));
	fclose(t);
	EXPECT_NE(0UL, tainted & ((1UL << 19) | (1UL << 6))) TH_LOG("tainted %lu", tainted);
}

TEST_F(raw_ioctl, write_scope_needs_sys_rawio)
{
	IN_CHILD({
		struct cxprm_cmd_status st;

		ASSERT_EQ(0, caps_keep_only(CAPBIT(CAP_NET_ADMIN)));
		errno = 0;
		EXPECT_EQ(-1, raw_nop(self->fd, &st)) TH_LOG("NOP without CAP_SYS_RAWIO went through");
		EXPECT_EQ(EPERM, errno);
		/* Read-only queries only need CAP_NET_ADMIN. */
		EXPECT_EQ(0, raw_query_issi(self->fd, &st, NULL)) TH_LOG("%s", strerror(errno));
		EXPECT_EQ(ST_OK, st.status);
	});
}

TEST_F(raw_ioctl, query_scope_needs_net_admin)
{
	IN_CHILD({
		struct cxprm_cmd_status st;

		ASSERT_EQ(0, caps_keep_only(CAPBIT(CAP_SYS_RAWIO)));
		errno = 0;
		EXPECT_EQ(-1, raw_query_issi(self->fd, &st, NULL));
		EXPECT_EQ(EPERM, errno);
	});
}

/* -------------------------------------------------------------- lengths */

TEST_F(raw_ioctl, lengths_out_of_range)
{
	static uint8_t in[CXPRM_RAW_MAX + 64], out[CXPRM_RAW_MAX + 64];
	const struct {
		uint32_t inlen, outlen;
	} bad[] = {
		{ 0, QUERY_ISSI_OUT }, { 8, QUERY_ISSI_OUT }, { 15, QUERY_ISSI_OUT },
		{ CXPRM_RAW_MAX + 1, QUERY_ISSI_OUT }, { CXPRM_RAW_MAX + 16, QUERY_ISSI_OUT },
		{ 0xffffffffu, QUERY_ISSI_OUT },
		{ 16, 0 }, { 16, 15 }, { 16, CXPRM_RAW_MAX + 1 }, { 16, 0x80000000u },
	};
	size_t k;

	cmd_hdr(in, sizeof(in), OP_QUERY_ISSI, 0);
	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		errno = 0;
		EXPECT_EQ(-1, raw_cmd(self->fd, in, bad[k].inlen, out, bad[k].outlen, NULL))
			TH_LOG("inlen %u outlen %u accepted", bad[k].inlen, bad[k].outlen);
		EXPECT_EQ(EINVAL, errno) TH_LOG("inlen %u outlen %u: %s", bad[k].inlen, bad[k].outlen,
						strerror(errno));
	}
}

/* The limits themselves work: 64 mailbox blocks each way. */
TEST_F(raw_ioctl, lengths_at_limits)
{
	static uint8_t in[CXPRM_RAW_MAX], out[CXPRM_RAW_MAX];
	struct cxprm_cmd_status st;

	cmd_hdr(in, sizeof(in), OP_QUERY_ISSI, 0);
	memset(out, 0xa5, sizeof(out));
	ASSERT_EQ(0, raw_cmd(self->fd, in, CXPRM_RAW_MAX, out, CXPRM_RAW_MAX, &st))
		TH_LOG("inlen=outlen=CXPRM_RAW_MAX: %s", strerror(errno));
	EXPECT_EQ(0, st.delivery);
	EXPECT_EQ(ST_OK, st.status);
	EXPECT_EQ(1, be16_at(out, 10));
	/* Firmware zero-fills the output it does not use. */
	EXPECT_TRUE(all_zero(out + QUERY_ISSI_OUT, CXPRM_RAW_MAX - QUERY_ISSI_OUT));

	/* outlen 16: the firmware says the output is too short (not an errno). */
	ASSERT_EQ(0, raw_cmd(self->fd, in, 16, out, 16, &st));
	EXPECT_EQ(0x51, st.status) TH_LOG("status 0x%x", st.status); /* BAD_OUTP_LEN_ERR */
}

/* ------------------------------------------------------ pointers, flags */

TEST_F(raw_ioctl, bad_pointers_efault)
{
	uint8_t in[CMD_HDR], out[QUERY_ISSI_OUT], dump[4096];
	struct cxprm_raw_cmd r;

	cmd_hdr(in, sizeof(in), OP_QUERY_ISSI, 0);
	raw_req(&r, bad_ptr(), sizeof(in), out, sizeof(out), NULL, 0);
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_RAW, &r));
	EXPECT_EQ(EFAULT, errno) TH_LOG("bad in: %s", strerror(errno));

	r.in = 0;
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_RAW, &r));
	EXPECT_EQ(EFAULT, errno) TH_LOG("NULL in: %s", strerror(errno));

	r.in = (uintptr_t)in;
	r.out = (uintptr_t)bad_ptr();
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_RAW, &r));
	EXPECT_EQ(EFAULT, errno) TH_LOG("bad out: %s", strerror(errno));

	r.out = (uintptr_t)out;
	r.flags = CXPRM_RAW_DUMP;
	r.dump = (uintptr_t)bad_ptr();
	r.dump_len = sizeof(dump);
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_RAW, &r));
	EXPECT_EQ(EFAULT, errno) TH_LOG("bad dump: %s", strerror(errno));

	/* And the same call with good pointers works. */
	r.dump = (uintptr_t)dump;
	r.dump_len = sizeof(dump);
	EXPECT_EQ(0, ioctl(self->fd, CXPRM_IOC_RAW, &r)) TH_LOG("%s", strerror(errno));
}

TEST_F(raw_ioctl, unknown_flags_einval)
{
	uint8_t in[CMD_HDR], out[QUERY_ISSI_OUT];
	struct cxprm_raw_cmd r;
	const uint32_t bad[] = { 1u << 1, 1u << 7, 1u << 31, ~CXPRM_RAW_DUMP };
	size_t k;

	cmd_hdr(in, sizeof(in), OP_QUERY_ISSI, 0);
	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		raw_req(&r, in, sizeof(in), out, sizeof(out), NULL, 0);
		r.flags = bad[k];
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_RAW, &r)) TH_LOG("flags 0x%x accepted", bad[k]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("flags 0x%x: %s", bad[k], strerror(errno));
	}
}

/* ------------------------------------------------------------------ DUMP */

/*
 * The posted entry is signed always (as Linux does).  The completed one is
 * signed by the emulator only with command checksums on (module parameter
 * cmd_checksum=1 and cmdif_checksum in CUR); with them off (Linux's
 * setting) it is handed back unsigned, its signature byte as the driver
 * wrote it, and the driver must accept it.
 */
static void check_entry(struct __test_metadata *_metadata, const uint8_t *e, int completed,
			uint32_t inlen, uint32_t outlen, const uint8_t *in16, int csum)
{
	EXPECT_EQ(7, e[0]) TH_LOG("%s entry type 0x%x", completed ? "completed" : "posted", e[0]);
	/* Unsigned, the XOR depends on the output: see completed_entry_signed_only_with_checksums. */
	if (!completed || csum)
		EXPECT_EQ(0xff, xor_bytes(e, 64)) TH_LOG("%s entry XOR 0x%02x (signature 0x%02x)",
							 completed ? "completed" : "posted", xor_bytes(e, 64), e[61]);
	EXPECT_EQ(inlen, be32_at(e, 4));
	EXPECT_EQ(outlen, be32_at(e, 56));
	EXPECT_EQ(0, memcmp(e + 16, in16, 16)) TH_LOG("input inline data");
	if (completed) {
		EXPECT_EQ(0, e[63] & 1) TH_LOG("completed entry still owned by hardware");
		EXPECT_EQ(0, e[63] >> 1) TH_LOG("delivery status 0x%x", e[63] >> 1);
	} else {
		EXPECT_EQ(1, e[63] & 1) TH_LOG("posted entry not owned by hardware");
	}
}

static void check_block(struct __test_metadata *_metadata, const uint8_t *b, uint32_t i, uint8_t token,
			const uint8_t *data, size_t len, int signed_block)
{
	EXPECT_EQ(i, be32_at(b, 568)) TH_LOG("block %u: block_number %u", i, be32_at(b, 568));
	EXPECT_EQ(token, b[573]) TH_LOG("block %u: token 0x%x, entry 0x%x", i, b[573], token);
	if (signed_block) {
		EXPECT_EQ(0xff, xor_bytes(b, 576)) TH_LOG("block %u signature", i);
		EXPECT_EQ(0xff, xor_bytes(b + 512, 63)) TH_LOG("block %u ctrl signature", i);
	}
	if (data)
		EXPECT_EQ(0, memcmp(b, data, len)) TH_LOG("block %u data", i);
}

TEST_F(raw_ioctl, dump_output_blocks)
{
	static uint8_t out[QUERY_HCA_CAP_OUT];
	size_t cap = sizeof(struct cxprm_raw_dump) + 16 * CXPRM_MAILBOX_BYTES;
	uint8_t *dump = malloc(cap + 64);
	struct cxprm_raw_dump *d = (struct cxprm_raw_dump *)dump;
	struct cxprm_raw_cmd r;
	uint8_t in[CMD_HDR];
	uint32_t i;

	ASSERT_NE(NULL, dump);
	memset(dump, 0xa5, cap + 64);
	query_caps_in(in, CAP_GENERAL, 1);
	raw_req(&r, in, sizeof(in), out, sizeof(out), dump, (uint32_t)cap);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_RAW, &r)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(ST_OK, r.st.status);

	EXPECT_EQ(0, d->in_blocks);
	EXPECT_EQ(8, d->out_blocks);	/* 4096 bytes past the 16 inline ones */
	EXPECT_EQ(0, d->truncated);
	EXPECT_GT(32, d->slot);
	EXPECT_EQ(sizeof(*d) + 8 * CXPRM_MAILBOX_BYTES, r.dump_len);
	EXPECT_EQ(0xa5, dump[sizeof(*d) + 8 * CXPRM_MAILBOX_BYTES]) TH_LOG("dump written past dump_len");
	EXPECT_EQ(0xa5, dump[cap]);

	check_entry(_metadata, d->entry_posted, 0, sizeof(in), sizeof(out), in, self->csum);
	check_entry(_metadata, d->entry_completed, 1, sizeof(in), sizeof(out), in, self->csum);
	EXPECT_EQ(d->entry_posted[60], d->entry_completed[60]) TH_LOG("token changed");
	/* Output inline data: the first 16 bytes of the output. */
	EXPECT_EQ(0, memcmp(d->entry_completed + 32, out, 16));
	for (i = 0; i < 8 && i < d->out_blocks; i++)
		check_block(_metadata, dump + sizeof(*d) + i * CXPRM_MAILBOX_BYTES, i, d->entry_posted[60],
			    out + 16 + i * 512, 512, self->csum);
	free(dump);
}

TEST_F(raw_ioctl, dump_input_blocks)
{
	uint32_t inlen = 16 + 2 * 512 + 10; /* 3 input blocks */
	uint8_t *in = calloc(1, inlen), out[QUERY_ISSI_OUT];
	size_t cap = sizeof(struct cxprm_raw_dump) + 8 * CXPRM_MAILBOX_BYTES;
	uint8_t *dump = calloc(1, cap);
	struct cxprm_raw_dump *d = (struct cxprm_raw_dump *)dump;
	struct cxprm_raw_cmd r;
	uint32_t i;

	ASSERT_NE(NULL, in);
	ASSERT_NE(NULL, dump);
	cmd_hdr(in, inlen, OP_QUERY_ISSI, 0);
	raw_req(&r, in, inlen, out, sizeof(out), dump, (uint32_t)cap);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_RAW, &r)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ST_OK, r.st.status);
	EXPECT_EQ(3, d->in_blocks);
	EXPECT_EQ(1, d->out_blocks);	/* 96 bytes past the inline ones */
	EXPECT_EQ(0, d->truncated);
	EXPECT_EQ(sizeof(*d) + 4 * CXPRM_MAILBOX_BYTES, r.dump_len);
	check_entry(_metadata, d->entry_posted, 0, inlen, sizeof(out), in, self->csum);
	check_entry(_metadata, d->entry_completed, 1, inlen, sizeof(out), in, self->csum);
	/* Input blocks are signed only with checksums on. */
	for (i = 0; i < 3; i++)
		check_block(_metadata, dump + sizeof(*d) + i * CXPRM_MAILBOX_BYTES, i, d->entry_posted[60],
			    in + 16 + i * 512, i < 2 ? 512 : 10, self->csum);
	check_block(_metadata, dump + sizeof(*d) + 3 * CXPRM_MAILBOX_BYTES, 0, d->entry_posted[60],
		    out + 16, sizeof(out) - 16, self->csum);
	free(in);
	free(dump);
}

/*
 * A1: INFO's CXPRM_INFO_CMD_CHECKSUM follows the cmd_checksum parameter (the
 * emulator's MAX cmdif_checksum is 3), and the completed entry of a command
 * that succeeded is signed (XOR of its 64 bytes 0xff, so the driver could
 * verify it) exactly when checksums are on; with them off it is not, its
 * signature byte is what the driver posted, and the command still succeeds.
 */
TEST_F(raw_ioctl, completed_entry_signed_only_with_checksums)
{
	static uint8_t out[QUERY_HCA_CAP_OUT];
	struct cxprm_raw_dump d;
	struct cxprm_raw_cmd r;
	uint8_t in[CMD_HDR];
	int param = cxprm_param("cmd_checksum");

	ASSERT_LE(0, param) TH_LOG("no /sys/module/cxprm/parameters/cmd_checksum");
	EXPECT_EQ(param, self->csum) TH_LOG("cmd_checksum=%d but INFO says checksums %s", param,
					    self->csum ? "on" : "off");
	/*
	 * QUERY_HCA_CAP: its 16 inline output bytes are all zero, so an entry
	 * handed back unsigned XORs to 0xfe (the owner bit flipped), signed
	 * to 0xff.  The dump holds only the header: truncated blocks.
	 */
	query_caps_in(in, CAP_GENERAL, 0);
	memset(&d, 0, sizeof(d));
	raw_req(&r, in, sizeof(in), out, sizeof(out), &d, sizeof(d));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_RAW, &r)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ST_OK, r.st.status);
	EXPECT_EQ(0, r.st.delivery);
	EXPECT_EQ(0xff, xor_bytes(d.entry_posted, 64));
	if (self->csum) {
		EXPECT_EQ(0xff, xor_bytes(d.entry_completed, 64)) TH_LOG("checksums on, completed entry unsigned");
	} else {
		EXPECT_EQ(0xfe, xor_bytes(d.entry_completed, 64)) TH_LOG("checksums off, completed entry signed");
		EXPECT_EQ(d.entry_posted[61], d.entry_completed[61]) TH_LOG("signature byte rewritten");
	}
}

TEST_F(raw_ioctl, dump_truncated_never_overflows)
{
	static uint8_t out[QUERY_HCA_CAP_OUT];
	const uint32_t lens[] = { sizeof(struct cxprm_raw_dump) + 2 * CXPRM_MAILBOX_BYTES,
				  sizeof(struct cxprm_raw_dump) + 100, sizeof(struct cxprm_raw_dump), 10 };
	uint8_t *dump = malloc(8192);
	struct cxprm_raw_cmd r;
	uint8_t in[CMD_HDR];
	size_t k, j;

	ASSERT_NE(NULL, dump);
	query_caps_in(in, CAP_GENERAL, 0);
	for (k = 0; k < ARRAY_SIZE(lens); k++) {
		int ret;

		memset(dump, 0xa5, 8192);
		raw_req(&r, in, sizeof(in), out, sizeof(out), dump, lens[k]);
		errno = 0;
		ret = ioctl(self->fd, CXPRM_IOC_RAW, &r);
		for (j = lens[k]; j < 8192; j++)
			if (dump[j] != 0xa5)
				break;
		EXPECT_EQ(8192, j) TH_LOG("dump_len %u: byte %zu written", lens[k], j);
		if (lens[k] < sizeof(struct cxprm_raw_dump)) {
			/* Too small for the header: -EINVAL, nothing sent. */
			EXPECT_EQ(-1, ret);
			EXPECT_EQ(EINVAL, errno);
			continue;
		}
		ASSERT_EQ(0, ret) TH_LOG("dump_len %u: %s", lens[k], strerror(errno));
		EXPECT_GE(lens[k], r.dump_len);
		EXPECT_LE(sizeof(struct cxprm_raw_dump), r.dump_len);
		EXPECT_EQ(1, ((struct cxprm_raw_dump *)dump)->truncated) TH_LOG("dump_len %u", lens[k]);
		EXPECT_EQ(7, ((struct cxprm_raw_dump *)dump)->entry_posted[0]);
	}
	free(dump);
}

TEST_F(raw_ioctl, no_dump_without_flag)
{
	uint8_t in[CMD_HDR], out[QUERY_ISSI_OUT], dump[2048];
	struct cxprm_raw_cmd r;

	memset(dump, 0xa5, sizeof(dump));
	cmd_hdr(in, sizeof(in), OP_QUERY_ISSI, 0);
	raw_req(&r, in, sizeof(in), out, sizeof(out), NULL, 0);
	r.dump = (uintptr_t)dump;
	r.dump_len = sizeof(dump);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_RAW, &r));
	EXPECT_EQ(0, r.dump_len);
	EXPECT_EQ(0xa5, dump[0]);
	EXPECT_EQ(0xa5, dump[sizeof(dump) - 1]);
}

TEST_HARNESS_MAIN
