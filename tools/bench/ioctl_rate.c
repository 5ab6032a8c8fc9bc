// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cxprm-bench-ioctl: commands per second through the cxprm ioctls, run in
 * the QEMU guest against cxprm-emud (tools/bench/bench.sh ships it, static).
 *
 *   caps  CXPRM_IOC_QUERY_CAPS (QUERY_HCA_CAP GENERAL CUR, 4 KiB out)
 *   raw   CXPRM_IOC_RAW with QUERY_PAGES(REGULAR) (16 bytes each way)
 *
 *   cxprm-bench-ioctl [SECONDS]     device: /dev/cxprm/$CXPRM_BDF
 *
 * Prints "guest-ioctl <name> <commands/s>" lines; exits non-zero when an
 * ioctl or its firmware command fails.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/cxprm.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct cxprm_caps caps;

static int one_caps(int fd)
{
	memset(&caps, 0, 16);
	if (ioctl(fd, CXPRM_IOC_QUERY_CAPS, &caps))
		return -1;
	return caps.st.delivery || caps.st.status ? -1 : 0;
}

static int one_raw(int fd)
{
	/* QUERY_PAGES (0x107), op_mod 3 (regular pages): 16 bytes each way. */
	unsigned char in[16] = { 0x01, 0x07, 0, 0, 0, 0, 0, 3 }, out[16];
	struct cxprm_raw_cmd r;

	memset(&r, 0, sizeof(r));
	r.in = (unsigned long)in;
	r.out = (unsigned long)out;
	r.inlen = sizeof(in);
	r.outlen = sizeof(out);
	if (ioctl(fd, CXPRM_IOC_RAW, &r))
		return -1;
	return r.st.delivery || r.st.status ? -1 : 0;
}

static double rate(int fd, int (*fn)(int), double secs)
{
	double t0 = now_s(), t;
	long n = 0;

	do {
		for (int i = 0; i < 16; i++)
			if (fn(fd)) {
				perror("cxprm-bench-ioctl");
				return -1;
			}
		n += 16;
		t = now_s();
	} while (t - t0 < secs);
	return n / (t - t0);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3.0;
	const char *bdf = getenv("CXPRM_BDF");
	char path[96];
	double c, r;
	int fd;

	if (!bdf) {
		fprintf(stderr, "cxprm-bench-ioctl: no CXPRM_BDF\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/dev/cxprm/%s", bdf);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	c = rate(fd, one_caps, secs);
	r = rate(fd, one_raw, secs);
	close(fd);
	if (c < 0 || r < 0)
		return 1;
	printf("guest-ioctl caps %.0f\nguest-ioctl raw %.0f\n", c, r);
	return 0;
}
