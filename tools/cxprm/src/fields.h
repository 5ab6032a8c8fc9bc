// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Runtime access to the core's PRM layouts through their field tables
// (prm::LayoutDesc / FieldDesc, numbered like mlx5_ifc.h: bit 0 is the
// most significant bit of big-endian dword 0).  Used to decode any layout
// generically (caps, queue entries, mailbox blocks, event payloads) and to
// set input fields by name (raw --set).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "json.h"

#include "cxprm/layout.h"

namespace cxprm::tool {

// Whether the field lies inside a buffer of len bytes.
bool field_in(const prm::FieldDesc &f, size_t len);
// Scalar fields (width <= 64); 0 for a field outside len.
uint64_t field_get(const uint8_t *buf, size_t len, const prm::FieldDesc &f);
// Stores v; UsageError when v does not fit the field's width.
void field_set(uint8_t *buf, size_t len, const prm::FieldDesc &f, uint64_t v);

const prm::FieldDesc *find_field(const prm::LayoutDesc &l, const std::string &name);

// A layout by its mlx5_ifc.h name: the core's hand-declared one (what the
// driver uses) first, else the table generated from the build's mlx5_ifc.h
// (tools/ifcgen), or null.
const prm::LayoutDesc *any_layout(const char *name);
// The layout generated from the build's mlx5_ifc.h alone (tools/ifcgen), or null.
const prm::LayoutDesc *generated_layout(const char *name);
// The layout of a capability type's image: CXPRM_CAP_TYPES' layout column,
// the core's or the build's mlx5_ifc.h one (the fuller, see fields.cpp), or
// null when neither has it (vector_calc_cap left after 6.1, psp_cap came in
// 7.x): then only a hexdump.
const prm::LayoutDesc *cap_layout(uint16_t type);
// Whether l comes from the generated tables rather than the core.
bool is_generated(const prm::LayoutDesc &l);

// The *_in / *_out layout of an opcode (by name: QUERY_HCA_CAP ->
// query_hca_cap_in/out; any_layout's order), or null.  Opcodes the core does
// not name are named from the header's MLX5_CMD_OP_* list.
const prm::LayoutDesc *layout_for_opcode(uint16_t opcode, bool input);

// One decoded field: its text ("12", "0x1f", hex digits for a region) and
// JSON value (a number for fields up to 32 bits, a "0x..." string for
// wider scalars, a hex-digit string for regions).
struct FieldValue {
	const prm::FieldDesc *field;
	std::string text;
	Json json;
};

// Every field of layout l present in buf[0, len), but the entries of the
// generated tables that stand for a nested member whose fields follow
// (they would repeat them as hex); regions (> 64 bits)
// larger than max_region_bytes are left out (dump those as hex).
// hex_text: scalar values as "0x.." text (JSON stays numbers).
std::vector<FieldValue> decode_fields(const prm::LayoutDesc &l, const uint8_t *buf, size_t len,
				      size_t max_region_bytes = 64, bool hex_text = false);
Json fields_json(const std::vector<FieldValue> &v);

} // namespace cxprm::tool
