// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RC queue pairs: CREATE_QP (in RST), RST2INIT / INIT2RTR / RTR2RTS, 2RST
// and DESTROY_QP.  CREATE_QP checks what the QP names (PD, both CQs, the
// SRQ: handlers_objects.cpp); a transition from any state but the one it
// starts from is BAD_RES_STATE, as firmware's QP state machine answers
// (Linux's mlx5_ib keeps its own table of legal transitions and never sends
// one).  DESTROY_QP works in any state: firmware moves the QP to RST first
// (Linux destroys RTS QPs directly).  No work requests are executed.
#include "emu_device.h"

#include "cxprm/prm/qp.h"
#include "cxprm/prm/transport.h"

namespace cxprm::emu {

using prm::CRef;
using prm::Ref;
namespace op = prm::op;

namespace {

constexpr uint8_t ST_RC = 0;
constexpr uint8_t RQ_REGULAR = 0, RQ_SRQ = 1, RQ_ZERO = 3;
constexpr uint8_t QP_RST = 0, QP_INIT = 1, QP_RTR = 2; // then 3 RTS
constexpr uint32_t MTU_MIN = 1, MTU_MAX = 5;
constexpr uint64_t SQ_WQEBB = 64;

// qpc.ts_format against what the device supports (PRM; Linux's
// mlx5_get_qp_default_ts picks DEFAULT whenever real time is supported):
// DEFAULT always; FREE_RUNNING unless the real-time clock is the only
// one; REAL_TIME when real time is supported.  Assumed: firmware checks
// roce_cap.qp_ts_format on a RoCE function (an Ethernet port with
// cmd_hca_cap.roce, what Linux reads then) and the general sq_ts_format
// otherwise, and the value 3 is refused.
bool ts_format_ok(uint8_t f, uint8_t supported)
{
	namespace tf = prm::ts_format;
	namespace tc = prm::ts_format_cap;
	switch (f) {
	case tf::DEFAULT:
		return true;
	case tf::FREE_RUNNING:
		return supported != tc::REAL_TIME;
	case tf::REAL_TIME:
		return supported == tc::REAL_TIME || supported == tc::FREE_RUNNING_AND_REAL_TIME;
	default:
		return false;
	}
}

} // namespace

Result Device::create_qp(Cmd &c)
{
	using in_t = prm::create_qp_in;
	CRef<prm::qpc> ctx = prm::sub<in_t::qpc, prm::qpc>(CRef<in_t>(c.in));
	if (prm::get<prm::qpc::st>(ctx) != ST_RC)
		return fail(synd::QP_BAD_ST);
	bool roce = cap_cur<prm::cmd_hca_cap::port_type>() == prm::port_type::ETH &&
		    cap_cur<prm::cmd_hca_cap::roce>();
	uint8_t ts_cap = (uint8_t)(roce ? cap_cur<prm::roce_cap::qp_ts_format>()
					: cap_cur<prm::cmd_hca_cap::sq_ts_format>());
	if (!ts_format_ok((uint8_t)prm::get<prm::qpc::ts_format>(ctx), ts_cap))
		return fail(synd::QP_BAD_TS_FORMAT);
	Qp q;
	q.pd = (uint32_t)prm::get<prm::qpc::pd>(ctx);
	q.cqn_snd = (uint32_t)prm::get<prm::qpc::cqn_snd>(ctx);
	q.cqn_rcv = (uint32_t)prm::get<prm::qpc::cqn_rcv>(ctx);
	uint8_t rq_type = (uint8_t)prm::get<prm::qpc::rq_type>(ctx);
	if (rq_type != RQ_REGULAR && rq_type != RQ_SRQ && rq_type != RQ_ZERO)
		return fail(synd::QP_BAD_RQ_TYPE);
	if (!have_pd(q.pd))
		return fail(synd::QP_NO_PD);
	if (!have_cq(q.cqn_snd) || !have_cq(q.cqn_rcv))
		return fail(synd::QP_NO_CQ);
	uint64_t rq_bytes = 0;
	if (rq_type == RQ_SRQ) {
		q.srqn = (uint32_t)prm::get<prm::qpc::srqn_rmpn_xrqn>(ctx);
		if (prof_.objects.check_refs && xrqs.count(q.srqn))
			return fail(synd::QP_SRQ_WRONG_TYPE);
		if (prof_.objects.check_refs ? !srqs.count(q.srqn) : !q.srqn)
			return fail(synd::QP_NO_SRQ);
	} else if (rq_type == RQ_REGULAR) {
		rq_bytes = (16ull << prm::get<prm::qpc::log_rq_stride>(ctx)) << prm::get<prm::qpc::log_rq_size>(ctx);
	}
	if (!prm::get<prm::qpc::dbr_addr>(ctx) || (prm::get<prm::qpc::dbr_addr>(ctx) & 7))
		return fail(synd::QUEUE_BAD_DBR);
	uint64_t bytes = rq_bytes + (SQ_WQEBB << prm::get<prm::qpc::log_sq_size>(ctx));
	std::vector<uint64_t> pas;
	if (!read_pas(c, in_t::size_bytes, (bytes + prm::ADAPTER_PAGE_SIZE - 1) / prm::ADAPTER_PAGE_SIZE, &pas))
		return fail(synd::QP_PAS_INLEN);
	// QPs and DCTs share the numbers.
	uint32_t qpn = qpn_floor.take(prof_.objects.first_qpn, prof_.objects.max_qps, qps, dcts);
	if (!qpn)
		return fail(synd::QP_EXHAUSTED);
	q.state = QP_RST;
	qps[qpn] = q;
	own(Obj::QP, qpn, c.uid);
	prm::set<prm::create_qp_out::qpn>(Ref<prm::create_qp_out>(c.out), qpn);
	return Result::ok();
}

// RST2INIT, INIT2RTR and RTR2RTS share one input shape (rst2init_qp_in's
// fields sit at the same offsets in the other two: qp.h).
Result Device::qp_transition(Cmd &c)
{
	using in_t = prm::rst2init_qp_in;
	static_assert(prm::init2rtr_qp_in::qpc::offset == in_t::qpc::offset &&
		      prm::rtr2rts_qp_in::qpc::offset == in_t::qpc::offset &&
		      prm::init2rtr_qp_in::qpn::offset == in_t::qpn::offset &&
		      prm::rtr2rts_qp_in::qpn::offset == in_t::qpn::offset);
	CRef<in_t> in(c.in);
	uint32_t qpn = (uint32_t)prm::get<in_t::qpn>(in);
	if (Result r = known_owned(c, qps.count(qpn), synd::QP_UNKNOWN, Obj::QP, qpn, false); r.status)
		return r;
	Qp &q = qps.at(qpn);
	CRef<prm::qpc> ctx = prm::sub<in_t::qpc, prm::qpc>(in);
	CRef<prm::ads> path = prm::sub<prm::qpc::primary_address_path, prm::ads>(ctx);
	uint8_t from = c.opcode == op::RST2INIT_QP ? QP_RST : c.opcode == op::INIT2RTR_QP ? QP_INIT : QP_RTR;
	if (q.state != from)
		return fail(synd::QP_BAD_TRANSITION);
	if (c.opcode == op::RST2INIT_QP) {
		uint64_t port = prm::get<prm::ads::vhca_port_num>(path);
		if (port < 1 || port > cap_cur<prm::cmd_hca_cap::num_ports>())
			return fail(synd::QP_BAD_PORT);
	} else if (c.opcode == op::INIT2RTR_QP) {
		uint64_t mtu = prm::get<prm::qpc::mtu>(ctx);
		if (mtu < MTU_MIN || mtu > MTU_MAX)
			return fail(synd::QP_BAD_MTU);
		if (prm::get<prm::qpc::log_msg_max>(ctx) > cap_cur<prm::cmd_hca_cap::log_max_msg>())
			return fail(synd::QP_BAD_LOG_MSG_MAX);
		// RoCE: the path's source GID must be there (handlers_roce.cpp).
		uint64_t port = prm::get<prm::ads::vhca_port_num>(path);
		Result r = roce_path_ok(port ? port : 1, prm::get<prm::ads::src_addr_index>(path));
		if (r.status)
			return r;
	}
	q.state = (uint8_t)(from + 1);
	return Result::ok();
}

Result Device::qp_2rst(Cmd &c)
{
	uint32_t qpn = (uint32_t)prm::get<prm::qp_2rst_in::qpn>(CRef<prm::qp_2rst_in>(c.in));
	if (Result r = known_owned(c, qps.count(qpn), synd::QP_UNKNOWN, Obj::QP, qpn, false); r.status)
		return r;
	qps.at(qpn).state = QP_RST;
	return Result::ok();
}

Result Device::destroy_qp(Cmd &c)
{
	uint32_t qpn = (uint32_t)prm::get<prm::destroy_qp_in::qpn>(CRef<prm::destroy_qp_in>(c.in));
	// Any state: no QP names another QP.
	qpn_freed(qpn);
	return destroy_object(c, qps, Obj::QP, qpn, qps.count(qpn), synd::QP_UNKNOWN_DESTROY, false, 0);
}

} // namespace cxprm::emu
