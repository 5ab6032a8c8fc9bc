// SPDX-License-Identifier: GPL-2.0
/*
 * cxprm_failnth PATH...: kernel allocation fault injection, as syzkaller
 * does it (/proc/thread-self/fail-nth, failslab and fail_page_alloc with
 * ignore-gfp-wait off; the debug test kernel has them,
 * Documentation/faults.rst "Kernel allocation faults").  For each PATH and
 * n = 1, 2, ... the n-th allocation of the operation fails, until an
 * operation runs without reaching its n-th allocation.  Every run must end
 * with success or a clean error, and the device must be usable afterwards
 * (INFO answers UP), or, for bind, fail cleanly and bind again without the
 * fault.  Leaks, DMA-API errors and kernel reports are the caller's to
 * check (run_guest_tests.sh: the failnth step and debug-check).
 *
 * Paths: bind (probe), open, close, read, unbind, rmmod, one per ioctl
 * (info caps nvmf esw dct_create dct_query dct_drain dct_destroy obj_create
 * obj_destroy stats raw subscribe; the DCTs on a PD, CQ and SRQ of the
 * file, obj_* a CQ) and recover: the recovery after a firmware crash, run
 * in this task by debugfs 'recover' (the device bound with recovery=0, so
 * that no automatic one runs in a kworker; a file held open across it).  Prints per path "failnth: PATH points N clean M errors
 * ERRNO:COUNT... bad B, rebinds R, S s" (R: restores whose bring-up
 * timed out at ENABLE_HCA and were tried again); exits 0 when no run was
 * bad.
 *
 * Environment: CXPRM_BDF, CXPRM_KO (default /cxprm/cxprm.ko),
 * CXPRM_MODPARAMS (for the re-insmod after rmmod), CXPRM_FAILNTH_MAX (the
 * most n per path, default 20000).
 */
#define _GNU_SOURCE
#include <sys/klog.h>
#include "cxprm_test.h"

#define MAX_ERRNO 160

static int nth_fd = -1;
static const char *bdf;
static unsigned int restore_retries;

struct tally {
	unsigned int points, clean, bad;
	unsigned int err[MAX_ERRNO];
};

/* Arms the n-th allocation of this thread to fail (0: off). */
static void arm(unsigned int n)
{
	char b[16];
	int len = snprintf(b, sizeof(b), "%u", n);

	if (pwrite(nth_fd, b, len, 0) != len) {
		perror("fail-nth write");
		exit(2);
	}
}

/* Disarms; returns 1 when the armed fault was injected. */
static int disarm(void)
{
	char b[16] = "";
	int hit;

	if (pread(nth_fd, b, sizeof(b) - 1, 0) <= 0) {
		perror("fail-nth read");
		exit(2);
	}
	hit = atoi(b) == 0;
	arm(0);
	return hit;
}

static const char *drv_link(char *buf, size_t len)
{
	char p[256];
	ssize_t n;

	snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/driver", bdf);
	n = readlink(p, buf, len - 1);
	if (n < 0)
		return "";
	buf[n] = 0;
	return strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf;
}

static int bound(void)
{
	char b[256];

	return !strcmp(drv_link(b, sizeof(b)), "cxprm");
}

static int do_bind(void)
{
	return sysfs_write("/sys/bus/pci/drivers/cxprm/bind", bdf);
}

static int do_unbind(void)
{
	return sysfs_write("/sys/bus/pci/drivers/cxprm/unbind", bdf);
}

static int module_loaded(void)
{
	return access("/sys/module/cxprm", F_OK) == 0;
}

static int do_insmod(void)
{
	const char *ko = getenv("CXPRM_KO") ? getenv("CXPRM_KO") : "/cxprm/cxprm.ko";
	const char *params = getenv("CXPRM_MODPARAMS") ? getenv("CXPRM_MODPARAMS") : "";
	int fd = open(ko, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -errno;
	r = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return r;
}

/* INFO answers with state UP. */
static int usable(void)
{
	struct cxprm_info i;
	int fd = cxprm_open(), ok;

	if (fd < 0)
		return 0;
	memset(&i, 0, sizeof(i));
	ok = !ioctl(fd, CXPRM_IOC_INFO, &i) && i.state == CXPRM_STATE_UP;
	close(fd);
	return ok;
}

/*
 * Whether the kernel log's last failed bring-up timed out at ENABLE_HCA:
 * under the host's load the emulator may drop that doorbell as rung while
 * initializing (Documentation/faults.rst, "Kernel allocation faults").
 */
static int enable_hca_timed_out(void)
{
	static char log[4 << 20];
	const char *p, *last = NULL;
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);

	log[n > 0 ? n : 0] = 0;
	for (p = log; (p = strstr(p, "bring-up failed at ")); p++)
		last = p;
	return last && !strncmp(last + 19, "ENABLE_HCA: ETIMEDOUT", 21);
}

/*
 * Back to loaded, bound and UP without faults: 0, or why not.  A bring-up
 * that timed out at ENABLE_HCA (no fault armed: the emulator's doorbell
 * window under load) is tried again, up to 4 times; any other failure is
 * the answer.
 */
static const char *restore(void)
{
	for (int attempt = 0;; attempt++) {
		if (!module_loaded() && do_insmod())
			return "insmod";
		if (bound() && !usable() && do_unbind())
			return "unbind";
		if (!bound() && do_bind())
			return "bind";
		for (int i = 0; i < 100 && !usable(); i++)
			sleep_ms(20);
		if (usable())
			return NULL;
		if (attempt == 4 || !enable_hca_timed_out())
			return "not UP";
		restore_retries++;
	}
}

/* --- the operations: prepare (no fault), run (armed), finish (no fault) --- */

struct ctx {
	int fd;
	uint32_t dctn;
	int have_dct;
	struct dct_objs objs;	/* what the DCT names, on fd */
	uint32_t cqn;		/* obj_destroy's CQ */
	int recover_fd;		/* debugfs recover, opened by prepare */
};

static int op_ioctl(struct ctx *c, unsigned long cmd, void *arg)
{
	return ioctl(c->fd, cmd, arg) ? -errno : 0;
}

/*
 * The operation's buffers: static and zeroed (touched) before the fault is
 * armed, so that no page fault of ours counts as the operation's.
 */
static union {
	struct cxprm_info info;
	struct cxprm_caps caps;
	struct cxprm_nvmf_ns ns;
	struct cxprm_esw_functions esw;
	struct cxprm_dct dct;
	struct cxprm_obj obj;
	struct cxprm_stats st;
	struct cxprm_subscribe sub;
	char rec[4096];
} U, *u = &U;
static struct cxprm_opcode_stats e[8];
static uint8_t raw_out[256];

static int run_path(const char *path, struct ctx *c)
{
	struct cxprm_cmd_status cs;
	int r = -EINVAL;

	if (!strcmp(path, "bind"))
		r = do_bind();
	else if (!strcmp(path, "unbind"))
		r = do_unbind();
	else if (!strcmp(path, "rmmod"))
		r = syscall(SYS_delete_module, "cxprm", O_NONBLOCK) ? -errno : 0;
	else if (!strcmp(path, "open")) {
		c->fd = cxprm_open();
		r = c->fd < 0 ? -errno : 0;
	} else if (!strcmp(path, "close")) {
		r = close(c->fd) ? -errno : 0;
		c->fd = -1;
	} else if (!strcmp(path, "read")) {
		r = read(c->fd, u->rec, sizeof(u->rec)) < 0 ? -errno : 0;
	} else if (!strcmp(path, "info")) {
		r = op_ioctl(c, CXPRM_IOC_INFO, &u->info);
	} else if (!strcmp(path, "caps")) {
		u->caps.cap_type = 0;
		r = op_ioctl(c, CXPRM_IOC_QUERY_CAPS, &u->caps);
	} else if (!strcmp(path, "nvmf")) {
		u->ns.xrqn = 1;
		u->ns.nsid = 1;
		r = op_ioctl(c, CXPRM_IOC_NVMF_NS, &u->ns);
	} else if (!strcmp(path, "esw")) {
		r = op_ioctl(c, CXPRM_IOC_ESW_FUNCTIONS, &u->esw);
	} else if (!strcmp(path, "dct_create")) {
		dct_minimal(&u->dct, &c->objs);
		r = op_ioctl(c, CXPRM_IOC_DCT_CREATE, &u->dct);
		if (!r && u->dct.st.status == 0) {
			c->dctn = u->dct.dctn;
			c->have_dct = 1;
		}
	} else if (!strncmp(path, "dct_", 4)) {
		unsigned long cmd = !strcmp(path, "dct_query") ? CXPRM_IOC_DCT_QUERY :
				    !strcmp(path, "dct_drain") ? CXPRM_IOC_DCT_DRAIN : CXPRM_IOC_DCT_DESTROY;
		u->dct.dctn = c->dctn;
		r = op_ioctl(c, cmd, &u->dct);
		if (!r && cmd == CXPRM_IOC_DCT_DESTROY && u->dct.st.status == 0)
			c->have_dct = 0;
	} else if (!strcmp(path, "obj_create")) {
		obj_new(CXPRM_OBJ_CQ, 0, &u->obj);
		u->obj.u.cq.log_size = 6;
		r = op_ioctl(c, CXPRM_IOC_OBJ_CREATE, &u->obj);
	} else if (!strcmp(path, "obj_destroy")) {
		obj_new(CXPRM_OBJ_CQ, 0, &u->obj);
		u->obj.id = c->cqn;
		r = op_ioctl(c, CXPRM_IOC_OBJ_DESTROY, &u->obj);
	} else if (!strcmp(path, "stats")) {
		u->st.capacity = ARRAY_SIZE(e);
		u->st.entries = (uintptr_t)e;
		r = op_ioctl(c, CXPRM_IOC_STATS, &u->st);
	} else if (!strcmp(path, "raw")) {
		r = raw_query_issi(c->fd, &cs, raw_out) ? -errno : 0;
	} else if (!strcmp(path, "subscribe")) {
		memset(u->sub.mask, 0xff, sizeof(u->sub.mask));
		r = op_ioctl(c, CXPRM_IOC_SUBSCRIBE, &u->sub);
	} else if (!strcmp(path, "recover")) {
		r = write(c->recover_fd, "1", 1) == 1 ? 0 : -errno;
	}
	return r;
}

/* The module parameter 'recovery' (read at bring-up): 0 or -1. */
static int recover_param(const char *v)
{
	return sysfs_write("/sys/module/cxprm/parameters/recovery", v) ? -1 : 0;
}

/*
 * The recover path's device is bound with recovery=0 (prepare); on each
 * run the firmware crashes and a command sees the failure at once (the
 * fatal sensor).  0 or -1.
 */
static int prepare_recover(struct ctx *c)
{
	struct cxprm_info i;
	struct emuctl emu;
	char p[320];
	int r;


	snprintf(p, sizeof(p), "/sys/kernel/debug/cxprm/%s/recover", bdf);
	c->recover_fd = open(p, O_WRONLY | O_CLOEXEC);
	if (c->recover_fd < 0 || emuctl_open(&emu, bdf))
		return -1;
	r = emuctl_fault(&emu, CXPRM_EMUD_FAULT_CRASH, 1, 0);
	emuctl_close(&emu);
	if (r != CXPRM_EMUD_ST_OK)
		return -1;
	u->caps.cap_type = 0;
	ioctl(c->fd, CXPRM_IOC_QUERY_CAPS, &u->caps);
	memset(&i, 0, sizeof(i));
	if (ioctl(c->fd, CXPRM_IOC_INFO, &i) || !(i.flags & CXPRM_INFO_FAILED) ||
	    i.recovery != CXPRM_RECOVERY_OFF)
		return -1;
	memset(&U, 0, sizeof(U));
	return 0;
}

/* After a recovery that said 0: the held file works and the device is UP. */
static const char *recovered(struct ctx *c)
{
	struct cxprm_info i;

	memset(&i, 0, sizeof(i));
	if (ioctl(c->fd, CXPRM_IOC_INFO, &i))
		return "INFO on the held file failed after the recovery";
	if (i.state != CXPRM_STATE_UP || (i.flags & CXPRM_INFO_FAILED) || i.recovery != CXPRM_RECOVERY_DONE)
		return "recover returned 0, the device is not UP";
	return NULL;
}

static int is_dev_path(const char *p)
{
	return strcmp(p, "bind") && strcmp(p, "unbind") && strcmp(p, "rmmod");
}

/* Sets up what path needs, no fault armed: 0 or -1. */
static int prepare(const char *path, struct ctx *c)
{
	struct cxprm_subscribe s;
	struct cxprm_dct d;

	c->fd = -1;
	c->recover_fd = -1;
	memset(&U, 0, sizeof(U));
	memset(e, 0, sizeof(e));
	memset(raw_out, 0, sizeof(raw_out));
	if (!strcmp(path, "bind")) {
		if (!module_loaded() && do_insmod())
			return -1;
		if (bound() && do_unbind())
			return -1;
		return 0;
	}
	if (!strcmp(path, "recover") && cxprm_param("recovery") != 0 &&
	    (recover_param("0") || (bound() && do_unbind())))
		return -1;
	if (restore())
		return -1;
	if (!is_dev_path(path) || !strcmp(path, "open"))
		return 0;
	c->fd = cxprm_open_flags(O_RDWR | O_NONBLOCK);
	if (c->fd < 0)
		return -1;
	if (!strcmp(path, "recover"))
		return prepare_recover(c);
	if (!strcmp(path, "read")) {
		/* Subscribed to everything, a record queued: DCT_DRAINED. */
		memset(s.mask, 0xff, sizeof(s.mask));
		if (ioctl(c->fd, CXPRM_IOC_SUBSCRIBE, &s))
			return -1;
	}
	if ((!strncmp(path, "dct_", 4) || !strcmp(path, "read")) &&
	    dct_objs_create(c->fd, &c->objs))
		return -1;
	if (!strcmp(path, "obj_destroy") && pd_cq_create(c->fd, &c->objs.pd, &c->cqn))
		return -1;
	if ((!strncmp(path, "dct_", 4) && strcmp(path, "dct_create")) || !strcmp(path, "read")) {
		dct_minimal(&d, &c->objs);
		if (ioctl(c->fd, CXPRM_IOC_DCT_CREATE, &d) || d.st.status)
			return -1;
		c->dctn = d.dctn;
		c->have_dct = 1;
	}
	if (!strcmp(path, "read")) {
		memset(&d, 0, sizeof(d));
		d.dctn = c->dctn;
		if (ioctl(c->fd, CXPRM_IOC_DCT_DRAIN, &d) || wait_readable(c->fd, 2000) != 1)
			return -1;
	}
	return 0;
}

static void finish(struct ctx *c)
{
	struct cxprm_dct d;

	if (c->fd >= 0 && c->have_dct) {
		memset(&d, 0, sizeof(d));
		d.dctn = c->dctn;
		ioctl(c->fd, CXPRM_IOC_DCT_DESTROY, &d);
	}
	c->have_dct = 0;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	if (c->recover_fd >= 0)
		close(c->recover_fd);
	c->recover_fd = -1;
}

static int one_path(const char *path, unsigned int max)
{
	struct tally t;
	struct ctx c = { .fd = -1, .recover_fd = -1 };
	unsigned int n;
	int r, hit;

	uint64_t t0 = now_ns();
	unsigned int retries0 = restore_retries;

	memset(&t, 0, sizeof(t));
	for (n = 1; n <= max; n++) {
		const char *why = NULL;

		if (prepare(path, &c)) {
			printf("# %s n=%u: cannot prepare\n", path, n);
			t.bad++;
			break;
		}
		arm(n);
		r = run_path(path, &c);
		hit = disarm();
		if (!hit) {
			finish(&c);
			break;
		}
		t.points = n;
		if (r == 0)
			t.clean++;
		else if (-r < MAX_ERRNO)
			t.err[-r]++;
		/* What the fault left must be sane. */
		if (!strcmp(path, "bind") && r && bound())
			why = "bind failed but the device is bound";
		/* A failed write may not have reached the driver (kernfs). */
		if (!strcmp(path, "unbind") && !r && bound())
			why = "still bound after unbind";
		if (!strcmp(path, "rmmod") && !r && module_loaded())
			why = "rmmod returned 0, module still loaded";
		if (!strcmp(path, "rmmod") && r && !module_loaded())
			why = "rmmod failed, module gone";
		if (!strcmp(path, "recover") && !r)
			why = recovered(&c);
		if (r && r != -ENOMEM && strcmp(path, "read"))
			printf("# %s n=%u: %s\n", path, n, strerror(-r));
		finish(&c);
		if (!why) {
			const char *rw = restore();

			if (rw)
				why = rw;
		}
		if (why) {
			printf("# %s n=%u: BAD: %s (op returned %d)\n", path, n, why, r);
			t.bad++;
			if (restore())
				break;
		}
	}
	if (!strcmp(path, "recover") && (recover_param("1") || (bound() && do_unbind()) || restore())) {
		printf("# recover: cannot bind again with recovery=1\n");
		t.bad++;
	}
	printf("failnth: %-11s points %u clean %u errors", path, t.points, t.clean);
	for (int i = 0; i < MAX_ERRNO; i++)
		if (t.err[i])
			printf(" %s:%u", strerrorname_np(i) ? strerrorname_np(i) : "?", t.err[i]);
	printf(" bad %u, rebinds %u, %.1f s%s\n", t.bad, restore_retries - retries0,
	       (now_ns() - t0) / 1e9, n > max ? " (stopped at the maximum)" : "");
	fflush(stdout);
	return t.bad || n > max;
}

int main(int argc, char **argv)
{
	unsigned int max = getenv("CXPRM_FAILNTH_MAX") ? atoi(getenv("CXPRM_FAILNTH_MAX")) : 20000;
	int bad = 0;

	bdf = cxprm_bdf();
	if (!bdf || argc < 2) {
		fprintf(stderr, "usage: CXPRM_BDF=... cxprm_failnth PATH...\n");
		return 2;
	}
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (nth_fd < 0) {
		printf("failnth: no /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION): %s\n", strerror(errno));
		return 4; /* kselftest SKIP */
	}
	for (int i = 1; i < argc; i++)
		bad |= one_path(argv[i], max);
	if (restore()) {
		printf("failnth: the device is not usable at the end\n");
		bad = 1;
	}
	return bad;
}
