// SPDX-License-Identifier: GPL-2.0
/*
 * Privileges (include/uapi/linux/cxprm.h):
 *   INFO: anyone who can open the device;
 *   typed queries, STATS, DCT, SUBSCRIBE, read(): CAP_NET_ADMIN;
 *   RAW read-only queries (QUERY_*, ACCESS_REG READ): CAP_NET_ADMIN;
 *   RAW anything else (ACCESS_REG WRITE too): CAP_SYS_RAWIO (and allow_raw_write=1).
 *
 * Each case runs in a child that gives its privileges up first and then
 * opens the device itself (the node is made world-accessible for the
 * duration, so 'nobody' can open it at all).
 *
 * Who may open the node (Documentation/security.rst): root only (0600,
 * root:root) as the driver creates it, so 'nobody' gets EACCES; a group
 * that root grants 0660, as the packaged udev rule does for group cxprm,
 * may open it (INFO, and nothing privileged); anyone else still may not.
 *
 * Also (Documentation/security.rst): the forbidden raw opcodes stay
 * forbidden with every privilege, whatever op_mod or input length they
 * come with; another user's DCT cannot be drained or destroyed; debugfs is
 * root's only (not even a non-root user with CAP_NET_ADMIN and
 * CAP_SYS_RAWIO may read it); outputs of a firmware error are zero, not
 * whatever the caller or the kernel had there.
 */
#define _GNU_SOURCE
#include <stddef.h>

#include "kselftest_harness.h"
#include "cxprm_harness.h"

FIXTURE(perm) {
	mode_t mode;	/* the node's mode, restored at teardown */
	uid_t uid;	/* and its owner */
	gid_t gid;
	int fd;		/* root's descriptor, for setting things up */
};

/* Stands for group cxprm of the udev rule (the guest has no group names). */
#define CXPRM_GROUP 4242

FIXTURE_SETUP(perm)
{
	struct stat sb;

	self->fd = cxprm_open();
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", cxprm_dev_path(), strerror(errno));
	ASSERT_EQ(0, stat(cxprm_dev_path(), &sb));
	self->mode = sb.st_mode & 07777;
	self->uid = sb.st_uid;
	self->gid = sb.st_gid;
	ASSERT_EQ(0, chmod(cxprm_dev_path(), 0666));
}

FIXTURE_TEARDOWN(perm)
{
	if (chown(cxprm_dev_path(), self->uid, self->gid))
		TH_LOG("chown back: %s", strerror(errno));
	chmod(cxprm_dev_path(), self->mode);
	if (self->fd >= 0)
		close(self->fd);
}

/* A DCT root created, for the DCT ioctls that take a number. */
static uint32_t root_dct(struct __test_metadata *_metadata, int fd)
{
	struct dct_objs o;
	struct cxprm_dct d;

	EXPECT_EQ(0, dct_objs_create(fd, &o)) TH_LOG("PD, CQ, SRQ: %s", strerror(errno));
	dct_minimal(&d, &o);
	EXPECT_EQ(0, ioctl(fd, CXPRM_IOC_DCT_CREATE, &d));
	EXPECT_EQ(ST_OK, d.st.status);
	return d.dctn;
}

/* Every CAP_NET_ADMIN ioctl, with valid arguments, must give EPERM. */
static void expect_all_privileged_eperm(struct __test_metadata *_metadata, int fd, uint32_t dctn)
{
	struct cxprm_caps *caps = calloc(1, sizeof(*caps));
	struct cxprm_nvmf_ns ns;
	struct cxprm_esw_functions esw;
	struct cxprm_dct d;
	struct cxprm_opcode_stats e[8];
	struct cxprm_stats st;
	struct cxprm_subscribe sub;
	struct cxprm_event ev;
	struct cxprm_cmd_status cs;
	uint8_t in[CMD_HDR], out[256];

	ASSERT_NE(NULL, caps);
#define EPERM_IOCTL(cmd, arg) do {						\
		errno = 0;							\
		EXPECT_EQ(-1, ioctl(fd, cmd, arg)) TH_LOG(#cmd " allowed");	\
		EXPECT_EQ(EPERM, errno) TH_LOG(#cmd ": %s", strerror(errno));	\
	} while (0)

	EPERM_IOCTL(CXPRM_IOC_QUERY_CAPS, caps);
	memset(&ns, 0, sizeof(ns));
	ns.xrqn = 0x80;
	ns.nsid = 1;
	EPERM_IOCTL(CXPRM_IOC_NVMF_NS, &ns);
	memset(&esw, 0, sizeof(esw));
	EPERM_IOCTL(CXPRM_IOC_ESW_FUNCTIONS, &esw);
	dct_minimal(&d, NULL);
	EPERM_IOCTL(CXPRM_IOC_DCT_CREATE, &d);
	memset(&d, 0, sizeof(d));
	d.dctn = dctn;
	EPERM_IOCTL(CXPRM_IOC_DCT_QUERY, &d);
	EPERM_IOCTL(CXPRM_IOC_DCT_DRAIN, &d);
	EPERM_IOCTL(CXPRM_IOC_DCT_DESTROY, &d);
	memset(&st, 0, sizeof(st));
	st.capacity = ARRAY_SIZE(e);
	st.entries = (uintptr_t)e;
	EPERM_IOCTL(CXPRM_IOC_STATS, &st);
	memset(&sub, 0xff, sizeof(sub));
	EPERM_IOCTL(CXPRM_IOC_SUBSCRIBE, &sub);
#undef EPERM_IOCTL

	errno = 0;
	EXPECT_EQ(-1, raw_query_issi(fd, &cs, NULL)) TH_LOG("RAW query allowed");
	EXPECT_EQ(EPERM, errno) TH_LOG("RAW query: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, raw_nop(fd, &cs)) TH_LOG("RAW write allowed");
	EXPECT_EQ(EPERM, errno) TH_LOG("RAW write: %s", strerror(errno));
	cmd_hdr(in, sizeof(in), OP_TEARDOWN_HCA, 0);
	errno = 0;
	EXPECT_EQ(-1, raw_cmd(fd, in, sizeof(in), out, sizeof(out), &cs)) TH_LOG("RAW TEARDOWN_HCA allowed");
	EXPECT_EQ(EPERM, errno);

	errno = 0;
	EXPECT_EQ(-1, read(fd, &ev, sizeof(ev))) TH_LOG("read() of events allowed");
	EXPECT_EQ(EPERM, errno) TH_LOG("read: %s", strerror(errno));
	free(caps);
}

static void expect_info_ok(struct __test_metadata *_metadata, int fd)
{
	struct cxprm_info i;

	memset(&i, 0, sizeof(i));
	EXPECT_EQ(0, ioctl(fd, CXPRM_IOC_INFO, &i)) TH_LOG("INFO: %s", strerror(errno));
	EXPECT_STREQ(cxprm_bdf(), i.pci_addr);
	EXPECT_EQ(CXPRM_STATE_UP, i.state);
}

/* Without privileges the node opens, INFO answers and nothing privileged does. */
static void expect_unprivileged(struct __test_metadata *_metadata, uint32_t dctn)
{
	int fd = cxprm_open_flags(O_RDWR | O_NONBLOCK);

	ASSERT_LE(0, fd) TH_LOG("cannot open the node: %s", strerror(errno));
	expect_info_ok(_metadata, fd);
	expect_all_privileged_eperm(_metadata, fd, dctn);
	close(fd);
}

/* Opens the node: INFO answers, ESW_FUNCTIONS (CAP_NET_ADMIN) is EPERM. */
static int open_without_net_admin(struct __test_metadata *_metadata)
{
	struct cxprm_esw_functions esw;
	int fd = cxprm_open_flags(O_RDWR);

	ASSERT_LE(0, fd);
	expect_info_ok(_metadata, fd);
	memset(&esw, 0, sizeof(esw));
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, CXPRM_IOC_ESW_FUNCTIONS, &esw));
	EXPECT_EQ(EPERM, errno);
	return fd;
}

TEST_F(perm, nobody)
{
	uint32_t dctn = root_dct(_metadata, self->fd);
	long long total0 = stats_total(self->fd);

	IN_CHILD({
		ASSERT_EQ(0, become_user(NOBODY));
		ASSERT_NE(0, getuid());
		expect_unprivileged(_metadata, dctn);
	});
	/* Nothing nobody tried reached the firmware; root's DCT is intact. */
	EXPECT_EQ(total0, stats_total(self->fd));
	{
		struct cxprm_dct d;

		memset(&d, 0, sizeof(d));
		d.dctn = dctn;
		EXPECT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_QUERY, &d));
		EXPECT_EQ(0, d.ctx.state);
		EXPECT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_DESTROY, &d));
	}
}

TEST_F(perm, nobody_readonly_open)
{
	IN_CHILD({
		int fd;

		ASSERT_EQ(0, become_user(NOBODY));
		fd = cxprm_open_flags(O_RDONLY);
		ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
		expect_info_ok(_metadata, fd);
		close(fd);
	});
}

/* As the driver creates it: root's only; nobody gets EACCES. */
TEST_F(perm, default_root_only)
{
	EXPECT_EQ(0600, self->mode) TH_LOG("mode %o", self->mode);
	EXPECT_EQ(0, self->uid);
	EXPECT_EQ(0, self->gid);
	ASSERT_EQ(0, chmod(cxprm_dev_path(), self->mode));
	IN_CHILD({
		ASSERT_EQ(0, become_user(NOBODY));
		EXPECT_EQ(-1, cxprm_open_flags(O_RDWR));
		EXPECT_EQ(EACCES, errno);
		EXPECT_EQ(-1, cxprm_open_flags(O_RDONLY));
		EXPECT_EQ(EACCES, errno);
	});
}

/*
 * What the packaged udev rule does (GROUP="cxprm", MODE="0660"): a member
 * of the group opens the node and gets INFO, nothing privileged; a user
 * outside it still gets EACCES.
 */
TEST_F(perm, group_as_the_udev_rule_grants)
{
	uint32_t dctn = root_dct(_metadata, self->fd);

	ASSERT_EQ(0, chown(cxprm_dev_path(), 0, CXPRM_GROUP));
	ASSERT_EQ(0, chmod(cxprm_dev_path(), 0660));
	IN_CHILD({
		gid_t g = CXPRM_GROUP;
		int fd;

		ASSERT_EQ(0, setgroups(1, &g));
		ASSERT_EQ(0, setresgid(NOBODY, NOBODY, NOBODY));
		ASSERT_EQ(0, setresuid(NOBODY, NOBODY, NOBODY));
		fd = cxprm_open_flags(O_RDWR);
		ASSERT_LE(0, fd) TH_LOG("a member of the group: %s", strerror(errno));
		expect_info_ok(_metadata, fd);
		expect_all_privileged_eperm(_metadata, fd, dctn);
		close(fd);
	});
	IN_CHILD({
		ASSERT_EQ(0, become_user(NOBODY));
		EXPECT_EQ(-1, cxprm_open_flags(O_RDONLY));
		EXPECT_EQ(EACCES, errno);
	});
	{
		struct cxprm_dct d;

		memset(&d, 0, sizeof(d));
		d.dctn = dctn;
		EXPECT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_DESTROY, &d));
	}
}

/* uid 0 is not enough: it is the capability that counts. */
TEST_F(perm, root_without_capabilities)
{
	uint32_t dctn = root_dct(_metadata, self->fd);

	IN_CHILD({
		ASSERT_EQ(0, caps_keep_only(0));
		ASSERT_EQ(0, getuid());
		expect_unprivileged(_metadata, dctn);
	});
}

/* Dropping the bounding set and switching to a user: no way back. */
TEST_F(perm, bounding_set_dropped_then_setuid)
{
	IN_CHILD({
		int cap, fd;

		for (cap = 0; cap <= 63; cap++)
			if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
				ASSERT_TRUE(0) TH_LOG("PR_CAPBSET_DROP %d: %s", cap, strerror(errno));
		ASSERT_EQ(0, become_user(12345));
		fd = open_without_net_admin(_metadata);
		close(fd);
	});
}

TEST_F(perm, net_admin_only)
{
	IN_CHILD({
		struct cxprm_caps *caps = calloc(1, sizeof(*caps));
		struct cxprm_esw_functions esw;
		struct cxprm_subscribe sub;
		struct cxprm_cmd_status cs;
		struct cxprm_event ev;
		struct dct_objs o;
		struct cxprm_dct d;
		int fd;

		ASSERT_NE(NULL, caps);
		ASSERT_EQ(0, caps_keep_only(CAPBIT(CAP_NET_ADMIN)));
		fd = cxprm_open_flags(O_RDWR | O_NONBLOCK);
		ASSERT_LE(0, fd);
		expect_info_ok(_metadata, fd);
		EXPECT_EQ(0, query_caps(fd, CAP_GENERAL, 0, caps)) TH_LOG("%s", strerror(errno));
		memset(&esw, 0, sizeof(esw));
		EXPECT_EQ(0, ioctl(fd, CXPRM_IOC_ESW_FUNCTIONS, &esw)) TH_LOG("%s", strerror(errno));
		EXPECT_LT(0, stats_total(fd));
		memset(&sub, 0xff, sizeof(sub));
		EXPECT_EQ(0, ioctl(fd, CXPRM_IOC_SUBSCRIBE, &sub)) TH_LOG("%s", strerror(errno));
		/* The read is allowed: nothing pending (EAGAIN) or one record
		 * (a health or page event may have arrived since the open). */
		errno = 0;
		ssize_t n = read(fd, &ev, sizeof(ev));

		if (n < 0) {
			EXPECT_EQ(EAGAIN, errno) TH_LOG("read: %s", strerror(errno));
		} else {
			EXPECT_EQ((ssize_t)sizeof(ev), n);
		}
		EXPECT_EQ(0, dct_objs_create(fd, &o)) TH_LOG("PD, CQ, SRQ: %s", strerror(errno));
		dct_minimal(&d, &o);
		EXPECT_EQ(0, ioctl(fd, CXPRM_IOC_DCT_CREATE, &d)) TH_LOG("%s", strerror(errno));
		EXPECT_EQ(0, ioctl(fd, CXPRM_IOC_DCT_DESTROY, &d)) TH_LOG("%s", strerror(errno));
		EXPECT_EQ(0, raw_query_issi(fd, &cs, NULL)) TH_LOG("RAW query: %s", strerror(errno));
		errno = 0;
		EXPECT_EQ(-1, raw_nop(fd, &cs)) TH_LOG("RAW write without CAP_SYS_RAWIO allowed");
		EXPECT_EQ(EPERM, errno);
		close(fd);
		free(caps);
	});
}

TEST_F(perm, sys_rawio_without_net_admin)
{
	IN_CHILD({
		struct cxprm_cmd_status cs;
		int fd;

		ASSERT_EQ(0, caps_keep_only(CAPBIT(CAP_SYS_RAWIO)));
		fd = open_without_net_admin(_metadata);
		errno = 0;
		EXPECT_EQ(-1, raw_query_issi(fd, &cs, NULL));
		EXPECT_EQ(EPERM, errno);
		close(fd);
	});
}

/* Exactly the capabilities in 'keep', effective and permitted. */
static int caps_set_exact(uint64_t keep)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	d[0].effective = d[0].permitted = (uint32_t)keep;
	d[1].effective = d[1].permitted = (uint32_t)(keep >> 32);
	return (int)syscall(SYS_capset, &h, d);
}

/* Become uid 'id' keeping exactly the capabilities in 'keep'. */
static int become_user_with_caps(uid_t id, uint64_t keep)
{
	/* setuid keeps the permitted set (not the effective one) with KEEPCAPS. */
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || become_user(id))
		return -1;
	return caps_set_exact(keep);
}

/* ACCESS_REG of HOST_ENDIANNESS (0x7004): 16 bytes + the 16-byte register. */
static int raw_access_reg(int fd, uint16_t op_mod, struct cxprm_cmd_status *st)
{
	uint8_t in[32], out[32];

	cmd_hdr(in, sizeof(in), OP_ACCESS_REG, op_mod);
	put_be16(in, 10, 0x7004);	/* register_id */
	return raw_cmd(fd, in, sizeof(in), out, sizeof(out), st);
}

/*
 * A register read is a query (as fwctl's mlx5 counts it): a member of the
 * group with CAP_NET_ADMIN only reads HOST_ENDIANNESS (a PF's register: a VF
 * is answered with a bad status, still a command that ran); its write needs
 * what a raw write needs, EPERM here whatever allow_raw_write says.
 */
TEST_F(perm, access_reg_read_with_net_admin_only)
{
	long long reg0 = stats_opcode_count(self->fd, OP_ACCESS_REG);

	ASSERT_EQ(0, chown(cxprm_dev_path(), 0, CXPRM_GROUP));
	ASSERT_EQ(0, chmod(cxprm_dev_path(), 0660));
	IN_CHILD({
		struct cxprm_cmd_status cs;
		gid_t g = CXPRM_GROUP;
		int fd;

		/* nobody in group cxprm, CAP_NET_ADMIN kept across the setuid */
		ASSERT_EQ(0, prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
		ASSERT_EQ(0, setgroups(1, &g));
		ASSERT_EQ(0, setresgid(NOBODY, NOBODY, NOBODY));
		ASSERT_EQ(0, setresuid(NOBODY, NOBODY, NOBODY));
		ASSERT_EQ(0, caps_set_exact(CAPBIT(CAP_NET_ADMIN)));
		fd = cxprm_open_flags(O_RDWR);
		ASSERT_LE(0, fd) TH_LOG("a member of the group: %s", strerror(errno));
		memset(&cs, 0xff, sizeof(cs));
		EXPECT_EQ(0, raw_access_reg(fd, 1, &cs)) TH_LOG("ACCESS_REG READ: %s", strerror(errno));
		EXPECT_EQ(0, cs.delivery);
		TH_LOG("ACCESS_REG READ HOST_ENDIANNESS: status 0x%x syndrome 0x%x", cs.status, cs.syndrome);
		errno = 0;
		EXPECT_EQ(-1, raw_access_reg(fd, 0, &cs)) TH_LOG("ACCESS_REG WRITE without CAP_SYS_RAWIO allowed");
		EXPECT_EQ(EPERM, errno);
		errno = 0;
		EXPECT_EQ(-1, raw_access_reg(fd, 2, &cs)) TH_LOG("ACCESS_REG op_mod 2 taken for a read");
		EXPECT_EQ(EPERM, errno);
		close(fd);
	});
	/* The read reached the firmware; the refused ones did not. */
	EXPECT_EQ(reg0 + 1, stats_opcode_count(self->fd, OP_ACCESS_REG));
}

static const uint16_t forbidden_ops[] = {
	OP_ENABLE_HCA, OP_DISABLE_HCA, OP_INIT_HCA, OP_TEARDOWN_HCA, OP_MANAGE_PAGES,
	OP_SET_ISSI, OP_CREATE_EQ, OP_DESTROY_EQ, OP_DEALLOC_UAR,
};

TEST_F(perm, forbidden_raw_with_every_privilege)
{
	uint8_t in[256], out[256];
	struct cxprm_cmd_status cs;
	long long total0 = stats_total(self->fd);
	unsigned int k, v;

	if (cxprm_param("allow_raw_write") != 1)
		SKIP(return, "needs allow_raw_write=1 (raw writes allowed, yet these never)");
	for (k = 0; k < ARRAY_SIZE(forbidden_ops); k++)
		for (v = 0; v < 3; v++) {
			uint32_t len = v == 2 ? sizeof(in) : CMD_HDR;

			memset(in, v ? 0xff : 0, sizeof(in));
			cmd_hdr(in, len, forbidden_ops[k], v ? 0xffff : 0);
			errno = 0;
			EXPECT_EQ(-1, raw_cmd(self->fd, in, len, out, sizeof(out), &cs))
				TH_LOG("opcode 0x%x (variant %u) allowed", forbidden_ops[k], v);
			EXPECT_EQ(EPERM, errno) TH_LOG("opcode 0x%x: %s", forbidden_ops[k], strerror(errno));
		}
	EXPECT_EQ(total0, stats_total(self->fd)) TH_LOG("a forbidden command reached the firmware");
}

TEST_F(perm, other_users_dct)
{
	uint32_t dctn = root_dct(_metadata, self->fd);
	struct cxprm_dct d;

	IN_CHILD({
		struct cxprm_dct c;
		int fd;

		ASSERT_EQ(0, become_user_with_caps(1000, CAPBIT(CAP_NET_ADMIN)));
		fd = cxprm_open();
		ASSERT_LE(0, fd);
		memset(&c, 0, sizeof(c));
		c.dctn = dctn;
		/* Anyone with CAP_NET_ADMIN may look (documented)... */
		EXPECT_EQ(0, ioctl(fd, CXPRM_IOC_DCT_QUERY, &c)) TH_LOG("%s", strerror(errno));
		EXPECT_EQ(ST_OK, c.st.status);
		/* ...but only the creating file may drain or destroy. */
		errno = 0;
		EXPECT_EQ(-1, ioctl(fd, CXPRM_IOC_DCT_DRAIN, &c));
		EXPECT_EQ(ENOENT, errno);
		errno = 0;
		EXPECT_EQ(-1, ioctl(fd, CXPRM_IOC_DCT_DESTROY, &c));
		EXPECT_EQ(ENOENT, errno);
		close(fd);
	});
	memset(&d, 0, sizeof(d));
	d.dctn = dctn;
	EXPECT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_QUERY, &d));
	EXPECT_EQ(0, d.ctx.state) TH_LOG("the other user drained it");
	EXPECT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_DESTROY, &d)) TH_LOG("%s", strerror(errno));
}

static const char *const dbg_files[] = {
	"caps", "cmd_stats", "cmdq", "last_cmds", "eq", "pages", "health",
};

static void expect_debugfs_closed(struct __test_metadata *_metadata)
{
	char path[300];
	unsigned int k;
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/debug/cxprm/%s", cxprm_bdf());
	errno = 0;
	EXPECT_EQ(NULL, opendir(path)) TH_LOG("%s can be listed", path);
	for (k = 0; k < ARRAY_SIZE(dbg_files); k++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/cxprm/%s/%s", cxprm_bdf(), dbg_files[k]);
		errno = 0;
		fd = open(path, O_RDONLY);
		EXPECT_EQ(-1, fd) TH_LOG("%s can be opened", path);
		EXPECT_EQ(EACCES, errno) TH_LOG("%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

TEST_F(perm, debugfs_root_only)
{
	char path[300];
	struct stat sb;
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(dbg_files); k++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/cxprm/%s/%s", cxprm_bdf(), dbg_files[k]);
		ASSERT_EQ(0, stat(path, &sb)) TH_LOG("%s: %s (debugfs not mounted?)", path, strerror(errno));
		EXPECT_EQ(0400, sb.st_mode & 07777) TH_LOG("%s: mode %o", path, sb.st_mode & 07777);
		EXPECT_EQ(0, sb.st_uid);
	}
	IN_CHILD({
		ASSERT_EQ(0, become_user(NOBODY));
		expect_debugfs_closed(_metadata);
	});
	IN_CHILD({
		ASSERT_EQ(0, become_user_with_caps(1000, CAPBIT(CAP_NET_ADMIN) | CAPBIT(CAP_SYS_RAWIO)));
		expect_debugfs_closed(_metadata);
	});
}

/* A firmware error is ioctl 0 with st: the output fields must be zero. */
TEST_F(perm, firmware_error_outputs_are_zeroed)
{
	struct cxprm_nvmf_ns ns;
	struct cxprm_dct d;

	memset(&d, 0, sizeof(d));
	d.dctn = 0xfffff0;
	memset(&d.ctx, 0xa5, offsetof(struct cxprm_dctc, reserved0));
	d.ctx.key_violations = 0xa5a5a5a5;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_QUERY, &d)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ST_BAD_RES_ERR, d.st.status);
	EXPECT_TRUE(all_zero(&d.ctx, sizeof(d.ctx))) TH_LOG("QUERY_DCT of an unknown DCT left data");

	memset(&ns, 0xa5, sizeof(ns));
	ns.xrqn = 0x7fff;
	ns.nsid = 77;
	ns.reserved = 0;
	memset(&ns.st, 0, sizeof(ns.st));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_NVMF_NS, &ns)) TH_LOG("%s", strerror(errno));
	EXPECT_NE(ST_OK, ns.st.status);
	EXPECT_TRUE(all_zero(&ns.read_cmds, sizeof(ns) - offsetof(struct cxprm_nvmf_ns, read_cmds) -
					    sizeof(ns.reserved)))
		TH_LOG("NVMF_NS of an unknown namespace left data");
}

TEST_HARNESS_MAIN
