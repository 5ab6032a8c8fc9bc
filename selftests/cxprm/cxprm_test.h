/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the cxprm selftests: finding and opening the device,
 * PRM byte/bit access, raw command builders, privilege dropping, the
 * emulator's test control page (tools/emulator/daemon/control.h) and what
 * the emulator's adapter profiles contain (tools/emulator/src/profiles.cpp).
 *
 * Header-only (static functions) so every test is one .c file; include it
 * after kselftest_harness.h.
 */
#ifndef CXPRM_SELFTEST_H
#define CXPRM_SELFTEST_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/cxprm.h>

#include "../../tools/emulator/daemon/control.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* --- firmware codes the tests look for ------------------------------------ */

/* cmd_out.status (MLX5_CMD_STAT_*) */
#define ST_OK			0x00
#define ST_BAD_OP		0x02
#define ST_BAD_PARAM		0x03
#define ST_BAD_SYS_STATE	0x04
#define ST_BAD_RES		0x05
#define ST_BAD_RES_STATE	0x09
#define ST_NO_RES		0x0f

/* Emulator syndromes (tools/emulator/include/cxprm_emu/syndromes.h). */
#define SYND_QUERY_CAP_BAD_TYPE		0xE3010008u
#define SYND_DCT_BAD_PD			0xE3040001u
#define SYND_DCT_UNKNOWN_QUERY		0xE304000bu
#define SYND_DCT_DRAIN_NOT_ACTIVE	0xE304000cu
#define SYND_NVMF_BAD_XRQN		0xE3060001u
#define SYND_NVMF_NS_EXISTS		0xE3060003u
#define SYND_NVMF_NS_UNKNOWN_QUERY	0xE3060006u

/* Opcodes. */
#define OP_QUERY_HCA_CAP		0x100
#define OP_QUERY_ADAPTER		0x101
#define OP_INIT_HCA			0x102
#define OP_TEARDOWN_HCA			0x103
#define OP_ENABLE_HCA			0x104
#define OP_DISABLE_HCA			0x105
#define OP_QUERY_PAGES			0x107
#define OP_MANAGE_PAGES			0x108
#define OP_SET_HCA_CAP			0x109
#define OP_QUERY_ISSI			0x10a
#define OP_SET_ISSI			0x10b
#define OP_SET_DRIVER_VERSION		0x10d
#define OP_CREATE_EQ			0x301
#define OP_DESTROY_EQ			0x302
#define OP_QUERY_EQ			0x303
#define OP_CREATE_DCT			0x710
#define OP_DESTROY_DCT			0x711
#define OP_DRAIN_DCT			0x712
#define OP_QUERY_DCT			0x713
#define OP_ATTACH_NVMF_NAMESPACE	0x723
#define OP_DETACH_NVMF_NAMESPACE	0x724
#define OP_QUERY_NVMF_NAMESPACE_CONTEXT	0x728
#define OP_QUERY_ESW_FUNCTIONS		0x740
#define OP_ALLOC_UAR			0x802
#define OP_DEALLOC_UAR			0x803
#define OP_NOP				0x80d

/* Event types. */
#define EV_CMD				0x0a
#define EV_PAGE_REQUEST			0x0b
#define EV_ESW_FUNCTIONS_CHANGED	0x0e
#define EV_DCT_DRAINED			0x1c

/* Capability types (op_mod >> 1 of QUERY_HCA_CAP). */
#define CAP_GENERAL			0x0
#define CAP_ESWITCH			0x9
#define CAP_NVMF			0xe

/* Output sizes of a few commands (PRM *_out layouts). */
#define QUERY_HCA_CAP_OUT		(16 + 4096)
#define QUERY_ADAPTER_OUT		272
#define QUERY_ISSI_OUT			112
#define CMD_HDR				16

/* --- time ------------------------------------------------------------------ */

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

/* --- PRM byte and bit access (big-endian, bit 0 = MSB of byte 0) ---------- */

static inline uint32_t be32_at(const void *p, size_t off)
{
	const uint8_t *b = (const uint8_t *)p + off;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static inline uint16_t be16_at(const void *p, size_t off)
{
	const uint8_t *b = (const uint8_t *)p + off;

	return (uint16_t)(b[0] << 8 | b[1]);
}

static inline void put_be32(void *p, size_t off, uint32_t v)
{
	uint8_t *b = (uint8_t *)p + off;

	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

static inline void put_be16(void *p, size_t off, uint16_t v)
{
	uint8_t *b = (uint8_t *)p + off;

	b[0] = v >> 8;
	b[1] = v;
}

/* A field of a PRM layout: bit offset and width as in mlx5_ifc.h. */
static inline uint64_t prm_get(const void *buf, unsigned int bit_off, unsigned int width)
{
	if (width == 64)
		return (uint64_t)be32_at(buf, bit_off / 8) << 32 | be32_at(buf, bit_off / 8 + 4);
	if (width == 32)
		return be32_at(buf, bit_off / 8);
	{
		uint32_t dw = be32_at(buf, (bit_off / 32) * 4);
		unsigned int shift = 32 - (bit_off % 32) - width;

		return (dw >> shift) & ((1u << width) - 1);
	}
}

static inline uint8_t xor_bytes(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t x = 0;

	while (n--)
		x ^= *b++;
	return x;
}

/* A command input header: opcode, op_mod (the rest zero). */
static inline void cmd_hdr(void *in, size_t inlen, uint16_t opcode, uint16_t op_mod)
{
	memset(in, 0, inlen);
	put_be16(in, 0, opcode);
	put_be16(in, 6, op_mod);
}

/* --- the device --------------------------------------------------------- */

/* The PCI address under test: $CXPRM_BDF, else the only /dev/cxprm entry. */
static inline const char *cxprm_bdf(void)
{
	static char bdf[256];
	const char *e = getenv("CXPRM_BDF");
	struct dirent *d;
	DIR *dir;

	if (e && *e)
		return e;
	if (bdf[0])
		return bdf;
	dir = opendir("/dev/cxprm");
	if (!dir)
		return NULL;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(bdf, sizeof(bdf), "%s", d->d_name);
		break;
	}
	closedir(dir);
	return bdf[0] ? bdf : NULL;
}

static inline const char *cxprm_dev_path(void)
{
	static char path[300];
	const char *bdf = cxprm_bdf();

	if (!bdf)
		return NULL;
	snprintf(path, sizeof(path), "/dev/cxprm/%s", bdf);
	return path;
}

static inline int cxprm_open_flags(int flags)
{
	const char *p = cxprm_dev_path();

	if (!p) {
		errno = ENODEV;
		return -1;
	}
	return open(p, flags | O_CLOEXEC);
}

static inline int cxprm_open(void)
{
	return cxprm_open_flags(O_RDWR);
}

/* A module parameter of cxprm as an integer (Y/N as 1/0); -1 if absent. */
static inline int cxprm_param(const char *name)
{
	char path[256], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/cxprm/parameters/%s", name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	if (buf[0] == 'Y' || buf[0] == 'y')
		return 1;
	if (buf[0] == 'N' || buf[0] == 'n')
		return 0;
	return atoi(buf);
}

/* A module parameter of cxprm as text (static buffer, "?" if absent). */
static inline const char *cxprm_param_text(const char *name)
{
	static char buf[64];
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/cxprm/parameters/%s", name);
	snprintf(buf, sizeof(buf), "?");
	f = fopen(path, "re");
	if (!f)
		return buf;
	if (fgets(buf, sizeof(buf), f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
	return buf;
}

/* A page nobody can touch: an address that faults in copy_{to,from}_user. */
static inline void *bad_ptr(void)
{
	static void *p;

	if (!p) {
		p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			p = (void *)16; /* the zero page is never mapped either */
	}
	return p;
}

/* --- raw commands --------------------------------------------------------- */

static inline int raw_cmd(int fd, const void *in, uint32_t inlen, void *out, uint32_t outlen,
			  struct cxprm_cmd_status *st)
{
	struct cxprm_raw_cmd r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.in = (uintptr_t)in;
	r.out = (uintptr_t)out;
	r.inlen = inlen;
	r.outlen = outlen;
	ret = ioctl(fd, CXPRM_IOC_RAW, &r);
	if (st)
		*st = r.st;
	return ret;
}

/* NOP: a harmless command of write scope (not a QUERY_*). */
static inline int raw_nop(int fd, struct cxprm_cmd_status *st)
{
	uint8_t in[CMD_HDR], out[CMD_HDR];

	cmd_hdr(in, sizeof(in), OP_NOP, 0);
	return raw_cmd(fd, in, sizeof(in), out, sizeof(out), st);
}

/* QUERY_ISSI: a harmless query. */
static inline int raw_query_issi(int fd, struct cxprm_cmd_status *st, uint8_t *out)
{
	uint8_t in[CMD_HDR], o[QUERY_ISSI_OUT];

	cmd_hdr(in, sizeof(in), OP_QUERY_ISSI, 0);
	return raw_cmd(fd, in, sizeof(in), out ? out : o, QUERY_ISSI_OUT, st);
}

/* ATTACH/DETACH_NVMF_NAMESPACE (write scope): 0 and *st, or -1/errno. */
static inline int raw_nvmf_attach(int fd, uint32_t xrqn, uint32_t nsid, struct cxprm_cmd_status *st)
{
	uint8_t in[64], out[CMD_HDR];

	cmd_hdr(in, sizeof(in), OP_ATTACH_NVMF_NAMESPACE, 0);
	put_be32(in, 8, xrqn & 0xffffff);
	put_be32(in, 12, nsid);		/* frontend_namespace */
	put_be32(in, 16, nsid);		/* backend_namespace */
	put_be16(in, 20, 512);		/* lba_data_size */
	put_be16(in, 22, 1);		/* backend_controller_id */
	return raw_cmd(fd, in, sizeof(in), out, sizeof(out), st);
}

static inline int raw_nvmf_detach(int fd, uint32_t xrqn, uint32_t nsid, struct cxprm_cmd_status *st)
{
	uint8_t in[CMD_HDR], out[CMD_HDR];

	cmd_hdr(in, sizeof(in), OP_DETACH_NVMF_NAMESPACE, 0);
	put_be32(in, 8, xrqn & 0xffffff);
	put_be32(in, 12, nsid);
	return raw_cmd(fd, in, sizeof(in), out, sizeof(out), st);
}

/* --- typed helpers ---------------------------------------------------------- */

/* The smallest DCT the emulated firmware accepts (pd, cqn, srqn, mtu 1024, port 1). */
static inline void dct_minimal(struct cxprm_dct *d)
{
	memset(d, 0, sizeof(*d));
	d->ctx.pd = 1;
	d->ctx.cqn = 1;
	d->ctx.srqn_xrqn = 1;
	d->ctx.mtu = 3;
	d->ctx.port = 1;
}

static inline int query_caps(int fd, uint16_t type, int max, struct cxprm_caps *c)
{
	memset(c, 0, sizeof(*c));
	c->cap_type = type;
	c->max = max ? 1 : 0;
	return ioctl(fd, CXPRM_IOC_QUERY_CAPS, c);
}

/* STATS total (commands completed), or -1. */
static inline long long stats_total(int fd)
{
	struct cxprm_stats s;

	memset(&s, 0, sizeof(s));
	if (ioctl(fd, CXPRM_IOC_STATS, &s))
		return -1;
	return (long long)s.total;
}

/* The count of one opcode in STATS (0 if absent), or -1. */
static inline long long stats_opcode_count(int fd, uint16_t opcode)
{
	struct cxprm_opcode_stats e[256];
	struct cxprm_stats s;
	uint32_t i;

	memset(&s, 0, sizeof(s));
	s.capacity = ARRAY_SIZE(e);
	s.entries = (uintptr_t)e;
	if (ioctl(fd, CXPRM_IOC_STATS, &s))
		return -1;
	for (i = 0; i < s.count && i < ARRAY_SIZE(e); i++)
		if (e[i].opcode == opcode)
			return (long long)e[i].count;
	return 0;
}

/* --- privileges ------------------------------------------------------------- */

#define NOBODY 65534

/* Become uid/gid 'id' with no supplementary groups; all capabilities go. */
static inline int become_user(uid_t id)
{
	if (setgroups(0, NULL))
		return -1;
	if (setresgid(id, id, id))
		return -1;
	return setresuid(id, id, id);
}

/* Stay who we are but keep only the capabilities in 'keep' (bit n = cap n). */
static inline int caps_keep_only(uint64_t keep)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	int cap;

	/* Drop the rest from the bounding set too, so nothing comes back. */
	for (cap = 0; cap <= 63; cap++)
		if (!(keep & (1ull << cap)) && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
			return -1;
	memset(d, 0, sizeof(d));
	d[0].effective = d[0].permitted = (uint32_t)keep;
	d[1].effective = d[1].permitted = (uint32_t)(keep >> 32);
	return (int)syscall(SYS_capset, &h, d);
}

#define CAPBIT(c) (1ull << (c))

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

static inline int emuctl_mark(struct emuctl *e, uint32_t n)
{
	return emuctl_cmd(e, CXPRM_EMUD_CMD_MARK, &n, 1, NULL);
}

/* --- what the emulator's profiles hold ------------------------------------- */

struct cap_field {
	const char *name;
	unsigned int off, width; /* bits, as in mlx5_ifc.h */
};

/* cmd_hca_cap fields (layout dump of core-cpp/include/cxprm/prm/hca_cap.h) */
#define CAPF(n, o, w) static const struct cap_field CAP_##n = { #n, o, w }
CAPF(hca_cap_2, 32, 1);
CAPF(log_max_srq_sz, 128, 8);
CAPF(log_max_qp_sz, 136, 8);
CAPF(log_max_qp, 155, 5);
CAPF(ece_support, 163, 1);
CAPF(log_max_srq, 171, 5);
CAPF(log_max_cq_sz, 200, 8);
CAPF(log_max_cq, 219, 5);
CAPF(log_max_eq_sz, 224, 8);
CAPF(log_max_mkey, 234, 6);
CAPF(log_max_eq, 252, 4);
CAPF(release_all_pages, 325, 1);
CAPF(max_qp_cnt, 390, 10);
CAPF(vport_group_manager, 416, 1);
CAPF(eswitch_manager, 423, 1);
CAPF(port_type, 438, 2);
CAPF(num_ports, 440, 8);
CAPF(log_max_msg, 451, 5);
CAPF(max_tc, 460, 4);
CAPF(cmdif_checksum, 528, 2);
CAPF(dct, 538, 1);
CAPF(uar_sz, 586, 6);
CAPF(log_pg_sz, 600, 8);
CAPF(log_max_transport_domain, 803, 5);
CAPF(log_max_pd, 811, 5);
CAPF(log_max_xrcd, 827, 5);
CAPF(device_frequency_mhz, 1216, 32);
CAPF(device_frequency_khz, 1248, 32);
CAPF(nvmf_target_offload, 1282, 1);
#undef CAPF
/* e_switch_cap / nvmf_cap */
static const struct cap_field ESWCAP_esw_functions_changed = { "esw_functions_changed", 25, 1 };
static const struct cap_field NVMFCAP_frontend_namespace_context = { "frontend_namespace_context", 58, 1 };
static const struct cap_field NVMFCAP_last_req_latency = { "last_req_latency", 9, 1 };

struct cap_expect {
	const struct cap_field *f;
	uint32_t max, cur;
};

struct emu_profile {
	const char *name;
	uint16_t device_id;                 /* control page DEVICE_ID */
	uint16_t fw_major, fw_minor, fw_subminor;
	uint16_t total_vfs;
	uint16_t esw_pci_bus;
	uint32_t first_dctn, max_dcts;
	uint32_t first_xrqn, num_xrqs;
	uint32_t boot_pages, init_pages;
	struct cap_expect caps[32];         /* general caps, MAX and CUR */
};

/*
 * Fields the core's bring-up never changes with SET_HCA_CAP (it may change
 * cmdif_checksum, uar_4k, pkey_table_size): CUR is the profile's.
 */
#define COMMON_CAPS \
	{ &CAP_log_max_srq_sz, 15, 15 }, { &CAP_log_max_qp_sz, 15, 15 }, \
	{ &CAP_log_max_srq, 23, 23 }, { &CAP_log_max_cq_sz, 22, 22 }, \
	{ &CAP_log_max_cq, 24, 24 }, { &CAP_log_max_eq_sz, 22, 22 }, \
	{ &CAP_log_max_mkey, 24, 24 }, { &CAP_release_all_pages, 1, 0 }, \
	{ &CAP_max_qp_cnt, 64, 64 }, { &CAP_vport_group_manager, 1, 1 }, \
	{ &CAP_eswitch_manager, 1, 1 }, { &CAP_port_type, 1, 1 }, \
	{ &CAP_num_ports, 1, 1 }, { &CAP_log_max_msg, 30, 30 }, \
	{ &CAP_max_tc, 8, 8 }, { &CAP_dct, 1, 1 }, { &CAP_uar_sz, 6, 6 }, \
	{ &CAP_log_pg_sz, 12, 12 }, { &CAP_log_max_transport_domain, 20, 20 }, \
	{ &CAP_log_max_pd, 23, 23 }, { &CAP_log_max_xrcd, 24, 24 }, \
	{ &CAP_nvmf_target_offload, 1, 1 }

static const struct emu_profile emu_profiles[] = {
	{
		/* Profile::bluefield3(): ConnectX-7 caps, an ECPF (embedded_cpu). */
		.name = "BlueField-3", .device_id = 0xa2dc,
		.fw_major = 32, .fw_minor = 39, .fw_subminor = 1002,
		.total_vfs = 16, .esw_pci_bus = 0x81,
		.first_dctn = 0x1000, .max_dcts = 256,
		.first_xrqn = 0x80, .num_xrqs = 64,
		.boot_pages = 32, .init_pages = 4096,
		.caps = {
			COMMON_CAPS,
			{ &CAP_log_max_qp, 20, 20 }, { &CAP_log_max_eq, 8, 8 },
			{ &CAP_hca_cap_2, 1, 1 }, { &CAP_ece_support, 1, 1 },
			{ &CAP_device_frequency_khz, 1000000, 1000000 },
			{ &CAP_device_frequency_mhz, 1000, 1000 },
		},
	},
	{
		.name = "ConnectX-7", .device_id = 0x1021,
		.fw_major = 28, .fw_minor = 39, .fw_subminor = 1002,
		.total_vfs = 16, .esw_pci_bus = 0x41,
		.first_dctn = 0x1000, .max_dcts = 256,
		.first_xrqn = 0x80, .num_xrqs = 64,
		.boot_pages = 32, .init_pages = 4096,
		.caps = {
			COMMON_CAPS,
			{ &CAP_log_max_qp, 20, 20 }, { &CAP_log_max_eq, 8, 8 },
			{ &CAP_hca_cap_2, 1, 1 }, { &CAP_ece_support, 1, 1 },
			{ &CAP_device_frequency_khz, 1000000, 1000000 },
			{ &CAP_device_frequency_mhz, 1000, 1000 },
		},
	},
	{
		.name = "ConnectX-5", .device_id = 0x1017,
		.fw_major = 16, .fw_minor = 35, .fw_subminor = 2000,
		.total_vfs = 8, .esw_pci_bus = 0x03,
		.first_dctn = 0x100, .max_dcts = 64,
		.first_xrqn = 0x40, .num_xrqs = 16,
		.boot_pages = 24, .init_pages = 1024,
		.caps = {
			COMMON_CAPS,
			{ &CAP_log_max_qp, 18, 17 }, { &CAP_log_max_eq, 7, 7 },
			{ &CAP_hca_cap_2, 0, 0 }, { &CAP_ece_support, 0, 0 },
			{ &CAP_device_frequency_khz, 156250, 156250 },
			{ &CAP_device_frequency_mhz, 156, 156 },
		},
	},
};

/* The profile the daemon runs (control page DEVICE_ID), or NULL. */
static inline const struct emu_profile *emu_profile_of(struct emuctl *e)
{
	uint32_t id = emuctl_rd(e, CXPRM_EMUD_CTRL_DEVICE_ID);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(emu_profiles); i++)
		if (emu_profiles[i].device_id == id)
			return &emu_profiles[i];
	return NULL;
}

/* The profile by firmware version (when there is no control page). */
static inline const struct emu_profile *emu_profile_by_fw(uint16_t major)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(emu_profiles); i++)
		if (emu_profiles[i].fw_major == major)
			return &emu_profiles[i];
	return NULL;
}

/* --- misc ------------------------------------------------------------------- */

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

/* Waits for POLLIN on fd up to ms; 1 readable, 0 timeout, -1 error. */
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

#endif /* CXPRM_SELFTEST_H */
