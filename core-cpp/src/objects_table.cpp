// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A file's objects (objects_table.h): the table, their queue memory and
 * destroying them in dependency order; the ioctls are ioctl_objects.cpp.
 *
 * Memory the device may still write is never freed early.  The core
 * allocates every queue buffer and doorbell record (QueueMem) and frees
 * it after the object's destroy command worked, or when its create was
 * refused or never sent.  When a command's fate is unknown (timeout,
 * device failed) or a destroy fails, the memory moves to the core's kept
 * list (c->kept), freed only once the device can no longer write it: a
 * teardown that worked, or cxprm_core_release_stranded() after a reset.
 * Linux mlx5_ib likewise returns the error and keeps the CQ buffer when
 * DESTROY_CQ fails (mlx5_ib_destroy_cq frees it only after
 * mlx5_core_destroy_cq worked).
 *
 * A closed file's objects that another file's objects still name (the
 * firmware refuses with BAD_RES_STATE) stay on the core's orphan list
 * (c->orphans): every later close tries them again, the driver's remove
 * (cxprm_core_orphans_destroy) and the teardown last.
 */
#include "objects_table.h"

#include "cxprm/commands/nvmf.h"
#include "cxprm/commands/objects.h"
#include "cxprm/commands/qp.h"
#include "cxprm/errors.h"
#include "cxprm/prm/opcodes.h"

using namespace cxprm;

namespace cxprm::capi {

namespace {

constexpr u16 DESTROY_OP[] = {0, prm::op::DEALLOC_PD, prm::op::DESTROY_CQ, prm::op::DESTROY_SRQ,
			      prm::op::DESTROY_QP, prm::op::DESTROY_XRQ,
			      prm::op::DESTROY_NVMF_BACKEND_CTRL, prm::op::DETACH_NVMF_NAMESPACE};

static_assert(sizeof(DESTROY_OP) / sizeof(DESTROY_OP[0]) == CXPRM_OBJ_NVMF_NS + 1, "DESTROY_OP");

/* The device may still write m: only a teardown or a reset frees it. */
void mem_keep(cxprm_core *c, ObjMem *m)
{
	if (!m)
		return;
	m->next = __atomic_load_n(&c->kept, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&c->kept, &m->next, m, true, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED))
		;
}

void table_free(cxprm_core *c, cxprm_core_objs *t)
{
	if (t->lock)
		c->host->ops->lock_destroy(c->host->ctx, t->lock);
	t->~cxprm_core_objs();
	c->host->ops->mem_free(c->host->ctx, t);
}

/* Frees t, keeping the queue memory of what it still holds. */
void table_keep_rest(cxprm_core *c, cxprm_core_objs *t)
{
	for (u32 i = 0; i < t->n; i++)
		mem_keep(c, t->e[i].mem);
	table_free(c, t);
}

void orphan_push(cxprm_core *c, cxprm_core_objs *t)
{
	t->next = __atomic_load_n(&c->orphans, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&c->orphans, &t->next, t, true, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED))
		;
}

/* Sweeps t until a pass destroys nothing; how many went. */
u32 sweep_all(cxprm_core *c, cxprm_core_objs *t)
{
	u32 done = 0, n;
	while (t->n && (n = cxprm_core_objs_sweep(c, t)))
		done += n;
	return done;
}

/* Objects no firmware answer will remove: their memory is kept. */
void drop_gave_up(cxprm_core *c, cxprm_core_objs *t)
{
	for (u32 i = t->n; i-- > 0;) {
		if (t->e[i].gave_up) {
			mem_keep(c, t->e[i].mem);
			t->take_out(i);
		}
	}
}

/*
 * The orphans once more: those still named go back.  keep: no command,
 * every table freed with its queue memory kept.  Returns how many objects
 * went, *left (optional) how many tables stayed or were kept.
 */
u32 orphans_sweep(cxprm_core *c, bool keep, u32 *left = nullptr)
{
	cxprm_core_objs *t = __atomic_exchange_n(&c->orphans, (cxprm_core_objs *)nullptr,
						 __ATOMIC_ACQ_REL);
	u32 done = 0, n = 0;
	while (t) {
		cxprm_core_objs *next = t->next;
		if (!keep)
			done += sweep_all(c, t);
		drop_gave_up(c, t);
		n += t->n != 0;
		if (t->n && !keep)
			orphan_push(c, t);
		else
			table_keep_rest(c, t);
		t = next;
	}
	if (left)
		*left = n;
	return done;
}

} // namespace

u32 kept_count(cxprm_core *c)
{
	u32 n = 0;
	for (ObjMem *m = __atomic_load_n(&c->kept, __ATOMIC_ACQUIRE); m; m = m->next)
		n++;
	return n;
}

u32 kept_release(cxprm_core *c)
{
	ObjMem *m = __atomic_exchange_n(&c->kept, (ObjMem *)nullptr, __ATOMIC_ACQ_REL);
	u32 n = 0;
	while (m) {
		ObjMem *next = m->next;
		m->~ObjMem();
		c->host->ops->mem_free(c->host->ctx, m);
		m = next;
		n++;
	}
	return n;
}

u32 orphans_release(cxprm_core *c)
{
	u32 left = 0;
	orphans_sweep(c, true, &left);
	return left;
}

void objs_forget(cxprm_core *c, cxprm_core_objs *t)
{
	for (u32 i = 0; i < t->n; i++) {
		Obj o = t->e[i];
		mem_keep(c, o.mem);
		o.mem = nullptr;
		lost_push(t->lost, t->lost_n, CXPRM_OBJ_MAX_PER_FILE, o);
	}
	t->clear();
}

ObjMem *mem_new(cxprm_core *c)
{
	void *p = c->host->ops->mem_alloc(c->host->ctx, sizeof(ObjMem));
	return p ? new (p) ObjMem : nullptr;
}

void mem_free(cxprm_core *c, ObjMem *m)
{
	if (!m)
		return;
	m->~ObjMem();
	c->host->ops->mem_free(c->host->ctx, m);
}

void mem_after(cxprm_core *c, ObjMem *m, int err, const CmdResult &r)
{
	if (!err || err == E_REMOTEIO || !r.token)
		mem_free(c, m);
	else
		mem_keep(c, m);
}

/* The destroy command of e (a QP moved to reset first, as mlx5_ib does). */
int destroy_cmd(cxprm_core *c, Obj *e, CmdResult *r, u16 *op)
{
	Cmdq &q = c->dev.cmdq();
	*op = DESTROY_OP[e->type];
	switch (e->type) {
	case CXPRM_OBJ_PD:
		return cmd::dealloc_pd(q, e->id, 0, r);
	case CXPRM_OBJ_CQ:
		return cmd::destroy_cq(q, e->id, 0, r);
	case CXPRM_OBJ_SRQ:
		if (srq_is_rmp(c)) {
			*op = prm::op::DESTROY_RMP;
			return cmd::destroy_rmp(q, e->id, 0, r);
		}
		return cmd::destroy_srq(q, e->id, 0, r);
	case CXPRM_OBJ_QP:
		if (e->state != cmd::QP_STATE_RST) {
			*op = prm::op::QP_2RST;
			int err = cmd::qp_2rst(q, e->id, 0, r);
			if (err)
				return err;
			e->state = cmd::QP_STATE_RST;
			*op = DESTROY_OP[e->type];
		}
		return cmd::destroy_qp(q, e->id, 0, r);
	case CXPRM_OBJ_XRQ:
		return cmd::destroy_xrq(q, e->id, 0, r);
	case CXPRM_OBJ_NVMF_BACKEND:
		return cmd::destroy_nvmf_backend_ctrl(q, e->parent, (u16)e->id, r);
	default:
		return cmd::detach_nvmf_namespace(q, e->parent, e->id, r);
	}
}

} // namespace cxprm::capi

using namespace cxprm::capi;

extern "C" {

int cxprm_core_objs_create(cxprm_core *c, cxprm_core_objs **out)
{
	if (!c || !out)
		return E_INVAL;
	*out = nullptr;
	void *p = c->host->ops->mem_alloc(c->host->ctx, sizeof(cxprm_core_objs));
	if (!p)
		return E_NOMEM;
	cxprm_core_objs *t = new (p) cxprm_core_objs;
	t->lock = c->host->ops->lock_create(c->host->ctx);
	if (!t->lock) {
		table_free(c, t);
		return E_NOMEM;
	}
	*out = t;
	return OK;
}

cxprm_u32 cxprm_core_objs_sweep(cxprm_core *c, cxprm_core_objs *t)
{
	/* What names an object goes before it (DCTs: the caller's, before). */
	static constexpr u32 order[] = {CXPRM_OBJ_QP,  CXPRM_OBJ_NVMF_NS, CXPRM_OBJ_NVMF_BACKEND,
					CXPRM_OBJ_XRQ, CXPRM_OBJ_SRQ,     CXPRM_OBJ_CQ,
					CXPRM_OBJ_PD};
	u32 done = 0;
	if (!c || !t)
		return 0;
	for (u32 type : order) {
		for (u32 i = t->n; i-- > 0;) {
			Obj &e = t->e[i];
			if (e.type != type || e.gave_up)
				continue;
			CmdResult r{};
			u16 op;
			int err = destroy_cmd(c, &e, &r, &op);
			if (!err) {
				mem_free(c, e.mem);
				t->take_out(i);
				done++;
			} else if (err != E_REMOTEIO) {
				e.gave_up = true; /* no answer: not again */
			}
		}
	}
	return done;
}

cxprm_u32 cxprm_core_objs_destroy(cxprm_core *c, cxprm_core_objs *t, cxprm_u32 *destroyed)
{
	u32 done = 0, left = 0;
	if (c && t) {
		done = sweep_all(c, t);
		/* What this file's objects named may go now; then this file's once more. */
		if (orphans_sweep(c, false) && t->n)
			done += sweep_all(c, t);
		left = t->n;
		drop_gave_up(c, t);
		if (t->n)
			orphan_push(c, t);
		else
			table_free(c, t);
	}
	if (destroyed)
		*destroyed = done;
	return left;
}

cxprm_u32 cxprm_core_orphans_destroy(cxprm_core *c)
{
	if (!c)
		return 0;
	orphans_sweep(c, false);
	return orphans_release(c);
}

cxprm_u32 cxprm_core_objs_count(const cxprm_core_objs *t)
{
	return t ? t->n : 0;
}

} // extern "C"
