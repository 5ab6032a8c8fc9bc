// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The layout types of an opcode, picked at compile time by the core's PRM
// metadata table (CXPRM_OPCODES' in_layout / out_layout columns) among the
// layouts the core declares (CXPRM_LAYOUTS of prm/registry.h).  The
// emulator's opcode table takes its sizes, its uid rule and its
// reserved-bit checks from these, so it names no layout of its own; an
// opcode whose table layouts the core does not declare does not compile.
#pragma once

#include <type_traits>

#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/registry.h"

namespace cxprm::emu {

namespace op_layouts_detail {

constexpr bool same(const char *a, const char *b)
{
	if (!a || !b)
		return false;
	for (; *a && *a == *b; a++, b++)
		;
	return *a == *b;
}

template <class... Ls> struct List {};

#define CXPRM_EMU_LAYOUT_TYPE_(layout, list) ::cxprm::prm::layout,
using All = List<CXPRM_LAYOUTS(CXPRM_EMU_LAYOUT_TYPE_) void>;
#undef CXPRM_EMU_LAYOUT_TYPE_

// The first layout of the list named Name(); none (no ::type) when no
// layout of the core has that name.
template <class L, auto Name> struct Pick;
template <auto Name> struct Pick<List<void>, Name> {};
template <class L, class... R, auto Name> struct Pick<List<L, R...>, Name> {
	using type = typename std::conditional_t<same(L::layout_name, Name()), std::type_identity<L>,
						 Pick<List<R...>, Name>>::type;
};

} // namespace op_layouts_detail

// prm::<in_layout> / prm::<out_layout> of opcode Op.
template <u16 Op> struct OpLayouts {
	static constexpr const char *in_name() { return prm::opcode_layout_token(Op, true); }
	static constexpr const char *out_name() { return prm::opcode_layout_token(Op, false); }
	using In = typename op_layouts_detail::Pick<op_layouts_detail::All, &in_name>::type;
	using Out = typename op_layouts_detail::Pick<op_layouts_detail::All, &out_name>::type;
};

} // namespace cxprm::emu
