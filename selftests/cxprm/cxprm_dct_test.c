// SPDX-License-Identifier: GPL-2.0
/*
 * DCTs: CREATE/QUERY/DRAIN/DESTROY with every dctc field round-tripped,
 * ownership by open file (another file: -ENOENT; close destroys), unknown
 * DCTs (-ENOENT), firmware refusals (status, not errno), fields too wide
 * for their PRM field and nonzero reserved fields (-EINVAL).  The DCTs name a
 * PD, CQ and SRQ their file created (the firmware checks each: made-up
 * numbers are BAD_RES).
 */
#define _GNU_SOURCE
#include <stddef.h>

#include "kselftest_harness.h"
#include "cxprm_harness.h"

FIXTURE(dct) {
	int fd;
	struct emuctl emu;
	int have_emu;
	const struct emu_profile *prof;
	struct dct_objs objs;	/* on fd */
};

FIXTURE_SETUP(dct)
{
	struct cxprm_info i;

	self->fd = dev_open_info(_metadata, &i);
	self->have_emu = emu_open_profile(&self->emu, &i, &self->prof);
	ASSERT_NE(NULL, self->prof);
	ASSERT_EQ(0, dct_objs_create(self->fd, &self->objs)) TH_LOG("PD, CQ, SRQ: %s", strerror(errno));
}

FIXTURE_TEARDOWN(dct)
{
	emuctl_close(&self->emu);
	if (self->fd >= 0)
		close(self->fd);
}

/* Every settable field with a value that uses most of its width (but the
 * objects: o's). */
static void full_ctx(struct cxprm_dctc *c, const struct dct_objs *o)
{
	memset(c, 0, sizeof(*c));
	c->pd = o->pd;
	c->cqn = o->cqn;
	c->srqn_xrqn = o->srqn;
	c->user_index = 0xfedcba;	/* 24 */
	c->dc_access_key = 0x1122334455667788ull;
	c->flow_label = 0xabcde;	/* 20 */
	c->pkey_index = 0x7ffe;		/* 16 */
	c->mtu = 5;			/* 4096 */
	c->port = 1;
	c->hop_limit = 0xfe;
	c->tclass = 0xb8;
	c->min_rnr_nak = 0x1e;		/* 5 */
	c->my_addr_index = 1;		/* a GID the driver populated (RoCE v2) */
	c->rre = 1;
	c->rwe = 1;
	c->rae = 1;
	c->atomic_mode = 0xd;		/* 4 */
	c->cs_res = 0x42;
	c->counter_set_id = 0x99;
	c->dscp = 0x2e;			/* 6 */
	c->ecn = 2;			/* 2 */
	c->eth_prio = 6;		/* 3 */
}

static void min_ctx(struct cxprm_dctc *c, const struct dct_objs *o)
{
	memset(c, 0, sizeof(*c));
	c->pd = o->pd;
	c->cqn = o->cqn;
	c->srqn_xrqn = o->srqn;
	c->mtu = 3;
	c->port = 1;
}

static int dct_create(int fd, const struct cxprm_dctc *ctx, struct cxprm_dct *d)
{
	memset(d, 0, sizeof(*d));
	d->ctx = *ctx;
	return ioctl(fd, CXPRM_IOC_DCT_CREATE, d);
}

/* Another open file of the device, and the minimal DCT context on that
 * file's own PD, CQ and SRQ. */
static int open_other_file(struct __test_metadata *_metadata, struct cxprm_dctc *c)
{
	int fd = dev_open(_metadata, O_RDWR);
	struct dct_objs o;

	EXPECT_EQ(0, dct_objs_create(fd, &o)) TH_LOG("PD, CQ, SRQ: %s", strerror(errno));
	min_ctx(c, &o);
	return fd;
}

/* A DCT created (the test stops if not): its number. */
static uint32_t dct_created(struct __test_metadata *_metadata, int fd, const struct cxprm_dctc *ctx,
			    struct cxprm_dct *d)
{
	ASSERT_EQ(0, dct_create(fd, ctx, d)) TH_LOG("CREATE: %s", strerror(errno));
	ASSERT_EQ(ST_OK, d->st.status) TH_LOG("CREATE status 0x%x", d->st.status);
	return d->dctn;
}

static int dct_op(int fd, unsigned long cmd, uint32_t dctn, struct cxprm_dct *d)
{
	memset(d, 0, sizeof(*d));
	d->dctn = dctn;
	return ioctl(fd, cmd, d);
}

static long long emu_dcts(struct emuctl *e)
{
	return emuctl_query(e, CXPRM_EMUD_Q_DCTS, 0, 0, 0);
}

#define FIELD_EQ(f) EXPECT_EQ(want.f, got->f) TH_LOG("dctc." #f ": set 0x%llx, read 0x%llx", \
						      (unsigned long long)want.f, (unsigned long long)got->f)

TEST_F(dct, lifecycle_round_trip)
{
	struct cxprm_dctc want;
	struct cxprm_dct d;
	const struct cxprm_dctc *got = &d.ctx;
	uint32_t dctn;
	long long n0 = self->have_emu ? emu_dcts(&self->emu) : 0;
	int k;

	full_ctx(&want, &self->objs);
	ASSERT_EQ(0, dct_create(self->fd, &want, &d)) TH_LOG("CREATE: %s", strerror(errno));
	ASSERT_EQ(0, d.st.delivery);
	ASSERT_EQ(ST_OK, d.st.status) TH_LOG("status 0x%x syndrome 0x%08x", d.st.status, d.st.syndrome);
	EXPECT_EQ(OP_CREATE_DCT, d.st.opcode);
	EXPECT_LT(0, d.st.latency_ns);
	dctn = d.dctn;
	EXPECT_LE(self->prof->first_dctn, dctn);
	EXPECT_GT(self->prof->first_dctn + self->prof->max_dcts, dctn);
	EXPECT_EQ(0, d.reserved);
	if (self->have_emu)
		EXPECT_EQ(n0 + 1, emu_dcts(&self->emu));

	memset(&d, 0xa5, sizeof(d));
	d.dctn = dctn;
	d.reserved = 0;
	memset(&d.ctx, 0, sizeof(d.ctx));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_QUERY, &d)) TH_LOG("QUERY: %s", strerror(errno));
	ASSERT_EQ(ST_OK, d.st.status);
	EXPECT_EQ(OP_QUERY_DCT, d.st.opcode);
	EXPECT_EQ(dctn, d.dctn);
	FIELD_EQ(pd);
	FIELD_EQ(cqn);
	FIELD_EQ(srqn_xrqn);
	FIELD_EQ(user_index);
	FIELD_EQ(dc_access_key);
	FIELD_EQ(flow_label);
	FIELD_EQ(pkey_index);
	FIELD_EQ(mtu);
	FIELD_EQ(port);
	FIELD_EQ(hop_limit);
	FIELD_EQ(tclass);
	FIELD_EQ(min_rnr_nak);
	FIELD_EQ(my_addr_index);
	FIELD_EQ(rre);
	FIELD_EQ(rwe);
	FIELD_EQ(rae);
	FIELD_EQ(atomic_mode);
	FIELD_EQ(cs_res);
	FIELD_EQ(counter_set_id);
	FIELD_EQ(dscp);
	FIELD_EQ(ecn);
	FIELD_EQ(eth_prio);
	EXPECT_EQ(0, got->state);	/* ACTIVE */
	EXPECT_EQ(0, got->key_violations);
	EXPECT_EQ(0, got->reserved0);
	for (k = 0; k < 3; k++)
		EXPECT_EQ(0, got->reserved1[k]);

	ASSERT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_DRAIN, dctn, &d)) TH_LOG("DRAIN: %s", strerror(errno));
	EXPECT_EQ(ST_OK, d.st.status);
	EXPECT_EQ(OP_DRAIN_DCT, d.st.opcode);
	/* DRAINING, then DRAINED. */
	for (k = 0; k < 100; k++) {
		ASSERT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_QUERY, dctn, &d));
		ASSERT_EQ(ST_OK, d.st.status);
		EXPECT_LE(1, d.ctx.state);
		if (d.ctx.state == 2)
			break;
		sleep_ms(20);
	}
	EXPECT_EQ(2, d.ctx.state) TH_LOG("DCT never DRAINED");
	FIELD_EQ(dc_access_key);

	/* Draining again: the firmware refuses (status, not errno). */
	ASSERT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_DRAIN, dctn, &d)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ST_BAD_RES_STATE_ERR, d.st.status);
	EXPECT_EQ(SYND_DCT_DRAIN_NOT_ACTIVE, d.st.syndrome);

	ASSERT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_DESTROY, dctn, &d)) TH_LOG("DESTROY: %s", strerror(errno));
	EXPECT_EQ(ST_OK, d.st.status);
	EXPECT_EQ(OP_DESTROY_DCT, d.st.opcode);
	if (self->have_emu)
		EXPECT_EQ(n0, emu_dcts(&self->emu));

	/* Gone: DRAIN and DESTROY say ENOENT (QUERY: query_unknown_dct_enoent). */
	errno = 0;
	EXPECT_EQ(-1, dct_op(self->fd, CXPRM_IOC_DCT_DRAIN, dctn, &d));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, dct_op(self->fd, CXPRM_IOC_DCT_DESTROY, dctn, &d));
	EXPECT_EQ(ENOENT, errno);
}

TEST_F(dct, unknown_dct_enoent)
{
	const uint32_t nums[] = { 0, 1, 0xfff, 0x123456, 0xffffff };
	struct cxprm_dct d;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(nums); k++) {
		errno = 0;
		EXPECT_EQ(-1, dct_op(self->fd, CXPRM_IOC_DCT_DRAIN, nums[k], &d));
		EXPECT_EQ(ENOENT, errno) TH_LOG("DRAIN 0x%x: %s", nums[k], strerror(errno));
		errno = 0;
		EXPECT_EQ(-1, dct_op(self->fd, CXPRM_IOC_DCT_DESTROY, nums[k], &d));
		EXPECT_EQ(ENOENT, errno) TH_LOG("DESTROY 0x%x: %s", nums[k], strerror(errno));
	}
	/* A DCT number the profile hands out, but nobody created. */
	errno = 0;
	EXPECT_EQ(-1, dct_op(self->fd, CXPRM_IOC_DCT_DESTROY,
			     self->prof->first_dctn + self->prof->max_dcts - 1, &d));
	EXPECT_EQ(ENOENT, errno);
}

/*
 * QUERY is not limited to the owner (Documentation/kernel-module.rst:
 * "another file may query it"), so a DCT that does not exist is the
 * firmware's answer: ioctl 0, BAD_RES, not an errno.
 */
TEST_F(dct, query_unknown_dct_is_firmware_status)
{
	const uint32_t nums[] = { 0, 0xfff, 0xffffff };
	struct cxprm_dctc c;
	struct cxprm_dct d;
	uint32_t dctn;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(nums); k++) {
		errno = 0;
		EXPECT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_QUERY, nums[k], &d))
			TH_LOG("QUERY 0x%x: %s", nums[k], strerror(errno));
		EXPECT_EQ(ST_BAD_RES_ERR, d.st.status);
		EXPECT_EQ(SYND_DCT_UNKNOWN_QUERY, d.st.syndrome);
		EXPECT_EQ(OP_QUERY_DCT, d.st.opcode);
	}
	min_ctx(&c, &self->objs);
	dctn = dct_created(_metadata, self->fd, &c, &d);
	ASSERT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_DESTROY, dctn, &d));
	EXPECT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_QUERY, dctn, &d));
	EXPECT_EQ(ST_BAD_RES_ERR, d.st.status) TH_LOG("a destroyed DCT still answers QUERY_DCT");
}

TEST_F(dct, other_file_may_query)
{
	int fd2 = cxprm_open();
	struct cxprm_dctc want;
	struct cxprm_dct d;
	const struct cxprm_dctc *got = &d.ctx;
	uint32_t dctn;

	ASSERT_LE(0, fd2);
	full_ctx(&want, &self->objs);
	dctn = dct_created(_metadata, self->fd, &want, &d);
	ASSERT_EQ(0, dct_op(fd2, CXPRM_IOC_DCT_QUERY, dctn, &d)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ST_OK, d.st.status);
	FIELD_EQ(pd);
	FIELD_EQ(dc_access_key);
	FIELD_EQ(flow_label);
	close(fd2);
	EXPECT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_DESTROY, dctn, &d));
}

/* At most 64 DCTs per open file (-ENOSPC beyond); destroying one frees a place. */
TEST_F(dct, per_file_limit_enospc)
{
	struct dct_objs o2;
	struct cxprm_dctc c;
	struct cxprm_dct d;
	uint32_t first = 0;
	int fd2 = cxprm_open(), k;

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, dct_objs_create(fd2, &o2)) TH_LOG("PD, CQ, SRQ: %s", strerror(errno));
	min_ctx(&c, &o2);
	for (k = 0; k < 64; k++) {
		ASSERT_EQ(0, dct_create(fd2, &c, &d)) TH_LOG("DCT %d: %s", k, strerror(errno));
		ASSERT_EQ(ST_OK, d.st.status) TH_LOG("DCT %d: status 0x%x", k, d.st.status);
		if (!k)
			first = d.dctn;
	}
	errno = 0;
	EXPECT_EQ(-1, dct_create(fd2, &c, &d)) TH_LOG("65th DCT of one file created");
	EXPECT_EQ(ENOSPC, errno) TH_LOG("%s", strerror(errno));
	/* Another file is not affected (if the firmware has DCTs left). */
	if (self->prof->max_dcts > 64) {
		min_ctx(&c, &self->objs);
		EXPECT_EQ(0, dct_create(self->fd, &c, &d));
		EXPECT_EQ(ST_OK, d.st.status);
		EXPECT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_DESTROY, d.dctn, &d));
	}
	ASSERT_EQ(0, dct_op(fd2, CXPRM_IOC_DCT_DESTROY, first, &d));
	EXPECT_EQ(0, dct_create(fd2, &c, &d));
	EXPECT_EQ(ST_OK, d.st.status);
	close(fd2);
}

TEST_F(dct, other_file_cannot_touch)
{
	int fd2 = cxprm_open();
	struct cxprm_dctc c;
	struct cxprm_dct d;
	uint32_t dctn;

	ASSERT_LE(0, fd2);
	min_ctx(&c, &self->objs);
	dctn = dct_created(_metadata, self->fd, &c, &d);

	errno = 0;
	EXPECT_EQ(-1, dct_op(fd2, CXPRM_IOC_DCT_DRAIN, dctn, &d)) TH_LOG("another file drained the DCT");
	EXPECT_EQ(ENOENT, errno);
	errno = 0;
	EXPECT_EQ(-1, dct_op(fd2, CXPRM_IOC_DCT_DESTROY, dctn, &d)) TH_LOG("another file destroyed the DCT");
	EXPECT_EQ(ENOENT, errno);

	/* Still there and still ACTIVE for its owner. */
	ASSERT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_QUERY, dctn, &d));
	EXPECT_EQ(ST_OK, d.st.status);
	EXPECT_EQ(0, d.ctx.state);
	EXPECT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_DESTROY, dctn, &d));
	EXPECT_EQ(ST_OK, d.st.status);
	close(fd2);
}

TEST_F(dct, other_process_same_file_may)
{
	struct cxprm_dctc c;
	struct cxprm_dct d;
	pid_t pid;
	int st;

	min_ctx(&c, &self->objs);
	ASSERT_EQ(0, dct_create(self->fd, &c, &d));
	ASSERT_EQ(ST_OK, d.st.status);
	/* Ownership is by open file, not by process: a child sharing the file may. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct cxprm_dct x;

		memset(&x, 0, sizeof(x));
		x.dctn = d.dctn;
		_exit(ioctl(self->fd, CXPRM_IOC_DCT_DESTROY, &x) || x.st.status ? 1 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* Gone from the file's table too. */
	errno = 0;
	EXPECT_EQ(-1, dct_op(self->fd, CXPRM_IOC_DCT_DESTROY, d.dctn, &d));
	EXPECT_EQ(ENOENT, errno);
}

TEST_F(dct, close_destroys)
{
	struct cxprm_dctc c;
	struct cxprm_dct d;
	uint32_t nums[8];
	long long n0;
	int fd2, k;

	if (!self->have_emu)
		SKIP(return, "no emulator control page");
	n0 = emu_dcts(&self->emu);
	fd2 = open_other_file(_metadata, &c);
	for (k = 0; k < 8; k++) {
		ASSERT_EQ(0, dct_create(fd2, &c, &d));
		ASSERT_EQ(ST_OK, d.st.status);
		nums[k] = d.dctn;
	}
	/* Drain some: close destroys DCTs in any state. */
	for (k = 0; k < 3; k++)
		ASSERT_EQ(0, dct_op(fd2, CXPRM_IOC_DCT_DRAIN, nums[k], &d));
	EXPECT_EQ(n0 + 8, emu_dcts(&self->emu));
	ASSERT_EQ(0, close(fd2));
	EXPECT_EQ(n0, emu_dcts(&self->emu)) TH_LOG("close left %lld DCTs in the firmware",
						   emu_dcts(&self->emu) - n0);
}

TEST_F(dct, close_destroys_in_forked_holder)
{
	struct cxprm_dctc c;
	struct cxprm_dct d;
	long long n0;
	int fd2, st;
	pid_t pid;

	if (!self->have_emu)
		SKIP(return, "no emulator control page");
	n0 = emu_dcts(&self->emu);
	fd2 = open_other_file(_metadata, &c);
	ASSERT_EQ(0, dct_create(fd2, &c, &d));
	/* A child holds the file too: the DCT lives until the last close. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		sleep_ms(300);
		_exit(0);
	}
	close(fd2);
	EXPECT_EQ(n0 + 1, emu_dcts(&self->emu)) TH_LOG("destroyed while another process held the file");
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(n0, emu_dcts(&self->emu));
}

TEST_F(dct, firmware_refusal_is_status)
{
	struct cxprm_dctc c;
	struct cxprm_dct d;
	long long n0 = self->have_emu ? emu_dcts(&self->emu) : 0;

	min_ctx(&c, &self->objs);
	c.pd = 0;
	errno = 0;
	ASSERT_EQ(0, dct_create(self->fd, &c, &d)) TH_LOG("ioctl failed: %s", strerror(errno));
	EXPECT_EQ(0, d.st.delivery);
	EXPECT_EQ(ST_BAD_PARAM_ERR, d.st.status);
	EXPECT_EQ(SYND_DCT_BAD_PD, d.st.syndrome);
	EXPECT_EQ(OP_CREATE_DCT, d.st.opcode);
	EXPECT_EQ(0, d.dctn);
	/* Objects nobody created (the strict object model): BAD_RES. */
	min_ctx(&c, &self->objs);
	c.pd = 0xabcdef;
	ASSERT_EQ(0, dct_create(self->fd, &c, &d));
	EXPECT_EQ(ST_BAD_RES_ERR, d.st.status);
	EXPECT_EQ(SYND_DCT_NO_PD, d.st.syndrome);
	min_ctx(&c, &self->objs);
	c.srqn_xrqn = 0x654321;
	ASSERT_EQ(0, dct_create(self->fd, &c, &d));
	EXPECT_EQ(ST_BAD_RES_ERR, d.st.status);
	EXPECT_EQ(SYND_DCT_NO_SRQ, d.st.syndrome);
	min_ctx(&c, &self->objs);
	c.port = 2; /* one port */
	ASSERT_EQ(0, dct_create(self->fd, &c, &d));
	EXPECT_EQ(ST_BAD_PARAM_ERR, d.st.status);
	if (self->have_emu)
		EXPECT_EQ(n0, emu_dcts(&self->emu));
}

TEST_F(dct, field_too_wide_einval)
{
	const struct {
		const char *name;
		size_t off, size;
		uint32_t value;
	} bad[] = {
#define WIDE(f, v) { #f, offsetof(struct cxprm_dctc, f), sizeof(((struct cxprm_dctc *)0)->f), v }
		WIDE(pd, 0x1000000),
		WIDE(cqn, 0x1000000),
		WIDE(srqn_xrqn, 0xffffffff),
		WIDE(user_index, 0x1000000),
		WIDE(flow_label, 0x100000),
		WIDE(mtu, 8),
		WIDE(min_rnr_nak, 0x20),
		WIDE(rre, 2),
		WIDE(rwe, 2),
		WIDE(rae, 2),
		WIDE(atomic_mode, 0x10),
		WIDE(dscp, 0x40),
		WIDE(ecn, 4),
		WIDE(eth_prio, 8),
#undef WIDE
	};
	struct cxprm_dctc c;
	struct cxprm_dct d;
	long long n0 = self->have_emu ? emu_dcts(&self->emu) : 0;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		uint8_t v8 = (uint8_t)bad[k].value;
		uint16_t v16 = (uint16_t)bad[k].value;
		uint32_t v32 = bad[k].value;

		min_ctx(&c, &self->objs);
		memcpy((uint8_t *)&c + bad[k].off, bad[k].size == 1 ? (void *)&v8 :
		       bad[k].size == 2 ? (void *)&v16 : (void *)&v32, bad[k].size);
		errno = 0;
		EXPECT_EQ(-1, dct_create(self->fd, &c, &d)) TH_LOG("%s too wide accepted (status 0x%x)",
								   bad[k].name, d.st.status);
		EXPECT_EQ(EINVAL, errno) TH_LOG("%s: %s", bad[k].name, strerror(errno));
	}
	if (self->have_emu)
		EXPECT_EQ(n0, emu_dcts(&self->emu));
}

TEST_F(dct, reserved_nonzero_einval)
{
	struct cxprm_dctc c;
	struct cxprm_dct d;
	int k;

	min_ctx(&c, &self->objs);
	memset(&d, 0, sizeof(d));
	d.ctx = c;
	d.reserved = 1;
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_DCT_CREATE, &d));
	EXPECT_EQ(EINVAL, errno) TH_LOG("dct.reserved: %s", strerror(errno));

	memset(&d, 0, sizeof(d));
	d.ctx = c;
	d.ctx.reserved0 = 1;
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_DCT_CREATE, &d));
	EXPECT_EQ(EINVAL, errno) TH_LOG("ctx.reserved0: %s", strerror(errno));

	for (k = 0; k < 3; k++) {
		memset(&d, 0, sizeof(d));
		d.ctx = c;
		d.ctx.reserved1[k] = 0x100;
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, CXPRM_IOC_DCT_CREATE, &d));
		EXPECT_EQ(EINVAL, errno) TH_LOG("ctx.reserved1[%d]: %s", k, strerror(errno));
	}

	/* QUERY/DRAIN/DESTROY: the reserved word too. */
	ASSERT_EQ(0, dct_create(self->fd, &c, &d));
	ASSERT_EQ(ST_OK, d.st.status);
	{
		uint32_t dctn = d.dctn;
		const unsigned long cmds[] = { CXPRM_IOC_DCT_QUERY, CXPRM_IOC_DCT_DRAIN, CXPRM_IOC_DCT_DESTROY };

		for (k = 0; k < 3; k++) {
			memset(&d, 0, sizeof(d));
			d.dctn = dctn;
			d.reserved = 0x80000000u;
			errno = 0;
			EXPECT_EQ(-1, ioctl(self->fd, cmds[k], &d));
			EXPECT_EQ(EINVAL, errno) TH_LOG("cmd %d: %s", k, strerror(errno));
		}
		EXPECT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_DESTROY, dctn, &d));
	}
}

TEST_F(dct, many_per_file)
{
	struct cxprm_dctc c;
	struct cxprm_dct d;
	uint32_t nums[32];
	int k, j;

	min_ctx(&c, &self->objs);
	for (k = 0; k < 32; k++) {
		c.user_index = (uint32_t)k;
		ASSERT_EQ(0, dct_create(self->fd, &c, &d));
		ASSERT_EQ(ST_OK, d.st.status);
		nums[k] = d.dctn;
		for (j = 0; j < k; j++)
			ASSERT_NE(nums[j], nums[k]) TH_LOG("DCT number 0x%x handed out twice", nums[k]);
	}
	for (k = 0; k < 32; k++) {
		ASSERT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_QUERY, nums[k], &d));
		EXPECT_EQ((uint32_t)k, d.ctx.user_index);
	}
	/* Destroy in a different order. */
	for (k = 31; k >= 0; k -= 2)
		EXPECT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_DESTROY, nums[k], &d));
	for (k = 0; k < 32; k += 2)
		EXPECT_EQ(0, dct_op(self->fd, CXPRM_IOC_DCT_DESTROY, nums[k], &d));
}

TEST_HARNESS_MAIN
