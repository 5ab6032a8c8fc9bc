// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* CREATE_QP, the RST->INIT->RTR->RTS transitions, 2RST_QP, DESTROY_QP. */
#include "cxprm/commands/qp.h"

#include "cmd_queue.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/qp.h"

namespace cxprm::cmd {

using namespace prm;

namespace {

constexpr u32 SQ_WQEBB = 64;

} // namespace

/*
 * The fields each transition writes from the QpPath member of the same
 * name, X(layout, field), layout qpc or its primary address path ads:
 * what qp_path_fits checks and encode_transition writes.
 */
#define CXPRM_RST2INIT_FIELDS_(X) X(ads, pkey_index) X(qpc, rre) X(qpc, rwe) X(qpc, rae)
#define CXPRM_INIT2RTR_FIELDS_(X)                                                                  \
	X(qpc, mtu) X(qpc, log_msg_max) X(qpc, remote_qpn) X(qpc, next_rcv_psn) X(qpc, log_rra_max) \
	X(qpc, min_rnr_nak)
#define CXPRM_RTR2RTS_FIELDS_(X) \
	X(qpc, next_send_psn) X(qpc, retry_count) X(qpc, rnr_retry) X(qpc, log_sra_max) X(ads, ack_timeout)

bool qp_path_fits(const QpPath &p)
{
	/* And set_path's fields narrower than their members: sl, flow_label. */
#define CXPRM_FITS_(l, f) fits<l::f>(p.f) &&
	return CXPRM_RST2INIT_FIELDS_(CXPRM_FITS_) CXPRM_INIT2RTR_FIELDS_(CXPRM_FITS_)
		CXPRM_RTR2RTS_FIELDS_(CXPRM_FITS_) fits<ads::sl>(p.sl) && fits<ads::flow_label>(p.flow_label);
#undef CXPRM_FITS_
}

namespace {

/* INIT2RTR's primary address path, as Linux ib/qp.c mlx5_set_path. */
void set_path(Ref<ads> a, u32 qpn, const QpPath &p)
{
	bool grh = p.eth || p.grh;
	if (p.eth) {
		/* The RoCE branch leaves ads.grh 0: the GRH is implied. */
		set<ads::rmac_47_32>(a, (u32)p.rmac[0] << 8 | p.rmac[1]);
		set<ads::rmac_31_0>(a, load_be32(p.rmac + 2));
		if (p.roce_v2) {
			set<ads::udp_sport>(a, roce_udp_sport(p.flow_label, qpn, p.remote_qpn));
			set<ads::dscp>(a, p.tclass >> 2);
		}
		set<ads::eth_prio>(a, p.sl & 7);
	} else {
		set<ads::rlid>(a, p.rlid);
		set<ads::grh>(a, p.grh);
		set<ads::sl>(a, p.sl);
	}
	if (grh) {
		set<ads::src_addr_index>(a, p.src_addr_index);
		set<ads::hop_limit>(a, p.hop_limit);
		set<ads::tclass>(a, p.tclass);
		set<ads::flow_label>(a, p.flow_label);
		mem_copy(bytes<ads::rgid_rip>(a), p.rgid, sizeof(p.rgid));
	}
}

/* A transition's view of layout L: its qpc c, or the address path a in it. */
Ref<qpc> view(Ref<qpc> c, Ref<ads>, qpc) { return c; }
Ref<ads> view(Ref<qpc>, Ref<ads> a, ads) { return a; }

/* One transition's input: In is rst2init/init2rtr/rtr2rts_qp_in (same shape). */
template <class In> int encode_transition(u8 *in, u16 opcode, u32 qpn, const QpPath &p, u16 uid)
{
	if (!fits<typename In::qpn>(qpn) || !qp_path_fits(p))
		return E_RANGE;
	auto r = begin_in<In>(in, opcode);
	set<typename In::uid>(r, uid);
	set<typename In::qpn>(r, qpn);
	auto c = sub<typename In::qpc, qpc>(r);
	auto a = sub<qpc::primary_address_path, ads>(c);
	set<qpc::pm_state>(c, 3); /* MIGRATED, as mlx5_ib sets it */
	set<ads::vhca_port_num>(a, p.port);
#define CXPRM_SET_(l, f) set<l::f>(view(c, a, l{}), p.f);
	if (opcode == op::RST2INIT_QP) {
		CXPRM_RST2INIT_FIELDS_(CXPRM_SET_)
	} else if (opcode == op::INIT2RTR_QP) {
		CXPRM_INIT2RTR_FIELDS_(CXPRM_SET_)
		set_path(a, qpn, p);
	} else {
		CXPRM_RTR2RTS_FIELDS_(CXPRM_SET_)
	}
#undef CXPRM_SET_
	return OK;
}

} // namespace

u16 roce_udp_sport(u32 flow_label, u32 lqpn, u32 rqpn)
{
	u32 fl = flow_label;
	if (!fl) {
		u64 v = (u64)lqpn * rqpn;
		v ^= v >> 20;
		v ^= v >> 40;
		fl = (u32)(v & 0xfffff);
	}
	u32 lo = fl & 0x3fff;
	lo ^= (fl & 0xfc000) >> 14;
	return (u16)(lo | 0xc000); /* IB_ROCE_UDP_ENCAP_VALID_PORT_MIN */
}

u8 qp_default_ts(u8 supported_ts_cap)
{
	return supported_ts_cap ? ts_format::DEFAULT : ts_format::FREE_RUNNING;
}

u64 qp_buffer_bytes(const QpParams &p)
{
	/* Saturating: ~0 (no queue is that large) for strides or logs out of range. */
	u64 rq = p.rq_type != QP_RQ_REGULAR ? 0
		 : p.log_rq_stride > 15     ? ~0ull
					    : queue_bytes(p.log_rq_size, 16u << p.log_rq_stride);
	u64 sq = queue_bytes(p.log_sq_size, SQ_WQEBB);
	return rq > ~0ull - sq ? ~0ull : rq + sq;
}

/*
 * The qpc fields CREATE_QP writes from the QpParams member of the same
 * name; the receive queue's (srqn, or log_rq_size and log_rq_stride) by
 * rq_type.
 */
#define CXPRM_CREATE_QPC_FIELDS_(X) \
	X(st) X(pd) X(uar_page) X(cqn_snd) X(cqn_rcv) X(rq_type) X(log_sq_size) X(ts_format)

int encode_create_qp(u8 *head, const QpParams &p, u32 max_msg_bytes, MsgSource *src)
{
#define CXPRM_FITS_(f) fits<qpc::f>(p.f) &&
	if (!(CXPRM_CREATE_QPC_FIELDS_(CXPRM_FITS_) fits<qpc::srqn_rmpn_xrqn>(p.srqn) &&
	      fits<qpc::log_rq_size>(p.log_rq_size) && fits<qpc::log_rq_stride>(p.log_rq_stride)))
		return E_RANGE;
#undef CXPRM_FITS_
	if (!queue_and_dbr_ok(p.buf_bus, p.buf_pages, qp_buffer_bytes(p), p.dbr_bus))
		return E_INVAL;
	if (p.buf_pages > create_qp_in_pas::entries_in(max_msg_bytes))
		return E_RANGE;

	auto r = begin_in<create_qp_in>(head, op::CREATE_QP);
	set<create_qp_in::uid>(r, p.uid);
	auto c = sub<create_qp_in::qpc, qpc>(r);
#define CXPRM_SET_(f) set<qpc::f>(c, p.f);
	CXPRM_CREATE_QPC_FIELDS_(CXPRM_SET_)
#undef CXPRM_SET_
	set<qpc::pm_state>(c, 3);
	if (p.rq_type == QP_RQ_SRQ)
		set<qpc::srqn_rmpn_xrqn>(c, p.srqn);
	else {
		set<qpc::log_rq_size>(c, p.log_rq_size);
		set<qpc::log_rq_stride>(c, p.log_rq_stride);
	}
	set<qpc::dbr_addr>(c, p.dbr_bus);
	/* The pas list is written once, straight into the mailboxes (fill). */
	*src = {};
	src->head = head;
	src->head_len = create_qp_in::size_bytes;
	src->len = create_qp_in_pas::bytes_for(p.buf_pages);
	src->fill = [](const void *ctx, u32 off, u8 *dst, u32 n) {
		const QpParams *k = static_cast<const QpParams *>(ctx);
		fill_pas_of<create_qp_in_pas>([k](u32 i) { return k->buf_bus + (u64)i * ADAPTER_PAGE_SIZE; },
					      off, dst, n);
	};
	src->ctx = &p;
	return OK;
}

int decode_create_qp(const void *out, u32 *qpn)
{
	*qpn = (u32)get<create_qp_out::qpn>(CRef<create_qp_out>(out));
	return OK;
}

int create_qp(Cmdq &q, const QpParams &p, u32 *qpn, CmdResult *res)
{
	if (!qpn)
		return E_INVAL;
	u8 head[create_qp_in::size_bytes], out[CREATE_QP_OUT];
	MsgSource src;
	int err = encode_create_qp(head, p, q.config().max_msg_bytes, &src);
	if (!err)
		err = exec(q, src, out, sizeof(out), res);
	return err ? err : decode_create_qp(out, qpn);
}

static_assert(CREATE_QP_IN_HEAD == create_qp_in::size_bytes && CREATE_QP_OUT == out_size<create_qp_out>(),
	      "CREATE_QP sizes");

int encode_qp_transition(u8 *in, u16 opcode, u32 qpn, const QpPath &p, u16 uid, u32 *inlen)
{
	switch (opcode) {
	case op::RST2INIT_QP:
		*inlen = rst2init_qp_in::size_bytes;
		return encode_transition<rst2init_qp_in>(in, opcode, qpn, p, uid);
	case op::INIT2RTR_QP:
		*inlen = init2rtr_qp_in::size_bytes;
		return encode_transition<init2rtr_qp_in>(in, opcode, qpn, p, uid);
	case op::RTR2RTS_QP:
		*inlen = rtr2rts_qp_in::size_bytes;
		return encode_transition<rtr2rts_qp_in>(in, opcode, qpn, p, uid);
	case op::QP_2RST:
		*inlen = qp_2rst_in::size_bytes;
		return encode_object_cmd<qp_2rst_in, qp_2rst_in::qpn>(in, opcode, qpn, uid);
	default:
		return E_INVAL;
	}
}

/* Every transition's output is the 16-byte header and a syndrome (ece aside). */
static_assert(out_size<rst2init_qp_out>() == QP_TRANSITION_OUT && out_size<init2rtr_qp_out>() == QP_TRANSITION_OUT &&
		      out_size<rtr2rts_qp_out>() == QP_TRANSITION_OUT && out_size<qp_2rst_out>() == QP_TRANSITION_OUT,
	      "QP_TRANSITION_OUT");

int qp_transition(Cmdq &q, u16 opcode, u32 qpn, const QpPath &p, u16 uid, CmdResult *res)
{
	u8 in[QP_TRANSITION_IN_MAX], out[QP_TRANSITION_OUT];
	u32 inlen = 0;
	int err = encode_qp_transition(in, opcode, qpn, p, uid, &inlen);
	return err ? err : exec(q, in, inlen, out, sizeof(out), res);
}

int qp_rst2init(Cmdq &q, u32 qpn, const QpPath &p, u16 uid, CmdResult *res)
{
	return qp_transition(q, op::RST2INIT_QP, qpn, p, uid, res);
}

int qp_init2rtr(Cmdq &q, u32 qpn, const QpPath &p, u16 uid, CmdResult *res)
{
	return qp_transition(q, op::INIT2RTR_QP, qpn, p, uid, res);
}

int qp_rtr2rts(Cmdq &q, u32 qpn, const QpPath &p, u16 uid, CmdResult *res)
{
	return qp_transition(q, op::RTR2RTS_QP, qpn, p, uid, res);
}

int qp_2rst(Cmdq &q, u32 qpn, u16 uid, CmdResult *res)
{
	return qp_transition(q, op::QP_2RST, qpn, QpPath{}, uid, res);
}

int destroy_qp(Cmdq &q, u32 qpn, u16 uid, CmdResult *res)
{
	return object_cmd<destroy_qp_in, destroy_qp_out, destroy_qp_in::qpn>(q, op::DESTROY_QP, qpn,
									   uid, res);
}

} // namespace cxprm::cmd
