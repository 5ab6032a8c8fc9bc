/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plain helpers of the cxprm selftests: the clock, sleeping, reading and
 * writing small (sysfs) files, polling a descriptor.
 */
#ifndef CXPRM_SELFTEST_UTIL_H
#define CXPRM_SELFTEST_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The first line of a (sysfs) file into buf, without its newline: 0, or -1. */
static inline int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	if (!fgets(buf, (int)size, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* Reads a whole (small) file into a malloc'ed NUL-terminated buffer. */
static inline char *slurp(const char *path, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1);
	ssize_t r;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			char *nb = realloc(buf, cap * 2 + 1);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

static inline int all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		if (*b++)
			return 0;
	return 1;
}

/* Writes val to a sysfs file: 0, or -errno. */
static inline int sysfs_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -errno;
}

/* Waits for POLLIN on fd up to ms; 1 readable, 0 timeout, -1 error. */
static inline int wait_readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r;

	do {
		r = poll(&p, 1, ms);
	} while (r < 0 && errno == EINTR);
	if (r > 0 && !(p.revents & POLLIN))
		return -1;
	return r;
}

#endif /* CXPRM_SELFTEST_UTIL_H */
