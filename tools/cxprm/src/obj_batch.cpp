// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// ObjSet's batches (obj_set.h): many object ioctls in one CXPRM_IOC_BATCH,
// their firmware commands in flight together (Documentation/batch.rst).
#include "obj_set.h"

#include <cstring>

#include "cli_device.h"

namespace cxprm::tool {

namespace {

template <class T> cxprm_batch_op op_of(unsigned int cmd, T &arg)
{
	return {cmd, 0, (uint64_t)(uintptr_t)&arg};
}

// One batch of ops; the first op the driver refused throws.
void run(DevFile &f, std::vector<cxprm_batch_op> &ops, const char *ioctl)
{
	if (ops.empty())
		return;
	f.batch(ops);
	check_batch(f, ops, ioctl);
}

} // namespace

std::vector<uint32_t> ObjSet::rc_qps(uint32_t pd, uint32_t cqn, uint32_t srqn, unsigned n)
{
	std::vector<cxprm_obj> o(n, rc_qp_attr(pd, cqn, srqn));
	std::vector<cxprm_batch_op> ops;
	ops.reserve(n);
	alive_.reserve(alive_.size() + n);
	for (cxprm_obj &x : o)
		ops.push_back(op_of(CXPRM_IOC_OBJ_CREATE, x));
	run(f_, ops, "CXPRM_IOC_OBJ_CREATE");
	std::vector<uint32_t> ids;
	ids.reserve(n);
	// Every QP the driver made is alive (and destroyed by destroy_all())
	// before a firmware status of another throws.
	for (const cxprm_obj &x : o)
		if (!x.st.status)
			alive_.push_back({x.type, x.id, x.parent});
	for (const cxprm_obj &x : o) {
		done("create", {x.type, x.id, x.parent}, x.st);
		ids.push_back(x.id);
	}
	return ids;
}

void ObjSet::modify_qps(const std::vector<uint32_t> &qpns, uint32_t transition,
			const std::function<cxprm_qp_modify(size_t i)> &path)
{
	std::vector<cxprm_qp_modify> m(qpns.size());
	std::vector<cxprm_batch_op> ops;
	ops.reserve(qpns.size());
	for (size_t i = 0; i < qpns.size(); i++) {
		m[i] = path(i);
		m[i].qpn = qpns[i];
		m[i].transition = transition;
		ops.push_back(op_of(CXPRM_IOC_QP_MODIFY, m[i]));
	}
	run(f_, ops, "CXPRM_IOC_QP_MODIFY");
	for (size_t i = 0; i < qpns.size(); i++)
		done("modify", {CXPRM_OBJ_QP, qpns[i], 0}, m[i].st, &m[i]);
}

void ObjSet::destroy_batch(uint32_t type, const std::vector<uint32_t> &ids)
{
	std::vector<cxprm_obj> o(ids.size());
	std::vector<cxprm_batch_op> ops;
	ops.reserve(ids.size());
	for (size_t i = 0; i < ids.size(); i++) {
		std::memset(&o[i], 0, sizeof(o[i]));
		o[i].type = type;
		o[i].id = ids[i];
		ops.push_back(op_of(CXPRM_IOC_OBJ_DESTROY, o[i]));
	}
	run(f_, ops, "CXPRM_IOC_OBJ_DESTROY");
	for (const cxprm_obj &x : o)
		if (!x.st.status)
			forget({x.type, x.id, x.parent});
	for (const cxprm_obj &x : o)
		done("destroy", {x.type, x.id, x.parent}, x.st);
}

} // namespace cxprm::tool
