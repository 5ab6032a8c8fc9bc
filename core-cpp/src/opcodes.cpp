// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The PRM metadata table and names of event types (prm/opcodes.h). */
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/reg.h"

namespace cxprm::prm {

namespace {
constexpr Scope R = Scope::R, W = Scope::W, R_OPMOD1 = Scope::R_OPMOD1;
constexpr Decoder LAYOUT = Decoder::LAYOUT, CORE = Decoder::CORE, CAP = Decoder::CAP, REG = Decoder::REG;

/* A layout column: "none" stands for no layout. */
constexpr const char *layout_col(const char *s)
{
	return s[0] == 'n' && s[1] == 'o' && s[2] == 'n' && s[3] == 'e' && !s[4] ? "" : s;
}

#define CXPRM_OP_INFO_(n, v, rw, in, out, dec) {v, rw, dec, #n, layout_col(#in), layout_col(#out)},
#define CXPRM_OP_INFO_N_(n, s, v, rw, in, out, dec) {v, rw, dec, s, layout_col(#in), layout_col(#out)},
constexpr OpcodeInfo ops[] = {CXPRM_OPCODES(CXPRM_OP_INFO_, CXPRM_OP_INFO_N_)};
#undef CXPRM_OP_INFO_
#undef CXPRM_OP_INFO_N_

#define CXPRM_CAP_INFO_(n, v, alias, layout) {v, #n, #alias, #layout},
#define CXPRM_CAP_INFO_N_(n, s, v, alias, layout) {v, s, #alias, #layout},
constexpr CapTypeInfo cap_types[] = {CXPRM_CAP_TYPES(CXPRM_CAP_INFO_, CXPRM_CAP_INFO_N_)};
#undef CXPRM_CAP_INFO_
#undef CXPRM_CAP_INFO_N_

struct Named {
	u16 value;
	const char *name;
};

#define CXPRM_EV_INFO_(n, v) {v, #n},
constexpr Named events[] = {CXPRM_EVENTS(CXPRM_EV_INFO_)};
#undef CXPRM_EV_INFO_

/* Both tables must be sorted and free of duplicates (lookups may bisect). */
template <typename T, u32 N> constexpr bool sorted(const T (&t)[N])
{
	for (u32 i = 1; i < N; i++)
		if (t[i].value <= t[i - 1].value)
			return false;
	return true;
}
static_assert(sorted(ops), "CXPRM_OPCODES must be in ascending, unique order");
static_assert(sorted(cap_types), "CXPRM_CAP_TYPES must be in ascending, unique order");

/* Only the QUERY_* opcodes read; ACCESS_REG decides by op_mod (above). */
constexpr bool starts_with(const char *s, const char *p)
{
	for (; *p; s++, p++)
		if (*s != *p)
			return false;
	return true;
}
constexpr bool scopes_follow_names()
{
	for (const OpcodeInfo &o : ops)
		if ((o.scope == R) != starts_with(o.name, "QUERY_") && o.value != op::ACCESS_REG)
			return false;
	return true;
}
static_assert(scopes_follow_names(), "R is the scope of exactly the QUERY_* opcodes");

/* A decoder beyond the layout needs the layout its decoding starts from. */
constexpr bool decoders_have_layouts()
{
	for (const OpcodeInfo &o : ops)
		if (o.decoder != LAYOUT && (!o.in_layout[0] || !o.out_layout[0]))
			return false;
	return true;
}
static_assert(decoders_have_layouts(), "a CORE/CAP/REG row names both layouts");

template <typename T, u32 N> const T *find(const T (&t)[N], u16 v)
{
	u32 lo = 0, hi = N;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		if (t[mid].value == v)
			return &t[mid];
		if (t[mid].value < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return nullptr;
}

template <typename T, u32 N> const T *whole(const T (&t)[N], u32 *count)
{
	*count = N;
	return t;
}

template <typename T> const char *name_of(const T *row) { return row ? row->name : nullptr; }
} // namespace

const OpcodeInfo *opcode_info(u16 opcode) { return find(ops, opcode); }
const OpcodeInfo *opcode_table(u32 *count) { return whole(ops, count); }
const char *opcode_name(u16 opcode) { return name_of(opcode_info(opcode)); }

bool opcode_is_query(u16 opcode, u16 op_mod)
{
	const OpcodeInfo *o = opcode_info(opcode);
	if (!o)
		return false;
	return o->scope == Scope::R || (o->scope == Scope::R_OPMOD1 && op_mod == access_reg_op::READ);
}

const CapTypeInfo *cap_type_info(u16 type) { return find(cap_types, type); }
const CapTypeInfo *cap_type_table(u32 *count) { return whole(cap_types, count); }
const char *cap_type_name(u16 type) { return name_of(cap_type_info(type)); }

const char *event_name(u8 type)
{
	for (const Named &e : events)
		if (e.value == type)
			return e.name;
	return nullptr;
}

} // namespace cxprm::prm
