// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cxprm_core_ioctl(): one ioctl of include/uapi/linux/cxprm.h from start to
 * end (capi_ioctl.h).  The order is the UAPI's contract:
 *   1. the HCA must be up, except for INFO, STATS and SUBSCRIBE;
 *   2. the privilege the UAPI names is asked of the caller before anything
 *      else is copied (RAW: after its input, whose opcode decides it);
 *   3. the argument checks and the command (ioctl.cpp, ioctl_objects.cpp);
 *   4. the copies back: the struct on success; RAW's status, dump and
 *      struct on transport errors too.
 * Memory comes from the host (mem_alloc), locks are the file's host locks.
 */
#include "cxprm/capi.h"

#include "cxprm/errors.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/transport.h"
#include "cxprm/types.h"

#include "capi_core.h"

using namespace cxprm;

namespace {

/* One ioctl's caller, with the core's host for memory. */
struct Call {
	cxprm_core *c;
	cxprm_core_file *f;
	const cxprm_core_caller *u;

	int in(void *k, u64 uaddr, usize n) const { return u->ops->copy_in(u->ctx, k, uaddr, n); }
	int out(u64 uaddr, const void *k, usize n) const
	{
		return u->ops->copy_out(u->ctx, uaddr, k, n);
	}
	int need(int priv) const { return u->ops->allowed(u->ctx, priv) ? OK : E_PERM; }
	/* A write-scope command is about to run (after need(RAW_WRITE) said yes). */
	void writing(u16 opcode, u16 op_mod) const
	{
		if (u->ops->raw_write)
			u->ops->raw_write(u->ctx, opcode, op_mod);
	}
	/* CAP_NET_ADMIN, then the ioctl's struct (what most ioctls start with). */
	int admin_in(void *k, u64 uarg, usize n) const
	{
		int err = need(CXPRM_CORE_PRIV_ADMIN);
		return err ? err : in(k, uarg, n);
	}
	void *alloc(usize n) const { return n ? c->host->ops->mem_alloc(c->host->ctx, n) : nullptr; }
	void free(void *p) const
	{
		if (p)
			c->host->ops->mem_free(c->host->ctx, p);
	}
	void lock(void *l) const { c->host->ops->lock(c->host->ctx, l); }
	void unlock(void *l) const { c->host->ops->unlock(c->host->ctx, l); }
};

/* A buffer from the host, freed at the end of the scope. */
struct Buf {
	const Call &k;
	void *p;
	Buf(const Call &call, usize n) : k(call), p(call.alloc(n)) {}
	~Buf() { k.free(p); }
	Buf(const Buf &) = delete;
	Buf &operator=(const Buf &) = delete;
};

int ioc_info(const Call &k, u64 uarg)
{
	cxprm_info i = k.c->ident;
	int err = cxprm_core_ioc_info(k.c, &i);
	return err ? err : k.out(uarg, &i, sizeof(i));
}

int ioc_stats(const Call &k, u64 uarg)
{
	cxprm_stats s;
	int err = k.admin_in(&s, uarg, sizeof(s));
	if (err)
		return err;
	Buf entries(k, s.capacity ? CXPRM_CORE_MAX_OPCODES * sizeof(cxprm_opcode_stats) : 0);
	if (s.capacity && !entries.p)
		return E_NOMEM;
	err = cxprm_core_ioc_stats(k.c, &s, (cxprm_opcode_stats *)entries.p);
	if (!err && s.count)
		err = k.out(s.entries, entries.p, s.count * sizeof(cxprm_opcode_stats));
	return err ? err : k.out(uarg, &s, sizeof(s));
}

int ioc_subscribe(const Call &k, u64 uarg)
{
	cxprm_subscribe s;
	int err = k.admin_in(&s, uarg, sizeof(s));
	if (!err && k.f->subscribe)
		k.f->subscribe(k.f, &s);
	return err;
}

/* The file's objects: its table on the first object ioctl, one ioctl at a time. */
int ioc_objects(const Call &k, unsigned int cmd, void *arg)
{
	bool write = cxprm_core_obj_is_raw_write(cmd, arg);
	int err = write ? k.need(CXPRM_CORE_PRIV_RAW_WRITE) : OK;
	if (err)
		return err;
	if (write)
		k.writing(prm::op::CREATE_NVMF_BACKEND_CTRL, 0);
	k.lock(k.f->obj_lock);
	if (!k.f->objs) {
		cxprm_core_objs *t = nullptr;
		err = cxprm_core_objs_create(k.c, &t);
		if (!err)
			__atomic_store_n(&k.f->objs, t, __ATOMIC_RELEASE);
	}
	if (!err)
		err = cxprm_core_ioc_obj(k.c, cmd, k.f->objs, arg);
	k.unlock(k.f->obj_lock);
	return err;
}

/* QUERY_CAPS, NVMF_NS, ESW_FUNCTIONS, the DCT and the object ioctls: one struct in and out. */
int ioc_typed(const Call &k, unsigned int cmd, u64 uarg)
{
	usize size = _IOC_SIZE(cmd);
	int err = k.need(CXPRM_CORE_PRIV_ADMIN);
	if (err)
		return err;
	Buf arg(k, size);
	if (!arg.p)
		return E_NOMEM;
	err = k.in(arg.p, uarg, size);
	if (err)
		return err;
	if (cxprm_core_ioc_is_obj(cmd)) {
		err = ioc_objects(k, cmd, arg.p);
	} else if (cxprm_core_ioc_is_dct(cmd)) {
		/* One at a time per file: its DCT table. */
		k.lock(k.f->dct_lock);
		err = cxprm_core_ioc_typed(k.c, cmd, &k.f->dcts, arg.p);
		k.unlock(k.f->dct_lock);
	} else {
		err = cxprm_core_ioc_typed(k.c, cmd, &k.f->dcts, arg.p);
	}
	return err ? err : k.out(uarg, arg.p, size);
}

/* The privilege a raw command needs, by its opcode and op_mod; a write is announced. */
int raw_need(const Call &k, const void *in)
{
	switch (cxprm_core_raw_scope_in(in)) {
	case CXPRM_RAW_SCOPE_QUERY:
		return k.need(CXPRM_CORE_PRIV_ADMIN);
	case CXPRM_RAW_SCOPE_WRITE:
		if (int err = k.need(CXPRM_CORE_PRIV_RAW_WRITE))
			return err;
		k.writing(cxprm_core_in_opcode(in), cxprm_core_in_op_mod(in));
		return OK;
	default:
		return E_PERM;
	}
}

int ioc_raw(const Call &k, u64 uarg)
{
	cxprm_raw_cmd rc;
	cxprm_core_raw_plan plan;
	int err = k.in(&rc, uarg, sizeof(rc));
	if (err)
		return err;
	if (cxprm_core_raw_check(&rc, &plan))
		return E_INVAL;
	Buf in(k, rc.inlen);
	if (!in.p)
		return E_NOMEM;
	err = k.in(in.p, rc.in, rc.inlen);
	if (!err)
		err = raw_need(k, in.p);
	if (err)
		return err;
	Buf out(k, rc.outlen), blocks(k, (usize)plan.blocks_cap * CXPRM_MAILBOX_BYTES);
	if (!out.p || (plan.blocks_cap && !blocks.p))
		return E_NOMEM;
	cxprm_core_capture cap{};
	cap.blocks = (u8 *)blocks.p;
	err = cxprm_core_ioc_raw(k.c, &rc, in.p, out.p, &plan, &cap);
	/* Status and wire dump go back on transport errors too. */
	if (rc.dump_len) {
		if (k.out(rc.dump, &cap.hdr, sizeof(cap.hdr)) ||
		    k.out(rc.dump + sizeof(cap.hdr), blocks.p, rc.dump_len - sizeof(cap.hdr)))
			return E_FAULT;
	}
	if (!err && k.out(rc.out, out.p, rc.outlen))
		return E_FAULT;
	if (k.out(uarg, &rc, sizeof(rc)))
		return E_FAULT;
	return err;
}

} // namespace

extern "C" {

void cxprm_core_set_identity(cxprm_core *c, const cxprm_info *id)
{
	if (!c || !id)
		return;
	cxprm_info &i = c->ident;
	mem_copy(i.pci_addr, id->pci_addr, sizeof(i.pci_addr));
	mem_copy(i.dev_name, id->dev_name, sizeof(i.dev_name));
	i.pci_addr[sizeof(i.pci_addr) - 1] = i.dev_name[sizeof(i.dev_name) - 1] = 0;
	i.vendor_id = id->vendor_id;
	i.device_id = id->device_id;
}

void cxprm_core_info_flags(cxprm_core *c, cxprm_u32 set, cxprm_u32 clear)
{
	if (!c)
		return;
	__atomic_or_fetch(&c->ident.flags, set, __ATOMIC_RELAXED);
	__atomic_and_fetch(&c->ident.flags, ~clear, __ATOMIC_RELAXED);
}

long cxprm_core_ioctl(cxprm_core *c, cxprm_core_file *f, unsigned int cmd, cxprm_u64 uarg,
		      const cxprm_core_caller *caller)
{
	if (!c || !f || !f->dct_lock || !f->obj_lock || !caller || !caller->ops)
		return E_INVAL;
	int err = cxprm_core_ioc_allowed(cmd, c->up);
	/* Down because the firmware died (and maybe recovers): as a command would fail. */
	if (err == E_NODEV && (c->dev.health().failed() == E_HOSTDOWN || cxprm_core_recovering(c)))
		err = E_HOSTDOWN;
	if (err)
		return err;
	const Call k{c, f, caller};
	switch (cmd) {
	case CXPRM_IOC_INFO:
		return ioc_info(k, uarg);
	case CXPRM_IOC_STATS:
		return ioc_stats(k, uarg);
	case CXPRM_IOC_RAW:
		return ioc_raw(k, uarg);
	case CXPRM_IOC_SUBSCRIBE:
		return ioc_subscribe(k, uarg);
	default:
		if (cxprm_core_ioc_is_typed(cmd) || cxprm_core_ioc_is_obj(cmd))
			return ioc_typed(k, cmd, uarg);
		return E_NOTTY;
	}
}

} // extern "C"
