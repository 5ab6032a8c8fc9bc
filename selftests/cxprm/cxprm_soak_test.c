// SPDX-License-Identifier: GPL-2.0
/*
 * Soak: CXPRM_SOAK_IOCTLS (default 3000) ioctls in all from PROCS (8)
 * processes at once, each a random mix (its own seed, printed) of every
 * ioctl type with valid and invalid arguments: QUERY_CAPS (known, unknown
 * and out-of-range types, max > 1, reserved fields), NVMF_NS (any xrqn),
 * ESW_FUNCTIONS, DCT lifecycles (create, query, drain, destroy; arguments
 * out of range; DCT numbers not the file's), STATS (any capacity, a bad
 * pointer), RAW (QUERY_ISSI, NOP, bad lengths and flags, opcodes refused
 * for everyone, a bad input pointer), SUBSCRIBE with any mask and event
 * reads, an unknown ioctl number, and closing and reopening the file (with
 * DCTs still owned: the close destroys them).  Meanwhile a chaos process
 * injects the emulator's recoverable faults at random through the control
 * page: delivery errors on a random query opcode, slow firmware, page
 * requests both ways, a health warning syndrome raised and cleared.  The
 * fatal faults (crash, device gone, a command never completed) are the
 * fault test's; here the device must stay UP.  Afterwards:
 *   - no ioctl failed in a way its arguments do not explain (a timeout is
 *     a lost completion) and every answer was its own;
 *   - per opcode: STATS grew by exactly the commands the processes sent
 *     (the DCT queries and drains a destroy or close sends itself: at
 *     least), the firmware ran exactly those not failed on purpose, and
 *     the EIOs equal the delivery errors the emulator injected;
 *   - the emulator holds no DCT more than before, the page books agree,
 *     no EQ overran, the device is UP and not given up.
 * The figures are printed; kmemleak/KASAN/DMA-API findings are the guest
 * runner's debug-check (run_guest_tests.sh, make soak on the debug kernel).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "cxprm_test.h"
#include "cxprm_emu_load.h"

#define PROCS	8
#define MAXLIVE	4

enum { K_CAPS, K_NVMF, K_ESW, K_ISSI, K_NOP, K_DCT_CREATE, K_DCT_QUERY, K_DCT_DRAIN, K_DCT_DESTROY,
       K_NUM };
static const uint16_t k_opcode[K_NUM] = {
	OP_QUERY_HCA_CAP, OP_QUERY_NVMF_NAMESPACE_CONTEXT, OP_QUERY_ESW_FUNCTIONS, OP_QUERY_ISSI, OP_NOP,
	OP_CREATE_DCT, OP_QUERY_DCT, OP_DRAIN_DCT, OP_DESTROY_DCT,
};
static const char *const k_name[K_NUM] = {
	"QUERY_HCA_CAP", "QUERY_NVMF_NS_CONTEXT", "QUERY_ESW_FUNCTIONS", "QUERY_ISSI", "NOP",
	"CREATE_DCT", "QUERY_DCT", "DRAIN_DCT", "DESTROY_DCT",
};
/* The opcodes the chaos process may fail: a destroy's own QUERY/DRAIN stay exact. */
static const uint16_t fault_ops[] = { OP_QUERY_HCA_CAP, OP_QUERY_NVMF_NAMESPACE_CONTEXT,
				      OP_QUERY_ESW_FUNCTIONS, OP_QUERY_ISSI, OP_NOP };

_Static_assert(K_NUM <= LOAD_KINDS, "kinds");

struct tally {
	struct load_count c;	/* commands per kind, failures */
	long long refused;	/* refused by the argument checks (EINVAL, ENOENT, ...) */
	long long nocmd;	/* INFO, STATS, SUBSCRIBE, read, open/close */
	long long events;	/* event records read */
	long long ioctls;
};

struct chaos_tally {
	long long armed, slow, page_reqs, health;
};

static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 16);
}

static void bad(struct tally *t, int what)
{
	load_fail(&t->c, what);
}

/* A command-sending ioctl: counted when it reached the engine (0 or EIO); 0 if it worked. */
static int sent(struct tally *t, int k, int ret, const struct cxprm_cmd_status *st)
{
	return load_account(&t->c, k, k_opcode[k], ret, st);
}

/* An ioctl its arguments make fail before any command: that errno, nothing sent. */
static void refused(struct tally *t, int what, int ret, int want)
{
	if (ret == -1 && errno == want)
		t->refused++;
	else
		bad(t, what);
}

struct file_state {
	int fd;
	uint32_t live[MAXLIVE];
	int nlive;
	struct dct_objs objs;	/* the file's PD, CQ, SRQ, once created */
	int have_objs;
};

static void dct_step(struct file_state *f, struct tally *t, uint64_t *s, int id)
{
	struct cxprm_dct d;
	uint32_t r = rnd(s) % 8;

	if (r == 0) { /* a field out of range: EINVAL, nothing sent */
		dct_minimal(&d, NULL);
		d.ctx.pd = 0x1000000 | rnd(s);
		refused(t, 200, ioctl(f->fd, CXPRM_IOC_DCT_CREATE, &d), EINVAL);
	} else if (r == 1) { /* a DCT number beyond 24 bits */
		memset(&d, 0, sizeof(d));
		d.dctn = 0x1000000 | rnd(s);
		refused(t, 201, ioctl(f->fd, CXPRM_IOC_DCT_QUERY, &d), EINVAL);
	} else if (r <= 3 && f->nlive < MAXLIVE) {
		if (!f->have_objs)
			f->have_objs = !dct_objs_create(f->fd, &f->objs);
		if (!f->have_objs)
			return; /* a fault hit one of the creates: next time */
		dct_minimal(&d, &f->objs);
		d.ctx.dc_access_key = (uint64_t)id << 32 | rnd(s);
		if (!sent(t, K_DCT_CREATE, ioctl(f->fd, CXPRM_IOC_DCT_CREATE, &d), &d.st) && !d.st.status)
			f->live[f->nlive++] = d.dctn;
	} else if (r == 4 && f->nlive) {
		memset(&d, 0, sizeof(d));
		d.dctn = f->live[rnd(s) % f->nlive];
		sent(t, K_DCT_QUERY, ioctl(f->fd, CXPRM_IOC_DCT_QUERY, &d), &d.st);
	} else if (r == 5 && f->nlive) {
		memset(&d, 0, sizeof(d));
		d.dctn = f->live[rnd(s) % f->nlive];
		sent(t, K_DCT_DRAIN, ioctl(f->fd, CXPRM_IOC_DCT_DRAIN, &d), &d.st);
	} else if (f->nlive) {
		memset(&d, 0, sizeof(d));
		d.dctn = f->live[f->nlive - 1];
		if (!sent(t, K_DCT_DESTROY, ioctl(f->fd, CXPRM_IOC_DCT_DESTROY, &d), &d.st) && !d.st.status)
			f->nlive--;
	} else {
		t->nocmd++;
	}
}

static void raw_step(struct file_state *f, struct tally *t, uint64_t *s, int with_nop)
{
	uint8_t in[CMD_HDR], out[QUERY_ISSI_OUT];
	struct cxprm_cmd_status st;
	struct cxprm_raw_cmd r;
	uint32_t k = rnd(s) % 6;

	memset(&r, 0, sizeof(r));
	cmd_hdr(in, sizeof(in), OP_QUERY_ISSI, 0);
	r.in = (uintptr_t)in;
	r.out = (uintptr_t)out;
	r.inlen = sizeof(in);
	r.outlen = sizeof(out);
	switch (k) {
	case 0: /* a length below the header or beyond the maximum */
		r.inlen = rnd(s) & 1 ? rnd(s) % 16 : CXPRM_RAW_MAX + 1 + rnd(s) % 4096;
		refused(t, 300, ioctl(f->fd, CXPRM_IOC_RAW, &r), EINVAL);
		return;
	case 1: /* an unknown flag */
		r.flags = 2u << (rnd(s) % 30);
		refused(t, 301, ioctl(f->fd, CXPRM_IOC_RAW, &r), EINVAL);
		return;
	case 2: /* refused for everyone */
		cmd_hdr(in, sizeof(in), rnd(s) & 1 ? OP_ENABLE_HCA : OP_MANAGE_PAGES, 0);
		refused(t, 302, ioctl(f->fd, CXPRM_IOC_RAW, &r), EPERM);
		return;
	case 3: /* input that cannot be read */
		r.in = (uintptr_t)bad_ptr();
		refused(t, 303, ioctl(f->fd, CXPRM_IOC_RAW, &r), EFAULT);
		return;
	case 4:
		if (with_nop) {
			sent(t, K_NOP, raw_nop(f->fd, &st), &st);
			return;
		}
		/* fall through */
	default:
		memset(out, 0, sizeof(out));
		if (!sent(t, K_ISSI, raw_cmd(f->fd, in, sizeof(in), out, sizeof(out), &st), &st) && !st.status &&
		    !(be32_at(out, 0x6c) & 2))
			t->c.wrong++; /* supported_issi_dw0 has ISSI 1 */
	}
}

static void typed_step(struct file_state *f, struct tally *t, uint64_t *s, struct cxprm_caps *c)
{
	static const uint16_t types[] = { CAP_GENERAL, CAP_ESWITCH, CAP_NVMF, 0x7e };
	struct cxprm_esw_functions e;
	struct cxprm_nvmf_ns ns;
	uint32_t k = rnd(s) % 6;

	if (k <= 1) {
		memset(c, 0, sizeof(*c));
		c->cap_type = types[rnd(s) % 4];
		c->max = rnd(s) & 1;
		if (k == 1) { /* refused: max > 1, a reserved field, a type beyond 15 bits */
			uint32_t how = rnd(s) % 3;

			c->max = how == 0 ? 2 + rnd(s) % 200 : c->max;
			c->reserved0 = how == 1;
			c->cap_type = how == 2 ? 0x8000 | rnd(s) : c->cap_type;
			refused(t, 400, ioctl(f->fd, CXPRM_IOC_QUERY_CAPS, c), EINVAL);
			return;
		}
		sent(t, K_CAPS, ioctl(f->fd, CXPRM_IOC_QUERY_CAPS, c), &c->st);
	} else if (k <= 3) {
		memset(&ns, 0, sizeof(ns));
		ns.xrqn = rnd(s) % 64;
		ns.nsid = rnd(s) % 8;
		if (k == 3) {
			ns.xrqn |= 0x1000000;
			refused(t, 401, ioctl(f->fd, CXPRM_IOC_NVMF_NS, &ns), EINVAL);
			return;
		}
		sent(t, K_NVMF, ioctl(f->fd, CXPRM_IOC_NVMF_NS, &ns), &ns.st);
	} else {
		memset(&e, 0, sizeof(e));
		if (!sent(t, K_ESW, ioctl(f->fd, CXPRM_IOC_ESW_FUNCTIONS, &e), &e.st) && !e.st.status &&
		    !e.host_total_vfs)
			t->c.wrong++;
	}
}

/* INFO, STATS, SUBSCRIBE, event reads, an unknown ioctl, close and reopen. */
static void other_step(struct file_state *f, struct tally *t, uint64_t *s)
{
	struct cxprm_opcode_stats e[8];
	struct cxprm_event ev[4];
	struct cxprm_subscribe sub;
	struct cxprm_stats st;
	struct cxprm_info info;
	uint32_t k = rnd(s) % 7;
	ssize_t n;

	t->nocmd++;
	switch (k) {
	case 0:
		if (ioctl(f->fd, CXPRM_IOC_INFO, &info) || info.state != CXPRM_STATE_UP)
			bad(t, 500);
		break;
	case 1:
		memset(&st, 0, sizeof(st));
		st.capacity = rnd(s) % 10;
		st.entries = rnd(s) % 4 ? (uintptr_t)e : (uintptr_t)bad_ptr();
		if (st.capacity > ARRAY_SIZE(e))
			st.entries = 0, st.capacity = 0;
		if (ioctl(f->fd, CXPRM_IOC_STATS, &st) && !(errno == EFAULT && st.entries == (uintptr_t)bad_ptr()))
			bad(t, 501);
		break;
	case 2:
		memset(&sub, 0, sizeof(sub));
		sub.mask[0] = (uint64_t)rnd(s) << 32 | rnd(s);
		sub.mask[3] = rnd(s) & 1 ? 1ull << (CXPRM_EVENT_HEALTH - 192) : 0;
		if (ioctl(f->fd, CXPRM_IOC_SUBSCRIBE, &sub))
			bad(t, 502);
		break;
	case 3:
	case 4:
		n = read(f->fd, ev, sizeof(ev[0]) * (1 + rnd(s) % 4));
		if (n > 0 && n % sizeof(ev[0]))
			t->c.wrong++;
		else if (n > 0)
			t->events += n / sizeof(ev[0]);
		else if (errno != EAGAIN)
			bad(t, 503);
		break;
	case 5:
		if (ioctl(f->fd, _IOWR(CXPRM_IOC_MAGIC, 0x7f, struct cxprm_info), &info) != -1 || errno != ENOTTY)
			bad(t, 504);
		break;
	default: /* close with whatever it owns (DCTs go with it), open again */
		close(f->fd);
		f->nlive = 0;
		f->have_objs = 0;
		f->fd = cxprm_open_flags(O_RDWR | O_NONBLOCK);
		if (f->fd < 0)
			bad(t, 505);
	}
}

static void child(int id, int count, uint64_t seed, struct tally *t, int with_nop)
{
	struct cxprm_caps *c = malloc(sizeof(*c));
	struct file_state f = { .fd = cxprm_open_flags(O_RDWR | O_NONBLOCK) };
	uint64_t s = seed * 0x9e3779b97f4a7c15ull + (uint64_t)id + 1;
	struct cxprm_dct d;
	int n;

	if (!c || f.fd < 0) {
		bad(t, 600);
		return;
	}
	for (n = 0; n < count && f.fd >= 0; n++) {
		uint32_t r = rnd(&s) % 16;

		t->ioctls++;
		if (r < 5)
			dct_step(&f, t, &s, id);
		else if (r < 9)
			raw_step(&f, t, &s, with_nop);
		else if (r < 13)
			typed_step(&f, t, &s, c);
		else
			other_step(&f, t, &s);
	}
	/* Half the processes destroy their DCTs, the others leave them to close(). */
	while ((id & 1) && f.nlive && f.fd >= 0) {
		memset(&d, 0, sizeof(d));
		d.dctn = f.live[--f.nlive];
		sent(t, K_DCT_DESTROY, ioctl(f.fd, CXPRM_IOC_DCT_DESTROY, &d), &d.st);
	}
	if (f.fd >= 0)
		close(f.fd);
	free(c);
}

/* Recoverable faults at random until *stop; the page requests given back at the end. */
static void chaos(uint64_t seed, volatile int *stop, struct chaos_tally *c)
{
	uint64_t s = seed ^ 0x5deece66dull;
	struct emuctl e;
	int32_t held = 0, n;

	if (emuctl_open(&e, cxprm_bdf()))
		_exit(1);
	while (!*stop) {
		switch (rnd(&s) % 6) {
		case 0:
		case 1: /* a few delivery errors on one query opcode */
			if (emuctl_fault(&e, CXPRM_EMUD_FAULT_ONLY_OPCODE, fault_ops[rnd(&s) % ARRAY_SIZE(fault_ops)], 0) == CXPRM_EMUD_ST_OK &&
			    emuctl_fault(&e, CXPRM_EMUD_FAULT_DELIVERY_STATUS, 0x6, 1 + rnd(&s) % 4) == CXPRM_EMUD_ST_OK)
				c->armed++;
			break;
		case 2: /* slow firmware, or fast again */
			if (emuctl_fault(&e, CXPRM_EMUD_FAULT_SLOW_MS, rnd(&s) % 3, 0) == CXPRM_EMUD_ST_OK)
				c->slow++;
			break;
		case 3:
		case 4: /* the firmware asks for pages, or gives some back */
			n = (rnd(&s) & 1) && held ? -(int32_t)(1 + rnd(&s) % held) : (int32_t)(1 + rnd(&s) % 16);
			if (emuctl_request_pages(&e, n) == CXPRM_EMUD_ST_OK) {
				held += n;
				c->page_reqs++;
			}
			break;
		default: /* a health warning (no reset required), then cleared */
			if (emuctl_fault(&e, CXPRM_EMUD_FAULT_HEALTH_SYNDROME, (rnd(&s) & 1) ? 0x10 : 0, 0) == CXPRM_EMUD_ST_OK)
				c->health++;
		}
		usleep(5000 + rnd(&s) % 20000);
	}
	emuctl_fault(&e, CXPRM_EMUD_FAULT_HEALTH_SYNDROME, 0, 0);
	if (held && emuctl_request_pages(&e, -held) == CXPRM_EMUD_ST_OK)
		c->page_reqs++;
	emuctl_close(&e);
	_exit(0);
}

struct snapshot {
	long long stats[K_NUM], fw[K_NUM], total, deliv, overruns, dcts;
};

static void snapshot(int fd, struct emuctl *e, struct snapshot *s)
{
	int k;

	s->total = load_stats(fd, k_opcode, K_NUM, s->stats, NULL);
	for (k = 0; k < K_NUM; k++)
		s->fw[k] = emuctl_query(e, CXPRM_EMUD_Q_OPCODE_COUNT, k_opcode[k], 0, 0);
	s->deliv = emuctl_query(e, CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_DELIVERY_ERRORS, 0, 0);
	s->overruns = emuctl_query(e, CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_EQ_OVERRUNS, 0, 0);
	s->dcts = emuctl_query(e, CXPRM_EMUD_Q_DCTS, 0, 0, 0);
}

CXPRM_EMU_FIXTURE(soak)

TEST_F_TIMEOUT(soak, mixed_ioctls_under_random_faults, 3600)
{
	const char *env = getenv("CXPRM_SOAK_IOCTLS");
	long long total = env ? atoll(env) : 3000, held = -1, live = -1, sum_sent = 0, eio = 0;
	uint64_t seed = getenv("CXPRM_SOAK_SEED") ? strtoull(getenv("CXPRM_SOAK_SEED"), NULL, 0)
						   : now_ns() % 1000000;
	int with_nop = cxprm_param("allow_raw_write") == 1, k, p;
	struct snapshot s0, s1;
	struct tally *t, sum;
	struct chaos_tally *ct;
	volatile int *stop;
	pid_t pids[PROCS], cpid;
	struct cxprm_info info;
	uint64_t t0, dt;

	if (!self->emu.page)
		return;
	t = mmap(NULL, 4096 * 4, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, t);
	memset(t, 0, 4096 * 4);
	ct = (struct chaos_tally *)(t + PROCS);
	stop = (volatile int *)(ct + 1);
	TH_LOG("seed %llu (CXPRM_SOAK_SEED), %lld ioctls from %d processes, cmd_mode %s, %s",
	       (unsigned long long)seed, total, PROCS, cxprm_param_text("cmd_mode") ?: "?",
	       getenv("CXPRM_TEST_MSIX") ? "MSI-X" : "no MSI-X");
	snapshot(self->fd, &self->emu, &s0);
	ASSERT_LT(0, s0.total);

	t0 = now_ns();
	fflush(NULL);
	cpid = fork();
	ASSERT_LE(0, cpid);
	if (cpid == 0)
		chaos(seed, stop, ct);
	for (p = 0; p < PROCS; p++) {
		pids[p] = fork();
		ASSERT_LE(0, pids[p]);
		if (pids[p] == 0) {
			child(p, (int)((total + PROCS - 1) / PROCS), seed, &t[p], with_nop);
			_exit(0);
		}
	}
	EXPECT_EQ(0, load_reap(pids, PROCS)) TH_LOG("a process did not exit 0");
	*stop = 1;
	EXPECT_EQ(0, load_reap(&cpid, 1)) TH_LOG("the chaos process did not exit 0");
	dt = now_ns() - t0;
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault_clear(&self->emu));

	memset(&sum, 0, sizeof(sum));
	for (p = 0; p < PROCS; p++) {
		load_add(&sum.c, &t[p].c);
		sum.ioctls += t[p].ioctls;
		sum.refused += t[p].refused;
		sum.nocmd += t[p].nocmd;
		sum.events += t[p].events;
		EXPECT_EQ(0, t[p].c.other_err) TH_LOG("process %d: step %d failed: %s", p, t[p].c.first_kind,
						    strerror(t[p].c.first_errno));
		EXPECT_EQ(0, t[p].c.wrong) TH_LOG("process %d: an answer that was not its own", p);
	}
	snapshot(self->fd, &self->emu, &s1);
	TH_LOG("%lld ioctls in %llu ms (%.0f/s): %lld refused by their arguments, %lld without a command, "
	       "%lld events read", sum.ioctls, (unsigned long long)dt / 1000000,
	       sum.ioctls * 1e9 / (double)(dt ? dt : 1), sum.refused, sum.nocmd, sum.events);
	TH_LOG("faults: %lld delivery errors injected (%lld armings), %lld slow settings, %lld page requests, "
	       "%lld health syndromes", s1.deliv - s0.deliv, ct->armed, ct->slow, ct->page_reqs, ct->health);
	for (k = 0; k < K_NUM; k++) {
		long long stats = s1.stats[k] - s0.stats[k], fw = s1.fw[k] - s0.fw[k];

		sum_sent += sum.c.sent[k];
		eio += sum.c.eio[k];
		TH_LOG("  %-22s sent %6lld  EIO %4lld  STATS +%lld  firmware ran +%lld", k_name[k], sum.c.sent[k],
		       sum.c.eio[k], stats, fw);
		/* A destroy (and a close) sends QUERY_DCT, DRAIN_DCT and DESTROY_DCT of its own. */
		if (k == K_DCT_QUERY || k == K_DCT_DRAIN || k == K_DCT_DESTROY) {
			EXPECT_LE(sum.c.sent[k], stats) TH_LOG("%s: STATS", k_name[k]);
		} else {
			EXPECT_EQ(sum.c.sent[k], stats) TH_LOG("%s: STATS (a lost or extra completion)", k_name[k]);
		}
		EXPECT_EQ(stats - sum.c.eio[k], fw) TH_LOG("%s: firmware", k_name[k]);
	}
	EXPECT_EQ(s1.deliv - s0.deliv, eio) TH_LOG("EIO seen %lld, injected %lld", eio, s1.deliv - s0.deliv);
	EXPECT_LT(0, sum_sent);
	EXPECT_EQ(s0.dcts, s1.dcts) TH_LOG("DCTs left in the firmware");
	EXPECT_EQ(s0.overruns, s1.overruns);
	EXPECT_TRUE(pages_agree(self->fd, &self->emu, &held, &live))
		TH_LOG("pages: firmware holds %lld, driver says %lld", held, live);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &info));
	EXPECT_EQ(CXPRM_STATE_UP, info.state);
	EXPECT_EQ(0, info.flags & CXPRM_INFO_FAILED);
	TH_LOG("device %s, pages lent %lld, commands %lld sent by the soak, STATS total +%lld",
	       info.state == CXPRM_STATE_UP ? "UP" : "not UP", live, sum_sent, s1.total - s0.total);
	munmap(t, 4096 * 4);
}

TEST_HARNESS_MAIN
