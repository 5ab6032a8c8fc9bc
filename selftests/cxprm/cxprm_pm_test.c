// SPDX-License-Identifier: GPL-2.0
/*
 * Suspend-to-idle and resume with the function bound and a file open
 * (CXPRM_TEST_SUSPEND=1, the guest step 'suspend').  The step sets
 * CXPRM_PM_TEST=devices: the PM core's test mode (/sys/power/pm_test) runs
 * every device's suspend callbacks, waits, and resumes them, because an
 * RTC alarm does not wake a q35 TCG guest from s2idle (observed: "PM:
 * suspend entry (s2idle)", then nothing for 90 s, with and without HPET).
 * CXPRM_PM_TEST= (empty) tries the real freeze with the alarm.  The driver unloads
 * the function at suspend (every page reclaimed) and brings it up at
 * resume: the file still works, its PD is -ESTALE (the firmware lost it),
 * commands and new objects work, and the firmware holds exactly the pages
 * the driver says it gave.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "cxprm_harness.h"

#define WAKEALARM "/sys/class/rtc/rtc0/wakealarm"
#define RTC_WAKEUP "/sys/class/rtc/rtc0/device/power/wakeup"

FIXTURE(pm) {
	int fd;
	struct emuctl emu;
	int run;
};

FIXTURE_SETUP(pm)
{
	const char *pm_test = getenv("CXPRM_PM_TEST");

	if (getenv("CXPRM_TEST_SUSPEND") &&
	    (access("/sys/power/state", W_OK) ||
	     (pm_test && *pm_test ? access("/sys/power/pm_test", W_OK) : access(WAKEALARM, W_OK))))
		SKIP(return, "this kernel cannot suspend (no /sys/power/state, pm_test or RTC alarm)");
	if (!getenv("CXPRM_TEST_SUSPEND"))
		SKIP(return, "set CXPRM_TEST_SUSPEND=1 (it suspends the machine)");
	self->fd = dev_open_emu(_metadata, &self->emu);
	self->run = 1;
}

FIXTURE_TEARDOWN(pm)
{
	dev_emu_close(self->fd, &self->emu);
}

TEST_F_TIMEOUT(pm, freeze_and_resume_with_a_file_open, 120)
{
	struct cxprm_info before, after;
	struct cxprm_caps caps;
	const char *pm_test = getenv("CXPRM_PM_TEST");
	uint32_t pd = 0, pd2 = 0;
	long long held;
	uint64_t t0;

	if (!self->run)
		return;
	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &before));
	ASSERT_EQ(CXPRM_STATE_UP, before.state);
	ASSERT_EQ(0, pd_ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &pd));

	/* Suspend-to-idle until the alarm, 3 s from now (or pm_test's mode). */
	if (pm_test && *pm_test)
		ASSERT_EQ(0, sysfs_write("/sys/power/pm_test", pm_test));
	/* The alarm wakes the system only when its device may wake it. */
	if (access(RTC_WAKEUP, W_OK) == 0)
		ASSERT_EQ(0, sysfs_write(RTC_WAKEUP, "enabled"));
	ASSERT_EQ(0, sysfs_write(WAKEALARM, "0"));
	ASSERT_EQ(0, sysfs_write(WAKEALARM, "+3"));
	t0 = now_ns();
	if (getenv("CXPRM_PM_STATE") && !strcmp(getenv("CXPRM_PM_STATE"), "mem"))
		ASSERT_EQ(0, sysfs_write("/sys/power/mem_sleep", "deep")) TH_LOG("mem_sleep deep: %s", strerror(errno));
	ASSERT_EQ(0, sysfs_write("/sys/power/state", getenv("CXPRM_PM_STATE") ? getenv("CXPRM_PM_STATE") : "freeze"))
		TH_LOG("suspend: %s", strerror(errno));
	TH_LOG("suspended and resumed in %.1f s", (now_ns() - t0) / 1e9);
	if (pm_test && *pm_test)
		sysfs_write("/sys/power/pm_test", "none");

	ASSERT_EQ(0, ioctl(self->fd, CXPRM_IOC_INFO, &after));
	EXPECT_EQ(CXPRM_STATE_UP, after.state);
	EXPECT_EQ(0, after.flags & CXPRM_INFO_FAILED);
	/* The pages of this bring-up: the firmware holds what the driver gave. */
	held = emuctl_query(&self->emu, CXPRM_EMUD_Q_PAGES_HELD, 0, 0, 0);
	EXPECT_EQ((long long)(after.pages_given - after.pages_reclaimed), held);
	EXPECT_LT(0, held);

	EXPECT_EQ(-ESTALE, pd_ioctl(self->fd, CXPRM_IOC_OBJ_DESTROY, &pd));
	memset(&caps, 0, sizeof(caps));
	EXPECT_EQ(0, ioctl(self->fd, CXPRM_IOC_QUERY_CAPS, &caps)) TH_LOG("caps: %s", strerror(errno));
	EXPECT_EQ(0, caps.st.status);
	ASSERT_EQ(0, pd_ioctl(self->fd, CXPRM_IOC_OBJ_CREATE, &pd2));
	EXPECT_EQ(0, pd_ioctl(self->fd, CXPRM_IOC_OBJ_DESTROY, &pd2));
}

TEST_HARNESS_MAIN
