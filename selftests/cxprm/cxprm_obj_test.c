// SPDX-License-Identifier: GPL-2.0
/*
 * Objects (CXPRM_IOC_OBJ_CREATE/QUERY/DESTROY, CXPRM_IOC_QP_MODIFY): a PD,
 * CQ, SRQ and QP created by the driver with its own queue memory, the QP
 * through RST->INIT->RTR->RTS->RST, a DCT on them; bad types, nonzero
 * reserved fields and sizes beyond the limits (-EINVAL), unknown numbers
 * (-ENOENT), another file's objects (-ENOENT), -ENOSPC at the per-file
 * limit, CAP_NET_ADMIN, close with objects alive (the firmware keeps none),
 * and made-up numbers answered with BAD_RES in st when the emulator checks
 * references (skipped with a reason under --lenient-objects).  Device
 * removal with objects alive: cxprm_unbind_test.
 */
#define _GNU_SOURCE
#include <stddef.h>

#include "kselftest_harness.h"
#include "cxprm_harness.h"

FIXTURE(obj) {
	int fd;
	struct emuctl emu;
	int have_emu;
};

FIXTURE_SETUP(obj)
{
	self->fd = dev_open(_metadata, O_RDWR);
	self->have_emu = emuctl_open(&self->emu, cxprm_bdf()) == 0;
}

FIXTURE_TEARDOWN(obj)
{
	emuctl_close(&self->emu);
	if (self->fd >= 0)
		close(self->fd);
}

static long long emu_objects(struct emuctl *e)
{
	return emuctl_query(e, CXPRM_EMUD_Q_OBJECTS, 0, 0, 0);
}

static void obj_init(struct cxprm_obj *o, uint32_t type, uint32_t id, uint32_t parent)
{
	memset(o, 0, sizeof(*o));
	o->type = type;
	o->id = id;
	o->parent = parent;
}

static int obj_ioc(int fd, unsigned long cmd, uint32_t type, uint32_t id, struct cxprm_obj *o)
{
	obj_init(o, type, id, 0);
	return ioctl(fd, cmd, o);
}

/* An object created (the test stops if not): its number. */
static uint32_t created(struct __test_metadata *_metadata, int fd, struct cxprm_obj *o)
{
	ASSERT_EQ(0, ioctl(fd, CXPRM_IOC_OBJ_CREATE, o)) TH_LOG("CREATE type %u: %s", o->type,
								   strerror(errno));
	ASSERT_EQ(ST_OK, o->st.status) TH_LOG("CREATE type %u: status 0x%x syndrome 0x%08x", o->type,
					      o->st.status, o->st.syndrome);
	return o->id;
}

struct objs {
	uint32_t pd, cqn, srqn, qpn;
};

/* A PD, a CQ, an SRQ on the PD and an RC QP on all three. */
static void make_objs(struct __test_metadata *_metadata, int fd, struct objs *s)
{
	struct cxprm_obj o;

	obj_init(&o, CXPRM_OBJ_PD, 0, 0);
	s->pd = created(_metadata, fd, &o);
	obj_init(&o, CXPRM_OBJ_CQ, 0, 0);
	o.u.cq.log_size = 6;
	s->cqn = created(_metadata, fd, &o);
	obj_init(&o, CXPRM_OBJ_SRQ, 0, 0);
	o.u.srq.pd = s->pd;
	o.u.srq.log_size = 6;
	o.u.srq.log_stride = 2;
	s->srqn = created(_metadata, fd, &o);
	obj_init(&o, CXPRM_OBJ_QP, 0, 0);
	o.u.qp.pd = s->pd;
	o.u.qp.cqn_snd = s->cqn;
	o.u.qp.cqn_rcv = s->cqn;
	o.u.qp.srqn = s->srqn;
	o.u.qp.log_sq_size = 4;
	s->qpn = created(_metadata, fd, &o);
	EXPECT_EQ(0, o.u.qp.state);
}

static int qp_modify(int fd, uint32_t qpn, uint32_t transition, struct cxprm_qp_modify *m)
{
	*m = (struct cxprm_qp_modify){ .qpn = qpn, .transition = transition, .port = 1, .mtu = 5,
				       .hop_limit = 64, .remote_qpn = 0x1234, .retry_count = 7,
				       .rnr_retry = 7, .ack_timeout = 14 };
	return ioctl(fd, CXPRM_IOC_QP_MODIFY, m);
}

TEST_F(obj, lifecycle_and_qp_states)
{
	static const uint32_t path[] = { CXPRM_QP_RST2INIT, CXPRM_QP_INIT2RTR, CXPRM_QP_RTR2RTS,
					 CXPRM_QP_2RST };
	static const uint16_t ops[] = { OP_RST2INIT_QP, OP_INIT2RTR_QP, OP_RTR2RTS_QP, OP_QP_2RST };
	struct cxprm_qp_modify m;
	struct cxprm_obj o;
	struct cxprm_info i;
	struct cxprm_dct d;
	struct objs s;
	long long n0 = self->have_emu ? emu_objects(&self->emu) : 0;
	int k;

	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	make_objs(_metadata, self->fd, &s);
	if (self->have_emu)
		EXPECT_EQ(n0 + 4, emu_objects(&self->emu));

	ASSERT_EQ(0, obj_ioc(self->fd, CXPRM_IOC_OBJ_QUERY, CXPRM_OBJ_CQ, s.cqn, &o));
	EXPECT_EQ(ST_OK, o.st.status);
	EXPECT_EQ(OP_QUERY_CQ, o.st.opcode);
	EXPECT_EQ(6, o.u.cq.log_size);
	/* A completion EQ, made with the first CQ (mlx5_core: never the async one). */
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	EXPECT_NE(~0u, i.comp_eqn) TH_LOG("no completion EQ after a CQ was made");
	EXPECT_EQ(i.comp_eqn, o.u.cq.eqn) TH_LOG("the CQ's EQ is not the completion EQ");
	EXPECT_NE(i.async_eqn, o.u.cq.eqn) TH_LOG("the CQ completes to the async EQ");
	ASSERT_EQ(0, obj_ioc(self->fd, CXPRM_IOC_OBJ_QUERY, CXPRM_OBJ_SRQ, s.srqn, &o));
	EXPECT_EQ(ST_OK, o.st.status);
	EXPECT_EQ(s.pd, o.u.srq.pd);
	/* At ISSI 1 an SRQ is an RMP, as mlx5_ib makes it. */
	EXPECT_EQ(i.issi ? OP_QUERY_RMP : OP_QUERY_SRQ, o.st.opcode);
	if (i.issi)
		EXPECT_EQ(1, o.u.srq.state) TH_LOG("rmpc.state not RDY");
	EXPECT_ERRNO(EOPNOTSUPP, obj_ioc(self->fd, CXPRM_IOC_OBJ_QUERY, CXPRM_OBJ_PD, s.pd, &o));

	for (k = 0; k < 4; k++) {
		ASSERT_EQ(0, qp_modify(self->fd, s.qpn, path[k], &m)) TH_LOG("%s", strerror(errno));
		EXPECT_EQ(ST_OK, m.st.status) TH_LOG("transition %u: status 0x%x syndrome 0x%08x",
						     path[k], m.st.status, m.st.syndrome);
		EXPECT_EQ(ops[k], m.st.opcode);
		EXPECT_EQ(k == 3 ? 0 : k + 1, m.state);
	}
	/* Out of order: the firmware's answer, the state unchanged. */
	ASSERT_EQ(0, qp_modify(self->fd, s.qpn, CXPRM_QP_RTR2RTS, &m));
	EXPECT_NE(ST_OK, m.st.status);
	EXPECT_EQ(0, m.state);
	ASSERT_EQ(0, qp_modify(self->fd, s.qpn, CXPRM_QP_RST2INIT, &m));

	/* A DCT on the file's own PD, CQ and SRQ. */
	dct_minimal(&d, NULL);
	d.ctx.pd = s.pd;
	d.ctx.cqn = s.cqn;
	d.ctx.srqn_xrqn = s.srqn;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_CREATE, &d));
	EXPECT_EQ(ST_OK, d.st.status) TH_LOG("DCT on its own objects: 0x%x 0x%08x", d.st.status,
					     d.st.syndrome);

	/* What is still named cannot go: BAD_RES_STATE, the object stays. */
	ASSERT_EQ(0, obj_ioc(self->fd, CXPRM_IOC_OBJ_DESTROY, CXPRM_OBJ_PD, s.pd, &o));
	EXPECT_EQ(ST_BAD_RES_STATE_ERR, o.st.status);
	EXPECT_EQ(OP_DEALLOC_PD, o.st.opcode);
	/* The QP (in INIT) goes to reset, then away. */
	ASSERT_EQ(0, obj_ioc(self->fd, CXPRM_IOC_OBJ_DESTROY, CXPRM_OBJ_QP, s.qpn, &o));
	EXPECT_EQ(ST_OK, o.st.status);
	EXPECT_EQ(OP_DESTROY_QP, o.st.opcode);
	EXPECT_ERRNO(ENOENT, obj_ioc(self->fd, CXPRM_IOC_OBJ_DESTROY, CXPRM_OBJ_QP, s.qpn, &o));
	EXPECT_ERRNO(ENOENT, qp_modify(self->fd, s.qpn, CXPRM_QP_2RST, &m));
	/* Closing takes the DCT, then SRQ, CQ and PD (close_destroys). */
}

TEST_F(obj, bad_requests)
{
	struct cxprm_qp_modify m;
	struct cxprm_obj o;
	uint32_t t;

	for (t = 0; t < 10; t += 8) {	/* 0 and 8: no such type */
		obj_init(&o, t, 0, 0);
		EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
		EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_OBJ_DESTROY, &o));
	}
	obj_init(&o, CXPRM_OBJ_PD, 0, 0);
	o.reserved = 1;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
	obj_init(&o, CXPRM_OBJ_PD, 0, 5);	/* a parent only for NVMF objects */
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
	obj_init(&o, CXPRM_OBJ_CQ, 0, 0);
	o.u.cq.reserved[0] = 1;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
	obj_init(&o, CXPRM_OBJ_QP, 0, 0);
	o.u.qp.reserved0[1] = 1;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
	obj_init(&o, CXPRM_OBJ_NVMF_BACKEND, 0, 0x80);
	o.u.backend.reserved = 1;
	/* A backend needs allow_raw_write first (EPERM), then a clean struct. */
	EXPECT_ERRNO(cxprm_param("allow_raw_write") == 1 ? EINVAL : EPERM,
		     ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
	/* Queues beyond CXPRM_OBJ_MAX_LOG_QUEUE or 1 MiB. */
	obj_init(&o, CXPRM_OBJ_CQ, 0, 0);
	o.u.cq.log_size = CXPRM_OBJ_MAX_LOG_QUEUE + 1;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
	obj_init(&o, CXPRM_OBJ_SRQ, 0, 0);
	o.u.srq.pd = 1;
	o.u.srq.log_size = CXPRM_OBJ_MAX_LOG_QUEUE;
	o.u.srq.log_stride = 4;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
	obj_init(&o, CXPRM_OBJ_XRQ, 0, 0);
	o.u.xrq.log_size = 0xff;
	o.u.xrq.log_stride = 6;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
	/* log_stride is log2 bytes: 16 B is below a WQE; the staging buffer is bounded. */
	o.u.xrq.log_size = 6;
	o.u.xrq.log_stride = CXPRM_XRQ_MIN_LOG_STRIDE - 1;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
	o.u.xrq.log_stride = 6;
	o.u.xrq.staging_pages = CXPRM_XRQ_MAX_STAGING_PAGES + 1;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
	/* Numbers this file did not create. */
	EXPECT_ERRNO(ENOENT, obj_ioc(self->fd, CXPRM_IOC_OBJ_DESTROY, CXPRM_OBJ_CQ, 0x400, &o));
	EXPECT_ERRNO(ENOENT, qp_modify(self->fd, 0x1000, CXPRM_QP_RST2INIT, &m));
	EXPECT_ERRNO(EINVAL, qp_modify(self->fd, 0x1000, 0, &m));
	EXPECT_ERRNO(EINVAL, qp_modify(self->fd, 0x1000, CXPRM_QP_2RST + 1, &m));
	memset(&m, 0, sizeof(m));
	m.transition = CXPRM_QP_2RST;
	m.reserved[1] = 1;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, CXPRM_IOC_QP_MODIFY, &m));
}

TEST_F(obj, ownership_and_close_destroys)
{
	struct cxprm_qp_modify m;
	struct cxprm_obj o;
	struct objs s;
	long long n0 = self->have_emu ? emu_objects(&self->emu) : 0;
	int fd2 = dev_open(_metadata, O_RDWR);

	make_objs(_metadata, fd2, &s);
	ASSERT_EQ(0, qp_modify(fd2, s.qpn, CXPRM_QP_RST2INIT, &m));
	ASSERT_EQ(0, qp_modify(fd2, s.qpn, CXPRM_QP_INIT2RTR, &m));
	ASSERT_EQ(0, qp_modify(fd2, s.qpn, CXPRM_QP_RTR2RTS, &m));
	EXPECT_EQ(3, m.state);
	/* Another file: may query, may not modify or destroy. */
	ASSERT_EQ(0, obj_ioc(self->fd, CXPRM_IOC_OBJ_QUERY, CXPRM_OBJ_CQ, s.cqn, &o));
	EXPECT_EQ(ST_OK, o.st.status);
	EXPECT_ERRNO(ENOENT, qp_modify(self->fd, s.qpn, CXPRM_QP_2RST, &m));
	EXPECT_ERRNO(ENOENT, obj_ioc(self->fd, CXPRM_IOC_OBJ_DESTROY, CXPRM_OBJ_QP, s.qpn, &o));
	EXPECT_ERRNO(ENOENT, obj_ioc(self->fd, CXPRM_IOC_OBJ_DESTROY, CXPRM_OBJ_PD, s.pd, &o));
	ASSERT_EQ(0, qp_modify(fd2, s.qpn, CXPRM_QP_2RST + 0, &m));
	EXPECT_EQ(0, m.state);
	ASSERT_EQ(0, qp_modify(fd2, s.qpn, CXPRM_QP_RST2INIT, &m));
	/* Close with everything alive (the QP in INIT): nothing stays. */
	ASSERT_EQ(0, close(fd2));
	if (self->have_emu)
		EXPECT_EQ(n0, emu_objects(&self->emu)) TH_LOG("close left %lld objects in the firmware",
							      emu_objects(&self->emu) - n0);
	ASSERT_EQ(0, obj_ioc(self->fd, CXPRM_IOC_OBJ_QUERY, CXPRM_OBJ_CQ, s.cqn, &o));
	EXPECT_NE(ST_OK, o.st.status) TH_LOG("the CQ survived its file");
}

TEST_F_TIMEOUT(obj, per_file_limit, 300)
{
	struct cxprm_obj o;
	long long n0 = self->have_emu ? emu_objects(&self->emu) : 0;
	int fd2 = dev_open(_metadata, O_RDWR), k;

	for (k = 0; k < CXPRM_OBJ_MAX_PER_FILE; k++) {
		obj_init(&o, CXPRM_OBJ_PD, 0, 0);
		ASSERT_EQ(0, ioctl(fd2, CXPRM_IOC_OBJ_CREATE, &o)) TH_LOG("PD %d: %s", k, strerror(errno));
		ASSERT_EQ(ST_OK, o.st.status) TH_LOG("PD %d: 0x%x", k, o.st.status);
	}
	obj_init(&o, CXPRM_OBJ_PD, 0, 0);
	EXPECT_ERRNO(ENOSPC, ioctl(fd2, CXPRM_IOC_OBJ_CREATE, &o));
	/* Another file still may. */
	obj_init(&o, CXPRM_OBJ_CQ, 0, 0);
	o.u.cq.log_size = 2;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
	EXPECT_EQ(ST_OK, o.st.status);
	ASSERT_EQ(0, close(fd2));
	if (self->have_emu)
		EXPECT_EQ(n0 + 1, emu_objects(&self->emu));
}

TEST_F(obj, made_up_numbers_bad_res)
{
	struct cxprm_obj o;
	struct cxprm_dct d;
	int was, r;

	if (!self->have_emu)
		SKIP(return, "no emulator control page: cannot tell whether references are checked");
	if (emuctl_query(&self->emu, CXPRM_EMUD_Q_CHECK_REFS, 0, 0, 0) != 1)
		SKIP(return, "the emulator runs --lenient-objects: made-up numbers are accepted");
	obj_init(&o, CXPRM_OBJ_SRQ, 0, 0);
	o.u.srq.pd = 0x4242;
	o.u.srq.log_size = 4;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ST_BAD_RES_ERR, o.st.status);
	EXPECT_TRUE(o.st.opcode == OP_CREATE_SRQ || o.st.opcode == OP_CREATE_RMP);
	EXPECT_EQ(0, o.id);
	obj_init(&o, CXPRM_OBJ_NVMF_BACKEND, 0, 0x7777);
	nvme_queue_plausible(&o.u.backend);
	was = cxprm_param("allow_raw_write");
	ASSERT_EQ(0, cxprm_param_set("allow_raw_write", 1));
	r = ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o);
	cxprm_param_set("allow_raw_write", was);
	ASSERT_EQ(0, r) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ST_BAD_RES_ERR, o.st.status);
	dct_minimal(&d, NULL);	/* pd, cqn, srqn 1: nobody made them */
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_CREATE, &d));
	EXPECT_EQ(ST_BAD_RES_ERR, d.st.status);
}

/* Firmware DMAs to a backend's queue addresses: allow_raw_write=1 first. */
TEST_F(obj, backend_needs_allow_raw_write)
{
	struct cxprm_obj o;
	int was = cxprm_param("allow_raw_write");

	obj_init(&o, CXPRM_OBJ_NVMF_BACKEND, 0, 0x80);
	nvme_queue_plausible(&o.u.backend);
	ASSERT_EQ(0, cxprm_param_set("allow_raw_write", 0));
	EXPECT_ERRNO(EPERM, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
	cxprm_param_set("allow_raw_write", was);
}

TEST_F(obj, needs_net_admin)
{
	struct cxprm_obj o;
	struct objs s;

	make_objs(_metadata, self->fd, &s);
	IN_CHILD({
		struct cxprm_qp_modify m;

		ASSERT_EQ(0, caps_keep_only(0));
		obj_init(&o, CXPRM_OBJ_PD, 0, 0);
		EXPECT_ERRNO(EPERM, ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &o));
		EXPECT_ERRNO(EPERM, obj_ioc(self->fd, CXPRM_IOC_OBJ_QUERY, CXPRM_OBJ_CQ, s.cqn, &o));
		EXPECT_ERRNO(EPERM, obj_ioc(self->fd, CXPRM_IOC_OBJ_DESTROY, CXPRM_OBJ_QP, s.qpn, &o));
		EXPECT_ERRNO(EPERM, qp_modify(self->fd, s.qpn, CXPRM_QP_RST2INIT, &m));
	});
	/* The objects are intact. */
	ASSERT_EQ(0, obj_ioc(self->fd, CXPRM_IOC_OBJ_DESTROY, CXPRM_OBJ_QP, s.qpn, &o));
	EXPECT_EQ(ST_OK, o.st.status);
}

TEST_HARNESS_MAIN
