// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CXPRM_IOC_BATCH (include/uapi/linux/cxprm.h): typed and object ioctls
 * whose firmware commands are in flight together, as mlx5_core's users
 * have theirs with mlx5_cmd_exec_cb().  Three steps:
 *   1. in the caller's task: the batch and its ops copied in (-EINVAL,
 *      -EFAULT: nothing runs), then per op its struct copied in and what
 *      it needs beyond CAP_NET_ADMIN asked (typed_allowed): an op refused
 *      there has its errno as its result and does not run;
 *   2. the ops that passed: those whose work is one command posted from
 *      one task with their commands in flight together (run_posted,
 *      ioctl_batch_posted.cpp), the others through the host's run_parallel
 *      (typed_run); each exactly as its own ioctl, in whatever task the
 *      host gives.  While every op so far is one to post, step 1 posts
 *      each as it passes (post_more): the first commands are in flight
 *      while the later ops are copied in;
 *   3. in the caller's task: the structs of the ops that returned 0
 *      copied back, then every result and the batch.
 */
#include "cxprm/capi.h"

#include "cxprm/errors.h"
#include "cxprm/types.h"

#include "capi_core.h"
#include "ioctl_call.h"
#include "ioctl_posted.h"

using namespace cxprm;
using namespace cxprm::capi;

namespace {

static_assert(sizeof(cxprm_batch_op) == 16 && sizeof(cxprm_batch) == 24, "UAPI layout");

struct Op {
	void *k;    /* the op's struct, copied in */
	int result; /* its errno so far */
};

/*
 * What run_parallel hands each call: the ops that passed step 1 and are
 * not posted (idx), then, as index n, all the posted ones.
 */
struct Run {
	cxprm_core *c;
	cxprm_core_file *f;
	const cxprm_batch_op *uops;
	Op *ops;
	u32 n, nposted;
	PostOp *posted;
	PostedRun pr; /* the posted ops' progress */
	u32 idx[CXPRM_BATCH_MAX];
};

void run_one(void *arg, cxprm_u32 i)
{
	Run *r = static_cast<Run *>(arg);
	if (i == r->n) {
		run_posted(r->c, r->f, r->posted, r->nposted, &r->pr);
		return;
	}
	u32 n = r->idx[i];
	r->ops[n].result = typed_run(r->c, r->f, r->uops[n].cmd, r->ops[n].k);
}

/* An op's struct's place in the batch's one buffer of structs. */
usize struct_room(const cxprm_batch_op &u)
{
	return cxprm_core_ioc_is_batchable(u.cmd) ? (_IOC_SIZE(u.cmd) + 7) & ~(usize)7 : 0;
}

/* Step 1 for one op: its struct in (at op->k), its privilege; 0 or the op's errno. */
int prepare(const Call &k, const cxprm_batch_op &u, Op *op)
{
	if (!cxprm_core_ioc_is_batchable(u.cmd))
		return E_NOTTY;
	int err = k.in(op->k, u.arg, _IOC_SIZE(u.cmd));
	return err ? err : typed_allowed(k, u.cmd, op->k);
}

/*
 * A piece of a batch's memory, kept on the core for the next batch: one
 * batch at a time takes it (a batch that finds it taken, or too small,
 * has the host allocate its own), and gives it back unless another was
 * given back first.  A kept piece is not zeroed again: each byte a batch
 * reads it wrote first (the ops and their structs copied in whole, each
 * op's state and each posted op's command set before use, as the ioctls'
 * own stack copies are).  Without it, each batch had the host allocate
 * and zero 40 KiB or more before its first command.
 */
class Kept {
public:
	Kept(const Call &k, void **slot, usize bytes) : k_(k), slot_(slot)
	{
		Head *h = static_cast<Head *>(__atomic_exchange_n(slot_, nullptr, __ATOMIC_ACQUIRE));
		if (h && h->bytes < bytes) {
			k_.free(h);
			h = nullptr;
		}
		if (!h && bytes) {
			h = static_cast<Head *>(k_.alloc(sizeof(Head) + bytes));
			if (h)
				h->bytes = bytes;
		}
		h_ = h;
		p = h ? h + 1 : nullptr;
	}
	~Kept()
	{
		if (h_ && h_->bytes > KEEP_MAX)
			k_.free(h_);
		else if (h_)
			k_.free(__atomic_exchange_n(slot_, h_, __ATOMIC_RELEASE));
	}
	Kept(const Kept &) = delete;
	Kept &operator=(const Kept &) = delete;

	/*
	 * A larger piece is freed after its batch: the device keeps what the
	 * batches it serves often need (256 posted ops' state is about 190 KiB),
	 * not a one-off (256 QUERY_CAPS structs are 1 MiB).
	 */
	static constexpr usize KEEP_MAX = 256 * 1024;
	void *p;

private:
	struct alignas(16) Head {
		usize bytes;
	};
	const Call &k_;
	void **slot_;
	Head *h_;
};

/*
 * The batch's own memory, in one piece: the ops as given, their state,
 * the run and the posted ops.  The ops' structs are a second piece, sized
 * once the ops are in.  Both are kept for the next batch (Kept).
 */
struct Mem {
	cxprm_batch_op *u;
	Op *op;
	Run *r;
	PostOp *posted;

	static constexpr usize bytes(u32 n)
	{
		return sizeof(Run) + n * (sizeof(PostOp) + sizeof(Op) + sizeof(cxprm_batch_op));
	}
	static_assert(sizeof(Run) % alignof(PostOp) == 0 && sizeof(PostOp) % alignof(Op) == 0 &&
			      sizeof(Op) % alignof(cxprm_batch_op) == 0,
		      "each part starts aligned");
	explicit Mem(void *p, u32 n)
	{
		/* Most aligned first: Run and PostOp hold u64s and pointers. */
		r = static_cast<Run *>(p);
		posted = reinterpret_cast<PostOp *>(r + 1);
		op = reinterpret_cast<Op *>(posted + n);
		u = reinterpret_cast<cxprm_batch_op *>(op + n);
	}
};
static_assert(Mem::bytes(CXPRM_BATCH_MAX) <= Kept::KEEP_MAX, "the largest batch's own state is kept");

} // namespace

namespace cxprm::capi {

int ioc_batch(const Call &k, u64 uarg)
{
	cxprm_batch b;
	int err = k.in(&b, uarg, sizeof(b));
	if (err)
		return err;
	if (!b.count || b.count > CXPRM_BATCH_MAX || b.flags || b.reserved)
		return E_INVAL;
	Kept mem(k, &k.c->batch_kept[0], Mem::bytes(b.count));
	if (!mem.p)
		return E_NOMEM;
	Mem m(mem.p, b.count);
	auto *u = m.u;
	auto *op = m.op;
	if (k.in(u, b.ops, b.count * sizeof(*u)))
		return E_FAULT;
	usize room = 0;
	for (u32 i = 0; i < b.count; i++)
		room += struct_room(u[i]);
	Kept structs(k, &k.c->batch_kept[1], room);
	if (room && !structs.p)
		return E_NOMEM;
	auto *r = m.r;
	*r = {k.c, k.f, u, op, 0, 0, m.posted, {}, {}};
	u8 *next = static_cast<u8 *>(structs.p);
	for (u32 i = 0; i < b.count; i++) {
		op[i] = {next, OK};
		next += struct_room(u[i]);
		op[i].result = prepare(k, u[i], &op[i]);
		if (op[i].result != OK)
			continue;
		if (postable(u[i].cmd, op[i].k)) {
			PostOp &p = r->posted[r->nposted++];
			p.cmd = u[i].cmd;
			p.k = op[i].k;
			p.result = &op[i].result;
			p.built = p.posted = false;
			p.m.src = {};
			/*
			 * While every op so far is posted, this task (the caller's,
			 * as step 1 needs) posts each as it comes: the engines work
			 * while the later ops are copied in.
			 */
			if (!r->n)
				post_more(k.c, k.f, r->posted, r->nposted, &r->pr);
		} else {
			r->idx[r->n++] = i;
		}
	}
	/* The posted ops run as one more call, beside the others. */
	u32 calls = r->n + (r->nposted ? 1 : 0);
	const cxprm_host_ops *h = k.c->host->ops;
	if (calls > 1 && h->run_parallel) {
		h->run_parallel(k.c->host->ctx, calls, run_one, r);
	} else {
		for (u32 i = 0; i < calls; i++)
			run_one(r, i);
	}
	b.done = 0;
	for (u32 i = 0; i < b.count; i++) {
		if (op[i].result == OK && k.out(u[i].arg, op[i].k, _IOC_SIZE(u[i].cmd)))
			op[i].result = E_FAULT;
		u[i].result = op[i].result;
		b.done += op[i].result == OK;
	}
	if (k.out(b.ops, u, b.count * sizeof(*u)))
		return E_FAULT;
	return k.out(uarg, &b, sizeof(b));
}

void batch_kept_release(cxprm_core *c)
{
	for (void *&p : c->batch_kept) {
		if (p)
			c->host->ops->mem_free(c->host->ctx, p);
		p = nullptr;
	}
}

} // namespace cxprm::capi

extern "C" int cxprm_core_ioc_is_batchable(unsigned int cmd)
{
	return cxprm_core_ioc_is_typed(cmd) || cxprm_core_ioc_is_obj(cmd);
}
