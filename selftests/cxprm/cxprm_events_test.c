// SPDX-License-Identifier: GPL-2.0
/*
 * Event delivery through read()/poll() on /dev/cxprm/<bdf>:
 * ESW_FUNCTIONS_CHANGED after the emulator changes the number of VFs,
 * DCT_DRAINED after DRAIN_DCT, per-file queues and subscriptions, record
 * framing (-EINVAL for a short buffer), O_NONBLOCK (-EAGAIN), blocking
 * reads, and queue overflow ('dropped').
 *
 * Needs the emulator's control page (guest booted with iomem=relaxed).
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "kselftest_harness.h"
#include "cxprm_harness.h"

#define EVENT_WAIT_MS 5000

static void settle(int fd);

FIXTURE(ev) {
	int fd;
	struct emuctl emu;
	const struct emu_profile *prof;
	uint16_t vfs;	/* current number of VFs */
};

FIXTURE_SETUP(ev)
{
	self->fd = dev_open(_metadata, O_RDWR | O_NONBLOCK);
	emu_open_required(_metadata, &self->emu);
	self->prof = emu_profile_of(&self->emu);
	ASSERT_NE(NULL, self->prof);
	self->vfs = (uint16_t)emuctl_query(&self->emu, CXPRM_EMUD_Q_NUM_VFS, 0, 0, 0);
	settle(self->fd);
}

FIXTURE_TEARDOWN(ev)
{
	emuctl_close(&self->emu);
	if (self->fd >= 0)
		close(self->fd);
}

/* A number of VFs different from the current one. */
static uint16_t other_vfs(uint16_t cur, const struct emu_profile *p)
{
	return cur == 2 ? 5 : (2 % (p->total_vfs + 1));
}

/* Reads one record, waiting up to ms; 1 got one, 0 none, -1 error. */
static int read_event(int fd, struct cxprm_event *ev, int ms)
{
	ssize_t n;
	int w = wait_readable(fd, ms);

	if (w <= 0)
		return w;
	n = read(fd, ev, sizeof(*ev));
	if (n < 0 && errno == EAGAIN)
		return 0;
	if (n != (ssize_t)sizeof(*ev))
		return -1;
	return 1;
}

/* Reads records until one of 'type' shows up (others are skipped). */
static int wait_event_type(int fd, uint8_t type, struct cxprm_event *ev, int ms)
{
	uint64_t deadline = now_ns() + (uint64_t)ms * 1000000ull;

	for (;;) {
		int64_t left = (int64_t)(deadline - now_ns()) / 1000000;
		int r;

		if (left < 0)
			return 0;
		r = read_event(fd, ev, (int)left);
		if (r <= 0)
			return r;
		if (ev->type == type)
			return 1;
	}
}

static int drain_all(int fd)
{
	struct cxprm_event ev[16];
	int n = 0;
	ssize_t r;

	while ((r = read(fd, ev, sizeof(ev))) > 0)
		n += (int)(r / sizeof(ev[0]));
	return n;
}

/*
 * Events an earlier test caused may still be on their way (the driver
 * polls its EQ): read until nothing has come for 200 ms (at most 3 s).
 */
static void settle(int fd)
{
	uint64_t deadline = now_ns() + 3000000000ull;

	drain_all(fd);
	while (now_ns() < deadline && wait_readable(fd, 200) == 1)
		drain_all(fd);
}

TEST_F(ev, esw_functions_changed)
{
	struct cxprm_esw_functions f;
	struct cxprm_event ev;
	uint16_t n = other_vfs(self->vfs, self->prof);
	uint64_t t0, t1;
	int k;

	drain_all(self->fd);
	t0 = now_ns();
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_set_num_vfs(&self->emu, n));
	ASSERT_EQ(1, wait_readable(self->fd, EVENT_WAIT_MS)) TH_LOG("no POLLIN within %d ms", EVENT_WAIT_MS);
	memset(&ev, 0xa5, sizeof(ev));
	ASSERT_EQ(sizeof(ev), read(self->fd, &ev, sizeof(ev))) TH_LOG("read: %s", strerror(errno));
	t1 = now_ns();
	EXPECT_EQ(EV_ESW_FUNCTIONS_CHANGED, ev.type);
	EXPECT_EQ(0, ev.sub_type);
	EXPECT_EQ(0, ev.dropped);
	EXPECT_EQ(0, ev.reserved);
	EXPECT_LE(t0, ev.timestamp_ns) TH_LOG("timestamp %llu before the trigger %llu",
					      (unsigned long long)ev.timestamp_ns, (unsigned long long)t0);
	EXPECT_GE(t1, ev.timestamp_ns) TH_LOG("timestamp %llu after the read %llu",
					      (unsigned long long)ev.timestamp_ns, (unsigned long long)t1);
	for (k = 0; k < 28; k++) {
		uint8_t b = ev.data[k];

		EXPECT_EQ(0, b) TH_LOG("data[%d] = 0x%x", k, b);
	}
	TH_LOG("ESW_FUNCTIONS_CHANGED seq %u after %llu us", ev.seq, (unsigned long long)(ev.timestamp_ns - t0) / 1000);

	/* Nothing else queued. */
	errno = 0;
	EXPECT_EQ(-1, read(self->fd, &ev, sizeof(ev)));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(0, wait_readable(self->fd, 0));

	/* And the firmware now says so. */
	memset(&f, 0, sizeof(f));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_ESW_FUNCTIONS, &f));
	EXPECT_EQ(n, f.host_num_of_vfs);
	emuctl_set_num_vfs(&self->emu, self->vfs);
}

TEST_F(ev, nonblocking_read_empty_eagain)
{
	struct cxprm_event ev;

	drain_all(self->fd);
	errno = 0;
	EXPECT_EQ(-1, read(self->fd, &ev, sizeof(ev)));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(0, wait_readable(self->fd, 50));
}

TEST_F(ev, short_buffer_einval)
{
	struct cxprm_event ev[2];
	char small[sizeof(struct cxprm_event)];

	drain_all(self->fd);
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_set_num_vfs(&self->emu, other_vfs(self->vfs, self->prof)));
	ASSERT_EQ(1, wait_readable(self->fd, EVENT_WAIT_MS));
	errno = 0;
	EXPECT_EQ(-1, read(self->fd, small, sizeof(small) - 1));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, read(self->fd, small, 1));
	EXPECT_EQ(EINVAL, errno);
	/* The refused reads left the record queued... */
	EXPECT_EQ(1, wait_readable(self->fd, 0)) TH_LOG("the short reads ate the record");
	/* ...and a buffer of one and a half records gets exactly one. */
	EXPECT_EQ(sizeof(ev[0]), read(self->fd, ev, sizeof(ev[0]) + sizeof(ev[0]) / 2));
	EXPECT_EQ(EV_ESW_FUNCTIONS_CHANGED, ev[0].type);
	emuctl_set_num_vfs(&self->emu, self->vfs);
	drain_all(self->fd);
}

TEST_F(ev, bad_buffer_efault)
{
	drain_all(self->fd);
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_set_num_vfs(&self->emu, other_vfs(self->vfs, self->prof)));
	ASSERT_EQ(1, wait_readable(self->fd, EVENT_WAIT_MS));
	errno = 0;
	EXPECT_EQ(-1, read(self->fd, bad_ptr(), sizeof(struct cxprm_event)));
	EXPECT_EQ(EFAULT, errno);
	emuctl_set_num_vfs(&self->emu, self->vfs);
	drain_all(self->fd);
}

TEST_F(ev, several_records_in_one_read)
{
	struct cxprm_event ev[8];
	uint32_t seq0;
	ssize_t n;
	int k, got = 0;

	drain_all(self->fd);
	for (k = 0; k < 3; k++)
		ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_set_num_vfs(&self->emu, (uint16_t)(k + 1)));
	/* Wait until all three are queued. */
	for (k = 0; k < 100 && got < 3; k++) {
		n = read(self->fd, ev + got, sizeof(ev) - got * sizeof(ev[0]));
		if (n > 0) {
			EXPECT_EQ(0, n % (ssize_t)sizeof(ev[0])) TH_LOG("read returned a partial record");
			got += (int)(n / sizeof(ev[0]));
		} else {
			wait_readable(self->fd, 100);
		}
	}
	ASSERT_EQ(3, got);
	seq0 = ev[0].seq;
	for (k = 0; k < 3; k++) {
		EXPECT_EQ(EV_ESW_FUNCTIONS_CHANGED, ev[k].type);
		if (k) {
			EXPECT_LT(seq0, ev[k].seq) TH_LOG("seq not increasing");
			EXPECT_LE(ev[k - 1].timestamp_ns, ev[k].timestamp_ns);
			seq0 = ev[k].seq;
		}
	}
	emuctl_set_num_vfs(&self->emu, self->vfs);
	drain_all(self->fd);
}

TEST_F(ev, every_file_gets_its_copy)
{
	int fd2 = cxprm_open_flags(O_RDWR | O_NONBLOCK);
	struct cxprm_event a, b;

	ASSERT_LE(0, fd2);
	drain_all(self->fd);
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_set_num_vfs(&self->emu, other_vfs(self->vfs, self->prof)));
	ASSERT_EQ(1, wait_event_type(self->fd, EV_ESW_FUNCTIONS_CHANGED, &a, EVENT_WAIT_MS));
	ASSERT_EQ(1, wait_event_type(fd2, EV_ESW_FUNCTIONS_CHANGED, &b, EVENT_WAIT_MS));
	EXPECT_EQ(a.seq, b.seq);
	EXPECT_EQ(a.timestamp_ns, b.timestamp_ns);
	/* Reading one queue did not empty the other. */
	close(fd2);
	emuctl_set_num_vfs(&self->emu, self->vfs);
	drain_all(self->fd);
}

TEST_F(ev, subscription_mask)
{
	int fd2 = cxprm_open_flags(O_RDWR | O_NONBLOCK);
	struct cxprm_subscribe sub;
	struct cxprm_event ev;

	ASSERT_LE(0, fd2);
	/* fd: only DCT_DRAINED; fd2: the default set. */
	memset(&sub, 0, sizeof(sub));
	sub.mask[EV_DCT_DRAINED / 64] |= 1ull << (EV_DCT_DRAINED % 64);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_SUBSCRIBE, &sub)) TH_LOG("%s", strerror(errno));
	drain_all(self->fd);
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_set_num_vfs(&self->emu, other_vfs(self->vfs, self->prof)));
	ASSERT_EQ(1, wait_event_type(fd2, EV_ESW_FUNCTIONS_CHANGED, &ev, EVENT_WAIT_MS))
		TH_LOG("the default subscription did not get ESW_FUNCTIONS_CHANGED");
	/* fd2 has seen it, so fd would have it by now. */
	errno = 0;
	EXPECT_EQ(-1, read(self->fd, &ev, sizeof(ev))) TH_LOG("unsubscribed event type 0x%x delivered", ev.type);
	EXPECT_EQ(EAGAIN, errno);

	/* Subscribe to everything: it comes again. */
	memset(&sub, 0xff, sizeof(sub));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_SUBSCRIBE, &sub));
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_set_num_vfs(&self->emu, self->vfs));
	EXPECT_EQ(1, wait_event_type(self->fd, EV_ESW_FUNCTIONS_CHANGED, &ev, EVENT_WAIT_MS));

	/* Nothing at all. */
	memset(&sub, 0, sizeof(sub));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_SUBSCRIBE, &sub));
	drain_all(self->fd);
	drain_all(fd2);
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_set_num_vfs(&self->emu, other_vfs(self->vfs, self->prof)));
	ASSERT_EQ(1, wait_event_type(fd2, EV_ESW_FUNCTIONS_CHANGED, &ev, EVENT_WAIT_MS));
	EXPECT_EQ(0, wait_readable(self->fd, 0));
	close(fd2);
	emuctl_set_num_vfs(&self->emu, self->vfs);
}

/* A DCT to create on o: mtu 4096, port 1. */
static void dct_ctx(struct cxprm_dct *d, const struct dct_objs *o)
{
	dct_minimal(d, o);
	d->ctx.mtu = 5;
}

TEST_F(ev, dct_drained)
{
	struct cxprm_subscribe sub;
	struct cxprm_event ev;
	struct cxprm_dct d;
	struct dct_objs o;
	uint32_t dctn;

	/* Default subscription includes DCT_DRAINED. */
	drain_all(self->fd);
	ASSERT_EQ(0, dct_objs_create(self->fd, &o)) TH_LOG("PD, CQ, SRQ: %s", strerror(errno));
	dct_ctx(&d, &o);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_CREATE, &d)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(ST_OK, d.st.status);
	dctn = d.dctn;
	memset(&d, 0, sizeof(d));
	d.dctn = dctn;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_DRAIN, &d)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(ST_OK, d.st.status);
	ASSERT_EQ(1, wait_event_type(self->fd, EV_DCT_DRAINED, &ev, EVENT_WAIT_MS));
	EXPECT_EQ(dctn, be32_at(ev.data, 24) & 0xffffff) TH_LOG("event data carries dct 0x%x",
								 be32_at(ev.data, 24));

	/* Unsubscribed: a second DCT's drain is not delivered. */
	memset(&sub, 0, sizeof(sub));
	sub.mask[0] = 1ull << EV_ESW_FUNCTIONS_CHANGED;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_SUBSCRIBE, &sub));
	dct_ctx(&d, &o);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_CREATE, &d));
	d.st.status = 0xff;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_DCT_DRAIN, &d));
	ASSERT_EQ(ST_OK, d.st.status);
	EXPECT_EQ(0, wait_event_type(self->fd, EV_DCT_DRAINED, &ev, 500));
}

struct trigger {
	struct emuctl *emu;
	uint16_t n;
	unsigned int delay_ms;
};

static void *trigger_later(void *arg)
{
	struct trigger *t = arg;

	sleep_ms(t->delay_ms);
	emuctl_set_num_vfs(t->emu, t->n);
	return NULL;
}

TEST_F(ev, blocking_read_waits)
{
	int fd = cxprm_open_flags(O_RDWR);
	struct trigger t = { &self->emu, other_vfs(self->vfs, self->prof), 300 };
	struct cxprm_event ev;
	pthread_t th;
	uint64_t t0;

	ASSERT_LE(0, fd);
	t0 = now_ns();
	ASSERT_EQ(0, pthread_create(&th, NULL, trigger_later, &t));
	alarm(10);
	ASSERT_EQ(sizeof(ev), read(fd, &ev, sizeof(ev))) TH_LOG("%s", strerror(errno));
	alarm(0);
	pthread_join(th, NULL);
	EXPECT_EQ(EV_ESW_FUNCTIONS_CHANGED, ev.type);
	EXPECT_LE(t0 + 250000000ull, now_ns()) TH_LOG("read returned before the event");
	close(fd);
	emuctl_set_num_vfs(&self->emu, self->vfs);
}

/*
 * Overflow: the queue holds CXPRM_EVENT_QUEUE records; the oldest go and
 * the next record read says how many.  An observer file reads along so the
 * device EQ never overruns (that would lose events before the driver).
 */
TEST_F(ev, queue_overflow_drops_oldest)
{
	const int extra = 20, total = CXPRM_EVENT_QUEUE + extra, batch = 32;
	int obs = cxprm_open_flags(O_RDWR | O_NONBLOCK);
	struct cxprm_event *ev = calloc(total + 8, sizeof(*ev));
	int sent = 0, seen = 0, got = 0, k;
	ssize_t n;

	ASSERT_LE(0, obs);
	ASSERT_NE(NULL, ev);
	drain_all(self->fd);
	while (sent < total) {
		int b = total - sent < batch ? total - sent : batch;
		uint64_t deadline;

		for (k = 0; k < b; k++, sent++)
			ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_set_num_vfs(&self->emu, (uint16_t)(1 + (sent & 1))));
		deadline = now_ns() + EVENT_WAIT_MS * 1000000ull;
		while (seen < sent && now_ns() < deadline) {
			struct cxprm_event x;

			if (read_event(obs, &x, 100) == 1 && x.type == EV_ESW_FUNCTIONS_CHANGED)
				seen++;
		}
		ASSERT_EQ(sent, seen) TH_LOG("observer saw %d of %d events", seen, sent);
	}
	while ((n = read(self->fd, ev + got, (total + 8 - got) * sizeof(*ev))) > 0)
		got += (int)(n / sizeof(*ev));
	EXPECT_EQ(CXPRM_EVENT_QUEUE, got);
	ASSERT_LT(0, got);
	EXPECT_EQ(extra, ev[0].dropped) TH_LOG("first record after overflow: dropped %u", ev[0].dropped);
	for (k = 1; k < got; k++) {
		EXPECT_EQ(0, ev[k].dropped) TH_LOG("record %d dropped %u", k, ev[k].dropped);
		EXPECT_LT(ev[k - 1].seq, ev[k].seq);
		if (!_metadata->passed)
			break;
	}
	free(ev);
	close(obs);
	emuctl_set_num_vfs(&self->emu, self->vfs);
}

/*
 * Events are not lost while commands run flat out: with cmd_mode=events
 * every command also puts a CMD EQE on the async EQ, which the driver must
 * keep consuming.  8 processes x 300 ioctls while the emulator changes the
 * VFs 20 times: all 20 ESW_FUNCTIONS_CHANGED arrive.
 */
TEST_F_TIMEOUT(ev, no_loss_under_command_load, 120)
{
	const int children = 8, per_child = 300, changes = 20;
	struct cxprm_event ev;
	pid_t pids[8];
	int k, got = 0, st;
	uint64_t deadline;

	fflush(NULL);
	for (k = 0; k < children; k++) {
		pids[k] = fork();
		ASSERT_LE(0, pids[k]);
		if (pids[k] == 0) {
			struct cxprm_esw_functions f;
			int n, bad = 0;

			for (n = 0; n < per_child; n++) {
				memset(&f, 0, sizeof(f));
				if (ioctl(self->fd, CXPRM_IOC_ESW_FUNCTIONS, &f) || f.st.status)
					bad++;
			}
			_exit(bad ? 1 : 0);
		}
	}
	for (k = 0; k < changes; k++) {
		ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_set_num_vfs(&self->emu, (uint16_t)(1 + (k & 1))));
		sleep_ms(20);
	}
	for (k = 0; k < children; k++) {
		ASSERT_EQ(pids[k], waitpid(pids[k], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) TH_LOG("child %d: 0x%x", k, st);
	}
	deadline = now_ns() + EVENT_WAIT_MS * 1000000ull;
	while (got < changes && now_ns() < deadline)
		if (read_event(self->fd, &ev, 200) == 1 && ev.type == EV_ESW_FUNCTIONS_CHANGED) {
			EXPECT_EQ(0, ev.dropped);
			got++;
		}
	EXPECT_EQ(changes, got) TH_LOG("%d of %d ESW_FUNCTIONS_CHANGED arrived (cmd_mode=%s; emulator EQ overruns %lld)",
				       got, changes, cxprm_param_text("cmd_mode"),
				       emuctl_query(&self->emu, CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_EQ_OVERRUNS, 0, 0));
	emuctl_set_num_vfs(&self->emu, self->vfs);
}

/* Waits (bounded) until the emulator holds 'want' pages for the function. */
static int wait_fn_pages(struct emuctl *e, uint16_t fn, int ec, long long want)
{
	uint64_t deadline = now_ns() + (uint64_t)EVENT_WAIT_MS * 1000000ull;
	long long v;

	while ((v = emuctl_query(e, CXPRM_EMUD_Q_FN_PAGES_HELD, fn, ec, 0)) != want &&
	       now_ns() < deadline)
		usleep(2000);
	return v == want;
}

/*
 * A3/A7: on an ECPF (BlueField profile) the driver provides the external
 * host PF's pages: a page request naming function 0 / ec 0 is given to
 * that function, not to the ECPF (0 / ec 1), and a negative one takes them
 * back from it.
 */
TEST_F(ev, host_pf_page_requests)
{
	struct cxprm_info i;
	long long own;

	memset(&i, 0, sizeof(i));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	if (!(i.flags & CXPRM_INFO_ECPF))
		SKIP(return, "not an ECPF (run with the bf3 profile)");
	/* Firmware held the host PF in 'initializing' until the driver sent
	 * ENABLE_HCA(0, ec 0) for it (Fidelity III item 3). */
	EXPECT_EQ(1, emuctl_query(&self->emu, CXPRM_EMUD_Q_FN_ENABLED, 0, 0, 0));
	own = emuctl_query(&self->emu, CXPRM_EMUD_Q_FN_PAGES_HELD, 0, 1, 0);
	ASSERT_LT(0, own);
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fn_pages(&self->emu, 7, 0, 0, 0));
	EXPECT_TRUE(wait_fn_pages(&self->emu, 0, 0, 7)) TH_LOG("host PF pages not given");
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fn_pages(&self->emu, -7, 0, 0, 0));
	EXPECT_TRUE(wait_fn_pages(&self->emu, 0, 0, 0)) TH_LOG("host PF pages not taken back");
	EXPECT_EQ(own, emuctl_query(&self->emu, CXPRM_EMUD_Q_FN_PAGES_HELD, 0, 1, 0));
	/* release_all: the emulator drops them, the driver frees its copies. */
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fn_pages(&self->emu, 3, 0, 0, 0));
	EXPECT_TRUE(wait_fn_pages(&self->emu, 0, 0, 3));
	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fn_pages(&self->emu, 0, 0, 0, 1));
	EXPECT_TRUE(wait_fn_pages(&self->emu, 0, 0, 0));
	/* An unknown function: the emulator refuses to ask for it. */
	EXPECT_EQ(CXPRM_EMUD_ST_REFUSED, emuctl_fn_pages(&self->emu, 1, 9, 0, 0));
	settle(self->fd);
}

TEST_HARNESS_MAIN
