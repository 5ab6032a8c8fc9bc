// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Runtime layout field access (fields.h).
#include "fields.h"

#include <cctype>
#include <cstring>

#include "errors.h"
#include "hex.h"
#include "ifc_tables.h"

#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/registry.h"

namespace cxprm::tool {

namespace {

// Big-endian dword at byte 'off' of a buffer of len bytes; a field may lie
// in a message that ends inside its dword: missing bytes read as zero and
// are not written.
uint32_t be32(const uint8_t *buf, size_t len, size_t off)
{
	uint32_t v = 0;
	for (size_t i = 0; i < 4; i++)
		v = v << 8 | (off + i < len ? buf[off + i] : 0);
	return v;
}

void put_be32(uint8_t *buf, size_t len, size_t off, uint32_t v)
{
	for (size_t i = 0; i < 4; i++)
		if (off + i < len)
			buf[off + i] = (uint8_t)(v >> (24 - 8 * i));
}

uint64_t mask(uint32_t width) { return width >= 64 ? ~0ull : (1ull << width) - 1; }

} // namespace

bool field_in(const prm::FieldDesc &f, size_t len) { return ((size_t)f.offset + f.width + 7) / 8 <= len; }

uint64_t field_get(const uint8_t *buf, size_t len, const prm::FieldDesc &f)
{
	if (!field_in(f, len) || f.width > 64)
		return 0;
	size_t dw = f.offset / 32 * 4;
	if (f.width > 32) // whole aligned dwords (the layout layer's rule)
		return ((uint64_t)be32(buf, len, dw) << 32 | be32(buf, len, dw + 4)) & mask(f.width);
	uint32_t shift = 32 - f.offset % 32 - f.width;
	return (be32(buf, len, dw) >> shift) & mask(f.width);
}

void field_set(uint8_t *buf, size_t len, const prm::FieldDesc &f, uint64_t v)
{
	if (f.width > 64)
		throw UsageError(std::string("field ") + f.name + " is a " + std::to_string(f.width / 8) +
				 "-byte region, not a number");
	if (v > mask(f.width))
		throw UsageError(std::string("field ") + f.name + ": " + hex_num(v) + " does not fit in " +
				 std::to_string(f.width) + " bits");
	if (!field_in(f, len))
		throw UsageError(std::string("field ") + f.name + " lies beyond the message");
	size_t dw = f.offset / 32 * 4;
	if (f.width > 32) {
		put_be32(buf, len, dw, (uint32_t)(v >> 32));
		put_be32(buf, len, dw + 4, (uint32_t)v);
		return;
	}
	uint32_t shift = 32 - f.offset % 32 - f.width;
	uint32_t m = (uint32_t)mask(f.width) << shift;
	put_be32(buf, len, dw, (be32(buf, len, dw) & ~m) | (((uint32_t)v << shift) & m));
}

const prm::FieldDesc *find_field(const prm::LayoutDesc &l, const std::string &name)
{
	for (uint32_t i = 0; i < l.nfields; i++)
		if (name == l.fields[i].name)
			return &l.fields[i];
	return nullptr;
}

const prm::LayoutDesc *layout_for_opcode(uint16_t opcode, bool input)
{
	// The core's metadata table names the layouts of every opcode it knows
	// (CXPRM_OPCODES); an opcode only a newer build header has is taken to
	// follow the header's usual <name>_in / <name>_out.
	if (const prm::OpcodeInfo *o = prm::opcode_info(opcode)) {
		const char *l = input ? o->in_layout : o->out_layout;
		return *l ? any_layout(l) : nullptr;
	}
	const char *n = ifc::opcode_name(opcode);
	if (!n)
		return nullptr;
	std::string base;
	for (const char *p = n; *p; p++)
		base += (char)std::tolower((unsigned char)*p);
	return any_layout((base + (input ? "_in" : "_out")).c_str());
}

const prm::LayoutDesc *any_layout(const char *name)
{
	if (const prm::LayoutDesc *l = prm::find_layout(name))
		return l;
	return ifc::find_layout(name);
}

const prm::LayoutDesc *generated_layout(const char *name)
{
	return ifc::find_layout(name);
}

namespace {

// Whether the generated table g holds every field of the core's layout l
// (by name, or a nested member's dotted fields).
bool covers(const prm::LayoutDesc &g, const prm::LayoutDesc &l)
{
	for (uint32_t i = 0; i < l.nfields; i++) {
		const char *n = l.fields[i].name;
		size_t len = std::strlen(n);
		bool found = false;
		for (uint32_t j = 0; j < g.nfields && !found; j++)
			found = !std::strncmp(g.fields[j].name, n, len) &&
				(g.fields[j].name[len] == 0 || g.fields[j].name[len] == '.');
		if (!found)
			return false;
	}
	return true;
}

} // namespace

// The core's layouts list only the fields the core and the emulator use
// (prm/caps.h); where the build's mlx5_ifc.h table has all of them, that
// fuller table decodes.  A core layout with a vendor field (cmd_hca_cap's
// nvmf_target_offload, nvmf_cap) is the one used.
const prm::LayoutDesc *cap_layout(uint16_t type)
{
	const prm::CapTypeInfo *c = prm::cap_type_info(type);
	if (!c)
		return nullptr;
	const prm::LayoutDesc *l = any_layout(c->layout);
	const prm::LayoutDesc *g = generated_layout(c->layout);
	return l && g && covers(*g, *l) ? g : l;
}

bool is_generated(const prm::LayoutDesc &l)
{
	u32 n = 0;
	const prm::LayoutDesc *all = ifc::layouts(&n);
	return &l >= all && &l < all + n;
}

std::vector<FieldValue> decode_fields(const prm::LayoutDesc &l, const uint8_t *buf, size_t len,
				      size_t max_region_bytes, bool hex_text)
{
	std::vector<FieldValue> out;
	for (uint32_t i = 0; i < l.nfields; i++) {
		const prm::FieldDesc &f = l.fields[i];
		if (!field_in(f, len) || ifc::is_container(l, i))
			continue;
		FieldValue v{&f, {}, {}};
		if (f.width > 64) {
			if (f.width / 8 > max_region_bytes)
				continue;
			v.text = to_hex(buf + f.offset / 8, f.width / 8);
			v.json = Json::str(v.text);
		} else {
			uint64_t x = field_get(buf, len, f);
			if (f.width > 32) {
				v.text = hex_num(x);
				v.json = Json::str(v.text);
			} else {
				v.text = hex_text ? hex_num(x) : std::to_string(x);
				v.json = Json::num(x);
			}
		}
		out.push_back(std::move(v));
	}
	return out;
}

Json fields_json(const std::vector<FieldValue> &v)
{
	Json j = Json::object();
	for (const FieldValue &f : v)
		j.set_json(f.field->name, f.json);
	return j;
}

} // namespace cxprm::tool
