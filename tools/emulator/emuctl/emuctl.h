/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emuctl: the client of cxprm-emud's test control page
 * (tools/emulator/daemon/control.h), the one the guest has: the library
 * the kselftests include and /bin/emuctl (emuctl_main.c) is built on.
 *
 * The page is the last 4 KiB of the ivshmem BAR, mapped either through
 * sysfs (/sys/bus/pci/devices/BDF/resource2, or resource0 once cxswap.ko
 * swapped the BARs for mlx5_core) in a guest, or from the BAR file itself
 * on the host (emuctl_open_file: the file cxprm-emud --bar serves).
 * While cxprm holds the BAR (pci_request_regions) the sysfs mapping needs
 * the guest kernel booted with iomem=relaxed (CONFIG_IO_STRICT_DEVMEM).
 *
 * Header-only (static functions) so that every selftest stays one .c file.
 */
#ifndef CXPRM_EMUCTL_H
#define CXPRM_EMUCTL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../daemon/control.h"

#define EMUCTL_SYSFS		"/sys/bus/pci/devices"
#define EMUCTL_TIMEOUT_MS	5000u	/* a command's answer; DEVICE_GONE takes ~1 s */

struct emuctl {
	volatile uint32_t *page;
	void *map;			/* the mmap holding page (from a system page boundary) */
	size_t map_len;
	size_t bar_size;
	unsigned long long bar_start;	/* physical address of the BAR (sysfs), else 0 */
	int bar;			/* 2, or 0 after cxswap; -1 for a BAR file */
	unsigned int timeout_ms;	/* 0: EMUCTL_TIMEOUT_MS */
	char bdf[32];			/* the device, empty for a BAR file */
};

static inline uint32_t emuctl_rd(struct emuctl *e, uint32_t off)
{
	return e->page[off / 4];
}

static inline void emuctl_wr(struct emuctl *e, uint32_t off, uint32_t v)
{
	e->page[off / 4] = v;
	__sync_synchronize();
}

static inline uint64_t emuctl_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* BAR 'bar' of bdf from sysfs "resource" (current, unlike the resourceN sizes). */
static inline int emuctl_bar_range(const char *bdf, int bar, unsigned long long *start,
				   unsigned long long *len)
{
	unsigned long long s = 0, end = 0, flags;
	char path[300];
	FILE *f;
	int i, n = 0;

	*start = *len = 0;
	snprintf(path, sizeof(path), EMUCTL_SYSFS "/%s/resource", bdf);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	for (i = 0; i <= bar; i++)
		n = fscanf(f, "%llx %llx %llx", &s, &end, &flags);
	fclose(f);
	if (n != 3 || end <= s)
		return -ENODEV;
	*start = s;
	*len = end - s + 1;
	return 0;
}

/*
 * Maps the control page at the end of the first 'size' bytes of fd.  The
 * page is 4 KiB (the daemon's layout), but mmap offsets count system pages,
 * which an arm64 guest may have of 16 or 64 KiB: the mapping starts at the
 * system page holding the control page.
 */
static inline int emuctl_map_fd(struct emuctl *e, int fd, size_t size)
{
	size_t off = CXPRM_EMUD_CTRL_OFFSET(size), base, len;
	long pg = sysconf(_SC_PAGESIZE);
	void *m;

	if (size < CXPRM_EMUD_CTRL_SIZE || size % CXPRM_EMUD_CTRL_SIZE)
		return -EINVAL;
	if (pg <= 0 || (pg & (pg - 1)))
		pg = 4096;
	base = off & ~((size_t)pg - 1);
	len = off - base + CXPRM_EMUD_CTRL_SIZE;
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)base);
	if (m == MAP_FAILED)
		return -errno;
	e->map = m;
	e->map_len = len;
	e->page = (volatile uint32_t *)((char *)m + (off - base));
	e->bar_size = size;
	return 0;
}

/*
 * Maps the control page of the ivshmem device bdf (no magic check: see
 * emuctl_ready).  0, or -errno: -ENOENT no such device, -EINVAL or -EPERM
 * a driver holds the BAR and the kernel runs without iomem=relaxed.
 */
static inline int emuctl_map_bdf(struct emuctl *e, const char *bdf)
{
	unsigned long long start, len, start0, len0;
	char path[300];
	int fd, r;

	memset(e, 0, sizeof(*e));
	if (!bdf || !*bdf || strlen(bdf) >= sizeof(e->bdf) || strchr(bdf, '/'))
		return -ENODEV;
	snprintf(e->bdf, sizeof(e->bdf), "%s", bdf);
	r = emuctl_bar_range(bdf, 2, &start, &len);
	if (r == -ENOENT)
		return r;
	e->bar = 2;
	/* After cxswap.ko the shared memory is BAR 0: the one of at least 64 KiB. */
	if (len < 65536 && !emuctl_bar_range(bdf, 0, &start0, &len0) && len0 >= 65536) {
		e->bar = 0;
		start = start0;
		len = len0;
	}
	if (!len)
		return -ENODEV;
	e->bar_start = start;
	snprintf(path, sizeof(path), EMUCTL_SYSFS "/%s/resource%d", bdf, e->bar);
	fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = emuctl_map_fd(e, fd, (size_t)len);
	close(fd);
	return r;
}

/* Maps the control page of a BAR file (the host side of the BAR). */
static inline int emuctl_map_file(struct emuctl *e, const char *path)
{
	struct stat sb;
	int fd, r;

	memset(e, 0, sizeof(*e));
	e->bar = -1;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = fstat(fd, &sb) ? -errno : emuctl_map_fd(e, fd, (size_t)sb.st_size);
	close(fd);
	return r;
}

/*
 * Whether cxprm-emud serves the page (its magic is there).  Memory decoding
 * may be off while no driver has the device: then it is turned on once.
 */
static inline int emuctl_ready(struct emuctl *e)
{
	char path[300];
	int fd;

	if (emuctl_rd(e, CXPRM_EMUD_CTRL_MAGIC) == CXPRM_EMUD_MAGIC)
		return 1;
	if (!e->bdf[0])
		return 0;
	snprintf(path, sizeof(path), EMUCTL_SYSFS "/%s/enable", e->bdf);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t w = write(fd, "1", 1);

		(void)w;
		close(fd);
	}
	return emuctl_rd(e, CXPRM_EMUD_CTRL_MAGIC) == CXPRM_EMUD_MAGIC;
}

static inline void emuctl_close(struct emuctl *e)
{
	if (e->map)
		munmap(e->map, e->map_len);
	e->map = NULL;
	e->page = NULL;
}

/* r from a map function; then whether the daemon serves the page: 0, -errno, -ENXIO. */
static inline int emuctl_opened(struct emuctl *e, int r)
{
	if (!r && !emuctl_ready(e)) {
		emuctl_close(e);
		r = -ENXIO;
	}
	return r;
}

/* Maps the page of bdf and checks that the daemon serves it. */
static inline int emuctl_open(struct emuctl *e, const char *bdf)
{
	return emuctl_opened(e, emuctl_map_bdf(e, bdf));
}

/* The same for a BAR file. */
static inline int emuctl_open_file(struct emuctl *e, const char *path)
{
	return emuctl_opened(e, emuctl_map_file(e, path));
}

/* Runs one control command: CXPRM_EMUD_ST_*, or -ETIMEDOUT. */
static inline int emuctl_cmd(struct emuctl *e, uint32_t cmd, const uint32_t *args, unsigned int nargs,
			     uint64_t *result)
{
	uint32_t seq = emuctl_rd(e, CXPRM_EMUD_CTRL_ACK) + 1;
	uint64_t deadline = emuctl_now_ms() + (e->timeout_ms ? e->timeout_ms : EMUCTL_TIMEOUT_MS);
	unsigned int i;

	if (!seq)
		seq = 1;
	for (i = 0; i < nargs && i < CXPRM_EMUD_CTRL_NARGS; i++)
		emuctl_wr(e, CXPRM_EMUD_CTRL_ARG(i), args[i]);
	emuctl_wr(e, CXPRM_EMUD_CTRL_CMD, cmd);
	emuctl_wr(e, CXPRM_EMUD_CTRL_SEQ, seq);
	while (emuctl_rd(e, CXPRM_EMUD_CTRL_ACK) != seq) {
		if (emuctl_now_ms() > deadline)
			return -ETIMEDOUT;
		usleep(50);
	}
	__sync_synchronize();
	if (result)
		*result = (uint64_t)emuctl_rd(e, CXPRM_EMUD_CTRL_RESULT_HI) << 32 |
			  emuctl_rd(e, CXPRM_EMUD_CTRL_RESULT_LO);
	return (int)emuctl_rd(e, CXPRM_EMUD_CTRL_STATUS);
}

/* A CXPRM_EMUD_Q_* value, or -1 (status in errno). */
static inline long long emuctl_query(struct emuctl *e, uint32_t what, uint32_t a1, uint32_t a2, uint32_t a3)
{
	uint32_t args[4] = { what, a1, a2, a3 };
	uint64_t v = 0;
	int st = emuctl_cmd(e, CXPRM_EMUD_CMD_QUERY, args, 4, &v);

	if (st) {
		errno = st < 0 ? -st : EIO;
		return -1;
	}
	return (long long)v;
}

/*
 * The emulated SSD's I/O queue pair qid, created afresh for a peer (what
 * CXPRM_OBJ_NVMF_BACKEND names): 0, or a CXPRM_EMUD_ST_* / -errno.
 */
struct emuctl_nvme_queue {
	uint64_t sq_bus, cq_bus, sqt_db_bus;
	uint32_t db_stride, depth;
};
static inline int emuctl_nvme_queue(struct emuctl *e, uint32_t qid, struct emuctl_nvme_queue *q)
{
	long long v[5];
	int i, st = emuctl_cmd(e, CXPRM_EMUD_CMD_NVME_QUEUE, &qid, 1, NULL);

	for (i = 0; !st && i < 5; i++) {
		v[i] = emuctl_query(e, CXPRM_EMUD_Q_NVME_QUEUE, qid, (uint32_t)i, 0);
		if (v[i] < 0)
			st = CXPRM_EMUD_ST_BAD_ARG;
	}
	if (st)
		return st;
	q->sq_bus = (uint64_t)v[CXPRM_EMUD_NVMEQ_SQ_ADDR];
	q->cq_bus = (uint64_t)v[CXPRM_EMUD_NVMEQ_CQ_ADDR];
	q->sqt_db_bus = (uint64_t)v[CXPRM_EMUD_NVMEQ_SQ_DOORBELL];
	q->db_stride = (uint32_t)v[CXPRM_EMUD_NVMEQ_DB_STRIDE];
	q->depth = (uint32_t)v[CXPRM_EMUD_NVMEQ_DEPTH];
	return 0;
}

static inline int emuctl_set_num_vfs(struct emuctl *e, uint32_t n)
{
	return emuctl_cmd(e, CXPRM_EMUD_CMD_SET_NUM_VFS, &n, 1, NULL);
}

static inline int emuctl_nvmf_io(struct emuctl *e, uint32_t xrqn, uint32_t nsid, uint32_t reads,
				 uint32_t writes, uint32_t blocks)
{
	uint32_t args[5] = { xrqn, nsid, reads, writes, blocks };

	return emuctl_cmd(e, CXPRM_EMUD_CMD_NVMF_IO, args, 5, NULL);
}

/* Pauses (run 0) or runs (1) the NVMF automatic I/O tick; *was = 1 if it ran. */
static inline int emuctl_nvmf_auto_io(struct emuctl *e, int run, int *was)
{
	uint32_t arg = run ? 1 : 0;
	uint64_t v = 0;
	int r = emuctl_cmd(e, CXPRM_EMUD_CMD_NVMF_AUTO_IO, &arg, 1, &v);

	if (was)
		*was = v != 0;
	return r;
}

/* A PAGE_REQUEST naming a function (n signed; release_all drops its pages). */
static inline int emuctl_fn_pages(struct emuctl *e, int32_t n, uint16_t function_id, int ec,
				  int release_all)
{
	uint32_t args[4] = { (uint32_t)n, function_id, ec ? 1 : 0, release_all ? 1 : 0 };

	return emuctl_cmd(e, CXPRM_EMUD_CMD_FN_PAGES, args, 4, NULL);
}

/* The firmware asks for n pages (n < 0: gives -n back). */
static inline int emuctl_request_pages(struct emuctl *e, int32_t n)
{
	uint32_t a[1] = { (uint32_t)n };

	return emuctl_cmd(e, CXPRM_EMUD_CMD_REQUEST_PAGES, a, 1, NULL);
}

/* Sets one fault knob (CXPRM_EMUD_FAULT_*): CXPRM_EMUD_ST_*, or -ETIMEDOUT. */
static inline int emuctl_fault(struct emuctl *e, uint32_t knob, uint32_t v, uint32_t v2)
{
	uint32_t args[3] = { knob, v, v2 };

	return emuctl_cmd(e, CXPRM_EMUD_CMD_FAULT, args, 3, NULL);
}

/* Clears every per-command knob and the selectors. */
static inline int emuctl_fault_clear(struct emuctl *e)
{
	return emuctl_cmd(e, CXPRM_EMUD_CMD_FAULT_CLEAR, NULL, 0, NULL);
}

/*
 * The firmware restarts as after an assert (Emulator::firmware_restart):
 * 'initializing' for init_ms (0: the profile's fw_reset_ms), nic_interface
 * DISABLED, the driver must bring the device up again.
 */
static inline int emuctl_fw_restart(struct emuctl *e, uint32_t init_ms)
{
	return emuctl_cmd(e, CXPRM_EMUD_CMD_FW_RESTART, &init_ms, 1, NULL);
}

/* Arms one knob for the next command of 'opcode' only. */
static inline int emuctl_arm_once(struct emuctl *e, uint16_t opcode, uint32_t knob, uint32_t v,
				  uint32_t v2)
{
	if (emuctl_fault_clear(e) || emuctl_fault(e, CXPRM_EMUD_FAULT_ONLY_OPCODE, opcode, 0) ||
	    emuctl_fault(e, CXPRM_EMUD_FAULT_ONCE, 1, 0))
		return -1;
	return emuctl_fault(e, knob, v, v2);
}

static inline int emuctl_mark(struct emuctl *e, uint32_t n)
{
	return emuctl_cmd(e, CXPRM_EMUD_CMD_MARK, &n, 1, NULL);
}

#endif /* CXPRM_EMUCTL_H */
