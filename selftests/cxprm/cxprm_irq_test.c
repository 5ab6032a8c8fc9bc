// SPDX-License-Identifier: GPL-2.0
/*
 * The interrupt path (run_guest_tests.sh's MSI-X mode: run-guest.sh --msix,
 * QEMU's ivshmem-doorbell with cxprm-emud as its ivshmem server): with
 * CXPRM_TEST_MSIX=1, INFO flags IRQ, the driver's MSI-X vector is in
 * /proc/interrupts, and commands and page requests make its count, and the
 * count in debugfs "eq", go up.  Without it (ivshmem-plain), INFO does not
 * flag IRQ and debugfs says the EQ is polled only.
 */
#define _GNU_SOURCE
#include <sys/mount.h>

#include "kselftest_harness.h"
#include "cxprm_test.h"

static int msix_mode(void)
{
	const char *e = getenv("CXPRM_TEST_MSIX");

	return e && *e && strcmp(e, "0") != 0;
}

/* The driver's vector in /proc/interrupts ("cxprm-<bdf>"): the sum of its
 * per-CPU counts, or -1 when it is not there. */
static long long proc_irq_count(void)
{
	char name[300], *text, *line, *save = NULL;
	long long total = -1;

	snprintf(name, sizeof(name), "cxprm-%s", cxprm_bdf());
	text = slurp("/proc/interrupts", NULL);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = strchr(line, ':');
		const char *end = line + strlen(line);

		if (!p || strlen(line) < strlen(name) ||
		    strcmp(end - strlen(name), name) != 0)
			continue;
		total = 0;
		for (p++;;) {
			char *q;
			long long v = strtoll(p, &q, 10);

			if (q == p)
				break;
			total += v;
			p = q;
		}
		break;
	}
	free(text);
	return total;
}

/* debugfs eq's "MSI-X interrupts N"; -1 if absent. */
static long long dbg_irq_count(char **text_out)
{
	char path[300], *text, *p;
	long long v = -1;
	struct stat sb;

	if (stat("/sys/kernel/debug/cxprm", &sb))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	snprintf(path, sizeof(path), "/sys/kernel/debug/cxprm/%s/eq", cxprm_bdf());
	text = slurp(path, NULL);
	if (!text)
		return -1;
	p = strstr(text, "MSI-X interrupts ");
	if (p)
		v = strtoll(p + strlen("MSI-X interrupts "), NULL, 10);
	if (text_out)
		*text_out = text;
	else
		free(text);
	return v;
}

FIXTURE(irq) {
	int fd;
	struct cxprm_info info;
};

FIXTURE_SETUP(irq)
{
	self->fd = cxprm_open();
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", cxprm_dev_path(), strerror(errno));
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &self->info));
}

FIXTURE_TEARDOWN(irq)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(irq, info_flag_matches_the_device)
{
	char *text = NULL;
	long long n = dbg_irq_count(&text);

	ASSERT_NE(NULL, text);
	if (msix_mode()) {
		EXPECT_TRUE(self->info.flags & CXPRM_INFO_IRQ)
			TH_LOG("MSI-X mode but INFO flags 0x%x lack IRQ", self->info.flags);
		EXPECT_LE(0, proc_irq_count()) TH_LOG("no cxprm-%s in /proc/interrupts", cxprm_bdf());
		EXPECT_EQ(NULL, strstr(text, "no interrupt line")) TH_LOG("%s", text);
	} else {
		EXPECT_FALSE(self->info.flags & CXPRM_INFO_IRQ);
		EXPECT_EQ(-1, proc_irq_count());
		EXPECT_NE(NULL, strstr(text, "no interrupt line")) TH_LOG("%s", text);
	}
	EXPECT_LE(0, n) TH_LOG("%s", text);
	free(text);
}

/* Commands (event mode: every completion is an EQE) and page requests
 * (always EQEs) interrupt; the handler's count and the kernel's agree that
 * some arrived.  EQEs written while the EQ is not re-armed yet share one
 * interrupt, so only "some" is asserted, not one per EQE. */
TEST_F(irq, events_raise_interrupts)
{
	struct cxprm_cmd_status st;
	struct emuctl e;
	long long p0, d0, p1, d1;
	int i;

	if (!msix_mode())
		SKIP(return, "set CXPRM_TEST_MSIX=1 (run-guest.sh --msix)");
	p0 = proc_irq_count();
	d0 = dbg_irq_count(NULL);
	ASSERT_LE(0, p0);
	ASSERT_LE(0, d0);
	for (i = 0; i < 20; i++)
		ASSERT_EQ(0, raw_query_issi(self->fd, &st, NULL)) TH_LOG("QUERY_ISSI: %s", strerror(errno));
	if (emuctl_open(&e, cxprm_bdf()) == 0) {
		EXPECT_EQ(0, emuctl_request_pages(&e, 8));
		sleep_ms(200);
		EXPECT_EQ(0, emuctl_request_pages(&e, -8));
		emuctl_close(&e);
	}
	sleep_ms(300);
	p1 = proc_irq_count();
	d1 = dbg_irq_count(NULL);
	TH_LOG("interrupts: /proc/interrupts %lld -> %lld, debugfs %lld -> %lld (%s)", p0, p1, d0, d1,
	       self->info.flags & CXPRM_INFO_EVENT_MODE ? "CMD events" : "commands polled");
	EXPECT_LT(p0, p1);
	EXPECT_LT(d0, d1);
	/* The handler counts what the kernel delivered to it. */
	EXPECT_LE(d1 - d0, p1 - p0 + 1);
}

TEST_HARNESS_MAIN
