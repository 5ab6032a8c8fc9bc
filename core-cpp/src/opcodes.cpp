// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Names of opcodes, capability types and event types (prm/opcodes.h). */
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/reg.h"

namespace cxprm::prm {

namespace {
/* The X-list's third column: a query always, never, or with op_mod 1 only. */
enum class Rw : u8 { W, R, R_OPMOD1 };
struct OpInfo {
	u16 opcode;
	Rw rw;
	const char *name;
};

constexpr Rw R = Rw::R, W = Rw::W, R_OPMOD1 = Rw::R_OPMOD1;
#define CXPRM_OP_INFO_(n, v, rw) {v, rw, #n},
#define CXPRM_OP_INFO_N_(n, s, v, rw) {v, rw, s},
constexpr OpInfo ops[] = {CXPRM_OPCODES(CXPRM_OP_INFO_, CXPRM_OP_INFO_N_)};
#undef CXPRM_OP_INFO_
#undef CXPRM_OP_INFO_N_

const OpInfo *find_op(u16 opcode)
{
	for (const OpInfo &o : ops)
		if (o.opcode == opcode)
			return &o;
	return nullptr;
}

struct Named {
	u16 value;
	const char *name;
};

#define CXPRM_EV_INFO_(n, v) {v, #n},
constexpr Named events[] = {CXPRM_EVENTS(CXPRM_EV_INFO_)};
#undef CXPRM_EV_INFO_

#define CXPRM_CAP_INFO_(n, v) {v, #n},
#define CXPRM_CAP_INFO_N_(n, s, v) {v, s},
constexpr Named cap_types[] = {CXPRM_CAP_TYPES(CXPRM_CAP_INFO_, CXPRM_CAP_INFO_N_)};
#undef CXPRM_CAP_INFO_
#undef CXPRM_CAP_INFO_N_

template <usize N> const char *lookup(const Named (&t)[N], u16 v)
{
	for (const Named &e : t)
		if (e.value == v)
			return e.name;
	return nullptr;
}

/* The opcode list must be sorted and free of duplicates. */
constexpr bool ops_sorted()
{
	for (usize i = 1; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].opcode <= ops[i - 1].opcode)
			return false;
	return true;
}
static_assert(ops_sorted(), "CXPRM_OPCODES must be in ascending, unique order");
} // namespace

const char *opcode_name(u16 opcode)
{
	const OpInfo *o = find_op(opcode);
	return o ? o->name : nullptr;
}

bool opcode_is_query(u16 opcode, u16 op_mod)
{
	const OpInfo *o = find_op(opcode);
	if (!o)
		return false;
	return o->rw == Rw::R || (o->rw == Rw::R_OPMOD1 && op_mod == access_reg_op::READ);
}

const char *cap_type_name(u16 type) { return lookup(cap_types, type); }

const char *event_name(u8 type) { return lookup(events, type); }

} // namespace cxprm::prm
