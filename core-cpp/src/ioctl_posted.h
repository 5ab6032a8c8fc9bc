/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A typed or object ioctl whose work is one firmware command, in three
 * steps: begin (checks, the file's table claimed, the input built), the
 * command (run, or posted with others: ioctl_batch_posted.cpp), end (the
 * output decoded, the table released, st).  The ioctl itself is the three
 * in a row (ioctl_dct.cpp, ioctl_qp_modify.cpp), so a batch's posted op
 * and the op's own ioctl are one definition.  So far the DCT ioctls but
 * DESTROY (DRAIN_DCT, a wait for DRAINED and DESTROY_DCT: three commands),
 * QP_MODIFY, and OBJ_CREATE of a QP; the other ops of a batch run as
 * their own ioctls on the host's run_parallel.
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
			    max_of<u32>(cmd::QP_TRANSITION_IN_MAX, cmd::CREATE_QP_IN_HEAD));
	static constexpr u32 OUT_MAX =
		max_of<u32>(max_of<u32>(prm::query_dct_out::size_bytes, prm::create_dct_out::size_bytes),
			    cmd::CREATE_QP_OUT);
	u8 in[IN_MAX];   /* the input, or its head when src.fill is set */
	u8 out[OUT_MAX];
	u32 inlen, outlen; /* inlen 0: no single command (DCT DESTROY) */
	MsgSource src;     /* with a fill (CREATE_QP's pas list): the input */
	u16 op;            /* the opcode st names (0: st all zeros) */
	bool claimed;      /* the file's table holds a claim for the op */
	bool ran;          /* OBJ_CREATE: its create function ran */
	u8 next;           /* QP_MODIFY: the QP's state after it */
	Obj obj;           /* QP_MODIFY: the QP's entry, claimed */
	ObjMem *mem;       /* OBJ_CREATE: the QP's queue memory */
	cmd::QpParams qp;  /* OBJ_CREATE: what src's fill reads */
	CmdResult r;
	Cmdq::Posted p;

	MsgSource msg() const { return src.fill ? src : MsgSource::flat(in, inlen); }
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

/* OBJ_CREATE of a QP (ioctl_objects.cpp), as dct_begin and dct_end. */
bool obj_postable(unsigned int cmd, const void *k);
int qp_create_begin(cxprm_core *c, cxprm_core_objs *t, cxprm_obj *o, PostedCmd *pc);
int qp_create_end(cxprm_core *c, cxprm_core_objs *t, cxprm_obj *o, PostedCmd *pc, int err);

/* One op of a batch whose command is posted (run_posted). */
struct PostOp {
	unsigned int cmd;
	void *k;     /* its struct, copied in */
	int *result; /* where its result goes */
	bool built, posted;
	PostedCmd m;
};
/* Whether a batch posts an op of cmd on k (its begin builds its command). */
bool postable(unsigned int cmd, const void *k);
/* Where run_posted is in its ops: next to post, how many in flight, the oldest not ended. */
struct PostedRun {
	u32 next, in_flight, lo;
};
/*
 * Runs ops (each postable) from the calling thread with their commands in
 * flight together, up to the free slots: each built, posted, completed
 * (whichever is back first) and ended; more posted as slots free.  As
 * mlx5_cmd_exec_cb()'s callers, without a thread per command.  Goes on
 * from *pr (zeroed, or where post_more left it).
 */
void run_posted(cxprm_core *c, cxprm_core_file *f, PostOp *ops, u32 n, PostedRun *pr);
/*
 * Builds and posts ops from pr->next on while a slot is free, waiting for
 * none once one of its own is in flight: a batch's first commands go out
 * while its later ops are still being copied in.
 */
void post_more(cxprm_core *c, cxprm_core_file *f, PostOp *ops, u32 n, PostedRun *pr);

} // namespace cxprm::capi
