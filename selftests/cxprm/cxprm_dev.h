/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device under test for the cxprm selftests: finding and opening it,
 * its module parameters, raw and typed ioctls, privilege dropping.
 */
#ifndef CXPRM_SELFTEST_DEV_H
#define CXPRM_SELFTEST_DEV_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/cxprm.h>

#include "cxprm_prm.h"
#include "cxprm_util.h"

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
	char path[256], buf[32];

	snprintf(path, sizeof(path), "/sys/module/cxprm/parameters/%s", name);
	if (read_line(path, buf, sizeof(buf)))
		return -1;
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

	snprintf(path, sizeof(path), "/sys/module/cxprm/parameters/%s", name);
	if (read_line(path, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "?");
	return buf;
}

/*
 * A page nobody can touch: an address that faults in copy_{to,from}_user.
 * Sized as a system page (16 or 64 KiB on some arm64 guests): mmap would
 * round 4096 up anyway, this says which page is meant.
 */
static inline void *bad_ptr(void)
{
	static void *p;

	if (!p) {
		p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
		if (p == MAP_FAILED)
			p = (void *)16; /* the zero page is never mapped either */
	}
	return p;
}

/* --- raw commands --------------------------------------------------------- */

/* A RAW request: input, output and, if dump is not NULL, CXPRM_RAW_DUMP into it. */
static inline void raw_req(struct cxprm_raw_cmd *r, const void *in, uint32_t inlen, void *out,
			   uint32_t outlen, void *dump, uint32_t dump_len)
{
	memset(r, 0, sizeof(*r));
	r->in = (uintptr_t)in;
	r->out = (uintptr_t)out;
	r->inlen = inlen;
	r->outlen = outlen;
	if (dump) {
		r->flags = CXPRM_RAW_DUMP;
		r->dump = (uintptr_t)dump;
		r->dump_len = dump_len;
	}
}

static inline int raw_cmd(int fd, const void *in, uint32_t inlen, void *out, uint32_t outlen,
			  struct cxprm_cmd_status *st)
{
	struct cxprm_raw_cmd r;
	int ret;

	raw_req(&r, in, inlen, out, outlen, NULL, 0);
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

/* QUERY_ISSI with the ioctl's record in *r and, if dump, a dump: the ioctl's result. */
static inline int raw_issi_dump(int fd, struct cxprm_raw_cmd *r, uint8_t *dump, uint32_t dump_len)
{
	static uint8_t in[CMD_HDR], out[QUERY_ISSI_OUT];

	cmd_hdr(in, sizeof(in), OP_QUERY_ISSI, 0);
	raw_req(r, in, sizeof(in), out, sizeof(out), dump, dump_len);
	return ioctl(fd, CXPRM_IOC_RAW, r);
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

/* --- typed helpers ---------------------------------------------------------- */

/*
 * Objects (CXPRM_IOC_OBJ_*) the older tests' DCTs and namespaces name:
 * the firmware checks every number, and objects die with their file, so
 * each file that creates DCTs or attaches namespaces makes its own.
 */

/* OBJ_CREATE of o (type and attributes set): 0 with o->id, or -1 (errno;
 * EREMOTEIO for a firmware status, in o->st). */
static inline int obj_create(int fd, struct cxprm_obj *o)
{
	if (ioctl(fd, CXPRM_IOC_OBJ_CREATE, o))
		return -1;
	if (o->st.delivery || o->st.status) {
		errno = EREMOTEIO;
		return -1;
	}
	return 0;
}

static inline void obj_new(uint32_t type, uint32_t parent, struct cxprm_obj *o)
{
	memset(o, 0, sizeof(*o));
	o->type = type;
	o->parent = parent;
}

/* OBJ_CREATE (*pd set) or OBJ_DESTROY of PD *pd: 0, or -errno. */
static inline int pd_ioctl(int fd, unsigned long cmd, uint32_t *pd)
{
	struct cxprm_obj o;

	obj_new(CXPRM_OBJ_PD, 0, &o);
	o.id = *pd;
	if (ioctl(fd, cmd, &o))
		return -errno;
	*pd = o.id;
	return 0;
}

/* A PD and a 64-entry CQ of this file: 0, or -1 as obj_create(). */
static inline int pd_cq_create(int fd, uint32_t *pd, uint32_t *cqn)
{
	struct cxprm_obj o;

	*pd = *cqn = 0;
	obj_new(CXPRM_OBJ_PD, 0, &o);
	if (obj_create(fd, &o))
		return -1;
	*pd = o.id;
	obj_new(CXPRM_OBJ_CQ, 0, &o);
	o.u.cq.log_size = 6;
	if (obj_create(fd, &o))
		return -1;
	*cqn = o.id;
	return 0;
}

/* What a DCT names: a PD, a CQ and an SRQ of one file. */
struct dct_objs {
	uint32_t pd, cqn, srqn;
};

static inline int dct_objs_create(int fd, struct dct_objs *d)
{
	struct cxprm_obj o;

	memset(d, 0, sizeof(*d));
	if (pd_cq_create(fd, &d->pd, &d->cqn))
		return -1;
	obj_new(CXPRM_OBJ_SRQ, 0, &o);
	o.u.srq.pd = d->pd;
	o.u.srq.log_size = 6;
	o.u.srq.log_stride = 2;
	if (obj_create(fd, &o))
		return -1;
	d->srqn = o.id;
	return 0;
}

/* The smallest DCT the firmware accepts (mtu 1024, port 1) on the objects
 * o; NULL: made-up numbers, for calls refused before any command runs
 * (EPERM, EINVAL). */
static inline void dct_minimal(struct cxprm_dct *d, const struct dct_objs *o)
{
	memset(d, 0, sizeof(*d));
	d->ctx.pd = o ? o->pd : 1;
	d->ctx.cqn = o ? o->cqn : 1;
	d->ctx.srqn_xrqn = o ? o->srqn : 1;
	d->ctx.mtu = 3;
	d->ctx.port = 1;
}

/* A module parameter of cxprm set to value (root); 0 or -1. */
static inline int cxprm_param_set(const char *name, int value)
{
	char path[256];
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "/sys/module/cxprm/parameters/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	r = fprintf(f, "%d\n", value) < 0;
	return fclose(f) || r ? -1 : 0;
}

/* What a namespace hangs off: an XRQ with NVMF offload (on a PD and CQ)
 * and its backend controller, of one file.  nvme: the NVMe queue pair
 * the backend drives (the caller fills it: nvmf_objs_on_ssd). */
struct nvmf_objs {
	uint32_t pd, cqn, xrqn, ctrl;
	struct cxprm_nvmf_backend_attr nvme;
};

/* The shape of an NVMe I/O queue pair (the emulated SSD's pair 1). */
static inline void nvme_queue_plausible(struct cxprm_nvmf_backend_attr *b)
{
	b->sq_bus = 0xf000010000ull;
	b->cq_bus = 0xf000011000ull;
	b->sqt_db_bus = 0xf000001008ull;
	b->queue_depth = 64;
}

/* Creating a backend needs allow_raw_write=1: on for the call, then as it was. */
static inline int nvmf_objs_create(int fd, struct nvmf_objs *n)
{
	int was = cxprm_param("allow_raw_write"), r;
	struct cxprm_obj o;

	n->pd = n->cqn = n->xrqn = n->ctrl = 0;
	if (pd_cq_create(fd, &n->pd, &n->cqn))
		return -1;
	obj_new(CXPRM_OBJ_XRQ, 0, &o);
	o.u.xrq.pd = n->pd;
	o.u.xrq.cqn = n->cqn;
	o.u.xrq.log_size = 6;
	o.u.xrq.log_stride = 6; /* log2 bytes: 64-byte WQEs */
	o.u.xrq.staging_pages = 4; /* 16 KiB staging buffer */
	o.u.xrq.log_max_namespace = 4;
	o.u.xrq.log_max_io_size = 17;
	o.u.xrq.ioccsz = 4;
	o.u.xrq.nvme_queue_size = n->nvme.queue_depth;
	if (obj_create(fd, &o))
		return -1;
	n->xrqn = o.id;
	obj_new(CXPRM_OBJ_NVMF_BACKEND, n->xrqn, &o);
	o.u.backend = n->nvme;
	o.u.backend.log_cmd_timeout_us = 20;
	if (was != 1 && cxprm_param_set("allow_raw_write", 1))
		return -1;
	r = obj_create(fd, &o);
	if (was != 1)
		cxprm_param_set("allow_raw_write", was);
	if (r)
		return -1;
	n->ctrl = o.id;
	return 0;
}

/* ATTACH_NVMF_NAMESPACE nsid (512-byte blocks) to n's XRQ and controller. */
static inline int nvmf_ns_attach(int fd, const struct nvmf_objs *n, uint32_t nsid)
{
	struct cxprm_obj o;

	obj_new(CXPRM_OBJ_NVMF_NS, n->xrqn, &o);
	o.id = nsid;
	o.u.ns.backend_namespace = 1; /* the emulated SSD's namespace */
	o.u.ns.backend_ctrl_id = (uint16_t)n->ctrl;
	o.u.ns.lba_data_size = 9;
	return obj_create(fd, &o);
}

/* DETACH_NVMF_NAMESPACE: 0 (status in *st), or -1. */
static inline int nvmf_ns_detach(int fd, const struct nvmf_objs *n, uint32_t nsid, struct cxprm_cmd_status *st)
{
	struct cxprm_obj o;
	int r;

	obj_new(CXPRM_OBJ_NVMF_NS, n->xrqn, &o);
	o.id = nsid;
	r = ioctl(fd, CXPRM_IOC_OBJ_DESTROY, &o);
	*st = o.st;
	return r;
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

#endif /* CXPRM_SELFTEST_DEV_H */
