/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixture pieces of the cxprm selftests, with the harness's assertions
 * (include after kselftest_harness.h): opening the device and the control
 * page, the emulator profile, a body run in a child process.
 */
#ifndef CXPRM_SELFTEST_HARNESS_H
#define CXPRM_SELFTEST_HARNESS_H

#include "cxprm_test.h"

/* call fails with errno e. */
#define EXPECT_ERRNO(e, call) do {						\
		errno = 0;							\
		EXPECT_EQ(-1, call) TH_LOG(#call " succeeded");			\
		EXPECT_EQ(e, errno) TH_LOG(#call ": %s", strerror(errno));	\
	} while (0)

/* The device opened with flags (O_RDWR, ...); the test stops if it cannot be. */
static inline int dev_open(struct __test_metadata *_metadata, int flags)
{
	int fd = cxprm_open_flags(flags);

	ASSERT_LE(0, fd) TH_LOG("open %s: %s", cxprm_dev_path(), strerror(errno));
	return fd;
}

/* The device opened read-write and its INFO in *info. */
static inline int dev_open_info(struct __test_metadata *_metadata, struct cxprm_info *info)
{
	int fd = dev_open(_metadata, O_RDWR);

	ASSERT_EQ(0, ioctl(fd, CXPRM_IOC_INFO, info)) TH_LOG("INFO: %s", strerror(errno));
	return fd;
}

/*
 * The control page if the daemon serves it (1, else 0) and the profile it
 * runs, else the one of INFO's firmware version (NULL if none).
 */
static inline int emu_open_profile(struct emuctl *emu, const struct cxprm_info *info,
				   const struct emu_profile **prof)
{
	int have = emuctl_open(emu, cxprm_bdf()) == 0;

	*prof = have ? emu_profile_of(emu) : emu_profile_by_fw(info->fw_major);
	return have;
}

/* The control page, which the test needs. */
static inline void emu_open_required(struct __test_metadata *_metadata, struct emuctl *emu)
{
	int r = emuctl_open(emu, cxprm_bdf());

	ASSERT_EQ(0, r) TH_LOG("emulator control page: %s (boot the guest with iomem=relaxed)",
			       strerror(-r));
}

/* The device (read-write) and the control page, which the test needs. */
static inline int dev_open_emu(struct __test_metadata *_metadata, struct emuctl *emu)
{
	int fd = dev_open(_metadata, O_RDWR);

	emu_open_required(_metadata, emu);
	return fd;
}

/*
 * What dev_open_emu opened, for a teardown: fd 0 is the zeroed fixture's
 * (a setup that skipped before opening), not the device's.
 */
static inline void dev_emu_close(int fd, struct emuctl *emu)
{
	emuctl_close(emu);
	if (fd > 0)
		close(fd);
}

/* The device and the control page, no fault armed. */
static inline int dev_open_emu_clear(struct __test_metadata *_metadata, struct emuctl *emu)
{
	int fd = dev_open_emu(_metadata, emu);

	ASSERT_EQ(CXPRM_EMUD_ST_OK, emuctl_fault_clear(emu));
	return fd;
}

/* The next QUERY_ISSI succeeds and the device is UP. */
static inline void expect_still_fine(struct __test_metadata *_metadata, int fd)
{
	struct cxprm_raw_cmd r;
	struct cxprm_info i;

	EXPECT_EQ(0, raw_issi_dump(fd, &r, NULL, 0)) TH_LOG("the next command failed: %s", strerror(errno));
	EXPECT_EQ(ST_OK, r.st.status);
	ASSERT_EQ(0, ioctl(fd, CXPRM_IOC_INFO, &i));
	EXPECT_EQ(CXPRM_STATE_UP, i.state);
}

/*
 * INFO into *i every poll_us until done(i, arg) holds or now_ns() is past
 * end (an absolute deadline): 0 once it held, -ETIMEDOUT after (*i the last
 * INFO read, zeroed if none was).  A failed INFO is not done.  The wait of
 * a recovery (cxprm_recover_test.c, the soak's crash).
 */
static inline int wait_info(int fd, struct cxprm_info *i, uint64_t end, unsigned int poll_us,
			    int (*done)(const struct cxprm_info *i, uint32_t arg), uint32_t arg)
{
	memset(i, 0, sizeof(*i));
	for (;;) {
		if (ioctl(fd, CXPRM_IOC_INFO, i) == 0 && done(i, arg))
			return 0;
		if (now_ns() > end)
			return -ETIMEDOUT;
		usleep(poll_us);
	}
}

/* Runs the body in a child process, which must exit cleanly. */
#define IN_CHILD(...) do {							\
	pid_t __pid;								\
	int __st = 0;								\
	fflush(NULL);								\
	__pid = fork();								\
	ASSERT_LE(0, __pid);							\
	if (__pid == 0) {							\
		__VA_ARGS__;							\
		_exit(_metadata->passed ? 0 : 1);				\
	}									\
	ASSERT_EQ(__pid, waitpid(__pid, &__st, 0));				\
	ASSERT_TRUE(WIFEXITED(__st) && WEXITSTATUS(__st) == 0)			\
		TH_LOG("child failed (wait status 0x%x)", __st);		\
} while (0)

#endif /* CXPRM_SELFTEST_HARNESS_H */
