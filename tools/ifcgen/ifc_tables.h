// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Field tables of every layout of the build's mlx5_ifc.h, generated at build
// time by ifc_tables.py (nothing generated is committed).  The tools use them
// where the core declares no layout: the core's hand layouts stay what the
// driver uses and come first; these are the CLI's fallback, so that every
// layout the header knows can be decoded and encoded by name.
//
// Same numbering as prm::FieldDesc (bit 0 = MSB of big-endian dword 0).
// Nested members are flattened under dotted names (capability.cmd_hca_cap.
// log_max_qp), each preceded by an entry for the nested member as a whole
// (is_container() tells those apart; ifc_tables.py says why).
#pragma once

#include "cxprm/layout.h"

namespace cxprm::ifc {

struct Opcode {
	const char *name; // without MLX5_CMD_OP_
	u16 value;
	bool command; // false: a range marker or op_mod value of the enum (ifc_tables.py)
};

// Which header the tables come from and how much it holds.
struct Source {
	const char *header;        // path at build time; "" when none was found
	const char *linux_version; // from the linux-headers-<v>-common path, or ""
	u32 nlayouts;
	u32 nopcodes;
};

const Source &source();

// Every layout, sorted by name; *count gets their number.
const prm::LayoutDesc *layouts(u32 *count);

// The layout mlx5_ifc_<name>_bits, or nullptr.
const prm::LayoutDesc *find_layout(const char *name);

// The header's MLX5_CMD_OP_* name of an opcode (without the prefix), or
// nullptr; *count gets the number of opcodes from opcodes().
const char *opcode_name(u16 opcode);
const Opcode *opcodes(u32 *count);

// Whether field i of l stands for a nested member whose own fields follow.
bool is_container(const prm::LayoutDesc &l, u32 i);

} // namespace cxprm::ifc
