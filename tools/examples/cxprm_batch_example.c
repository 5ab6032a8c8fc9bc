// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cxprm_batch_example: N DCTs created with one CXPRM_IOC_BATCH, their
 * CREATE_DCT commands in flight together (Documentation/batch.rst), then
 * queried with another.  A PD, a CQ and an SRQ of the file's own are what
 * the DCTs name; closing the file destroys all of it.  Needs
 * CAP_NET_ADMIN and cxprm.ko bound to the device.
 *
 *   cxprm_batch_example /dev/cxprm/0000:00:03.0 [N]     (N: 1..60, default 16)
 *
 * Prints one line per DCT (number, state, firmware latency) and exits 0
 * when every op succeeded, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/cxprm.h>

#define MAX_DCTS 60 /* a file holds 64 DCTs */

/* OBJ_CREATE of o: its number, or 0 after saying why. */
static uint32_t create(int fd, struct cxprm_obj *o, const char *what)
{
	if (ioctl(fd, CXPRM_IOC_OBJ_CREATE, o)) {
		fprintf(stderr, "%s: %s\n", what, strerror(errno));
		return 0;
	}
	if (o->st.status) {
		fprintf(stderr, "%s: firmware status 0x%x syndrome 0x%08x\n", what, o->st.status,
			o->st.syndrome);
		return 0;
	}
	return o->id;
}

/* One batch of n ops of ioctl cmd on the n structs at args (size bytes each). */
static int batch(int fd, unsigned int cmd, void *args, size_t size, unsigned int n,
		 struct cxprm_batch_op *ops)
{
	struct cxprm_batch b = { .count = n, .ops = (uintptr_t)ops };
	unsigned int i;

	for (i = 0; i < n; i++)
		ops[i] = (struct cxprm_batch_op){ .cmd = cmd, .arg = (uintptr_t)((char *)args + i * size) };
	if (ioctl(fd, CXPRM_IOC_BATCH, &b)) {
		fprintf(stderr, "CXPRM_IOC_BATCH: %s\n", strerror(errno));
		return -1;
	}
	return b.done == n ? 0 : -1;
}

int main(int argc, char **argv)
{
	static struct cxprm_dct d[MAX_DCTS], q[MAX_DCTS];
	static struct cxprm_batch_op ops[MAX_DCTS];
	struct cxprm_obj pd = { .type = CXPRM_OBJ_PD }, cq = { .type = CXPRM_OBJ_CQ };
	struct cxprm_obj srq = { .type = CXPRM_OBJ_SRQ };
	unsigned int n = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 0) : 16, i;
	int fd, bad = 0;

	if (argc < 2 || n < 1 || n > MAX_DCTS) {
		fprintf(stderr, "usage: %s /dev/cxprm/<bdf> [N: 1..%d]\n", argv[0], MAX_DCTS);
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	cq.u.cq.log_size = 6;
	srq.u.srq.log_size = 6;
	srq.u.srq.log_stride = 2;
	if (!create(fd, &pd, "PD") || !create(fd, &cq, "CQ"))
		return 1;
	srq.u.srq.pd = pd.id;
	if (!create(fd, &srq, "SRQ"))
		return 1;
	for (i = 0; i < n; i++) {
		memset(&d[i], 0, sizeof(d[i]));
		d[i].ctx.pd = pd.id;
		d[i].ctx.cqn = cq.id;
		d[i].ctx.srqn_xrqn = srq.id;
		d[i].ctx.port = 1;
		d[i].ctx.mtu = 3; /* 1024 */
	}
	/* All the CREATE_DCTs in flight together. */
	if (batch(fd, CXPRM_IOC_DCT_CREATE, d, sizeof(d[0]), n, ops))
		bad = 1;
	for (i = 0; i < n; i++) {
		memset(&q[i], 0, sizeof(q[i]));
		q[i].dctn = d[i].dctn;
		if (ops[i].result || d[i].st.status) {
			fprintf(stderr, "DCT %u: %s, status 0x%x\n", i, strerror(-ops[i].result), d[i].st.status);
			bad = 1;
		}
	}
	if (bad)
		return 1;
	if (batch(fd, CXPRM_IOC_DCT_QUERY, q, sizeof(q[0]), n, ops))
		return 1;
	for (i = 0; i < n; i++)
		printf("DCT 0x%06x state %u created in %llu ns\n", d[i].dctn, q[i].ctx.state,
		       (unsigned long long)d[i].st.latency_ns);
	/* Closing the file destroys its DCTs, then its SRQ, CQ and PD. */
	close(fd);
	return 0;
}
