// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Lookups over the generated tables (ifc_tables_gen.cpp, written by
// ifc_tables.py into the build directory): only the data is generated, so
// the code stays reviewed source.
#include "ifc_tables.h"

#include <cstring>

namespace cxprm::ifc {

// Defined by the generated source.
extern const Source kSource;
extern const prm::LayoutDesc *const kLayoutTable; // sorted by name, null-terminated
extern const Opcode *const kOpcodeTable;          // by value, null-terminated

const Source &source() { return kSource; }

const prm::LayoutDesc *layouts(u32 *count)
{
	*count = kSource.nlayouts;
	return kLayoutTable;
}

const prm::LayoutDesc *find_layout(const char *name)
{
	// The generator sorts by code point, which is strcmp's order.
	u32 lo = 0, hi = kSource.nlayouts;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		int c = std::strcmp(kLayoutTable[mid].name, name);
		if (!c)
			return &kLayoutTable[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return nullptr;
}

const Opcode *opcodes(u32 *count)
{
	*count = kSource.nopcodes;
	return kOpcodeTable;
}

const char *opcode_name(u16 opcode)
{
	for (const Opcode *o = kOpcodeTable; o->name; o++)
		if (o->value == opcode)
			return o->name;
	return nullptr;
}

bool is_container(const prm::LayoutDesc &l, u32 i)
{
	if (i + 1 >= l.nfields)
		return false;
	const char *a = l.fields[i].name, *b = l.fields[i + 1].name;
	size_t n = std::strlen(a);
	return !std::strncmp(a, b, n) && (b[n] == '.' || b[n] == '[');
}

} // namespace cxprm::ifc
