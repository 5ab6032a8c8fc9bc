// SPDX-License-Identifier: GPL-2.0
/*
 * Many processes hammering one device: 16 children x 200 ioctls (half on
 * the inherited descriptor, half on their own), every one succeeds with a
 * good firmware status, and STATS grows by exactly the number of commands
 * sent.  Then concurrent DCT life cycles (numbers never handed out twice)
 * and threads sharing one descriptor.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "kselftest_harness.h"
#include "cxprm_harness.h"

#define CHILDREN 16
#define PER_CHILD 200

FIXTURE(conc) {
	int fd;
	struct emuctl emu;
	int have_emu;
	const struct emu_profile *prof;
	long long overruns0;
};

static long long eq_overruns(struct emuctl *e)
{
	return emuctl_query(e, CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_EQ_OVERRUNS, 0, 0);
}

FIXTURE_SETUP(conc)
{
	struct cxprm_info i;

	self->fd = dev_open_info(_metadata, &i);
	self->have_emu = emu_open_profile(&self->emu, &i, &self->prof);
	ASSERT_NE(NULL, self->prof);
	if (self->have_emu)
		self->overruns0 = eq_overruns(&self->emu);
}

/*
 * Whatever the load, the driver consumes its async EQ in time: an EQ
 * overrun loses events, and real firmware declares it fatal
 * (ASYNC_EQ_BUF_OVERRUN health syndrome).  The emulator counts them.
 */
FIXTURE_TEARDOWN(conc)
{
	if (self->have_emu) {
		long long n = eq_overruns(&self->emu) - self->overruns0;

		EXPECT_EQ(0, n) TH_LOG("the async EQ overran %lld times during the test (events lost; "
				       "ASYNC_EQ_BUF_OVERRUN on real firmware); cmd_mode=%s poll_interval_ms=%d",
				       n, cxprm_param_text("cmd_mode"), cxprm_param("poll_interval_ms"));
		emuctl_close(&self->emu);
	}
	if (self->fd >= 0)
		close(self->fd);
}

/* One child's work: 0 = all good, else the first failure's code. */
static int hammer(int shared_fd, int child)
{
	struct cxprm_caps *c = malloc(sizeof(*c));
	struct cxprm_esw_functions f;
	int fd = shared_fd, k, rc = 0;

	if (!c)
		return 100;
	if (child & 1) {
		fd = cxprm_open();
		if (fd < 0)
			return 101;
	}
	for (k = 0; k < PER_CHILD && !rc; k++) {
		if ((child + k) % 3 == 0) {
			if (query_caps(fd, CAP_GENERAL, k & 1, c))
				rc = 102;
			else if (c->st.delivery || c->st.status || c->st.opcode != OP_QUERY_HCA_CAP)
				rc = 103;
			else if (prm_get(c->caps, CAP_log_max_cq.off, CAP_log_max_cq.width) != 24)
				rc = 104; /* someone else's output */
		} else {
			memset(&f, 0, sizeof(f));
			if (ioctl(fd, CXPRM_IOC_ESW_FUNCTIONS, &f))
				rc = 105;
			else if (f.st.delivery || f.st.status || f.st.opcode != OP_QUERY_ESW_FUNCTIONS)
				rc = 106;
			else if (!f.host_total_vfs)
				rc = 107;
		}
	}
	if (rc)
		fprintf(stderr, "# child %d: failure %d at ioctl %d: %s\n", child, rc, k - 1, strerror(errno));
	if (fd != shared_fd)
		close(fd);
	free(c);
	return rc;
}

TEST_F_TIMEOUT(conc, processes_16x200, 240)
{
	long long total0, caps0, esw0;
	long long want_caps = 0, want_esw = 0;
	struct cxprm_info i;
	pid_t pids[CHILDREN];
	uint64_t t0;
	int k, n;

	total0 = stats_total(self->fd);
	caps0 = stats_opcode_count(self->fd, OP_QUERY_HCA_CAP);
	esw0 = stats_opcode_count(self->fd, OP_QUERY_ESW_FUNCTIONS);
	ASSERT_LT(0, total0);
	for (k = 0; k < CHILDREN; k++)
		for (n = 0; n < PER_CHILD; n++) {
			if ((k + n) % 3 == 0)
				want_caps++;
			else
				want_esw++;
		}

	t0 = now_ns();
	fflush(NULL);
	for (k = 0; k < CHILDREN; k++) {
		pids[k] = fork();
		ASSERT_LE(0, pids[k]);
		if (pids[k] == 0)
			_exit(hammer(self->fd, k));
	}
	for (k = 0; k < CHILDREN; k++) {
		int st;

		ASSERT_EQ(pids[k], waitpid(pids[k], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
			TH_LOG("child %d: wait status 0x%x", k, st);
	}
	TH_LOG("%d ioctls from %d processes in %llu ms", CHILDREN * PER_CHILD, CHILDREN,
	       (unsigned long long)(now_ns() - t0) / 1000000);

	EXPECT_EQ(total0 + CHILDREN * PER_CHILD, stats_total(self->fd));
	EXPECT_EQ(caps0 + want_caps, stats_opcode_count(self->fd, OP_QUERY_HCA_CAP));
	EXPECT_EQ(esw0 + want_esw, stats_opcode_count(self->fd, OP_QUERY_ESW_FUNCTIONS));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	EXPECT_EQ(CXPRM_STATE_UP, i.state);
	EXPECT_EQ(total0 + CHILDREN * PER_CHILD, (long long)i.commands);
}

/*
 * 8 processes each create, query and destroy up to 16 DCTs at the same
 * time (fewer when the profile has fewer: ConnectX-5 has 64).  No process
 * destroys any before all have reported theirs (the 'go' pipe): a freed
 * number may be handed out again, so only numbers alive together must
 * differ.
 */
TEST_F_TIMEOUT(conc, dct_lifecycles, 120)
{
	int per = self->prof->max_dcts / 8 - 1 < 16 ? (int)self->prof->max_dcts / 8 - 1 : 16;
	int pipes[2], go[2];
	pid_t pids[8];
	uint32_t seen[8 * 16];
	int k, j, n = 0;

	ASSERT_EQ(0, pipe(pipes));
	ASSERT_EQ(0, pipe(go));
	fflush(NULL);
	for (k = 0; k < 8; k++) {
		pids[k] = fork();
		ASSERT_LE(0, pids[k]);
		if (pids[k] == 0) {
			uint32_t nums[16];
			struct dct_objs objs;
			struct cxprm_dct d;
			int fd = cxprm_open(), m, rc = 0;

			char c;

			close(pipes[0]);
			close(go[1]);
			if (fd < 0 || dct_objs_create(fd, &objs))
				_exit(1);
			for (m = 0; m < per && !rc; m++) {
				dct_minimal(&d, &objs);
				d.ctx.user_index = (uint32_t)(k << 8 | m);
				if (ioctl(fd, CXPRM_IOC_DCT_CREATE, &d) || d.st.status)
					rc = 2;
				nums[m] = d.dctn;
			}
			/* All alive at once: report the numbers, then check and destroy. */
			if (!rc && write(pipes[1], nums, per * sizeof(nums[0])) != (ssize_t)(per * sizeof(nums[0])))
				rc = 3;
			for (m = 0; m < per && !rc; m++) {
				memset(&d, 0, sizeof(d));
				d.dctn = nums[m];
				if (ioctl(fd, CXPRM_IOC_DCT_QUERY, &d) || d.st.status)
					rc = 4;
				else if (d.ctx.user_index != (uint32_t)(k << 8 | m))
					rc = 5;
			}
			/* Until the parent has every number (EOF on 'go'). */
			if (read(go[0], &c, 1) != 0)
				rc = 7;
			for (m = 0; m < per && !rc; m += 2) {
				memset(&d, 0, sizeof(d));
				d.dctn = nums[m];
				if (ioctl(fd, CXPRM_IOC_DCT_DESTROY, &d) || d.st.status)
					rc = 6;
			}
			close(fd); /* the odd ones go with the file */
			_exit(rc);
		}
	}
	close(pipes[1]);
	close(go[0]);
	/* Each child writes its numbers at once (one write, < PIPE_BUF). */
	while (n < 8 * per && wait_readable(pipes[0], 60000) > 0) {
		ssize_t r = read(pipes[0], seen + n, sizeof(seen) - n * sizeof(seen[0]));

		if (r <= 0)
			break;
		n += (int)(r / sizeof(seen[0]));
	}
	close(go[1]);
	close(pipes[0]);
	for (k = 0; k < 8; k++) {
		int st;

		ASSERT_EQ(pids[k], waitpid(pids[k], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) TH_LOG("child %d: wait status 0x%x", k, st);
	}
	EXPECT_EQ(8 * per, n);
	for (k = 0; k < n; k++)
		for (j = 0; j < k; j++)
			EXPECT_NE(seen[j], seen[k]) TH_LOG("DCT 0x%x handed out twice", seen[k]);
}

struct thr {
	int fd;
	int fails;
};

static void *thread_hammer(void *arg)
{
	struct thr *t = arg;
	struct cxprm_esw_functions f;
	int k;

	for (k = 0; k < 50; k++) {
		memset(&f, 0, sizeof(f));
		if (ioctl(t->fd, CXPRM_IOC_ESW_FUNCTIONS, &f) || f.st.status)
			t->fails++;
	}
	return NULL;
}

TEST_F_TIMEOUT(conc, threads_one_descriptor, 120)
{
	struct thr t[8];
	pthread_t th[8];
	long long total0 = stats_total(self->fd);
	int k;

	for (k = 0; k < 8; k++) {
		t[k].fd = self->fd;
		t[k].fails = 0;
		ASSERT_EQ(0, pthread_create(&th[k], NULL, thread_hammer, &t[k]));
	}
	for (k = 0; k < 8; k++) {
		pthread_join(th[k], NULL);
		EXPECT_EQ(0, t[k].fails) TH_LOG("thread %d", k);
	}
	EXPECT_EQ(total0 + 8 * 50, stats_total(self->fd));
}

TEST_HARNESS_MAIN
