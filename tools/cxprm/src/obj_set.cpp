// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The objects of one open device file (obj_set.h).
#include "obj_set.h"

#include <cstring>

#include <ostream>

#include "cli_device.h"
#include "commands.h"
#include "errors.h"
#include "hex.h"
#include "names.h"

namespace cxprm::tool {

namespace {

cxprm_obj blank(uint32_t type, uint32_t id = 0, uint32_t parent = 0)
{
	cxprm_obj o;
	std::memset(&o, 0, sizeof(o));
	o.type = type;
	o.id = id;
	o.parent = parent;
	return o;
}

// What a failed command was: the opcode the driver ran, else the ioctl.
std::string what(const FwResult &r, const char *op, const ObjSet::Obj &o)
{
	std::string cmd = r.opcode ? opcode_label(r.opcode) : std::string("object ") + op;
	return cmd + " (" + obj_label(o.type, o.id) + ")";
}

} // namespace

void ObjSet::done(const char *op, const Obj &o, const cxprm_cmd_status &st, const cxprm_qp_modify *m)
{
	FwResult r = FwResult::from(st);
	if (obs_)
		obs_(op, o, r, m);
	if (!r.ok()) // the label only for a failure: a batch checks thousands
		check_fw(r, what(r, op, o));
}

uint32_t ObjSet::create(cxprm_obj &o)
{
	f_.obj_create(o);
	Obj made = {o.type, o.id, o.parent};
	done("create", made, o.st);
	alive_.push_back(made);
	return o.id;
}

uint32_t ObjSet::pd()
{
	cxprm_obj o = blank(CXPRM_OBJ_PD);
	return create(o);
}

uint32_t ObjSet::cq(uint8_t log_size)
{
	cxprm_obj o = blank(CXPRM_OBJ_CQ);
	o.u.cq.log_size = log_size;
	return create(o);
}

uint32_t ObjSet::srq(uint32_t pd, uint8_t log_size)
{
	cxprm_obj o = blank(CXPRM_OBJ_SRQ);
	o.u.srq.pd = pd;
	o.u.srq.log_size = log_size;
	o.u.srq.log_stride = 2; // 64-byte WQEs: one scatter entry
	return create(o);
}

cxprm_obj ObjSet::rc_qp_attr(uint32_t pd, uint32_t cqn, uint32_t srqn)
{
	cxprm_obj o = blank(CXPRM_OBJ_QP);
	o.u.qp.pd = pd;
	o.u.qp.cqn_snd = cqn;
	o.u.qp.cqn_rcv = cqn;
	o.u.qp.srqn = srqn;
	o.u.qp.st = 0;          // RC
	o.u.qp.log_sq_size = 4; // 16 WQEBBs: one page
	return o;
}

uint32_t ObjSet::rc_qp(uint32_t pd, uint32_t cqn, uint32_t srqn)
{
	cxprm_obj o = rc_qp_attr(pd, cqn, srqn);
	return create(o);
}

uint32_t ObjSet::nvmf_xrq(uint32_t pd, uint32_t cqn, uint16_t nvme_queue_size)
{
	cxprm_obj o = blank(CXPRM_OBJ_XRQ);
	o.u.xrq.pd = pd;
	o.u.xrq.cqn = cqn;
	o.u.xrq.log_size = 6;
	o.u.xrq.log_stride = 6; // log2 bytes: 64-byte WQEs, a next segment and 3 data segments
	// staging_pages 0: the driver's default staging buffer
	o.u.xrq.log_max_namespace = 4;
	o.u.xrq.log_max_io_size = 17; // 128 KiB I/Os
	o.u.xrq.ioccsz = 4;           // 16-byte units: a 64-byte SQE, no in-capsule data
	o.u.xrq.nvme_queue_size = nvme_queue_size;
	return create(o);
}

uint32_t ObjSet::nvmf_backend(uint32_t xrqn, const cxprm_nvmf_backend_attr &nvme)
{
	cxprm_obj o = blank(CXPRM_OBJ_NVMF_BACKEND, 0, xrqn);
	o.u.backend = nvme;
	return create(o);
}

void ObjSet::nvmf_ns(uint32_t xrqn, uint32_t nsid, uint32_t backend_nsid, uint32_t ctrl, uint8_t lba_log)
{
	cxprm_obj o = blank(CXPRM_OBJ_NVMF_NS, nsid, xrqn);
	o.u.ns.backend_namespace = backend_nsid;
	o.u.ns.backend_ctrl_id = (uint16_t)ctrl;
	o.u.ns.lba_data_size = lba_log;
	create(o);
}

cxprm_qp_modify qp_path(uint32_t remote_qpn)
{
	cxprm_qp_modify m;
	std::memset(&m, 0, sizeof(m));
	m.port = 1;
	m.rre = m.rwe = 1;
	m.mtu = 3; // 1024
	m.hop_limit = 64;
	m.remote_qpn = remote_qpn;
	m.min_rnr_nak = 12;
	m.retry_count = 7;
	m.rnr_retry = 7;
	m.ack_timeout = 14;
	return m;
}

uint8_t ObjSet::modify_qp(uint32_t qpn, uint32_t transition, const cxprm_qp_modify &path)
{
	cxprm_qp_modify m = path;
	m.qpn = qpn;
	m.transition = transition;
	m.st = {};
	m.state = 0;
	f_.qp_modify(m);
	done("modify", {CXPRM_OBJ_QP, qpn, 0}, m.st, &m);
	return m.state;
}

void ObjSet::destroy(uint32_t type, uint32_t id, uint32_t parent)
{
	cxprm_obj o = blank(type, id, parent);
	f_.obj_destroy(o);
	done("destroy", {type, id, parent}, o.st);
	forget({type, id, parent});
}

void ObjSet::forget(const Obj &o)
{
	for (size_t i = alive_.size(); i-- > 0;)
		if (alive_[i].type == o.type && alive_[i].id == o.id && alive_[i].parent == o.parent) {
			alive_.erase(alive_.begin() + (long)i);
			break;
		}
}

void ObjSet::destroy_all()
{
	while (!alive_.empty()) {
		Obj o = alive_.back();
		destroy(o.type, o.id, o.parent);
	}
}

std::vector<uint32_t> ObjSet::ids(uint32_t type) const
{
	std::vector<uint32_t> v;
	for (const Obj &o : alive_)
		if (o.type == type)
			v.push_back(o.id);
	return v;
}

ObjSet::Observer obj_printer(Ctx &ctx, bool json)
{
	return [&ctx, json](const char *op, const ObjSet::Obj &o, const FwResult &r, const cxprm_qp_modify *m) {
		if (json) {
			Json j = Json::object();
			j.set("op", m ? "qp_modify" : std::string("obj_") + op);
			j.set("object", obj_type_name(o.type));
			j.set("id", o.id);
			if (o.parent)
				j.set("parent", o.parent);
			if (m) {
				j.set("transition", qp_transition_name(m->transition));
				j.set("state", qp_state_name(m->state));
				j.set("state_code", m->state);
			}
			j.set_json("status", status_json(r, true));
			print_json(ctx, j, false);
		} else if (r.ok() && m) {
			ctx.out << obj_label(o.type, o.id) << ": " << qp_transition_name(m->transition) << " -> "
				<< qp_state_name(m->state) << "\n";
		} else if (r.ok()) {
			ctx.out << op << (op[std::strlen(op) - 1] == 'e' ? "d " : "ed ") << obj_label(o.type, o.id)
				<< (o.parent ? " on XRQ " + hex_num(o.parent) : std::string()) << "\n";
		}
		ctx.out.flush();
	};
}

std::string obj_list(const std::vector<ObjSet::Obj> &objs)
{
	std::string s;
	for (const ObjSet::Obj &o : objs)
		s += (s.empty() ? "" : ", ") + obj_label(o.type, o.id);
	return s;
}

} // namespace cxprm::tool
