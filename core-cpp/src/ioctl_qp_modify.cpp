// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CXPRM_IOC_QP_MODIFY (capi.h "A file's objects"): one transition of a QP
 * of the file's table, one command, in the three steps of ioctl_posted.h
 * (qp_begin, the command, qp_end) so that a batch can post it.
 */
#include "cxprm/capi.h"

#include "cxprm/commands/qp.h"
#include "cxprm/errors.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/vport.h"

#include "capi_uapi.h"
#include "ioctl_posted.h"
#include "objects_table.h"

using namespace cxprm;
using namespace cxprm::capi;

namespace {

/* struct cxprm_qp_modify's names that struct cmd::QpPath shares. */
#define CXPRM_UAPI_QP_PATH(X)                                                       \
	X(port) X(mtu) X(pkey_index) X(rre) X(rwe) X(rae) X(hop_limit) X(remote_qpn) \
	X(src_addr_index) X(min_rnr_nak) X(retry_count) X(rnr_retry) X(ack_timeout) X(rlid) X(sl) \
	X(tclass) X(flow_label)
#define CXPRM_COPY_(name) p.name = (decltype(p.name))m->name;
#define CXPRM_SIZE_(name) +sizeof(cxprm_qp_modify::name)
static_assert(0 CXPRM_UAPI_QP_PATH(CXPRM_SIZE_) + sizeof(cxprm_qp_modify::qpn) +
			      sizeof(cxprm_qp_modify::transition) + sizeof(cxprm_qp_modify::st) +
			      sizeof(cxprm_qp_modify::rq_psn) + sizeof(cxprm_qp_modify::sq_psn) +
			      sizeof(cxprm_qp_modify::rgid) + sizeof(cxprm_qp_modify::rmac) +
			      sizeof(cxprm_qp_modify::state) + sizeof(cxprm_qp_modify::reserved) ==
		      sizeof(cxprm_qp_modify),
	      "a struct cxprm_qp_modify field is neither shared with QpPath nor renamed");

/*
 * INIT2RTR's link-layer part of the path (mlx5_set_path).  Ethernet: RoCE
 * set up first, src_addr_index a populated GID entry (ib_core refuses
 * others), its RoCE version decides udp_sport and dscp.  InfiniBand: rlid,
 * sl, and a GRH when an rgid is given.
 */
int rtr_path(cxprm_core *c, const cxprm_qp_modify *m, cmd::QpPath *p, CmdResult *r, u16 *op)
{
	/* The status of a refusal below names the command refused (the caller
	 * reports *op on every error; RoCE setup names its own commands). */
	*op = prm::op::INIT2RTR_QP;
	p->eth = c->dev.caps_cur().port_type == prm::port_type::ETH;
	if (!p->eth) {
		p->grh = any(m->rgid);
		return OK;
	}
	/* Refused before RoCE is set up: an error sends nothing. */
	if (m->src_addr_index >= capi::ROCE_DEFAULT_GIDS || !cmd::qp_path_fits(*p))
		return E_INVAL;
	int err = capi::roce_use(c, r, op);
	if (err)
		return err;
	int v = capi::roce_gid_version(c, m->src_addr_index);
	*op = prm::op::INIT2RTR_QP;
	if (v < 0)
		return E_INVAL;
	p->roce_v2 = v == prm::roce_version::V2;
	return OK;
}

} // namespace

namespace cxprm::capi {

int qp_begin(cxprm_core *c, cxprm_core_objs *t, cxprm_qp_modify *m, PostedCmd *pc)
{
	pc->claimed = false;
	if (any(m->reserved) || m->transition < CXPRM_QP_RST2INIT || m->transition > CXPRM_QP_2RST)
		return E_INVAL;
	if (m->transition == CXPRM_QP_INIT2RTR && (m->mtu < 1 || m->mtu > 5))
		return E_INVAL;
	m->st = {};
	int err = obj_claim(c, t, CXPRM_OBJ_QP, 0, m->qpn, &pc->obj);
	if (err)
		return err;
	pc->claimed = true;
	pc->r = {};
	cmd::QpPath p;
	CXPRM_UAPI_QP_PATH(CXPRM_COPY_)
	p.next_rcv_psn = m->rq_psn;
	p.next_send_psn = m->sq_psn;
	/* mlx5_ib: the largest message the device takes (cap log_max_msg). */
	p.log_msg_max = (u8)c->dev.caps_cur().log_max_msg;
	mem_copy(p.rgid, m->rgid, sizeof(p.rgid));
	mem_copy(p.rmac, m->rmac, sizeof(p.rmac));
	if (m->transition == CXPRM_QP_INIT2RTR) {
		err = rtr_path(c, m, &p, &pc->r, &pc->op);
		if (err)
			return err;
	}
	static constexpr struct {
		u16 op;
		u8 next;
	} STEP[] = {{}, /* CXPRM_QP_RST2INIT .. CXPRM_QP_2RST */
		    {prm::op::RST2INIT_QP, cmd::QP_STATE_INIT},
		    {prm::op::INIT2RTR_QP, cmd::QP_STATE_RTR},
		    {prm::op::RTR2RTS_QP, cmd::QP_STATE_RTS},
		    {prm::op::QP_2RST, cmd::QP_STATE_RST}};
	pc->op = STEP[m->transition].op;
	pc->next = STEP[m->transition].next;
	pc->outlen = cmd::QP_TRANSITION_OUT;
	return cmd::encode_qp_transition(pc->in, pc->op, pc->obj.id, p, 0, &pc->inlen);
}

int qp_end(cxprm_core *c, cxprm_core_objs *t, cxprm_qp_modify *m, PostedCmd *pc, int err)
{
	if (!pc->claimed)
		return err;
	uapi::copy_status(&m->st, pc->r, pc->op);
	if (!err)
		pc->obj.state = pc->next;
	m->state = pc->obj.state;
	obj_release(c, t, pc->obj, false);
	return ioc_ret(err);
}

int ioc_qp_modify(cxprm_core *c, cxprm_core_objs *t, cxprm_qp_modify *m)
{
	PostedCmd pc;
	int err = qp_begin(c, t, m, &pc);
	if (!err)
		err = c->dev.cmdq().exec(pc.in, pc.inlen, pc.out, pc.outlen, &pc.r);
	return qp_end(c, t, m, &pc, err);
}

} // namespace cxprm::capi
#undef CXPRM_COPY_
#undef CXPRM_SIZE_
