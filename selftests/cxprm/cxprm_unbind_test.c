// SPDX-License-Identifier: GPL-2.0
/*
 * Unbinding the device while files are open (hot unplug as the driver sees
 * it): a blocked read() wakes up, ioctls on the old files fail with ENODEV
 * instead of touching freed memory, close() is fine, the firmware got
 * every page back and no object (DCT, QP, CQ, PD: the driver destroys
 * those of open files) was left behind; binding again brings the
 * device back up.  Needs root; run it last (it re-binds, but the device is
 * brought up anew).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/klog.h>

#include "kselftest_harness.h"
#include "cxprm_test.h"

FIXTURE(unbind) {
	struct emuctl emu;
	int have_emu;
};

FIXTURE_SETUP(unbind)
{
	int fd = cxprm_open();

	ASSERT_LE(0, fd) TH_LOG("open %s: %s", cxprm_dev_path(), strerror(errno));
	close(fd);
	self->have_emu = emuctl_open(&self->emu, cxprm_bdf()) == 0;
}

FIXTURE_TEARDOWN(unbind)
{
	emuctl_close(&self->emu);
}

static int bound_to_cxprm(const char *bdf)
{
	char path[320], link[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", bdf);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return 0;
	link[n] = 0;
	return strstr(link, "/cxprm") != NULL;
}

static int bind_cxprm(const char *bdf)
{
	char path[320];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override", bdf);
	sysfs_write(path, "cxprm");
	sysfs_write("/sys/bus/pci/drivers_probe", bdf);
	return bound_to_cxprm(bdf) ? 0 : -1;
}

/* The last "pages given N reclaimed M" in the kernel log since 'from'. */
static int last_pages_line(size_t from, unsigned long long *given, unsigned long long *reclaimed)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf, *p, *hit = NULL;
	int n;

	if (len <= 0)
		return -1;
	buf = malloc((size_t)len + 1);
	if (!buf)
		return -1;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (n < 0) {
		free(buf);
		return -1;
	}
	buf[n] = 0;
	for (p = buf + (from < (size_t)n ? from : (size_t)n); (p = strstr(p, "pages given ")); p++)
		hit = p;
	n = hit && sscanf(hit, "pages given %llu reclaimed %llu", given, reclaimed) == 2 ? 0 : -1;
	free(buf);
	return n;
}

static size_t klog_len(void)
{
	int len = klogctl(10, NULL, 0);
	char *buf = len > 0 ? malloc((size_t)len) : NULL;
	int n = buf ? klogctl(3, buf, len) : 0;

	free(buf);
	return n > 0 ? (size_t)n : 0;
}

struct reader {
	int fd;
	ssize_t ret;
	int err;
	int done;
};

static void *blocked_reader(void *arg)
{
	struct reader *r = arg;
	struct cxprm_event ev;

	r->ret = read(r->fd, &ev, sizeof(ev));
	r->err = errno;
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A PD, a CQ and a QP in RTS on them (rq_type regular: no SRQ). */
static void make_objects(struct __test_metadata *_metadata, int fd)
{
	static const uint32_t path[] = { CXPRM_QP_RST2INIT, CXPRM_QP_INIT2RTR, CXPRM_QP_RTR2RTS };
	struct cxprm_qp_modify m;
	struct cxprm_obj o;
	uint32_t pd, cqn;
	unsigned int k;

	memset(&o, 0, sizeof(o));
	o.type = CXPRM_OBJ_PD;
	ASSERT_EQ(0, ioctl(fd, CXPRM_IOC_OBJ_CREATE, &o)) TH_LOG("PD: %s", strerror(errno));
	pd = o.id;
	memset(&o, 0, sizeof(o));
	o.type = CXPRM_OBJ_CQ;
	o.u.cq.log_size = 4;
	ASSERT_EQ(0, ioctl(fd, CXPRM_IOC_OBJ_CREATE, &o)) TH_LOG("CQ: %s", strerror(errno));
	ASSERT_EQ(ST_OK, o.st.status);
	cqn = o.id;
	memset(&o, 0, sizeof(o));
	o.type = CXPRM_OBJ_QP;
	o.u.qp.pd = pd;
	o.u.qp.cqn_snd = cqn;
	o.u.qp.cqn_rcv = cqn;
	o.u.qp.log_sq_size = 2;
	o.u.qp.log_rq_size = 2;
	ASSERT_EQ(0, ioctl(fd, CXPRM_IOC_OBJ_CREATE, &o)) TH_LOG("QP: %s", strerror(errno));
	ASSERT_EQ(ST_OK, o.st.status) TH_LOG("QP: 0x%x 0x%08x", o.st.status, o.st.syndrome);
	for (k = 0; k < ARRAY_SIZE(path); k++) {
		memset(&m, 0, sizeof(m));
		m.qpn = o.id;
		m.transition = path[k];
		m.port = 1;
		m.mtu = 3;
		ASSERT_EQ(0, ioctl(fd, CXPRM_IOC_QP_MODIFY, &m));
		EXPECT_EQ(ST_OK, m.st.status);
	}
}

TEST_F_TIMEOUT(unbind, with_open_files, 120)
{
	const char *bdf = cxprm_bdf();
	char path[320];
	struct cxprm_info info;
	struct dct_objs objs;
	struct cxprm_dct d;
	struct cxprm_esw_functions f;
	struct reader rd = { 0 };
	struct pollfd pfd;
	pthread_t th;
	long long leaked0 = 0, leaked1, held;
	unsigned long long given = 0, reclaimed = 0;
	size_t klog0;
	uint64_t t0;
	int fd, fd2, k, r;

	ASSERT_NE(NULL, bdf);
	fd = cxprm_open();
	fd2 = cxprm_open();
	rd.fd = cxprm_open_flags(O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_LE(0, fd2);
	ASSERT_LE(0, rd.fd);
	/* Something the driver must clean up: a DCT owned by fd2, on fd2's
	 * PD, CQ and SRQ, and more objects of fd2. */
	ASSERT_EQ(0, dct_objs_create(fd2, &objs)) TH_LOG("PD, CQ, SRQ: %s", strerror(errno));
	dct_minimal(&d, &objs);
	ASSERT_EQ(0, ioctl(fd2, CXPRM_IOC_DCT_CREATE, &d));
	ASSERT_EQ(ST_OK, d.st.status);
	make_objects(_metadata, fd2);
	if (self->have_emu)
		leaked0 = emuctl_query(&self->emu, CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_OBJECTS_LEAKED, 0, 0);
	ASSERT_EQ(0, pthread_create(&th, NULL, blocked_reader, &rd));
	sleep_ms(200);
	ASSERT_EQ(0, __atomic_load_n(&rd.done, __ATOMIC_ACQUIRE)) TH_LOG("read() did not block");

	klog0 = klog_len();
	t0 = now_ns();
	r = sysfs_write("/sys/bus/pci/drivers/cxprm/unbind", bdf);
	ASSERT_EQ(0, r) TH_LOG("unbind: %s", strerror(-r));
	TH_LOG("unbind with 3 open files took %llu ms", (unsigned long long)(now_ns() - t0) / 1000000);
	EXPECT_FALSE(bound_to_cxprm(bdf));
	snprintf(path, sizeof(path), "/dev/cxprm/%s", bdf);
	EXPECT_NE(0, access(path, F_OK)) TH_LOG("%s still there", path);

	/* The blocked reader woke up (EOF or ENODEV both fine). */
	for (k = 0; k < 50 && !__atomic_load_n(&rd.done, __ATOMIC_ACQUIRE); k++)
		sleep_ms(100);
	EXPECT_TRUE(__atomic_load_n(&rd.done, __ATOMIC_ACQUIRE)) TH_LOG("read() still blocked after unbind");
	if (rd.done) {
		pthread_join(th, NULL);
		EXPECT_TRUE(rd.ret == -1 && rd.err == ENODEV)
			TH_LOG("blocked read() after unbind: %zd (%s)", rd.ret, strerror(rd.err));
	}

	/* Old files: ioctls fail cleanly. */
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, CXPRM_IOC_INFO, &info)) TH_LOG("INFO on an unbound device succeeded");
	EXPECT_EQ(ENODEV, errno) TH_LOG("INFO after unbind: %s", strerror(errno));
	memset(&f, 0, sizeof(f));
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, CXPRM_IOC_ESW_FUNCTIONS, &f));
	EXPECT_EQ(ENODEV, errno) TH_LOG("ESW_FUNCTIONS after unbind: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd2, CXPRM_IOC_DCT_QUERY, &d));
	EXPECT_EQ(ENODEV, errno) TH_LOG("DCT_QUERY after unbind: %s", strerror(errno));
	{
		struct cxprm_event ev;
		int nb = cxprm_open_flags(O_RDONLY); /* the node is gone */

		EXPECT_EQ(-1, nb);
		errno = 0;
		EXPECT_EQ(-1, read(fd, &ev, sizeof(ev)));
		EXPECT_EQ(ENODEV, errno) TH_LOG("read() after unbind: %s", strerror(errno));
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	EXPECT_EQ(1, poll(&pfd, 1, 1000)) TH_LOG("poll() after unbind does not report anything");
	EXPECT_EQ(POLLERR | POLLHUP, pfd.revents & (POLLERR | POLLHUP)) TH_LOG("revents 0x%x", pfd.revents);
	EXPECT_EQ(0, close(fd));
	EXPECT_EQ(0, close(rd.fd));
	/* fd2 (whose DCT the unbind destroyed) stays open across the rebind. */

	/* Everything back with the firmware, nothing left in it. */
	EXPECT_EQ(0, last_pages_line(klog0, &given, &reclaimed)) TH_LOG("no 'pages given N reclaimed M' in dmesg");
	EXPECT_LT(0, given);
	EXPECT_EQ(given, reclaimed) TH_LOG("dmesg: pages given %llu reclaimed %llu", given, reclaimed);
	if (self->have_emu) {
		held = emuctl_query(&self->emu, CXPRM_EMUD_Q_PAGES_HELD, 0, 0, 0);
		EXPECT_EQ(0, held) TH_LOG("the firmware still holds %lld pages after unbind", held);
		EXPECT_EQ(0, emuctl_query(&self->emu, CXPRM_EMUD_Q_HCA_STATE, 0, 0, 0)) TH_LOG("HCA not DISABLED");
		EXPECT_EQ(0, emuctl_query(&self->emu, CXPRM_EMUD_Q_DCTS, 0, 0, 0));
		EXPECT_EQ(0, emuctl_query(&self->emu, CXPRM_EMUD_Q_OBJECTS, 0, 0, 0));
		leaked1 = emuctl_query(&self->emu, CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_OBJECTS_LEAKED, 0, 0);
		EXPECT_EQ(leaked0, leaked1) TH_LOG("TEARDOWN_HCA dropped %lld objects the driver left (DCT/PD/CQ/SRQ/EQ/UAR)",
						   leaked1 - leaked0);
	}

	/* Bind again: a fresh bring-up. */
	ASSERT_EQ(0, bind_cxprm(bdf)) TH_LOG("rebind failed");
	fd = cxprm_open();
	ASSERT_LE(0, fd) TH_LOG("open after rebind: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, CXPRM_IOC_INFO, &info));
	EXPECT_EQ(CXPRM_STATE_UP, info.state);
	memset(&f, 0, sizeof(f));
	EXPECT_EQ(0, ioctl(fd, CXPRM_IOC_ESW_FUNCTIONS, &f));
	EXPECT_EQ(ST_OK, f.st.status);

	/*
	 * The new device hands out DCT numbers from the start again: a file of
	 * the old device closing now must not destroy the new owner's DCT.
	 */
	ASSERT_EQ(0, dct_objs_create(fd, &objs)) TH_LOG("PD, CQ, SRQ: %s", strerror(errno));
	dct_minimal(&d, &objs);
	ASSERT_EQ(0, ioctl(fd, CXPRM_IOC_DCT_CREATE, &d));
	ASSERT_EQ(ST_OK, d.st.status);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd2, CXPRM_IOC_INFO, &info)) TH_LOG("a file of the old device works on the new one");
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(0, close(fd2));
	if (self->have_emu)
		EXPECT_EQ(1, emuctl_query(&self->emu, CXPRM_EMUD_Q_DCTS, 0, 0, 0))
			TH_LOG("closing an old file destroyed a DCT of the new device");
	{
		struct cxprm_dct q;

		memset(&q, 0, sizeof(q));
		q.dctn = d.dctn;
		EXPECT_EQ(0, ioctl(fd, CXPRM_IOC_DCT_QUERY, &q));
		EXPECT_EQ(ST_OK, q.st.status);
		EXPECT_EQ(0, ioctl(fd, CXPRM_IOC_DCT_DESTROY, &q));
	}
	close(fd);
}

TEST_HARNESS_MAIN
