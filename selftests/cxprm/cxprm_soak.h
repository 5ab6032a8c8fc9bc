/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The soak's processes (cxprm_soak_test.c): the random mix of ioctls one
 * process sends, and how each answer is accounted (struct tally).
 *
 * Under recoverable crashes (soak_epoch set, the crash test) the chaos
 * process marks each crash window in *soak_epoch: odd from just before
 * the crash until INFO shows the device UP again with one recovery more,
 * then even.  An ioctl that began at epoch e0 may then fail with
 * -EHOSTDOWN if e0 was odd or the epoch moved during the call
 * (in_window()); an ioctl naming a DCT or an object made at an epoch
 * before the current one may fail with -ESTALE (the name is then dropped,
 * the objects made again).  Anything else is accounted as without
 * crashes.  Without soak_epoch (the plain soak) the epoch is 0 throughout
 * and every check is the plain soak's.  Include after kselftest_harness.h,
 * cxprm_test.h and cxprm_emu_load.h.
 */
#ifndef CXPRM_SOAK_H
#define CXPRM_SOAK_H

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

_Static_assert(K_NUM <= LOAD_KINDS, "kinds");

/* The crash epoch (shared memory), NULL without crashes; how many crashes. */
static volatile long *soak_epoch;
static long long soak_crashes;

struct tally {
	struct load_count c;	/* commands per kind, failures */
	long long refused;	/* refused by the argument checks (EINVAL, ENOENT, ...) */
	long long nocmd;	/* INFO, STATS, SUBSCRIBE, read, open/close */
	long long events;	/* event records read */
	long long ioctls;
	long long other_down;	/* -EHOSTDOWN in a crash window: no command, or an object's */
	long long obj_stale;	/* lost objects destroyed: -ESTALE */
	long long obj_remade;	/* PD/CQ/SRQ sets made again after a crash */
	long e0;		/* the epoch before the current call */
};

static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 16);
}

static long epoch(void)
{
	return soak_epoch ? __atomic_load_n(soak_epoch, __ATOMIC_SEQ_CST) : 0;
}

/* A crash window overlapped the call that began at epoch e0. */
static int in_window(long e0)
{
	return soak_epoch && ((e0 & 1) || epoch() != e0);
}

/*
 * A name born at that epoch (-1: none) may be lost: a crash began since,
 * or it was made in a window, maybe before the crash (an odd epoch lasts
 * until the chaos process saw the recovery).
 */
static int stale_ok(long born)
{
	return soak_epoch && born >= 0 && (born < epoch() || (born & 1));
}

/* After an -EHOSTDOWN a crash explains: the device recovers; wait a little. */
static void backoff(void)
{
	usleep(10000);
}

static void bad(struct tally *t, int what)
{
	load_fail(&t->c, what);
}

#define SENT_STALE 1

/*
 * A command-sending ioctl: counted when it reached the engine (0 or EIO);
 * 0 if it worked, SENT_STALE for an -ESTALE of a name born (its epoch; -1:
 * none) before the last crash, else -1.  Call it through SENT().
 */
static int sent(struct tally *t, int k, int ret, const struct cxprm_cmd_status *st, long born)
{
	int down = ret == -1 && errno == EHOSTDOWN && in_window(t->e0);
	int stale = ret == -1 && errno == ESTALE && stale_ok(born);

	/*
	 * CREATE_DCT is never failed on purpose: its EIO is that of the
	 * QUERY_HCA_CAP the RoCE set-up sends first (again after each
	 * recovery).  A typed ioctl that fails copies nothing back, so st
	 * cannot say which command it was.
	 */
	if (ret == -1 && errno == EIO && k == K_DCT_CREATE)
		k = K_CAPS;
	if (!load_account_crash(&t->c, k, k_opcode[k], ret, st, down, stale))
		return 0;
	if (down)
		backoff();
	return stale ? SENT_STALE : -1;
}

#define SENT(t, k, call, st, born) ((t)->e0 = epoch(), sent(t, k, (call), st, born))

/* errno is an -EHOSTDOWN a crash window explains (not a kind's command): counted. */
static int down_other(struct tally *t)
{
	if (errno != EHOSTDOWN || !in_window(t->e0))
		return 0;
	t->other_down++;
	backoff();
	return 1;
}

/* An ioctl its arguments make fail before any command: that errno, nothing sent. */
static void refused(struct tally *t, int what, int ret, int want)
{
	if (ret == -1 && errno == want)
		t->refused++;
	else if (ret != -1 || !down_other(t))
		bad(t, what);
}

#define REFUSED(t, what, call, want) ((t)->e0 = epoch(), refused(t, what, (call), want))

struct file_state {
	int fd;
	uint32_t live[MAXLIVE];
	long born[MAXLIVE];	/* the epoch each live DCT was made at */
	int nlive;
	struct dct_objs objs;	/* the file's PD, CQ, SRQ, once created */
	int have_objs;
	long objs_born;
};

static void live_del(struct file_state *f, int i)
{
	f->live[i] = f->live[f->nlive - 1];
	f->born[i] = f->born[f->nlive - 1];
	f->nlive--;
}

/* A new DCT; a lost one the firmware's restart numbered the same is gone. */
static void live_add(struct file_state *f, uint32_t dctn, long born)
{
	int i;

	for (i = 0; i < f->nlive; i++)
		if (f->live[i] == dctn)
			live_del(f, i--);
	f->live[f->nlive] = dctn;
	f->born[f->nlive++] = born;
}

/*
 * The file's PD, CQ and SRQ were made before the last crash: destroy them
 * (-ESTALE, or 0 if made after the recovery while the window was still
 * marked open), to be made again.
 */
static void objs_drop(struct file_state *f, struct tally *t)
{
	const uint32_t type[] = { CXPRM_OBJ_SRQ, CXPRM_OBJ_CQ, CXPRM_OBJ_PD };
	const uint32_t id[] = { f->objs.srqn, f->objs.cqn, f->objs.pd };
	struct cxprm_obj o;
	int i, ret;

	for (i = 0; i < 3; i++) {
		obj_new(type[i], 0, &o);
		o.id = id[i];
		t->e0 = epoch();
		ret = ioctl(f->fd, CXPRM_IOC_OBJ_DESTROY, &o);
		if (ret == -1 && errno == ESTALE && stale_ok(f->objs_born))
			t->obj_stale++;
		else if (ret && !down_other(t))
			bad(t, 210 + i);
	}
	f->have_objs = 0;
	t->obj_remade++;
}

static void dct_step(struct file_state *f, struct tally *t, uint64_t *s, int id)
{
	struct cxprm_dct d;
	uint32_t r = rnd(s) % 8;
	int i;

	if (r == 0) { /* a field out of range: EINVAL, nothing sent */
		dct_minimal(&d, NULL);
		d.ctx.pd = 0x1000000 | rnd(s);
		REFUSED(t, 200, ioctl(f->fd, CXPRM_IOC_DCT_CREATE, &d), EINVAL);
	} else if (r == 1) { /* a DCT number beyond 24 bits */
		memset(&d, 0, sizeof(d));
		d.dctn = 0x1000000 | rnd(s);
		REFUSED(t, 201, ioctl(f->fd, CXPRM_IOC_DCT_QUERY, &d), EINVAL);
	} else if (r <= 3 && f->nlive < MAXLIVE) {
		if (f->have_objs && f->objs_born != epoch())
			objs_drop(f, t);
		if (!f->have_objs) {
			f->objs_born = epoch();
			f->have_objs = !dct_objs_create(f->fd, &f->objs);
		}
		if (!f->have_objs)
			return; /* a fault hit one of the creates: next time */
		dct_minimal(&d, &f->objs);
		d.ctx.dc_access_key = (uint64_t)id << 32 | rnd(s);
		if (!SENT(t, K_DCT_CREATE, ioctl(f->fd, CXPRM_IOC_DCT_CREATE, &d), &d.st, -1) && !d.st.status)
			live_add(f, d.dctn, t->e0);
	} else if ((r == 4 || r == 5) && f->nlive) {
		memset(&d, 0, sizeof(d));
		i = rnd(s) % f->nlive;
		d.dctn = f->live[i];
		if (SENT(t, r == 4 ? K_DCT_QUERY : K_DCT_DRAIN,
			 ioctl(f->fd, r == 4 ? CXPRM_IOC_DCT_QUERY : CXPRM_IOC_DCT_DRAIN, &d), &d.st,
			 f->born[i]) == SENT_STALE)
			live_del(f, i);
	} else if (f->nlive) {
		memset(&d, 0, sizeof(d));
		d.dctn = f->live[f->nlive - 1];
		i = SENT(t, K_DCT_DESTROY, ioctl(f->fd, CXPRM_IOC_DCT_DESTROY, &d), &d.st, f->born[f->nlive - 1]);
		if ((!i && !d.st.status) || i == SENT_STALE)
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
		REFUSED(t, 300, ioctl(f->fd, CXPRM_IOC_RAW, &r), EINVAL);
		return;
	case 1: /* an unknown flag */
		r.flags = 2u << (rnd(s) % 30);
		REFUSED(t, 301, ioctl(f->fd, CXPRM_IOC_RAW, &r), EINVAL);
		return;
	case 2: /* refused for everyone */
		cmd_hdr(in, sizeof(in), rnd(s) & 1 ? OP_ENABLE_HCA : OP_MANAGE_PAGES, 0);
		REFUSED(t, 302, ioctl(f->fd, CXPRM_IOC_RAW, &r), EPERM);
		return;
	case 3: /* input that cannot be read */
		r.in = (uintptr_t)bad_ptr();
		REFUSED(t, 303, ioctl(f->fd, CXPRM_IOC_RAW, &r), EFAULT);
		return;
	case 4:
		if (with_nop) {
			SENT(t, K_NOP, raw_nop(f->fd, &st), &st, -1);
			return;
		}
		/* fall through */
	default:
		memset(out, 0, sizeof(out));
		if (!SENT(t, K_ISSI, raw_cmd(f->fd, in, sizeof(in), out, sizeof(out), &st), &st, -1) &&
		    !st.status && !(be32_at(out, 0x6c) & 2))
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
			REFUSED(t, 400, ioctl(f->fd, CXPRM_IOC_QUERY_CAPS, c), EINVAL);
			return;
		}
		SENT(t, K_CAPS, ioctl(f->fd, CXPRM_IOC_QUERY_CAPS, c), &c->st, -1);
	} else if (k <= 3) {
		memset(&ns, 0, sizeof(ns));
		ns.xrqn = rnd(s) % 64;
		ns.nsid = rnd(s) % 8;
		if (k == 3) {
			ns.xrqn |= 0x1000000;
			REFUSED(t, 401, ioctl(f->fd, CXPRM_IOC_NVMF_NS, &ns), EINVAL);
			return;
		}
		SENT(t, K_NVMF, ioctl(f->fd, CXPRM_IOC_NVMF_NS, &ns), &ns.st, -1);
	} else {
		memset(&e, 0, sizeof(e));
		if (!SENT(t, K_ESW, ioctl(f->fd, CXPRM_IOC_ESW_FUNCTIONS, &e), &e.st, -1) && !e.st.status &&
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
	t->e0 = epoch();
	switch (k) {
	case 0: /* not UP only in a crash window */
		if (ioctl(f->fd, CXPRM_IOC_INFO, &info) || (info.state != CXPRM_STATE_UP && !in_window(t->e0)))
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
	case 4: /* records of any type, CXPRM_EVENT_HEALTH ones of a recovery too */
		n = read(f->fd, ev, sizeof(ev[0]) * (1 + rnd(s) % 4));
		if (n > 0 && n % sizeof(ev[0]))
			t->c.wrong++;
		else if (n > 0)
			t->events += n / sizeof(ev[0]);
		else if (errno != EAGAIN && !down_other(t))
			bad(t, 503);
		break;
	case 5:
		if (ioctl(f->fd, _IOWR(CXPRM_IOC_MAGIC, 0x7f, struct cxprm_info), &info) != -1)
			bad(t, 504);
		else if (errno != ENOTTY && !down_other(t))
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

/*
 * Under crashes: the chaos process crashes the firmware once the
 * processes made k/(crashes+1) of their ioctls (the k-th stretch).  A
 * process half a stretch past that waits for the crash to begin (at most
 * 30 s), so that every crash comes while the processes run, with commands
 * in flight, however fast they are.
 */
static void soak_gate(int n, int count)
{
	long long stretch = count / (soak_crashes + 1), need;
	uint64_t end = now_ns() + 30000000000ull;

	if (!soak_epoch || stretch < 2 || n < stretch / 2)
		return;
	need = (n - stretch / 2) / stretch;
	need = need > soak_crashes ? soak_crashes : need;
	while (need && epoch() < 2 * need - 1 && now_ns() < end)
		usleep(1000);
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

		soak_gate(n, count);
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
		SENT(t, K_DCT_DESTROY, ioctl(f.fd, CXPRM_IOC_DCT_DESTROY, &d), &d.st, f.born[f.nlive]);
	}
	if (f.fd >= 0)
		close(f.fd);
	free(c);
}

#endif
