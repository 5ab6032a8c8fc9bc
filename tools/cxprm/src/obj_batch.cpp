// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// ObjSet's batches (obj_set.h): many object ioctls in one CXPRM_IOC_BATCH,
// their firmware commands in flight together (Documentation/batch.rst).
#include "obj_set.h"

#include "cli_device.h"

namespace cxprm::tool {

namespace {

template <class T> cxprm_batch_op op_of(unsigned int cmd, T &arg)
{
	return {cmd, 0, (uint64_t)(uintptr_t)&arg};
}

// One batch of QP creates and transitions; the first op the driver
// refused throws (check_batch), named by its ioctl.
void run(DevFile &f, std::vector<cxprm_batch_op> &ops)
{
	if (ops.empty())
		return;
	f.batch(ops);
	for (const cxprm_batch_op &o : ops)
		if (o.result)
			check_batch(f, ops, o.cmd == CXPRM_IOC_QP_MODIFY ? "CXPRM_IOC_QP_MODIFY" : "CXPRM_IOC_OBJ_CREATE");
}

} // namespace

std::vector<uint32_t> ObjSet::qp_batch(uint32_t pd, uint32_t cqn, uint32_t srqn, unsigned creates,
				      std::vector<cxprm_qp_modify> &steps)
{
	std::vector<cxprm_obj> o(creates, rc_qp_attr(pd, cqn, srqn));
	std::vector<cxprm_batch_op> ops;
	ops.reserve(creates + steps.size());
	alive_.reserve(alive_.size() + creates);
	// The creates spread evenly among the transitions, from the first op
	// on: building a CREATE_QP is the most work for the calling task
	// (about 1.5 us against the engine's 1.25 at the seed's times: a batch
	// of creates alone keeps the engines waiting on it), a transition the
	// least; and the last ops are the short transitions, so the engines
	// run out of work together at the batch's end.
	size_t total = creates + steps.size(), c = 0, m = 0;
	for (size_t i = 0; i < total; i++)
		if (c < creates && c * total <= i * creates)
			ops.push_back(op_of(CXPRM_IOC_OBJ_CREATE, o[c++]));
		else
			ops.push_back(op_of(CXPRM_IOC_QP_MODIFY, steps[m++]));
	run(f_, ops);
	// Every QP the driver made is alive (and destroyed by destroy_all())
	// before a firmware status of another throws.
	for (const cxprm_obj &x : o)
		if (!x.st.status)
			alive_.push_back({x.type, x.id, x.parent});
	for (const cxprm_qp_modify &m : steps)
		done("modify", {CXPRM_OBJ_QP, m.qpn, 0}, m.st, &m);
	std::vector<uint32_t> ids;
	ids.reserve(creates);
	for (const cxprm_obj &x : o) {
		done("create", {x.type, x.id, x.parent}, x.st);
		ids.push_back(x.id);
	}
	return ids;
}

} // namespace cxprm::tool
