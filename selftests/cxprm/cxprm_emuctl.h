/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's client of cxprm-emud's test control page
 * (tools/emulator/daemon/control.h): mapping it through sysfs, running
 * control commands and queries.  cxprm_emuctl.c is its command line.
 */
#ifndef CXPRM_SELFTEST_EMUCTL_H
#define CXPRM_SELFTEST_EMUCTL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/emulator/daemon/control.h"
#include "cxprm_util.h"

/* --- the emulator's test control page --------------------------------------- */

struct emuctl {
	volatile uint32_t *page;
	size_t bar_size;
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

/* The current length of BAR 'bar' from sysfs "resource"; 0 if unknown. */
static inline unsigned long long emuctl_bar_len(const char *bdf, int bar)
{
	unsigned long long start = 0, end = 0, flags;
	char path[300];
	FILE *f;
	int i, n = 0;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource", bdf);
	f = fopen(path, "re");
	if (!f)
		return 0;
	for (i = 0; i <= bar; i++)
		n = fscanf(f, "%llx %llx %llx", &start, &end, &flags);
	fclose(f);
	return n == 3 && end > start ? end - start + 1 : 0;
}

/*
 * Maps the last page of the ivshmem BAR through sysfs.  While cxprm holds
 * the BAR (pci_request_regions) this needs the guest kernel booted with
 * iomem=relaxed (CONFIG_IO_STRICT_DEVMEM).  0, or -errno.
 */
static inline int emuctl_open(struct emuctl *e, const char *bdf)
{
	char path[300];
	struct stat sb;
	void *m;
	int fd;

	memset(e, 0, sizeof(*e));
	if (!bdf)
		return -ENODEV;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource2", bdf);
	fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) || sb.st_size < (off_t)CXPRM_EMUD_CTRL_SIZE) {
		close(fd);
		return -EINVAL;
	}
	e->bar_size = (size_t)sb.st_size;
	/*
	 * After cxswap.ko (mlx5_core's guest helper) the shared memory is
	 * resource[0] (the sysfs files keep their sizes from boot, the
	 * "resource" table is current): the BAR of at least 64 KiB.
	 */
	if (emuctl_bar_len(bdf, 2) < 65536 && emuctl_bar_len(bdf, 0) >= 65536) {
		close(fd);
		e->bar_size = (size_t)emuctl_bar_len(bdf, 0);
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource0", bdf);
		fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
		if (fd < 0)
			return -errno;
	}
	m = mmap(NULL, CXPRM_EMUD_CTRL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)CXPRM_EMUD_CTRL_OFFSET(e->bar_size));
	close(fd);
	if (m == MAP_FAILED)
		return -errno;
	e->page = m;
	if (emuctl_rd(e, CXPRM_EMUD_CTRL_MAGIC) != CXPRM_EMUD_MAGIC) {
		/* Memory decoding may be off while no driver has the device. */
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/enable", bdf);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			ssize_t w = write(fd, "1", 1);

			(void)w;
			close(fd);
		}
	}
	if (emuctl_rd(e, CXPRM_EMUD_CTRL_MAGIC) != CXPRM_EMUD_MAGIC) {
		munmap(m, CXPRM_EMUD_CTRL_SIZE);
		e->page = NULL;
		return -ENXIO;
	}
	return 0;
}

static inline void emuctl_close(struct emuctl *e)
{
	if (e->page)
		munmap((void *)e->page, CXPRM_EMUD_CTRL_SIZE);
	e->page = NULL;
}

/* Runs one control command: CXPRM_EMUD_ST_*, or -ETIMEDOUT. */
static inline int emuctl_cmd(struct emuctl *e, uint32_t cmd, const uint32_t *args, unsigned int nargs,
			     uint64_t *result)
{
	uint32_t seq = emuctl_rd(e, CXPRM_EMUD_CTRL_ACK) + 1;
	uint64_t deadline = now_ns() + 5000000000ull;
	unsigned int i;

	if (!seq)
		seq = 1;
	for (i = 0; i < nargs && i < CXPRM_EMUD_CTRL_NARGS; i++)
		emuctl_wr(e, CXPRM_EMUD_CTRL_ARG(i), args[i]);
	emuctl_wr(e, CXPRM_EMUD_CTRL_CMD, cmd);
	emuctl_wr(e, CXPRM_EMUD_CTRL_SEQ, seq);
	while (emuctl_rd(e, CXPRM_EMUD_CTRL_ACK) != seq) {
		if (now_ns() > deadline)
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

#endif /* CXPRM_SELFTEST_EMUCTL_H */
