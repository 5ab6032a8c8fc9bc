// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/cxprm/<bdf>/{caps,cmd_stats,cmdq,last_cmds,eq,pages,health}
 * (Documentation/kernel-module.rst): the files exist, read fully, and say
 * what the ioctls say.  Assertions are grep-level on purpose: the formats
 * are for people.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <sys/mount.h>

#include "kselftest_harness.h"
#include "cxprm_test.h"

static const char *const files[] = { "caps", "cmd_stats", "cmdq", "last_cmds", "eq", "pages", "health" };

FIXTURE(dbg) {
	int fd;
	char dir[300];
	struct cxprm_info info;
};

FIXTURE_SETUP(dbg)
{
	struct stat sb;

	self->fd = cxprm_open();
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", cxprm_dev_path(), strerror(errno));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &self->info));
	if (stat("/sys/kernel/debug/cxprm", &sb))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	snprintf(self->dir, sizeof(self->dir), "/sys/kernel/debug/cxprm/%s", cxprm_bdf());
	ASSERT_EQ(0, stat(self->dir, &sb)) TH_LOG("%s: %s", self->dir, strerror(errno));
	ASSERT_TRUE(S_ISDIR(sb.st_mode));
}

FIXTURE_TEARDOWN(dbg)
{
	if (self->fd >= 0)
		close(self->fd);
}

static char *dbg_read(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return slurp(path, NULL);
}

/* The number after 'key' on the first line that has it ("given 4128"). */
static long long number_after(const char *text, const char *key)
{
	const char *p = text;

	while ((p = strstr(p, key))) {
		const char *q = p + strlen(key);

		while (*q == ' ' || *q == '\t' || *q == ':' || *q == '=')
			q++;
		if (isdigit((unsigned char)*q))
			return strtoll(q, NULL, 0);
		p = q;
	}
	return -1;
}

/* The line of 'text' that contains 'key' (static buffer), or NULL. */
static const char *line_with(const char *text, const char *key)
{
	static char line[1024];
	const char *p = strstr(text, key), *s, *e;

	if (!p)
		return NULL;
	for (s = p; s > text && s[-1] != '\n'; s--)
		;
	e = strchr(p, '\n');
	if (!e)
		e = p + strlen(p);
	snprintf(line, sizeof(line), "%.*s", (int)(e - s), s);
	return line;
}

TEST_F(dbg, files_exist_and_read)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(files); k++) {
		char path[512];
		size_t len = 0;
		char *t;

		snprintf(path, sizeof(path), "%s/%s", self->dir, files[k]);
		t = slurp(path, &len);
		ASSERT_NE(NULL, t) TH_LOG("%s: %s", path, strerror(errno));
		EXPECT_LT(0, len) TH_LOG("%s is empty", path);
		EXPECT_EQ(strlen(t), len) TH_LOG("%s has a NUL inside", path);
		EXPECT_EQ('\n', len ? t[len - 1] : 0) TH_LOG("%s does not end in a newline", path);
		free(t);
	}
}

TEST_F(dbg, read_in_small_pieces)
{
	char path[512], buf[7];
	char *whole;
	size_t len, got = 0;
	ssize_t r;
	int fd;

	/* caps is "as of bring-up": the same bytes on every read (health ticks). */
	snprintf(path, sizeof(path), "%s/caps", self->dir);
	whole = slurp(path, &len);
	ASSERT_NE(NULL, whole);
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd);
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		EXPECT_EQ(0, memcmp(whole + got, buf, (size_t)r)) TH_LOG("piece at %zu differs", got);
		got += (size_t)r;
		if (got > len)
			break;
	}
	EXPECT_EQ(len, got);
	close(fd);
	free(whole);
}

TEST_F(dbg, caps_mentions_profile_values)
{
	const struct emu_profile *p = emu_profile_by_fw(self->info.fw_major);
	char *t = dbg_read(self->dir, "caps");
	const char *l;
	char want[16];

	ASSERT_NE(NULL, t);
	ASSERT_NE(NULL, p);
	l = line_with(t, "log_max_qp ");
	ASSERT_NE(NULL, l) TH_LOG("no log_max_qp in caps:\n%.400s", t);
	{
		/* The CUR value of log_max_qp (profile table). */
		size_t k;
		uint32_t cur = 0;

		for (k = 0; k < ARRAY_SIZE(p->caps) && p->caps[k].f; k++)
			if (p->caps[k].f == &CAP_log_max_qp)
				cur = p->caps[k].cur;
		snprintf(want, sizeof(want), " %u", cur);
	}
	EXPECT_NE(NULL, strstr(l, want)) TH_LOG("log_max_qp line '%s' lacks '%s'", l, want);
	EXPECT_NE(NULL, strstr(t, "log_max_cq")) TH_LOG("no log_max_cq");
	EXPECT_NE(NULL, strstr(t, "dct")) TH_LOG("no dct");
	free(t);
}

TEST_F(dbg, cmd_stats_lists_opcodes)
{
	struct cxprm_caps *c = malloc(sizeof(*c));
	long long before, after;
	const char *l;
	char *t;

	ASSERT_NE(NULL, c);
	t = dbg_read(self->dir, "cmd_stats");
	ASSERT_NE(NULL, t);
	l = line_with(t, "QUERY_HCA_CAP");
	ASSERT_NE(NULL, l) TH_LOG("no QUERY_HCA_CAP in cmd_stats:\n%.600s", t);
	EXPECT_NE(NULL, strstr(t, "INIT_HCA"));
	EXPECT_NE(NULL, strstr(t, "MANAGE_PAGES"));
	before = number_after(t, "commands completed");
	free(t);

	ASSERT_EQ(0, query_caps(self->fd, CAP_GENERAL, 0, c));
	t = dbg_read(self->dir, "cmd_stats");
	ASSERT_NE(NULL, t);
	after = number_after(t, "commands completed");
	if (before >= 0)
		EXPECT_EQ(before + 1, after) TH_LOG("'commands completed' %lld -> %lld", before, after);
	/* The total agrees with STATS. */
	EXPECT_EQ(stats_total(self->fd), after);
	free(t);
	free(c);
}

TEST_F(dbg, last_cmds_shows_recent)
{
	struct cxprm_esw_functions f;
	char *t, *last;

	memset(&f, 0, sizeof(f));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_ESW_FUNCTIONS, &f));
	t = dbg_read(self->dir, "last_cmds");
	ASSERT_NE(NULL, t);
	/* The newest record (last line mentioning an opcode) is our command. */
	last = NULL;
	{
		char *p = t;

		while ((p = strstr(p, "QUERY_ESW_FUNCTIONS"))) {
			last = p;
			p++;
		}
	}
	ASSERT_NE(NULL, last) TH_LOG("QUERY_ESW_FUNCTIONS not in last_cmds:\n%.800s", t);
	/* Nothing newer than it but its own continuation lines. */
	EXPECT_EQ(NULL, strstr(last, "QUERY_HCA_CAP")) TH_LOG("a newer command after ours?");
	{
		/* At most the ring's 64 records, each "#<seq> ...", seq increasing. */
		long long prev = -1, seq;
		int records = 0;
		char *p = t;

		for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
			if (*p != '#')
				continue;
			seq = strtoll(p + 1, NULL, 10);
			EXPECT_LT(prev, seq) TH_LOG("record seq %lld after %lld", seq, prev);
			prev = seq;
			records++;
		}
		EXPECT_LT(0, records);
		EXPECT_GE(64, records);
	}
	free(t);
}

TEST_F(dbg, cmdq_geometry)
{
	char *t = dbg_read(self->dir, "cmdq");

	ASSERT_NE(NULL, t);
	EXPECT_NE(NULL, strstr(t, "32 entries")) TH_LOG("cmdq:\n%.300s", t);
	EXPECT_NE(NULL, strstr(t, "slot 0")) TH_LOG("no slot 0");
	EXPECT_NE(NULL, strstr(t, "slot 31")) TH_LOG("no slot 31");
	free(t);
}

TEST_F(dbg, pages_match_info)
{
	struct cxprm_info i;
	char *t = dbg_read(self->dir, "pages");
	long long given, reclaimed;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &i));
	given = number_after(t, "given");
	reclaimed = number_after(t, "reclaimed");
	EXPECT_EQ((long long)i.pages_given, given) TH_LOG("pages:\n%s", t);
	EXPECT_EQ((long long)i.pages_reclaimed, reclaimed);
	EXPECT_EQ(given - reclaimed, number_after(t, "live"));
	free(t);
}

/*
 * Firmware pages (4 KiB, the PRM's) are cut from system pages as mlx5's
 * pagealloc.c does: "host pages N (M firmware pages each)" with M =
 * PAGE_SIZE / 4 KiB; a system page is held while any of its pieces is
 * lent, so M * N >= live >= N, and right after bring-up (nothing taken
 * back yet) they are packed: N = live / M rounded up.  On a 16 KiB kernel
 * that is firmware pages = 4 x system pages.
 */
TEST_F(dbg, pages_packed_into_host_pages)
{
	long long per = sysconf(_SC_PAGESIZE) / 4096, host = -1, each = -1, live, reclaimed;
	char *t = dbg_read(self->dir, "pages");
	const char *h;

	ASSERT_NE(NULL, t);
	h = strstr(t, "host pages");
	ASSERT_NE(NULL, h) TH_LOG("pages:\n%s", t);
	ASSERT_EQ(2, sscanf(h, "host pages %lld (%lld firmware pages each)", &host, &each)) TH_LOG("%s", h);
	live = number_after(t, "live");
	reclaimed = number_after(t, "reclaimed");
	ASSERT_LT(0, live) TH_LOG("pages:\n%s", t);
	EXPECT_EQ(per, each) TH_LOG("pages:\n%s", t);
	EXPECT_LE(host, live) TH_LOG("a system page held with no piece lent:\n%s", t);
	EXPECT_GE(host * each, live) TH_LOG("pages:\n%s", t);
	if (reclaimed == 0)
		EXPECT_EQ((live + each - 1) / each, host) TH_LOG("not packed:\n%s", t);
	free(t);
}

TEST_F(dbg, eq_matches_info)
{
	char *t = dbg_read(self->dir, "eq");
	char want[32];

	ASSERT_NE(NULL, t);
	snprintf(want, sizeof(want), "eqn %u", self->info.async_eqn);
	EXPECT_NE(NULL, strstr(t, want)) TH_LOG("'%s' not in eq:\n%.400s", want, t);
	EXPECT_NE(NULL, strstr(t, "ESW_FUNCTIONS_CHANGED")) TH_LOG("ESW events not subscribed on the EQ");
	EXPECT_NE(NULL, strstr(t, "DCT_DRAINED")) TH_LOG("DCT events not subscribed on the EQ");
	free(t);
}

TEST_F(dbg, health)
{
	char *t = dbg_read(self->dir, "health");
	char want[64];

	ASSERT_NE(NULL, t);
	snprintf(want, sizeof(want), "fw_rev: %u.%u.%u", self->info.fw_major, self->info.fw_minor,
		 self->info.fw_subminor);
	EXPECT_NE(NULL, strstr(t, want)) TH_LOG("'%s' not in health:\n%.400s", want, t);
	EXPECT_NE(NULL, strstr(t, "health syndrome: 0x00")) TH_LOG("firmware not healthy?");
	EXPECT_NE(NULL, strstr(t, "bring-up: OK")) TH_LOG("health:\n%.600s", t);
	free(t);
}

TEST_HARNESS_MAIN
