// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A batch's ops as posted commands (ioctl_posted.h): one thread keeps up
 * to the queue's free slots in flight (Cmdq::submit with EXEC_NO_WAIT),
 * ends whichever command is back first (Cmdq::done, else it waits for the
 * oldest) and posts the next, as mlx5_core's users of mlx5_cmd_exec_cb()
 * have commands in flight with one completion handler for all.  Before,
 * every op ran on a thread of its own, each woken for its own completion
 * in turn (Documentation/performance.rst, figure 6).
 */
#include "cxprm/capi.h"

#include "capi_core.h"
#include "ioctl_call.h"
#include "ioctl_posted.h"

namespace cxprm::capi {

namespace {

/* The op's begin (ioctl_posted.h) on the file's table. */
int begin(cxprm_core *c, cxprm_core_file *f, PostOp *op)
{
	op->m.claimed = false;
	if (cxprm_core_ioc_is_dct(op->cmd))
		return dct_begin(c, op->cmd, &f->dcts, (cxprm_dct *)op->k, &op->m);
	cxprm_core_objs *t = nullptr;
	int err = file_objs(c, f, &t);
	if (err)
		return err;
	if (op->cmd == CXPRM_IOC_QP_MODIFY)
		return qp_begin(c, t, (cxprm_qp_modify *)op->k, &op->m);
	return qp_create_begin(c, t, (cxprm_obj *)op->k, &op->m);
}

/* Ends op with err (its command's result, or why it was never posted). */
void end(cxprm_core *c, cxprm_core_file *f, PostOp *op, int err)
{
	if (cxprm_core_ioc_is_dct(op->cmd))
		*op->result = dct_end(op->cmd, &f->dcts, (cxprm_dct *)op->k, &op->m, err);
	else if (op->cmd == CXPRM_IOC_QP_MODIFY)
		*op->result = qp_end(c, f->objs, (cxprm_qp_modify *)op->k, &op->m, err);
	else
		*op->result = qp_create_end(c, f->objs, (cxprm_obj *)op->k, &op->m, err);
	op->built = op->posted = false;
}

/*
 * The posted op whose command is back, else the oldest posted; -1 when
 * none.  Ops below *lo are ended: the walk starts at the oldest posted.
 */
int pick(Cmdq &q, PostOp *ops, u32 *lo, u32 n)
{
	while (*lo < n && !ops[*lo].posted)
		++*lo;
	int oldest = -1;
	for (u32 i = *lo; i < n; i++) {
		if (!ops[i].posted)
			continue;
		if (q.done(ops[i].m.p))
			return (int)i;
		if (oldest < 0)
			oldest = (int)i;
	}
	return oldest;
}

} // namespace

bool postable(unsigned int cmd, const void *k)
{
	return dct_postable(cmd) || cmd == CXPRM_IOC_QP_MODIFY || obj_postable(cmd, k);
}

void post_more(cxprm_core *c, cxprm_core_file *f, PostOp *ops, u32 n, PostedRun *pr)
{
	Cmdq &q = c->dev.cmdq();
	/*
	 * With every slot a command may take its own, end one before trying;
	 * with none in flight, try (submit says why it cannot: shutdown, ...).
	 */
	while (pr->next < n && (!pr->in_flight || pr->in_flight < q.regular_slots())) {
		PostOp *op = &ops[pr->next];
		PostedCmd *m = &op->m;
		int err = OK;
		if (!op->built) {
			err = begin(c, f, op);
			op->built = !err;
		}
		/* With commands of its own in flight, never wait for a slot: end one. */
		if (!err)
			err = q.submit(m->msg(), m->out, m->outlen, &m->r, pr->in_flight ? (u32)EXEC_NO_WAIT : 0u,
				       &m->p);
		if (err == E_AGAIN)
			return;
		if (err)
			end(c, f, op, err);
		else
			op->posted = true, pr->in_flight++;
		pr->next++;
	}
}

void run_posted(cxprm_core *c, cxprm_core_file *f, PostOp *ops, u32 n, PostedRun *pr)
{
	Cmdq &q = c->dev.cmdq();
	for (;;) {
		post_more(c, f, ops, n, pr);
		int i = pick(q, ops, &pr->lo, pr->next);
		if (i < 0)
			return;
		pr->in_flight--;
		end(c, f, &ops[i], q.complete(&ops[i].m.p));
	}
}

} // namespace cxprm::capi
