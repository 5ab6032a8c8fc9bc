/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The ioctls of include/uapi/linux/cxprm.h in the C facade (capi.h includes
 * it): the one entry a host calls, cxprm_core_ioctl() (ioctl_entry.cpp),
 * and the parts it is made of, which the fuzzers also drive one by one
 * (ioctl_check.cpp, ioctl.cpp, ioctl_objects.cpp).
 */
#ifndef CXPRM_CAPI_IOCTL_H
#define CXPRM_CAPI_IOCTL_H

#ifndef CXPRM_CAPI_H
#error "include cxprm/capi.h"
#endif

/* --- ioctl request checks (ioctl_check.cpp: pure, no device, no sleep) --- */

/* What an accepted raw request asks of the shim. */
struct cxprm_core_raw_plan {
	cxprm_u32 dump;       /* 1: copy the header and blocks to 'dump' */
	cxprm_u32 blocks_cap; /* mailbox blocks that fit after the header */
};

/*
 * CXPRM_IOC_RAW before anything is copied or allocated: lengths
 * 16..CXPRM_RAW_MAX, known flags, a dump buffer that holds at least
 * struct cxprm_raw_dump.  0 (plan filled) or -EINVAL.  The dump then never
 * exceeds dump_len: the header + blocks_cap * CXPRM_MAILBOX_BYTES.  Only
 * whether rc->dump is 0 matters (a user pointer).
 */
int cxprm_core_raw_check(const struct cxprm_raw_cmd *rc, struct cxprm_core_raw_plan *plan);

/*
 * --- the ioctls (ioctl.cpp) ---
 *
 * What each ioctl of include/uapi/linux/cxprm.h means, on the struct the
 * entry copied in (kbuf): reserved-must-be-zero and range checks, the
 * command, the firmware result in st, the errno.  cxprm_core_ioctl() (at
 * the end of this header) copies the struct in, asks for the privilege
 * the UAPI names, calls these, and copies it back when they return 0
 * (RAW: see cxprm_core_ioc_raw).  A firmware status is a result (st,
 * return 0), never -EREMOTEIO.  Hosts call cxprm_core_ioctl() only; the
 * fuzzers (fuzz/targets/ioctl_request.cpp) drive these parts one by one.
 */

/* 0 when ioctl cmd may run now (up: bring-up succeeded), else -ENODEV / -ENOTTY. */
int cxprm_core_ioc_allowed(unsigned int cmd, int up);

/*
 * CXPRM_IOC_INFO: the fields the core knows (firmware, state, queue, pages,
 * CXPRM_INFO_FAILED / _ECPF / _CMD_CHECKSUM added to i->flags); the caller
 * sets the identity fields (pci_addr, dev_name, ids) and its own flags.
 */
int cxprm_core_ioc_info(struct cxprm_core *core, struct cxprm_info *i);
int cxprm_core_ioc_caps(struct cxprm_core *core, struct cxprm_caps *c);
int cxprm_core_ioc_nvmf_ns(struct cxprm_core *core, struct cxprm_nvmf_ns *n);
int cxprm_core_ioc_esw(struct cxprm_core *core, struct cxprm_esw_functions *e);

/* The DCTs one open file owns: -ENOSPC past this many (UAPI). */
#define CXPRM_CORE_FILE_MAX_DCTS 64u

/*
 * A file's DCT table.  lock/unlock guard it (a spinlock will do: the core
 * never holds them across a command or a sleep); they may be NULL only
 * where nothing runs a file's DCT ioctls concurrently.  A CREATE keeps
 * room for its DCT while it runs (pending); a DRAIN or DESTROY marks its
 * DCT busy, and another DRAIN or DESTROY of it meanwhile is -EBUSY.
 */
struct cxprm_core_dcts {
	void (*lock)(struct cxprm_core_dcts *t);
	void (*unlock)(struct cxprm_core_dcts *t);
	cxprm_u32 n;
	cxprm_u32 pending;
	cxprm_u32 dctn[CXPRM_CORE_FILE_MAX_DCTS];
	cxprm_u8 busy[CXPRM_CORE_FILE_MAX_DCTS];
	/* DCTs the firmware lost (cxprm_core_file_forget): -ESTALE when named. */
	cxprm_u32 lost_n;
	cxprm_u32 lost[CXPRM_CORE_FILE_MAX_DCTS];
};

/*
 * CXPRM_IOC_DCT_CREATE/QUERY/DRAIN/DESTROY (cmd): CREATE adds the DCT to t
 * (-ENOSPC when full), DRAIN and DESTROY need it there (-ENOENT), DESTROY
 * takes it out; QUERY any DCT.  A DCT of t the firmware lost is -ESTALE
 * for all three (DESTROY forgets it); a new DCT of its number replaces it.
 */
int cxprm_core_ioc_dct(struct cxprm_core *core, unsigned int cmd, struct cxprm_core_dcts *t,
		       struct cxprm_dct *d);
/* 1 for the four DCT ioctls. */
int cxprm_core_ioc_is_dct(unsigned int cmd);
/*
 * The ioctls of one struct in and out, CAP_NET_ADMIN (is_typed: 1):
 * QUERY_CAPS, NVMF_NS, ESW_FUNCTIONS and the DCT ones (k: that struct,
 * _IOC_SIZE(cmd) bytes; t: the file's).
 */
int cxprm_core_ioc_is_typed(unsigned int cmd);
int cxprm_core_ioc_typed(struct cxprm_core *core, unsigned int cmd, struct cxprm_core_dcts *t,
			 void *k);
/* Takes one DCT off the table (0 when empty, else 1); no command runs. */
int cxprm_core_dcts_pop(struct cxprm_core_dcts *t, cxprm_u32 *dctn);

/*
 * Typed queries as commands (capi_typed.cpp): QUERY_CAPS, NVMF_NS,
 * ESW_FUNCTIONS and DCT_QUERY are one PRM command each.  A transport that
 * carries PRM commands but not these ioctls (fwctl, in the tool) builds
 * the command the driver would send for the ioctl's argument with encode
 * (in: at least CXPRM_CORE_TYPED_IN_MAX bytes; *outlen: the output bytes
 * to ask for) and fills the argument from the output with decode, exactly
 * as the ioctl does (a firmware error status: st set, payload zero).
 * check is the ioctls' own argument check (-EINVAL for reserved fields).
 * -ENOTTY for any other cmd; decode -EPROTO when an OK output is too short.
 */
#define CXPRM_CORE_TYPED_IN_MAX 64u
int cxprm_core_typed_check(unsigned int cmd, const void *arg);
int cxprm_core_typed_encode(unsigned int cmd, const void *arg, void *in, cxprm_u32 in_cap,
			    cxprm_u32 *inlen, cxprm_u32 *outlen);
int cxprm_core_typed_decode(unsigned int cmd, void *arg, const void *out, cxprm_u32 outlen);

/*
 * A file's objects (CXPRM_IOC_OBJ_*, CXPRM_IOC_QP_MODIFY; ioctl_objects.cpp):
 * at most CXPRM_OBJ_MAX_PER_FILE, each with the queue memory the core
 * allocated for it (coherent DMA through the host).  Opaque; built with
 * host->ops->mem_alloc, with a host lock of its own that the ioctls take
 * around their lookups and updates only, never across a command: the
 * ioctls on one table may run concurrently (a CREATE keeps room for its
 * object while it runs; an object with a DESTROY or QP_MODIFY in flight
 * is busy, and another of those on it is -EBUSY).  The sweeps and
 * cxprm_core_objs_destroy() run with no ioctl on the table.
 */
struct cxprm_core_objs;

int cxprm_core_objs_create(struct cxprm_core *core, struct cxprm_core_objs **out);
/*
 * One pass over the table in dependency order (QPs moved to reset first,
 * NVMF namespaces, backend controllers, XRQs, SRQs, CQs, PDs; the caller
 * destroys the file's DCTs before): destroys what it can and returns how
 * many.  What the firmware refused (still named, e.g. by another file's
 * object) stays for the next pass; what got no answer is not tried again.
 */
cxprm_u32 cxprm_core_objs_sweep(struct cxprm_core *core, struct cxprm_core_objs *t);
/*
 * Closing the file: sweeps until a pass destroys nothing (then the
 * orphans below once more, and t again if that helped); the table is
 * freed, or, when the firmware still refuses some of its objects (another
 * file's objects name them), becomes an orphan the core tries again at
 * every later close, at cxprm_core_orphans_destroy() and at the teardown.
 * An object whose destroy got no firmware answer keeps its queue memory:
 * the core frees it only once the device can no longer write it (after a
 * teardown that succeeded, or cxprm_core_release_stranded() after a
 * reset).  Returns how many objects were left; *destroyed (optional) how
 * many went.  t may be NULL (nothing to do).
 */
cxprm_u32 cxprm_core_objs_destroy(struct cxprm_core *core, struct cxprm_core_objs *t,
				  cxprm_u32 *destroyed);
/*
 * The orphan tables once more (the driver's remove, after the files'
 * tables; cxprm_core_teardown() too): what is still refused keeps its
 * queue memory as above.  Returns how many tables were left.
 */
cxprm_u32 cxprm_core_orphans_destroy(struct cxprm_core *core);
/* Objects in the table (no sleep). */
cxprm_u32 cxprm_core_objs_count(const struct cxprm_core_objs *t);
/*
 * CXPRM_IOC_OBJ_CREATE/QUERY/DESTROY (k: struct cxprm_obj) and
 * CXPRM_IOC_QP_MODIFY (k: struct cxprm_qp_modify) on the file's table t.
 * CREATE of a CQ or QP needs the driver's EQ and UAR (events running):
 * -EOPNOTSUPP without them.
 */
int cxprm_core_ioc_obj(struct cxprm_core *core, unsigned int cmd, struct cxprm_core_objs *t,
		       void *k);
/* 1 for those four (CAP_NET_ADMIN). */
int cxprm_core_ioc_is_obj(unsigned int cmd);
/*
 * 1 for an ioctl that may be a CXPRM_IOC_BATCH op: the typed and the
 * object ones (not INFO, RAW, STATS, SUBSCRIBE or BATCH itself).
 */
int cxprm_core_ioc_is_batchable(unsigned int cmd);
/*
 * 1 when object ioctl cmd with its struct k points firmware's DMA at bus
 * addresses the caller gives (CREATE of an NVMF backend controller): the
 * caller then also requires what a state-changing raw command does.
 */
int cxprm_core_obj_is_raw_write(unsigned int cmd, const void *k);

/*
 * CXPRM_IOC_STATS: entries (room for min(s->capacity, CXPRM_CORE_MAX_OPCODES)
 * records, may be NULL when capacity is 0) receives s->count records, the
 * caller copies them to s->entries.
 */
int cxprm_core_ioc_stats(struct cxprm_core *core, struct cxprm_stats *s,
			 struct cxprm_opcode_stats *entries);

/*
 * CXPRM_IOC_RAW after cxprm_core_raw_check(rc, plan) and the opcode's
 * privilege (cxprm_core_raw_scope): runs in (rc->inlen bytes) into out
 * (rc->outlen).  Fills rc->st, and with plan->dump the capture: cap->hdr,
 * and plan->blocks_cap blocks of 576 bytes at cap->blocks (NULL: none;
 * cap->blocks_cap is set from the plan); rc->dump_len = the bytes to copy
 * to rc->dump (cap->hdr, then the blocks), 0 when nothing was sent.  rc,
 * the dump and st go back to userspace whatever it returns; out only when
 * it returns 0.
 */
int cxprm_core_ioc_raw(struct cxprm_core *core, struct cxprm_raw_cmd *rc, const void *in,
		       void *out, const struct cxprm_core_raw_plan *plan,
		       struct cxprm_core_capture *cap);

/*
 * --- the ioctl entry (ioctl_entry.cpp) ---
 *
 * cxprm_core_ioctl() is the whole of an ioctl of include/uapi/linux/cxprm.h:
 * whether it may run now, its argument checks, the privilege it needs, the
 * command and the copies back, in one call.  The caller (the kernel shim,
 * the CLI's fake device) supplies only what the core cannot do itself:
 * copying user memory and telling whether the calling task holds a
 * privilege.  A kernel buffer alone would not do: CXPRM_IOC_RAW's
 * privilege depends on the opcode inside a second user buffer.
 */

/* The privileges the core asks for (the shim: capable()). */
enum cxprm_core_priv {
	CXPRM_CORE_PRIV_ADMIN = 1,     /* CAP_NET_ADMIN */
	CXPRM_CORE_PRIV_RAW_WRITE = 2, /* CAP_SYS_RAWIO and allow_raw_write=1 */
};

struct cxprm_core_caller_ops {
	/* n bytes from / to user address uaddr: 0 or -EFAULT. */
	int (*copy_in)(void *ctx, void *dst, cxprm_u64 uaddr, cxprm_size n);
	int (*copy_out)(void *ctx, cxprm_u64 uaddr, const void *src, cxprm_size n);
	/* 1 when the calling task holds priv (enum cxprm_core_priv), else 0. */
	int (*allowed)(void *ctx, int priv);
	/*
	 * Optional: the core is about to run a command outside the read scope
	 * for this caller (a raw write, or an object ioctl that points
	 * firmware's DMA at addresses the caller gave), after allowed() said
	 * yes: the kernel shim taints and logs it, as fwctl does its write
	 * scopes.
	 */
	void (*raw_write)(void *ctx, cxprm_u16 opcode, cxprm_u16 op_mod);
};

struct cxprm_core_caller {
	const struct cxprm_core_caller_ops *ops;
	void *ctx;
};

/*
 * The core's part of one open file, inside the host's file struct, zeroed
 * and then set up by the host: the DCT table's lock callbacks, a lock of
 * its own that the host's lock op takes (the kernel: a mutex of the
 * file), and subscribe.  None is held across a command: a file's ioctls
 * run their commands concurrently (and CXPRM_IOC_BATCH's ops).  Before the host frees it, the file's DCTs and
 * objects go (cxprm_core_dcts_pop(), cxprm_core_objs_destroy()).
 */
struct cxprm_core_file {
	struct cxprm_core_dcts dcts;  /* its DCTs; the host sets dcts.lock/unlock */
	struct cxprm_core_objs *objs; /* its objects, made on the first object ioctl;
				       * close and remove take it atomically */
	void *obj_lock;               /* a host lock (ops->lock) taken to make objs */
	/* CXPRM_IOC_SUBSCRIBE: the file's new event mask (s->mask). */
	void (*subscribe)(struct cxprm_core_file *f, const struct cxprm_subscribe *s);
};

/*
 * The identity INFO reports (pci_addr, dev_name, vendor_id, device_id of
 * id; its flags are ignored), set once by the host after create, and the
 * host's CXPRM_INFO_* flags (set, then clear; no sleep).
 */
void cxprm_core_set_identity(struct cxprm_core *core, const struct cxprm_info *id);
void cxprm_core_info_flags(struct cxprm_core *core, cxprm_u32 set, cxprm_u32 clear);

/*
 * One ioctl: cmd with its argument at user address uarg, for file f.
 * Returns 0 or a negative errno (-ENOTTY for a cmd that is not ours,
 * -ENODEV while the HCA is not up, except INFO, STATS and SUBSCRIBE).
 */
long cxprm_core_ioctl(struct cxprm_core *core, struct cxprm_core_file *f, unsigned int cmd,
		      cxprm_u64 uarg, const struct cxprm_core_caller *caller);

#endif /* CXPRM_CAPI_IOCTL_H */
