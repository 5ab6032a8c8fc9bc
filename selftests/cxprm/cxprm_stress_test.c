// SPDX-License-Identifier: GPL-2.0
/*
 * Stress under injected faults: PROCS (8) processes x PER (300) ioctls at once, mixed
 * (typed QUERY_CAPS and ESW_FUNCTIONS, RAW QUERY_ISSI, RAW NOP when
 * allow_raw_write=1, DCT create/query/destroy, INFO, STATS) while the
 * emulator makes QUERY_ISSI slow and fails some of them with a delivery
 * status (control page SLOW_MS, DELIVERY_STATUS re-armed by a chaos
 * process that also fires page requests both ways).  Afterwards:
 *   - every ioctl got its own answer (DCT queries see the creator's key,
 *     ISSI outputs are well formed), none failed in any other way;
 *   - no completion lost or duplicated: per opcode, STATS grew by exactly
 *     the commands the children sent, the emulator executed exactly those
 *     that were not failed on purpose, and the -EIO count equals the
 *     delivery errors the emulator injected (and STATS' error count);
 *   - DCTs balanced: created == destroyed, the emulator holds none extra;
 *   - the page books agree with the firmware's, the async EQ never overran.
 * The figures (commands, errors injected, time) are printed.
 *
 * unbind_under_load: the device is unbound while processes hammer it;
 * remove completes in bounded time, every process gets ENODEV and exits,
 * every page comes back, no DCT is left; then it is bound again.
 *
 * With CXPRM_STRESS_HAMMER=SECONDS set the program only hammers (4
 * processes, until ENODEV or the time is up) for run_guest_tests.sh's
 * rmmod-under-load step; it exits 0 when every ioctl either worked or
 * failed with ENODEV.
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "cxprm_test.h"
#include "cxprm_emu_load.h"

#define PROCS	8
#define PER	300
#define INJECT	3	/* delivery errors per arming of the knob */

enum { K_CAPS, K_ESW, K_ISSI, K_NOP, K_DCT_CREATE, K_DCT_QUERY, K_DCT_DESTROY, K_DCT_DRAIN, K_NUM };

static const uint16_t k_opcode[K_NUM] = {
	[K_CAPS] = OP_QUERY_HCA_CAP, [K_ESW] = OP_QUERY_ESW_FUNCTIONS, [K_ISSI] = OP_QUERY_ISSI,
	[K_NOP] = OP_NOP, [K_DCT_CREATE] = OP_CREATE_DCT, [K_DCT_QUERY] = OP_QUERY_DCT,
	[K_DCT_DESTROY] = OP_DESTROY_DCT, [K_DCT_DRAIN] = OP_DRAIN_DCT,
};

static const char *const k_name[K_NUM] = {
	"QUERY_HCA_CAP", "QUERY_ESW_FUNCTIONS", "QUERY_ISSI", "NOP", "CREATE_DCT", "QUERY_DCT",
	"DESTROY_DCT", "DRAIN_DCT",
};

_Static_assert(K_NUM <= LOAD_KINDS, "kinds");

/* Per child, in shared memory. */
struct tally {
	struct load_count c;	/* commands per kind, failures */
	long long dct_created, dct_destroyed;
	long long info, stats;	/* ioctls that send no command */
};

struct stats_snap {
	long long total;
	long long count[K_NUM], errors[K_NUM];
	long long manage_pages, query_pages;
	long long objects;	/* the children's PD, CQ, SRQ (an RMP at ISSI 1) and the
				 * completion EQ the first CQ makes */
};

static void snap(int fd, struct stats_snap *s)
{
	static const uint16_t obj_ops[] = { OP_ALLOC_PD, OP_CREATE_CQ, OP_CREATE_SRQ,
					    OP_CREATE_RMP, OP_CREATE_EQ, OP_DEALLOC_PD,
					    OP_DESTROY_CQ, OP_DESTROY_SRQ, OP_DESTROY_RMP };
	enum { N = K_NUM + 2 + ARRAY_SIZE(obj_ops) };
	uint16_t ops[N];
	long long count[N], errors[N];
	size_t k;

	memcpy(ops, k_opcode, sizeof(k_opcode));
	ops[K_NUM] = OP_MANAGE_PAGES;
	ops[K_NUM + 1] = OP_QUERY_PAGES;
	memcpy(ops + K_NUM + 2, obj_ops, sizeof(obj_ops));
	s->total = load_stats(fd, ops, N, count, errors);
	memcpy(s->count, count, sizeof(s->count));
	memcpy(s->errors, errors, sizeof(s->errors));
	s->manage_pages = count[K_NUM];
	s->query_pages = count[K_NUM + 1];
	s->objects = 0;
	for (k = K_NUM + 2; k < N; k++)
		s->objects += count[k];
}

static long long emu_counter(struct emuctl *e, uint32_t c)
{
	return emuctl_query(e, CXPRM_EMUD_Q_COUNTER, c, 0, 0);
}

/* One ioctl that sends a command of 'kind': counts it, returns 0 if it worked. */
static int account(struct tally *t, int kind, int ret, const struct cxprm_cmd_status *st)
{
	return load_account(&t->c, kind, k_opcode[kind], ret, st);
}

static void child(int fd_shared, int id, struct tally *t, int with_nop)
{
	struct cxprm_caps *c = malloc(sizeof(*c));
	int fd = (id & 1) ? cxprm_open() : fd_shared;
	struct cxprm_esw_functions f;
	struct cxprm_cmd_status st;
	struct cxprm_stats s;
	struct cxprm_info info;
	struct cxprm_dct d;
	struct dct_objs objs;
	uint8_t out[QUERY_ISSI_OUT];
	uint32_t live[4];
	int nlive = 0, have_objs = 0, n, j;

	if (!c || fd < 0) {
		load_fail(&t->c, -1);
		return;
	}
	for (n = 0; n < PER; n++) {
		switch ((n + id) % 8) {
		case 0:
			if (!account(t, K_CAPS, query_caps(fd, CAP_GENERAL, n & 1, c), &c->st) &&
			    c->st.status)
				t->c.wrong++;
			break;
		case 1:
		case 5:
			memset(out, 0, sizeof(out));
			if (!account(t, K_ISSI, raw_query_issi(fd, &st, out), &st) &&
			    (st.status || !(be32_at(out, 0x6c) & 2)))
				t->c.wrong++; /* supported_issi_dw0 has ISSI 1 */
			break;
		case 2:
			memset(&f, 0, sizeof(f));
			if (!account(t, K_ESW, ioctl(fd, CXPRM_IOC_ESW_FUNCTIONS, &f), &f.st) &&
			    (f.st.status || !f.host_total_vfs))
				t->c.wrong++;
			break;
		case 3:
			if (with_nop)
				account(t, K_NOP, raw_nop(fd, &st), &st);
			else if (!ioctl(fd, CXPRM_IOC_INFO, &info))
				t->info++;
			break;
		case 4:
			if (nlive == (int)ARRAY_SIZE(live))
				break;
			if (!have_objs) /* this child's PD, CQ, SRQ (retried after a fault) */
				have_objs = !dct_objs_create(fd, &objs);
			if (!have_objs)
				break;
			dct_minimal(&d, &objs);
			d.ctx.dc_access_key = (uint64_t)id << 32 | (uint32_t)n;
			if (!account(t, K_DCT_CREATE, ioctl(fd, CXPRM_IOC_DCT_CREATE, &d), &d.st) &&
			    !d.st.status) {
				live[nlive++] = d.dctn;
				t->dct_created++;
				/* Our own DCT, with our own key. */
				j = d.dctn;
				memset(&d, 0, sizeof(d));
				d.dctn = j;
				if (!account(t, K_DCT_QUERY, ioctl(fd, CXPRM_IOC_DCT_QUERY, &d), &d.st) &&
				    (d.st.status || d.ctx.dc_access_key != ((uint64_t)id << 32 | (uint32_t)n)))
					t->c.wrong++;
			}
			break;
		case 6:
		case 7:
			if (!nlive || ((n + id) % 8 == 7 && nlive < 2)) {
				memset(&s, 0, sizeof(s));
				if (!ioctl(fd, CXPRM_IOC_STATS, &s))
					t->stats++;
				break;
			}
			memset(&d, 0, sizeof(d));
			d.dctn = live[nlive - 1];
			if (!account(t, K_DCT_DESTROY, ioctl(fd, CXPRM_IOC_DCT_DESTROY, &d), &d.st) &&
			    !d.st.status) {
				nlive--;
				t->dct_destroyed++;
			}
			break;
		}
	}
	while (nlive) {
		memset(&d, 0, sizeof(d));
		d.dctn = live[nlive - 1];
		if (account(t, K_DCT_DESTROY, ioctl(fd, CXPRM_IOC_DCT_DESTROY, &d), &d.st) || d.st.status)
			break;
		nlive--;
		t->dct_destroyed++;
	}
	if (fd != fd_shared)
		close(fd);
	free(c);
}

/* The chaos process: re-arms the delivery errors, fires page requests. */
static void chaos(const char *bdf, volatile int *stop, long long *armed, long long *page_reqs)
{
	struct emuctl e;
	int32_t held = 0, n;
	int round = 0;

	if (emuctl_open(&e, bdf))
		_exit(1);
	while (!*stop) {
		if (emuctl_fault(&e, CXPRM_EMUD_FAULT_DELIVERY_STATUS, 0x6, INJECT) == CXPRM_EMUD_ST_OK)
			(*armed)++;
		n = (round % 3 == 2 && held) ? -held : 8 + round % 5;
		if (emuctl_request_pages(&e, n) == CXPRM_EMUD_ST_OK) {
			held += n;
			(*page_reqs)++;
		}
		round++;
		usleep(40000);
	}
	/* Give back what we asked for. */
	if (held && emuctl_request_pages(&e, -held) == CXPRM_EMUD_ST_OK)
		(*page_reqs)++;
	emuctl_close(&e);
	_exit(0);
}

CXPRM_EMU_FIXTURE(stress)

TEST_F_TIMEOUT(stress, mixed_under_faults, 180)
{
	long long emu_ops0[K_NUM], emu_ops1[K_NUM], deliv0, deliv1, dcts0, over0, held = -1, live = -1;
	long long sent = 0, eio = 0, created = 0, destroyed = 0, nocmd = 0, internal = 0;
	int with_nop = cxprm_param("allow_raw_write") == 1;
	struct stats_snap s0, s1;
	struct tally *t, sum;
	volatile int *stop;
	long long *armed, *page_reqs;
	pid_t pids[PROCS], cpid;
	uint64_t t0, dt;
	int k, p;

	if (!self->emu.page)
		return;
	t = mmap(NULL, 4096 * 4, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, t);
	stop = (volatile int *)(t + PROCS);
	armed = (long long *)(t + PROCS + 1);
	page_reqs = armed + 1;
	*stop = 0;

	snap(self->fd, &s0);
	ASSERT_LT(0, s0.total);
	for (k = 0; k < K_NUM; k++)
		emu_ops0[k] = emuctl_query(&self->emu, CXPRM_EMUD_Q_OPCODE_COUNT, k_opcode[k], 0, 0);
	deliv0 = emu_counter(&self->emu, CXPRM_EMUD_COUNTER_DELIVERY_ERRORS);
	over0 = emu_counter(&self->emu, CXPRM_EMUD_COUNTER_EQ_OVERRUNS);
	dcts0 = emuctl_query(&self->emu, CXPRM_EMUD_Q_DCTS, 0, 0, 0);

	/* QUERY_ISSI only: slow, and some of them refused with a delivery status. */
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault(&self->emu, CXPRM_EMUD_FAULT_ONLY_OPCODE, OP_QUERY_ISSI, 0));
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault(&self->emu, CXPRM_EMUD_FAULT_SLOW_MS, 2, 0));

	t0 = now_ns();
	fflush(NULL);
	cpid = fork();
	ASSERT_LE(0, cpid);
	if (cpid == 0)
		chaos(cxprm_bdf(), stop, armed, page_reqs);
	for (p = 0; p < PROCS; p++) {
		pids[p] = fork();
		ASSERT_LE(0, pids[p]);
		if (pids[p] == 0) {
			memset(&t[p], 0, sizeof(t[p]));
			child(self->fd, p, &t[p], with_nop);
			_exit(0);
		}
	}
	EXPECT_EQ(0, load_reap(pids, PROCS)) TH_LOG("a child did not exit 0");
	dt = now_ns() - t0;
	*stop = 1;
	EXPECT_EQ(0, load_reap(&cpid, 1)) TH_LOG("the chaos process did not exit 0");
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault_clear(&self->emu));

	memset(&sum, 0, sizeof(sum));
	for (p = 0; p < PROCS; p++) {
		load_add(&sum.c, &t[p].c);
		created += t[p].dct_created;
		destroyed += t[p].dct_destroyed;
		nocmd += t[p].info + t[p].stats;
		EXPECT_EQ(0, t[p].c.other_err) TH_LOG("child %d: %s failed: %s", p,
						    t[p].c.first_kind >= 0 ? k_name[t[p].c.first_kind] : "open",
						    strerror(t[p].c.first_errno));
		EXPECT_EQ(0, t[p].c.wrong) TH_LOG("child %d: an answer that was not its own", p);
		EXPECT_EQ(t[p].dct_created, t[p].dct_destroyed) TH_LOG("child %d: DCTs unbalanced", p);
	}
	for (k = 0; k < K_NUM; k++) {
		sent += sum.c.sent[k];
		eio += sum.c.eio[k];
	}

	snap(self->fd, &s1);
	for (k = 0; k < K_NUM; k++)
		emu_ops1[k] = emuctl_query(&self->emu, CXPRM_EMUD_Q_OPCODE_COUNT, k_opcode[k], 0, 0);
	deliv1 = emu_counter(&self->emu, CXPRM_EMUD_COUNTER_DELIVERY_ERRORS);

	TH_LOG("%d processes x %d ioctls: %lld commands (+%lld ioctls without one) in %llu ms, "
	       "%lld delivery errors injected (%lld armings), %lld page requests",
	       PROCS, PER, sent, nocmd, (unsigned long long)dt / 1000000, deliv1 - deliv0, *armed,
	       *page_reqs);
	for (k = 0; k < K_NUM; k++) {
		TH_LOG("  %-20s sent %4lld  EIO %3lld  STATS +%lld (errors +%lld)  firmware ran +%lld",
		       k_name[k], sum.c.sent[k], sum.c.eio[k], s1.count[k] - s0.count[k],
		       s1.errors[k] - s0.errors[k], emu_ops1[k] - emu_ops0[k]);
		/*
		 * Every command counted once, by the engine and by the firmware.
		 * A DCT destroy also sends QUERY_DCT and DRAIN_DCT of its own
		 * (drain, wait for DRAINED, destroy): those two only >= sent.
		 */
		if (k == K_DCT_QUERY || k == K_DCT_DRAIN) {
			EXPECT_LE(sum.c.sent[k], s1.count[k] - s0.count[k]) TH_LOG("%s: STATS", k_name[k]);
			internal += s1.count[k] - s0.count[k] - sum.c.sent[k];
		} else {
			EXPECT_EQ(sum.c.sent[k], s1.count[k] - s0.count[k]) TH_LOG("%s: STATS", k_name[k]);
		}
		EXPECT_EQ(s1.count[k] - s0.count[k] - sum.c.eio[k], emu_ops1[k] - emu_ops0[k])
			TH_LOG("%s: firmware", k_name[k]);
		if (k != K_ISSI)
			EXPECT_EQ(0, sum.c.eio[k]) TH_LOG("%s: delivery errors on the wrong opcode", k_name[k]);
	}
	EXPECT_EQ(deliv1 - deliv0, eio) TH_LOG("EIO seen %lld, injected %lld", eio, deliv1 - deliv0);
	EXPECT_EQ(eio, s1.errors[K_ISSI] - s0.errors[K_ISSI]);
	EXPECT_LT(0, eio) TH_LOG("no delivery error was injected: the test proved nothing");
	EXPECT_EQ(s0.total + sent + internal + (s1.manage_pages - s0.manage_pages) +
		  (s1.query_pages - s0.query_pages) + (s1.objects - s0.objects), s1.total) TH_LOG("STATS total");
	TH_LOG("DCTs created %lld destroyed %lld, emulator DCTs %lld (before %lld)", created, destroyed,
	       emuctl_query(&self->emu, CXPRM_EMUD_Q_DCTS, 0, 0, 0), dcts0);
	EXPECT_EQ(created, destroyed);
	EXPECT_LT(0, created);
	EXPECT_EQ(dcts0, emuctl_query(&self->emu, CXPRM_EMUD_Q_DCTS, 0, 0, 0));
	EXPECT_TRUE(pages_agree(self->fd, &self->emu, &held, &live))
		TH_LOG("pages: firmware holds %lld, driver says %lld", held, live);
	TH_LOG("pages: firmware holds %lld, driver lent %lld", held, live);
	EXPECT_EQ(over0, emu_counter(&self->emu, CXPRM_EMUD_COUNTER_EQ_OVERRUNS));
	EXPECT_GT(60000000000ull, dt) TH_LOG("took %llu ms", (unsigned long long)dt / 1000000);
	munmap(t, 4096 * 4);
}

/* Until ENODEV or 'secs': 0 when every failure was ENODEV (or EIO). */
static int hammer(int secs, int id)
{
	uint64_t end = now_ns() + (uint64_t)secs * 1000000000ull;
	struct cxprm_cmd_status st;
	struct cxprm_dct d;
	struct dct_objs objs;
	uint32_t dctn = 0;
	int fd = cxprm_open(), n = 0, r, have_objs = 0;

	if (fd < 0)
		return errno == ENOENT || errno == ENODEV ? 0 : 1;
	while (now_ns() < end) {
		if (n % 3 == 0 && !dctn && !have_objs) {
			r = dct_objs_create(fd, &objs);
			have_objs = !r;
			if (r && errno == EREMOTEIO)
				r = 0; /* a firmware status: not what this counts */
		} else if (n % 3 == 0 && !dctn) {
			dct_minimal(&d, &objs);
			r = ioctl(fd, CXPRM_IOC_DCT_CREATE, &d);
			if (!r && !d.st.status)
				dctn = d.dctn;
		} else if (n % 3 == 1 && dctn) {
			memset(&d, 0, sizeof(d));
			d.dctn = dctn;
			r = ioctl(fd, CXPRM_IOC_DCT_DESTROY, &d);
			if (!r)
				dctn = 0;
		} else {
			r = raw_query_issi(fd, &st, NULL);
		}
		n++;
		if (r && errno == ENODEV)
			break;
		if (r && errno != EIO) {
			fprintf(stderr, "# hammer %d: ioctl %d: %s\n", id, n, strerror(errno));
			close(fd);
			return 1;
		}
	}
	close(fd); /* a DCT still owned goes with the file (or with the unbind) */
	return 0;
}

TEST_F_TIMEOUT(stress, unbind_under_load, 120)
{
	char drv[300], path[300];
	uint64_t t0, dt;
	pid_t pids[4];
	int p, st, r;

	if (!self->emu.page)
		return;
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault(&self->emu, CXPRM_EMUD_FAULT_SLOW_MS, 5, 0));
	close(self->fd);
	self->fd = -1;
	fflush(NULL);
	for (p = 0; p < 4; p++) {
		pids[p] = fork();
		ASSERT_LE(0, pids[p]);
		if (pids[p] == 0)
			_exit(hammer(60, p));
	}
	sleep_ms(1500);
	t0 = now_ns();
	ASSERT_EQ(0, sysfs_write("/sys/bus/pci/drivers/cxprm/unbind", cxprm_bdf()));
	dt = now_ns() - t0;
	TH_LOG("unbind with 4 processes hammering took %llu ms", (unsigned long long)dt / 1000000);
	/*
	 * Bounded, not fast: 2-10 s under TCG, more on a loaded host.  What
	 * must not happen is a wait for a command's timeout (cmd_timeout_ms,
	 * 60 s unless set) or no end at all; half of that tells them apart.
	 */
	EXPECT_GT(30000000000ull, dt);
	for (p = 0; p < 4; p++) {
		ASSERT_EQ(pids[p], waitpid(pids[p], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) TH_LOG("hammer %d: status 0x%x", p, st);
	}
	TH_LOG("no processes left %llu ms after the unbind began", (unsigned long long)(now_ns() - t0) / 1000000);
	EXPECT_EQ(0, emuctl_query(&self->emu, CXPRM_EMUD_Q_PAGES_HELD, 0, 0, 0));
	EXPECT_EQ(0, emuctl_query(&self->emu, CXPRM_EMUD_Q_DCTS, 0, 0, 0));
	EXPECT_EQ(0, emuctl_query(&self->emu, CXPRM_EMUD_Q_HCA_STATE, 0, 0, 0));
	EXPECT_EQ(0, emu_counter(&self->emu, CXPRM_EMUD_COUNTER_OBJECTS_LEAKED));
	emuctl_fault_clear(&self->emu);

	/* Bind again for whatever runs next. */
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override", cxprm_bdf());
	ASSERT_EQ(0, sysfs_write(path, "cxprm"));
	sysfs_write("/sys/bus/pci/drivers_probe", cxprm_bdf());
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", cxprm_bdf());
	r = (int)readlink(path, drv, sizeof(drv) - 1);
	ASSERT_LT(0, r);
	drv[r] = 0;
	EXPECT_NE(NULL, strstr(drv, "cxprm"));
	self->fd = cxprm_open();
	ASSERT_LE(0, self->fd);
}

/* CXPRM_STRESS_HAMMER=SECONDS: only hammer (before the harness starts). */
static void __attribute__((constructor)) hammer_mode(void)
{
	const char *h = getenv("CXPRM_STRESS_HAMMER");
	pid_t pids[4];
	int p, st, bad = 0;

	if (!h)
		return;
	fflush(NULL);
	for (p = 0; p < 4; p++) {
		pids[p] = fork();
		if (pids[p] == 0)
			_exit(hammer(atoi(h), p));
	}
	for (p = 0; p < 4; p++)
		if (pids[p] < 0 || waitpid(pids[p], &st, 0) != pids[p] || !WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	_exit(bad);
}

TEST_HARNESS_MAIN
