/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One ioctl's caller as the ioctl entry sees it (ioctl_entry.cpp) and the
 * batch (ioctl_batch.cpp): user copies and privileges through the host's
 * caller ops, memory and locks through the core's host.
 */
#pragma once

#include "cxprm/capi.h"
#include "cxprm/errors.h"

#include "capi_core.h"

namespace cxprm::capi {

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

/*
 * A typed or object ioctl (cxprm_core_ioc_is_typed/_is_obj) on its struct
 * k, copied in: typed_allowed() asks in the caller's task what the struct
 * needs beyond CAP_NET_ADMIN (an NVMF backend: the raw write scope);
 * typed_run() runs it, in any task, holding no lock across a command.
 */
int typed_allowed(const Call &k, unsigned int cmd, const void *karg);
int typed_run(cxprm_core *c, cxprm_core_file *f, unsigned int cmd, void *karg);
/* The file's object table, made on first use (*t; E_NOMEM). */
int file_objs(cxprm_core *c, cxprm_core_file *f, cxprm_core_objs **t);

/* CXPRM_IOC_BATCH (ioctl_batch.cpp); CAP_NET_ADMIN already held. */
int ioc_batch(const Call &k, u64 uarg);

} // namespace cxprm::capi
