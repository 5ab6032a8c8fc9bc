/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A typed or object ioctl whose work is one firmware command, in three
 * steps: begin (checks, the file's table claimed, the input built), the
 * command (run, or posted with others: ioctl_batch_posted.cpp), end (the
 * output decoded, the table released, st).  The ioctl itself is the three
 * in a row (ioctl_dct.cpp, ioctl_qp_modify.cpp), so a batch's posted op
 * and the op's own ioctl are one definition.  So far the DCT ioctls but
 * DESTROY (DRAIN_DCT, a wait for DRAINED and DESTROY_DCT: three commands)
 * and QP_MODIFY.
 */
#pragma once

#include "cxprm/capi.h"
#include "cxprm/cmdq.h"
#include "cxprm/commands/qp.h"
#include "cxprm/prm/dct.h"

#include "objects_table.h"

namespace cxprm::capi {

struct PostedCmd {
	static constexpr u32 IN_MAX =
		max_of<u32>(max_of<u32>(prm::create_dct_in::size_bytes, prm::query_dct_in::size_bytes),
			    cmd::QP_TRANSITION_IN_MAX);
	static constexpr u32 OUT_MAX =
		max_of<u32>(prm::query_dct_out::size_bytes, prm::create_dct_out::size_bytes);
	u8 in[IN_MAX];
	u8 out[OUT_MAX];
	u32 inlen, outlen; /* inlen 0: no single command (DCT DESTROY) */
	u16 op;            /* the opcode st names (0: st all zeros) */
	bool claimed;      /* the file's table holds a claim for the op */
	u8 next;           /* QP_MODIFY: the QP's state after it */
	Obj obj;           /* QP_MODIFY: the QP's entry, claimed */
	CmdResult r;
	Cmdq::Posted p;
};

/* DCT CREATE, QUERY, DRAIN (ioctl_dct.cpp). */
bool dct_postable(unsigned int cmd);
/*
 * OK: m holds the command (m->inlen bytes in, m->outlen out).  Otherwise
 * the op's error; dct_end() ends it either way.
 */
int dct_begin(cxprm_core *c, unsigned int cmd, cxprm_core_dcts *t, cxprm_dct *d, PostedCmd *m);
/* The op's result from the command's (err), d's output and st filled. */
int dct_end(unsigned int cmd, cxprm_core_dcts *t, cxprm_dct *d, PostedCmd *m, int err);

/* QP_MODIFY (ioctl_qp_modify.cpp), as dct_begin and dct_end. */
int qp_begin(cxprm_core *c, cxprm_core_objs *t, cxprm_qp_modify *m, PostedCmd *pc);
int qp_end(cxprm_core *c, cxprm_core_objs *t, cxprm_qp_modify *m, PostedCmd *pc, int err);
int ioc_qp_modify(cxprm_core *c, cxprm_core_objs *t, cxprm_qp_modify *m);

/* One op of a batch whose command is posted (run_posted). */
struct PostOp {
	unsigned int cmd;
	void *k;     /* its struct, copied in */
	int *result; /* where its result goes */
	bool built, posted;
	PostedCmd m;
};
/* Whether a batch posts an op of cmd (its begin builds its command). */
bool postable(unsigned int cmd);
/*
 * Runs ops (each postable) from the calling thread with their commands in
 * flight together, up to the free slots: each built, posted, completed
 * (whichever is back first) and ended; more posted as slots free.  As
 * mlx5_cmd_exec_cb()'s callers, without a thread per command.
 */
void run_posted(cxprm_core *c, cxprm_core_file *f, PostOp *ops, u32 n);

} // namespace cxprm::capi
