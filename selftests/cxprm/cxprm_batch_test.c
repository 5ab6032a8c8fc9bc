// SPDX-License-Identifier: GPL-2.0
/*
 * CXPRM_IOC_BATCH (Documentation/batch.rst): the batch's own errors (bad
 * counts, flags, reserved fields and pointers: -EINVAL/-EFAULT, nothing
 * runs), a mix of good and refused ops (each gets its own ioctl's errno,
 * the good ones run and their structs come back), 16 RC connections made
 * a batch per step (CREATE, RST2INIT, INIT2RTR, RTR2RTS, DESTROY: the ops
 * posted from the calling task, the destroys on the kernel's workqueue),
 * more DCT ops than the queue's free slots, and two ops on one DCT (one
 * runs, the other is -EBUSY or, once the first is done, -ENOENT).
 */
#define _GNU_SOURCE
#include <stddef.h>

#include "kselftest_harness.h"
#include "cxprm_harness.h"

#define NCONN 16

FIXTURE(batch) {
	int fd;
	struct dct_objs objs;	/* on fd */
};

FIXTURE_SETUP(batch)
{
	struct cxprm_info i;

	self->fd = dev_open_info(_metadata, &i);
	ASSERT_EQ(0, dct_objs_create(self->fd, &self->objs)) TH_LOG("PD, CQ, SRQ: %s", strerror(errno));
}

FIXTURE_TEARDOWN(batch)
{
	if (self->fd >= 0)
		close(self->fd);
}

static struct cxprm_batch_op op_of(unsigned int cmd, const void *arg)
{
	return (struct cxprm_batch_op){ .cmd = cmd, .result = 1, .arg = (uintptr_t)arg };
}

/* One batch of n ops: the ioctl's return (0 or -errno). */
static int run_batch(int fd, struct cxprm_batch_op *ops, uint32_t n, uint32_t *done)
{
	struct cxprm_batch b = { .count = n, .ops = (uintptr_t)ops };

	if (ioctl(fd, CXPRM_IOC_BATCH, &b))
		return -errno;
	if (done)
		*done = b.done;
	return 0;
}

/*
 * Each of the n ops ran (result 0) and its command answered ST_OK (the
 * struct the op's arg points to holds its status at st_off); what and
 * step name the op in the log.  Returns the ops whose result is not 0.
 */
static int expect_ops_ok(struct __test_metadata *_metadata, const struct cxprm_batch_op *ops,
			 int n, size_t st_off, const char *what, const char *step)
{
	const struct cxprm_cmd_status *st;
	int i, failed = 0;

	for (i = 0; i < n; i++) {
		st = (const void *)(uintptr_t)(ops[i].arg + st_off);
		EXPECT_EQ(0, ops[i].result) TH_LOG("%s %d %s: %s", what, i, step,
						   strerror(-ops[i].result));
		EXPECT_EQ(ST_OK, st->status) TH_LOG("%s %d %s: syndrome 0x%08x", what, i, step,
						    st->syndrome);
		failed += ops[i].result != 0;
	}
	return failed;
}

TEST_F(batch, bad_counts_flags_and_reserved)
{
	struct cxprm_caps caps;
	struct cxprm_batch_op ops[CXPRM_BATCH_MAX + 1];
	struct cxprm_batch b = { .ops = (uintptr_t)ops };
	int i;

	memset(&caps, 0, sizeof(caps));
	for (i = 0; i <= CXPRM_BATCH_MAX; i++)
		ops[i] = op_of(CXPRM_IOC_QUERY_CAPS, &caps);
	b.count = 0;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_BATCH, &b));
	b.count = CXPRM_BATCH_MAX + 1;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_BATCH, &b));
	b.count = 1;
	b.flags = 1;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_BATCH, &b));
	b.flags = 0;
	b.reserved = 2;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_BATCH, &b));
	EXPECT_EQ(1, ops[0].result) TH_LOG("a refused batch writes no result");
	EXPECT_EQ(0, caps.st.opcode);
	/* The largest batch runs. */
	b.reserved = 0;
	b.count = CXPRM_BATCH_MAX;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_BATCH, &b)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(CXPRM_BATCH_MAX, b.done);
	EXPECT_EQ(OP_QUERY_HCA_CAP, caps.st.opcode);
}

TEST_F(batch, bad_pointers)
{
	struct cxprm_caps caps;
	struct cxprm_batch_op ops[2];
	struct cxprm_batch b = { .count = 2 };

	memset(&caps, 0, sizeof(caps));
	EXPECT_ERRNO(EFAULT, ioctl(self->fd, CXPRM_IOC_BATCH, (void *)8));
	b.ops = 0;
	EXPECT_ERRNO(EFAULT, ioctl(self->fd, CXPRM_IOC_BATCH, &b));
	b.ops = 8;
	EXPECT_ERRNO(EFAULT, ioctl(self->fd, CXPRM_IOC_BATCH, &b));
	/* An op's unreadable struct is that op's -EFAULT; the other runs. */
	ops[0] = op_of(CXPRM_IOC_QUERY_CAPS, (void *)8);
	ops[1] = op_of(CXPRM_IOC_QUERY_CAPS, &caps);
	b.ops = (uintptr_t)ops;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_BATCH, &b)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(1, b.done);
	EXPECT_EQ(-EFAULT, ops[0].result);
	EXPECT_EQ(0, ops[1].result);
	EXPECT_EQ(OP_QUERY_HCA_CAP, caps.st.opcode);
}

TEST_F(batch, mix_of_good_and_refused_ops)
{
	struct cxprm_dct good[2], unknown, dup;
	struct cxprm_caps caps;
	struct cxprm_info info;
	struct cxprm_obj bad;
	struct cxprm_batch_op ops[7];
	uint32_t done = 0;

	memset(&caps, 0, sizeof(caps));
	memset(&info, 0, sizeof(info));
	dct_minimal(&good[0], &self->objs);
	dct_minimal(&good[1], &self->objs);
	memset(&unknown, 0, sizeof(unknown));
	unknown.dctn = 0xfffff0;
	obj_new(CXPRM_OBJ_PD, 0, &bad);
	bad.reserved = 1;
	ops[0] = op_of(CXPRM_IOC_QUERY_CAPS, &caps);
	ops[1] = op_of(CXPRM_IOC_INFO, &info);
	ops[2] = op_of(CXPRM_IOC_DCT_DESTROY, &unknown);
	ops[3] = op_of(CXPRM_IOC_OBJ_CREATE, &bad);
	ops[4] = op_of(CXPRM_IOC_DCT_CREATE, &good[0]);
	ops[5] = op_of(CXPRM_IOC_DCT_CREATE, &good[1]);
	ops[6] = op_of(CXPRM_IOC_RAW, &info);
	ASSERT_EQ(0, run_batch(self->fd, ops, 7, &done));
	EXPECT_EQ(3, done);
	EXPECT_EQ(0, ops[0].result);
	EXPECT_EQ(ST_OK, caps.st.status);
	EXPECT_EQ(-ENOTTY, ops[1].result);
	EXPECT_EQ(0, info.fw_major) TH_LOG("a refused op's struct is not written");
	EXPECT_EQ(-ENOENT, ops[2].result);
	EXPECT_EQ(-EINVAL, ops[3].result);
	EXPECT_EQ(0, ops[4].result);
	EXPECT_EQ(0, ops[5].result);
	EXPECT_NE(0, good[0].dctn);
	EXPECT_NE(good[0].dctn, good[1].dctn);
	EXPECT_EQ(OP_CREATE_DCT, good[1].st.opcode);
	EXPECT_EQ(-ENOTTY, ops[6].result);
	/* The DCTs are the file's: QUERY finds them. */
	memset(&dup, 0, sizeof(dup));
	dup.dctn = good[1].dctn;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_QUERY, &dup));
	EXPECT_EQ(ST_OK, dup.st.status);
}

/* NCONN RC QPs: a batch for their creates, one per transition, one for
 * their destroys. */
TEST_F(batch, connections_a_batch_per_step)
{
	static const uint32_t path[] = { CXPRM_QP_RST2INIT, CXPRM_QP_INIT2RTR, CXPRM_QP_RTR2RTS };
	static const char *const name[] = { "RST2INIT", "INIT2RTR", "RTR2RTS" };
	struct cxprm_obj qp[NCONN];
	struct cxprm_qp_modify m[NCONN];
	struct cxprm_batch_op ops[NCONN];
	uint32_t done = 0;
	int i, t, failed;

	for (i = 0; i < NCONN; i++) {
		obj_new(CXPRM_OBJ_QP, 0, &qp[i]);
		qp[i].u.qp.pd = self->objs.pd;
		qp[i].u.qp.cqn_snd = qp[i].u.qp.cqn_rcv = self->objs.cqn;
		qp[i].u.qp.srqn = self->objs.srqn;
		qp[i].u.qp.log_sq_size = 4;
		ops[i] = op_of(CXPRM_IOC_OBJ_CREATE, &qp[i]);
	}
	ASSERT_EQ(0, run_batch(self->fd, ops, NCONN, &done));
	ASSERT_EQ(NCONN, done);
	failed = expect_ops_ok(_metadata, ops, NCONN, offsetof(struct cxprm_obj, st), "QP",
			       "CREATE");
	for (t = 0; t < 3; t++) {
		/* Each step needs every QP through the one before. */
		ASSERT_EQ(0, failed);
		for (i = 0; i < NCONN; i++) {
			m[i] = (struct cxprm_qp_modify){ .qpn = qp[i].id, .transition = path[t],
							 .port = 1, .mtu = 5, .hop_limit = 64,
							 .remote_qpn = qp[(i + 1) % NCONN].id,
							 .retry_count = 7, .rnr_retry = 7,
							 .ack_timeout = 14 };
			ops[i] = op_of(CXPRM_IOC_QP_MODIFY, &m[i]);
		}
		ASSERT_EQ(0, run_batch(self->fd, ops, NCONN, &done));
		EXPECT_EQ(NCONN, done);
		failed = expect_ops_ok(_metadata, ops, NCONN, offsetof(struct cxprm_qp_modify, st),
				       "QP", name[t]);
		for (i = 0; i < NCONN; i++)
			EXPECT_EQ(path[t] == CXPRM_QP_RTR2RTS ? 3 : path[t], m[i].state);
	}
	for (i = 0; i < NCONN; i++)
		ops[i] = op_of(CXPRM_IOC_OBJ_DESTROY, &qp[i]);
	ASSERT_EQ(0, run_batch(self->fd, ops, NCONN, &done));
	EXPECT_EQ(NCONN, done);
	/* Gone: a destroy again is -ENOENT. */
	EXPECT_ERRNO(ENOENT, ioctl(self->fd, CXPRM_IOC_OBJ_DESTROY, &qp[0]));
}

/*
 * More ops than the command queue's free slots (31): the DCT creates,
 * queries and drains are posted from the calling task, which ends a
 * command whenever no slot is free and posts on (batch.rst).
 */
#define NMANY 48

TEST_F(batch, more_ops_than_free_slots)
{
	static const unsigned int step[] = { CXPRM_IOC_DCT_QUERY, CXPRM_IOC_DCT_DRAIN };
	static const char *const name[] = { "QUERY", "DRAIN" };
	const size_t st_off = offsetof(struct cxprm_dct, st);
	struct cxprm_dct d[NMANY];
	struct cxprm_batch_op ops[NMANY];
	uint32_t done = 0;
	int i, j, s;

	for (i = 0; i < NMANY; i++) {
		dct_minimal(&d[i], &self->objs);
		ops[i] = op_of(CXPRM_IOC_DCT_CREATE, &d[i]);
	}
	ASSERT_EQ(0, run_batch(self->fd, ops, NMANY, &done));
	ASSERT_EQ(NMANY, done);
	expect_ops_ok(_metadata, ops, NMANY, st_off, "DCT", "CREATE");
	for (i = 0; i < NMANY; i++)
		for (j = 0; j < i; j++)
			EXPECT_NE(d[j].dctn, d[i].dctn);
	for (s = 0; s < 2; s++) {
		for (i = 0; i < NMANY; i++) {
			uint32_t n = d[i].dctn;

			memset(&d[i], 0, sizeof(d[i]));
			d[i].dctn = n;
			ops[i] = op_of(step[s], &d[i]);
		}
		ASSERT_EQ(0, run_batch(self->fd, ops, NMANY, &done));
		EXPECT_EQ(NMANY, done);
		expect_ops_ok(_metadata, ops, NMANY, st_off, "DCT", name[s]);
		for (i = 0; i < NMANY && step[s] == CXPRM_IOC_DCT_QUERY; i++)
			EXPECT_EQ(self->objs.pd, d[i].ctx.pd);
	}
	/* Close destroys the drained DCTs (the teardown). */
}

TEST_F(batch, two_ops_on_one_dct)
{
	struct cxprm_dct d, a, b;
	struct cxprm_batch_op ops[2];
	uint32_t done = 0;
	int other;

	dct_minimal(&d, &self->objs);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_CREATE, &d)) TH_LOG("%s", strerror(errno));
	memset(&a, 0, sizeof(a));
	a.dctn = d.dctn;
	b = a;
	ops[0] = op_of(CXPRM_IOC_DCT_DESTROY, &a);
	ops[1] = op_of(CXPRM_IOC_DCT_DESTROY, &b);
	ASSERT_EQ(0, run_batch(self->fd, ops, 2, &done));
	EXPECT_EQ(1, done);
	other = ops[0].result ? ops[0].result : ops[1].result;
	EXPECT_TRUE(other == -EBUSY || other == -ENOENT) TH_LOG("the other: %d", other);
}

TEST_HARNESS_MAIN
