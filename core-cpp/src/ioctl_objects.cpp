// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The object ioctls (CXPRM_IOC_OBJ_CREATE/QUERY/DESTROY, CXPRM_IOC_QP_MODIFY;
 * capi.h "A file's objects") on a file's table (objects_table.h).  Like the
 * DCT ioctls (ioctl.cpp): the kernel shim copies and checks CAP_NET_ADMIN,
 * the CLI's fake device calls the same functions.

 * Memory and destroying: objects_table.cpp.
 */
#include "cxprm/capi.h"

#include "cxprm/commands/nvmf.h"
#include "cxprm/commands/objects.h"
#include "cxprm/commands/qp.h"
#include "cxprm/errors.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/srq.h"
#include "cxprm/queue_mem.h"

#include "capi_uapi.h"
#include "ioctl_posted.h"
#include "objects_table.h"

using namespace cxprm;

namespace {

using namespace cxprm::capi;

constexpr u32 QUEUE_MAX_BYTES = QueueMem::MAX_PAGES * QueueMem::PAGE;
constexpr u32 CQE_BYTES = 64;

/* The UAPI's limits and numbers are the core's. */
static_assert(cmd::queue_bytes(CXPRM_OBJ_MAX_LOG_QUEUE, CQE_BYTES) == QUEUE_MAX_BYTES,
	      "CXPRM_OBJ_MAX_LOG_QUEUE: the largest CQ is QueueMem's largest buffer");
static_assert(CXPRM_XRQ_MAX_STAGING_PAGES == QueueMem::MAX_PAGES &&
		      CXPRM_XRQ_MIN_LOG_STRIDE == cmd::XRQ_MIN_LOG_STRIDE &&
		      CXPRM_XRQ_MAX_LOG_STRIDE == (1u << prm::wq::log_wq_stride::width) - 1,
	      "cxprm_xrq_attr limits");
static_assert(CXPRM_QP_RST2INIT == 1 && CXPRM_QP_INIT2RTR == 2 && CXPRM_QP_RTR2RTS == 3 &&
		      CXPRM_QP_2RST == 4,
	      "enum cxprm_qp_transition");
static_assert(CXPRM_OBJ_PD == 1 && CXPRM_OBJ_NVMF_NS == 7, "enum cxprm_obj_type");
static_assert(sizeof(cxprm_cq_attr) == sizeof(cxprm_obj::u) &&
		      sizeof(cxprm_srq_attr) == sizeof(cxprm_obj::u) &&
		      sizeof(cxprm_qp_attr) == sizeof(cxprm_obj::u) &&
		      sizeof(cxprm_xrq_attr) == sizeof(cxprm_obj::u) &&
		      sizeof(cxprm_nvmf_backend_attr) == sizeof(cxprm_obj::u) &&
		      sizeof(cxprm_nvmf_ns_attr) == sizeof(cxprm_obj::u),
	      "every attr fills the union: its reserved fields are all the rest");
static_assert(sizeof(cxprm_qp_attr::state) == 1 && cmd::QP_STATE_RTS == 3, "qpc.state");


/* Reserved fields of the type's attributes; parent only where it means something. */
bool obj_reserved(const cxprm_obj &o)
{
	if (o.reserved)
		return true;
	bool child = o.type == CXPRM_OBJ_NVMF_BACKEND || o.type == CXPRM_OBJ_NVMF_NS;
	if (!child && o.parent)
		return true;
	switch (o.type) {
	case CXPRM_OBJ_PD:
		return any(o.u.raw);
	case CXPRM_OBJ_CQ:
		return any(o.u.cq.reserved0) || any(o.u.cq.reserved);
	case CXPRM_OBJ_SRQ:
		return o.u.srq.reserved0 || any(o.u.srq.reserved);
	case CXPRM_OBJ_QP:
		return any(o.u.qp.reserved0) || any(o.u.qp.reserved);
	case CXPRM_OBJ_XRQ:
		return any(o.u.xrq.reserved);
	case CXPRM_OBJ_NVMF_BACKEND:
		return o.u.backend.reserved != 0;
	case CXPRM_OBJ_NVMF_NS:
		return any(o.u.ns.reserved);
	default:
		return true;
	}
}

/* A queue of 2^log entries of 'stride' bytes within the driver's limits. */
bool queue_ok(u32 log, u64 bytes)
{
	return log <= CXPRM_OBJ_MAX_LOG_QUEUE && bytes <= QUEUE_MAX_BYTES;
}

/* m's queue i of 'bytes' into any queue params p. */
template <class P> int place(cxprm_core *c, ObjMem *m, u64 bytes, P &p)
{
	int err = m->q[0].init(c->host, bytes, &c->dbr);
	if (err)
		return err;
	p.buf_bus = m->q[0].page_bus(0);
	p.buf_pages = m->q[0].npages();
	p.dbr_bus = m->q[0].dbr_bus();
	return OK;
}

/* The driver's UAR (the async EQ's) and EQs: CQs and QPs need them. */
bool have_eq(cxprm_core *c)
{
	return c->ev.running();
}

int create_cq(cxprm_core *c, cxprm_obj *o, ObjMem *m, CmdResult *r)
{
	cxprm_cq_attr &a = o->u.cq;
	if (!queue_ok(a.log_size, cmd::queue_bytes(a.log_size, CQE_BYTES)))
		return E_INVAL;
	if (!have_eq(c))
		return E_NOTSUP;
	cmd::CqParams p;
	p.log_cq_size = a.log_size;
	p.uar_page = c->ev.uar();
	/* A completion EQ, never the async one (events_comp_eq.cpp). */
	int err = c->ev.comp_eqn(&p.eqn);
	if (!err)
		err = place(c, m, cmd::queue_bytes(a.log_size, CQE_BYTES), p);
	if (!err)
		err = cmd::create_cq(c->dev.cmdq(), p, &o->id, r);
	a.eqn = p.eqn;
	a.uar_page = p.uar_page;
	return err;
}

/* A work queue (SRQ, XRQ): 2^log WQEs of 'stride' bytes in m's first queue. */
template <class P, class Create>
int create_wq(cxprm_core *c, ObjMem *m, u8 log, u64 stride, P &p, Create create)
{
	u64 bytes = cmd::queue_bytes(log, (u32)stride);
	if (!queue_ok(log, bytes))
		return E_INVAL;
	int err = place(c, m, bytes, p);
	return err ? err : create(p);
}

/*
 * srqc.log_rq_stride counts 16-byte units (Linux ib/srq_cmd.c set_srqc);
 * CREATE_RMP from ISSI 1, where an RMP has no CQ (cqn must be 0).
 */
int create_srq(cxprm_core *c, cxprm_obj *o, ObjMem *m, CmdResult *r)
{
	const cxprm_srq_attr &a = o->u.srq;
	bool rmp = srq_is_rmp(c);
	if (rmp && a.cqn)
		return E_INVAL;
	cmd::SrqParams p{.log_srq_size = a.log_size, .log_rq_stride = a.log_stride, .pd = a.pd,
			 .cqn = a.cqn, .lwm = a.lwm};
	if (a.log_stride > 15)
		return E_INVAL;
	return create_wq(c, m, a.log_size, 16u << a.log_stride, p, [&](const cmd::SrqParams &k) {
		Cmdq &q = c->dev.cmdq();
		return rmp ? cmd::create_rmp(q, k, &o->id, r) : cmd::create_srq(q, k, &o->id, r);
	});
}

/* A QP's parameters and its queue memory in m, up to its CREATE_QP. */
int qp_prepare(cxprm_core *c, const cxprm_obj *o, ObjMem *m, CmdResult *r, cmd::QpParams *pp)
{
	const cxprm_qp_attr &a = o->u.qp;
	cmd::QpParams &p = *pp;
	p = {.st = a.st, .pd = a.pd, .cqn_snd = a.cqn_snd, .cqn_rcv = a.cqn_rcv,
	     .rq_type = a.srqn ? cmd::QP_RQ_SRQ : cmd::QP_RQ_REGULAR, .srqn = a.srqn,
	     .log_rq_size = a.log_rq_size, .log_rq_stride = a.log_rq_stride,
	     .log_sq_size = a.log_sq_size};
	/* An SRQ QP has no RQ of its own. */
	if (a.srqn && (a.log_rq_size || a.log_rq_stride))
		return E_INVAL;
	u64 bytes = cmd::qp_buffer_bytes(p);
	if (a.st > cmd::QP_ST_UD || a.log_rq_size > CXPRM_OBJ_MAX_LOG_QUEUE ||
	    !queue_ok(a.log_sq_size, bytes))
		return E_INVAL;
	if (!have_eq(c))
		return E_NOTSUP;
	p.uar_page = c->ev.uar();
	/* The RoCE capability on a RoCE port, else the general one (roce.h). */
	u8 ts_cap = 0;
	int err = capi::roce_qp_ts_cap(c, &ts_cap, r);
	if (err)
		return err;
	p.ts_format = cmd::qp_default_ts(ts_cap);
	return place(c, m, bytes, p);
}

int create_qp(cxprm_core *c, cxprm_obj *o, ObjMem *m, CmdResult *r)
{
	cmd::QpParams p;
	int err = qp_prepare(c, o, m, r, &p);
	return err ? err : cmd::create_qp(c->dev.cmdq(), p, &o->id, r);
}

/* wq.log_wq_stride is log2 bytes; the staging buffer is m's second queue. */
int create_xrq(cxprm_core *c, cxprm_obj *o, ObjMem *m, CmdResult *r)
{
	const cxprm_xrq_attr &a = o->u.xrq;
	cmd::XrqNvmfParams p{.cqn = a.cqn, .log_max_namespace = a.log_max_namespace, .ioccsz = a.ioccsz,
			     .log_max_io_size = a.log_max_io_size, .nvme_queue_size = a.nvme_queue_size,
			     .pd = a.pd, .log_wq_stride = a.log_stride, .log_wq_sz = a.log_size};
	u32 staging = a.staging_pages ? a.staging_pages : CXPRM_XRQ_DEFAULT_STAGING_PAGES;
	if (a.log_stride < CXPRM_XRQ_MIN_LOG_STRIDE || a.log_stride > CXPRM_XRQ_MAX_LOG_STRIDE ||
	    staging > CXPRM_XRQ_MAX_STAGING_PAGES)
		return E_INVAL;
	int err = m->q[1].init(c->host, (usize)staging * QueueMem::PAGE, &c->dbr);
	if (err)
		return err;
	p.staging_bus = m->q[1].page_bus(0);
	p.staging_pages = m->q[1].npages();
	return create_wq(c, m, a.log_size, 1ull << a.log_stride, p, [&](const cmd::XrqNvmfParams &k) {
		return cmd::create_xrq_nvmf(c->dev.cmdq(), k, &o->id, r);
	});
}

/*
 * An NVMe device's I/O queue pair, as the caller names it (the shim
 * checked CAP_SYS_RAWIO and allow_raw_write): nothing of the driver's.
 * The CQ head doorbell follows the SQ tail's (NVMe: SQyTDBL, CQyHDBL).
 */
int create_backend(cxprm_core *c, cxprm_obj *o, ObjMem *, CmdResult *r)
{
	const cxprm_nvmf_backend_attr &a = o->u.backend;
	if (a.db_stride > CXPRM_NVMF_BE_MAX_DB_STRIDE || a.queue_depth < 2 ||
	    a.queue_depth > CXPRM_NVMF_BE_MAX_QUEUE_DEPTH ||
	    cmd::nvme_cq_head_doorbell(a.sqt_db_bus, a.db_stride) < a.sqt_db_bus)
		return E_INVAL;
	const cmd::NvmfBackendParams p{.xrqn = o->parent, .cq_bus = a.cq_bus, .sq_bus = a.sq_bus,
				       .cqh_db_bus = cmd::nvme_cq_head_doorbell(a.sqt_db_bus, a.db_stride),
				       .sqt_db_bus = a.sqt_db_bus, .queue_depth = a.queue_depth,
				       .log_cmd_timeout_us = a.log_cmd_timeout_us};
	u16 id = 0;
	int err = cmd::create_nvmf_backend_ctrl(c->dev.cmdq(), p, &id, r);
	o->id = id;
	return err;
}

int alloc_pd(cxprm_core *c, cxprm_obj *o, ObjMem *, CmdResult *r)
{
	return cmd::alloc_pd(c->dev.cmdq(), &o->id, 0, r);
}

int attach_ns(cxprm_core *c, cxprm_obj *o, ObjMem *, CmdResult *r)
{
	cmd::NvmfNamespace ns{};
	ns.xrqn = o->parent;
	ns.nsid = o->id;
	ns.backend_namespace = o->u.ns.backend_namespace;
	/* UAPI: log2; the command: bytes (prm/nvmf.h attach_nvmf_namespace_in). */
	if (o->u.ns.lba_data_size < 9 || o->u.ns.lba_data_size > CXPRM_NVMF_MAX_LOG_LBA)
		return E_INVAL;
	ns.lba_data_size = (u16)(1u << o->u.ns.lba_data_size);
	ns.backend_controller_id = o->u.ns.backend_ctrl_id;
	return cmd::attach_nvmf_namespace(c->dev.cmdq(), ns, r);
}

constexpr u16 CREATE_OP[] = {0, prm::op::ALLOC_PD, prm::op::CREATE_CQ, prm::op::CREATE_SRQ,
			     prm::op::CREATE_QP, prm::op::CREATE_XRQ,
			     prm::op::CREATE_NVMF_BACKEND_CTRL, prm::op::ATTACH_NVMF_NAMESPACE};
using CreateFn = int (*)(cxprm_core *, cxprm_obj *, ObjMem *, CmdResult *);
constexpr CreateFn CREATE[] = {nullptr,   alloc_pd,   create_cq,      create_srq,
			       create_qp, create_xrq, create_backend, attach_ns};
static_assert(sizeof(CREATE_OP) / sizeof(CREATE_OP[0]) == CXPRM_OBJ_NVMF_NS + 1 &&
		      sizeof(CREATE) / sizeof(CREATE[0]) == CXPRM_OBJ_NVMF_NS + 1,
	      "one create per enum cxprm_obj_type");

/* The opcode a create of o sends. */
u16 create_op(cxprm_core *c, const cxprm_obj &o)
{
	if (o.type == CXPRM_OBJ_SRQ && srq_is_rmp(c))
		return prm::op::CREATE_RMP;
	return CREATE_OP[o.type];
}

/* Room for one more object, kept while its CREATE runs (t locked). */
int create_claim(cxprm_core_objs *t, const cxprm_obj *o)
{
	if (t->n + t->pending >= CXPRM_OBJ_MAX_PER_FILE)
		return E_NOSPC;
	if (o->type == CXPRM_OBJ_NVMF_NS && t->find(o->type, o->parent, o->id) >= 0)
		return E_INVAL; /* the file attached this nsid already */
	t->pending++;
	return OK;
}

/* After create_claim(): the object's queue memory (*m), E_NOMEM. */
int create_mem(cxprm_core *c, const cxprm_obj *o, ObjMem **m)
{
	bool queue = o->type != CXPRM_OBJ_PD && o->type != CXPRM_OBJ_NVMF_NS;
	*m = queue ? mem_new(c) : nullptr;
	return queue && !*m ? E_NOMEM : OK;
}

/*
 * After the CREATE (err; ran: its create function ran, r its result):
 * st, the queue memory kept or freed, the room create_claim() kept
 * released, the entry added.
 */
int create_done(cxprm_core *c, cxprm_core_objs *t, cxprm_obj *o, ObjMem *m, const CmdResult &r,
		int err, bool ran)
{
	if (ran) {
		if (o->type == CXPRM_OBJ_QP)
			o->u.qp.state = cmd::QP_STATE_RST;
		uapi::copy_status(&o->st, r, create_op(c, *o));
		if (err) {
			mem_after(c, m, err, r);
			if (o->type != CXPRM_OBJ_NVMF_NS)
				o->id = 0;
		}
	}
	TableLock g(c, t->lock);
	t->pending--; /* the room it kept: its entry's now, or free again */
	if (err)
		return ioc_ret(err);
	t->add({o->type, o->id, o->parent, cmd::QP_STATE_RST, false, m});
	return OK;
}

/* After create_claim(): the CREATE, and the room it kept released either way. */
int obj_create(cxprm_core *c, cxprm_core_objs *t, cxprm_obj *o)
{
	ObjMem *m = nullptr;
	CmdResult r{};
	int err = create_mem(c, o, &m);
	bool ran = !err;
	if (ran)
		err = CREATE[o->type](c, o, m, &r);
	return create_done(c, t, o, m, r, err, ran);
}

int obj_destroy(cxprm_core *c, cxprm_core_objs *t, cxprm_obj *o)
{
	/* Only the file that created an object may destroy it. */
	Obj e{};
	int err = obj_claim(c, t, o->type, o->parent, o->id, &e);
	if (err)
		return err;
	CmdResult r{};
	u16 op = 0;
	err = destroy_cmd(c, &e, &r, &op);
	uapi::copy_status(&o->st, r, op);
	/* Else the object stays the file's: close tries again. */
	obj_release(c, t, e, !err);
	if (!err)
		mem_free(c, e.mem);
	return ioc_ret(err);
}

int obj_query(cxprm_core *c, cxprm_obj *o)
{
	CmdResult r{};
	int err;
	if (o->type == CXPRM_OBJ_CQ) {
		cmd::CqInfo i{};
		err = cmd::query_cq(c->dev.cmdq(), o->id, &i, &r);
		uapi::copy_status(&o->st, r, prm::op::QUERY_CQ);
		o->u.cq = {};
		if (!err)
			o->u.cq = {.log_size = i.log_cq_size, .status = i.status, .reserved0 = {},
				   .eqn = i.eqn, .uar_page = i.uar_page,
				   .consumer_counter = i.consumer_counter,
				   .producer_counter = i.producer_counter, .reserved = {}};
		return ioc_ret(err);
	}
	if (o->type != CXPRM_OBJ_SRQ)
		return E_NOTSUP;
	cmd::SrqInfo i{};
	bool rmp = srq_is_rmp(c);
	if (rmp)
		err = cmd::query_rmp(c->dev.cmdq(), o->id, &i, &r);
	else
		err = cmd::query_srq(c->dev.cmdq(), o->id, &i, &r);
	uapi::copy_status(&o->st, r, rmp ? prm::op::QUERY_RMP : prm::op::QUERY_SRQ);
	o->u.srq = {};
	if (!err)
		o->u.srq = {.pd = i.pd, .cqn = i.cqn, .log_size = i.log_srq_size,
			    .log_stride = i.log_rq_stride, .lwm = i.lwm, .state = i.state,
			    .reserved0 = 0, .wqe_cnt = i.wqe_cnt, .reserved = {}};
	return ioc_ret(err);
}

/* ioc_obj's checks before its command; a CREATE's room kept (create_claim). */
int obj_check(cxprm_core *c, unsigned int cmd, cxprm_core_objs *t, cxprm_obj *o)
{
	if (obj_reserved(*o))
		return E_INVAL;
	o->st = {};
	/*
	 * Lost with the firmware's state (a recovery): the name, or the XRQ
	 * a backend or namespace hangs off, is stale; DESTROY forgets it.
	 */
	int err = OK;
	{
		TableLock g(c, t->lock);
		if (cmd != CXPRM_IOC_OBJ_CREATE && t->find(o->type, o->parent, o->id) < 0 &&
		    t->find_lost(o->type, o->parent, o->id) >= 0) {
			if (cmd == CXPRM_IOC_OBJ_DESTROY)
				t->forget_lost(o->type, o->parent, o->id);
			return E_STALE;
		}
		if (cmd == CXPRM_IOC_OBJ_CREATE && o->parent &&
		    t->find(CXPRM_OBJ_XRQ, 0, o->parent) < 0 &&
		    t->find_lost(CXPRM_OBJ_XRQ, 0, o->parent) >= 0)
			return E_STALE;
		if (cmd == CXPRM_IOC_OBJ_CREATE)
			err = create_claim(t, o);
	}
	return err;
}

int ioc_obj(cxprm_core *c, unsigned int cmd, cxprm_core_objs *t, cxprm_obj *o)
{
	int err = obj_check(c, cmd, t, o);
	if (err)
		return err;
	switch (cmd) {
	case CXPRM_IOC_OBJ_CREATE:
		return obj_create(c, t, o);
	case CXPRM_IOC_OBJ_QUERY:
		return obj_query(c, o);
	default:
		return obj_destroy(c, t, o);
	}
}


} // namespace

namespace cxprm::capi {

int obj_claim(cxprm_core *c, cxprm_core_objs *t, u32 type, u32 parent, u32 id, Obj *e)
{
	TableLock g(c, t->lock);
	int idx = t->find(type, parent, id);
	if (idx < 0)
		return t->find_lost(type, parent, id) >= 0 ? E_STALE : E_NOENT;
	if (t->e[idx].busy)
		return E_BUSY;
	t->e[idx].busy = true;
	*e = t->e[idx];
	return OK;
}

void obj_release(cxprm_core *c, cxprm_core_objs *t, const Obj &e, bool gone)
{
	TableLock g(c, t->lock);
	int idx = t->find(e.type, e.parent, e.id, true);
	if (idx < 0)
		return;
	if (gone) {
		t->take_out((u32)idx);
		return;
	}
	t->e[idx] = e;
	t->e[idx].busy = false;
}

bool obj_postable(unsigned int cmd, const void *k)
{
	return cmd == CXPRM_IOC_OBJ_CREATE && static_cast<const cxprm_obj *>(k)->type == CXPRM_OBJ_QP;
}

int qp_create_begin(cxprm_core *c, cxprm_core_objs *t, cxprm_obj *o, PostedCmd *pc)
{
	pc->claimed = pc->ran = false;
	pc->mem = nullptr;
	pc->r = {};
	int err = obj_check(c, CXPRM_IOC_OBJ_CREATE, t, o);
	if (err)
		return err;
	pc->claimed = true;
	err = create_mem(c, o, &pc->mem);
	if (err)
		return err;
	pc->ran = true;
	pc->op = prm::op::CREATE_QP;
	pc->outlen = cmd::CREATE_QP_OUT;
	err = qp_prepare(c, o, pc->mem, &pc->r, &pc->qp);
	return err ? err : cmd::encode_create_qp(pc->in, pc->qp, c->dev.cmdq().config().max_msg_bytes, &pc->src);
}

int qp_create_end(cxprm_core *c, cxprm_core_objs *t, cxprm_obj *o, PostedCmd *pc, int err)
{
	if (!pc->claimed)
		return err;
	if (!err)
		err = cmd::decode_create_qp(pc->out, &o->id);
	return create_done(c, t, o, pc->mem, pc->r, err, pc->ran);
}

} // namespace cxprm::capi

extern "C" {

int cxprm_core_ioc_is_obj(unsigned int cmd)
{
	return cmd == CXPRM_IOC_OBJ_CREATE || cmd == CXPRM_IOC_OBJ_QUERY ||
	       cmd == CXPRM_IOC_OBJ_DESTROY || cmd == CXPRM_IOC_QP_MODIFY;
}

int cxprm_core_obj_is_raw_write(unsigned int cmd, const void *k)
{
	return cmd == CXPRM_IOC_OBJ_CREATE && k &&
	       static_cast<const cxprm_obj *>(k)->type == CXPRM_OBJ_NVMF_BACKEND;
}

int cxprm_core_ioc_obj(cxprm_core *c, unsigned int cmd, cxprm_core_objs *t, void *k)
{
	if (!c || !t || !k)
		return E_INVAL;
	if (cmd == CXPRM_IOC_QP_MODIFY)
		return capi::ioc_qp_modify(c, t, (cxprm_qp_modify *)k);
	if (!cxprm_core_ioc_is_obj(cmd))
		return E_NOTTY;
	return ioc_obj(c, cmd, t, (cxprm_obj *)k);
}

} // extern "C"
