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
 * Memory comes from the host (mem_alloc); no lock is held across a command
 * (the file's tables lock themselves around their updates).
 */
#include "cxprm/capi.h"

#include "cxprm/errors.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/transport.h"
#include "cxprm/types.h"

#include "capi_core.h"
#include "ioctl_call.h"

using namespace cxprm;
using namespace cxprm::capi;

namespace {

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
	if (!err)
		err = typed_allowed(k, cmd, arg.p);
	if (!err)
		err = typed_run(k.c, k.f, cmd, arg.p);
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
		usize block_bytes = rc.dump_len - sizeof(cap.hdr); /* 0: no blocks buffer */
		if (k.out(rc.dump, &cap.hdr, sizeof(cap.hdr)) ||
		    (block_bytes && k.out(rc.dump + sizeof(cap.hdr), blocks.p, block_bytes)))
			return E_FAULT;
	}
	if (!err && k.out(rc.out, out.p, rc.outlen))
		return E_FAULT;
	if (k.out(uarg, &rc, sizeof(rc)))
		return E_FAULT;
	return err;
}

} // namespace

namespace cxprm::capi {

int typed_allowed(const Call &k, unsigned int cmd, const void *karg)
{
	if (!cxprm_core_obj_is_raw_write(cmd, karg))
		return OK;
	int err = k.need(CXPRM_CORE_PRIV_RAW_WRITE);
	if (!err)
		k.writing(prm::op::CREATE_NVMF_BACKEND_CTRL, 0);
	return err;
}

/*
 * The file's object table is made on its first object ioctl (obj_lock);
 * the tables lock themselves around their updates only, so a file's
 * ioctls (and a batch's ops) have their commands in flight together.
 */
int typed_run(cxprm_core *c, cxprm_core_file *f, unsigned int cmd, void *karg)
{
	if (!cxprm_core_ioc_is_obj(cmd))
		return cxprm_core_ioc_typed(c, cmd, &f->dcts, karg);
	cxprm_core_objs *t = nullptr;
	int err = file_objs(c, f, &t);
	return err ? err : cxprm_core_ioc_obj(c, cmd, t, karg);
}

int file_objs(cxprm_core *c, cxprm_core_file *f, cxprm_core_objs **t)
{
	int err = OK;
	if (!__atomic_load_n(&f->objs, __ATOMIC_ACQUIRE)) {
		c->host->ops->lock(c->host->ctx, f->obj_lock);
		if (!f->objs) {
			cxprm_core_objs *n = nullptr;
			err = cxprm_core_objs_create(c, &n);
			if (!err)
				__atomic_store_n(&f->objs, n, __ATOMIC_RELEASE);
		}
		c->host->ops->unlock(c->host->ctx, f->obj_lock);
	}
	*t = f->objs;
	return err;
}

} // namespace cxprm::capi

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
	if (!c || !f || !f->obj_lock || !caller || !caller->ops)
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
	case CXPRM_IOC_BATCH:
		if (int err = k.need(CXPRM_CORE_PRIV_ADMIN))
			return err;
		return ioc_batch(k, uarg);
	default:
		if (cxprm_core_ioc_is_batchable(cmd))
			return ioc_typed(k, cmd, uarg);
		return E_NOTTY;
	}
}

} // extern "C"
