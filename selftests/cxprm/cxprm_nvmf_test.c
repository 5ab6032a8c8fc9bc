// SPDX-License-Identifier: GPL-2.0
/*
 * CXPRM_IOC_NVMF_NS on an attached namespace.  The fixture's file creates
 * what the namespace hangs off -- PD, CQ, XRQ with NVMF offload, backend
 * controller -- and attaches the namespace (CXPRM_IOC_OBJ_CREATE); closing
 * the file destroys them.  The emulator's control page simulates I/O
 * (CXPRM_EMUD_CMD_NVMF_IO); its automatic I/O tick, when on, moves the
 * counters too.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "cxprm_harness.h"

#define NSID 0x2a

/* SKIP in FIXTURE_SETUP does not stop the test body (6.1 harness). */
#define NEED_ATTACH() do { if (!self->attached) return; } while (0)

FIXTURE(nvmf) {
	int fd;
	struct emuctl emu;
	const struct emu_profile *prof;
	uint32_t xrqn;
	struct nvmf_objs objs;
	int attached;
};

FIXTURE_SETUP(nvmf)
{
	self->fd = dev_open(_metadata, O_RDWR);
	emu_open_required(_metadata, &self->emu);
	self->prof = emu_profile_of(&self->emu);
	ASSERT_NE(NULL, self->prof);
	ASSERT_EQ(0, nvmf_objs_on_ssd(self->fd, &self->emu, 1, &self->objs)) TH_LOG("PD, CQ, XRQ, backend: %s", strerror(errno));
	self->xrqn = self->objs.xrqn;
	ASSERT_EQ(0, nvmf_ns_attach(self->fd, &self->objs, NSID)) TH_LOG("ATTACH: %s", strerror(errno));
	self->attached = 1;
}

FIXTURE_TEARDOWN(nvmf)
{
	/* Closing the file detaches the namespace and destroys the objects. */
	emuctl_close(&self->emu);
	if (self->fd >= 0)
		close(self->fd);
}

static int query_ns(int fd, uint32_t xrqn, uint32_t nsid, struct cxprm_nvmf_ns *n)
{
	memset(n, 0, sizeof(*n));
	n->xrqn = xrqn;
	n->nsid = nsid;
	return ioctl(fd, CXPRM_IOC_NVMF_NS, n);
}

static long long emu_counter(struct emuctl *e, uint32_t xrqn, uint32_t which)
{
	return emuctl_query(e, CXPRM_EMUD_Q_NVMF_COUNTER, xrqn, NSID, which);
}

TEST_F(nvmf, counters_move)
{
	struct cxprm_nvmf_ns a, b;

	NEED_ATTACH();

	ASSERT_EQ(0, query_ns(self->fd, self->xrqn, NSID, &a)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, a.st.delivery);
	ASSERT_EQ(ST_OK, a.st.status) TH_LOG("status 0x%x syndrome 0x%08x", a.st.status, a.st.syndrome);
	EXPECT_EQ(OP_QUERY_NVMF_NAMESPACE_CONTEXT, a.st.opcode);
	EXPECT_EQ(self->xrqn, a.xrqn);
	EXPECT_EQ(NSID, a.nsid);
	EXPECT_EQ(0, a.reserved);

	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_nvmf_io(&self->emu, self->xrqn, NSID, 5, 3, 4));
	ASSERT_EQ(0, query_ns(self->fd, self->xrqn, NSID, &b));
	ASSERT_EQ(ST_OK, b.st.status);
	/* At least what was simulated (the automatic tick may add more). */
	EXPECT_LE(a.read_cmds + 5, b.read_cmds);
	EXPECT_LE(a.read_blocks + 5 * 4, b.read_blocks);
	EXPECT_LE(a.write_cmds + 3, b.write_cmds);
	EXPECT_LE(a.write_blocks + 3 * 4, b.write_blocks);
	EXPECT_LE(a.write_inline_cmds, b.write_inline_cmds);
	EXPECT_LE(a.flush_cmds, b.flush_cmds);
	EXPECT_LE(a.error_cmds, b.error_cmds);
	EXPECT_LE(a.backend_error_cmds, b.backend_error_cmds);
	TH_LOG("reads %llu->%llu writes %llu->%llu, q depth %u, latency r %u w %u",
	       (unsigned long long)a.read_cmds, (unsigned long long)b.read_cmds,
	       (unsigned long long)a.write_cmds, (unsigned long long)b.write_cmds,
	       b.current_q_depth, b.last_read_latency, b.last_write_latency);
	/* nvmf_cap.last_req_latency is set: I/O happened, so there is a latency. */
	EXPECT_NE(0, b.last_read_latency);
	EXPECT_NE(0, b.last_write_latency);
}

/*
 * The ioctl reports exactly what the firmware holds.  The automatic I/O
 * tick (every 50 ms by default) is paused meanwhile: on a debug kernel
 * under TCG one query takes longer than a tick, so retrying until the
 * counters held still was not enough.
 */
TEST_F(nvmf, counters_match_firmware)
{
	static const uint32_t which[] = {
		CXPRM_EMUD_NVMF_READ_CMDS, CXPRM_EMUD_NVMF_READ_BLOCKS,
		CXPRM_EMUD_NVMF_WRITE_CMDS, CXPRM_EMUD_NVMF_WRITE_BLOCKS,
		CXPRM_EMUD_NVMF_FLUSH_CMDS, CXPRM_EMUD_NVMF_ERROR_CMDS,
	};
	long long before[ARRAY_SIZE(which)], after[ARRAY_SIZE(which)];
	unsigned long long got[ARRAY_SIZE(which)];
	struct cxprm_nvmf_ns n;
	int was_running = 0;
	size_t k;

	NEED_ATTACH();

	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_nvmf_auto_io(&self->emu, 0, &was_running));
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_nvmf_io(&self->emu, self->xrqn, NSID, 7, 2, 8));
	for (k = 0; k < ARRAY_SIZE(which); k++) {
		before[k] = emu_counter(&self->emu, self->xrqn, which[k]);
		ASSERT_LE(0, before[k]);
	}
	ASSERT_EQ(0, query_ns(self->fd, self->xrqn, NSID, &n));
	ASSERT_EQ(ST_OK, n.st.status);
	for (k = 0; k < ARRAY_SIZE(which); k++)
		after[k] = emu_counter(&self->emu, self->xrqn, which[k]);
	if (was_running)
		ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_nvmf_auto_io(&self->emu, 1, NULL));
	/* Paused: nothing moved them while we looked. */
	ASSERT_EQ(0, memcmp(before, after, sizeof(before)));
	EXPECT_LE(7, before[0]);
	got[0] = n.read_cmds;
	got[1] = n.read_blocks;
	got[2] = n.write_cmds;
	got[3] = n.write_blocks;
	got[4] = n.flush_cmds;
	got[5] = n.error_cmds;
	for (k = 0; k < ARRAY_SIZE(which); k++)
		EXPECT_EQ((unsigned long long)before[k], got[k]) TH_LOG("counter %u", which[k]);
}

TEST_F(nvmf, attach_twice_is_firmware_status)
{
	struct cxprm_cmd_status st;

	NEED_ATTACH();
	if (cxprm_param("allow_raw_write") != 1)
		SKIP(return, "needs allow_raw_write=1 (RAW ATTACH_NVMF_NAMESPACE)");

	ASSERT_EQ(0, raw_nvmf_attach(self->fd, self->xrqn, NSID, &st));
	EXPECT_EQ(ST_BAD_PARAM_ERR, st.status);
	EXPECT_EQ(SYND_NVMF_NS_EXISTS, st.syndrome);
}

TEST_F(nvmf, detached_namespace)
{
	struct cxprm_cmd_status st;
	struct cxprm_nvmf_ns n;

	NEED_ATTACH();

	ASSERT_EQ(0, nvmf_ns_detach(self->fd, &self->objs, NSID, &st)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(ST_OK, st.status);
	self->attached = 0;
	ASSERT_EQ(0, query_ns(self->fd, self->xrqn, NSID, &n));
	EXPECT_EQ(ST_BAD_RES_ERR, n.st.status);
	EXPECT_EQ(SYND_NVMF_NS_UNKNOWN_QUERY, n.st.syndrome);
}

TEST_F(nvmf, needs_net_admin)
{
	pid_t pid;
	int st;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct cxprm_nvmf_ns n;
		int fd;

		if (caps_keep_only(0))
			_exit(2);
		fd = cxprm_open();
		if (fd < 0)
			_exit(3);
		_exit(query_ns(fd, self->xrqn, NSID, &n) == -1 && errno == EPERM ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) TH_LOG("NVMF_NS without CAP_NET_ADMIN: status 0x%x", st);
}

TEST_HARNESS_MAIN
