// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The generated ifc tables against the core's hand-declared layouts: a
// second check beside core-cpp/tests/ifc/ifc_crosscheck.cpp, independent of
// it (this one goes through ifc_tables.py's parser, that one through the
// compiler), so a parser error or a layout drift shows in one or the other.
//
// Every layout of prm/registry.h that the tables hold must have the same
// size, and each of its fields that the tables name the same offset and
// width.  A layout the tables lack must be a vendor NVMF/NVMe one (the
// provisional, hand-declared layouts).  Also: the lookups, and facts present
// in every header from Linux 5.10 on (never one version's details).
#include <cstdio>
#include <cstring>

#include "ifc_tables.h"

#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/registry.h"

namespace {

using namespace cxprm;

unsigned failures;

void fail(const char *what, const char *layout, const char *field = "")
{
	std::printf("FAIL %s: %s %s\n", what, layout, field);
	failures++;
}

// Fields whose name means another bit in newer headers than the 6.1 one the
// core follows (ifc_crosscheck holds them to 6.1): reported, not failed, as
// the tables may come from any header version.
const char *const kRenamedLater[] = {
	"cmd_hca_cap.relaxed_ordering_read", // bit 233 became ..._pci_enabled
};

bool renamed_later(const char *layout, const char *field)
{
	for (const char *r : kRenamedLater) {
		size_t n = std::strlen(layout);
		if (!std::strncmp(r, layout, n) && r[n] == '.' && !std::strcmp(r + n + 1, field))
			return true;
	}
	return false;
}

// Layouts not from mlx5_ifc.h: the vendor NVMF ones and MGIR (mstflint's
// layouts; prm/reg.h).
bool vendor(const char *name)
{
	return std::strstr(name, "nvmf") || std::strstr(name, "nvme") || !std::strcmp(name, "mgir_reg");
}

void check_registry()
{
	u32 n = 0, same = 0, fields = 0, provisional = 0;
	const prm::LayoutDesc *const *all = prm::all_layouts(&n);
	for (u32 i = 0; i < n; i++) {
		const prm::LayoutDesc &ours = *all[i];
		const prm::LayoutDesc *gen = ifc::find_layout(ours.name);
		if (!gen) {
			if (!vendor(ours.name))
				fail("not in the ifc tables", ours.name);
			provisional++;
			continue;
		}
		if (gen->size_bits != ours.size_bits) {
			std::printf("FAIL size %s: ours %u, ifc tables %u\n", ours.name, ours.size_bits,
				    gen->size_bits);
			failures++;
		}
		for (u32 f = 0; f < ours.nfields; f++) {
			const prm::FieldDesc &a = ours.fields[f];
			for (u32 g = 0; g < gen->nfields; g++) {
				const prm::FieldDesc &b = gen->fields[g];
				if (std::strcmp(a.name, b.name))
					continue;
				fields++;
				if ((a.offset != b.offset || a.width != b.width) &&
				    renamed_later(ours.name, a.name)) {
					std::printf("RENAMED %s.%s: ours %u %u, ifc tables %u %u (a newer "
						    "header's meaning)\n", ours.name, a.name, a.offset,
						    a.width, b.offset, b.width);
				} else if (a.offset != b.offset || a.width != b.width) {
					std::printf("FAIL field %s.%s: ours %u %u, ifc tables %u %u\n",
						    ours.name, a.name, a.offset, a.width, b.offset, b.width);
					failures++;
				}
			}
		}
		same++;
	}
	std::printf("%u hand layouts in the ifc tables (%u same-named fields compared), "
		    "%u provisional vendor ones not\n", same, fields, provisional);
}

const prm::FieldDesc *field(const prm::LayoutDesc &l, const char *name)
{
	for (u32 i = 0; i < l.nfields; i++)
		if (!std::strcmp(l.fields[i].name, name))
			return &l.fields[i];
	return nullptr;
}

void expect_field(const char *layout, const char *name, u32 off, u32 width)
{
	const prm::LayoutDesc *l = ifc::find_layout(layout);
	const prm::FieldDesc *f = l ? field(*l, name) : nullptr;
	if (!f || f->offset != off || f->width != width)
		fail("expected field", layout, name);
}

void check_tables()
{
	u32 n = 0;
	const prm::LayoutDesc *l = ifc::layouts(&n);
	std::printf("ifc tables: %u layouts, %u opcodes from %s (Linux %s)\n", n, ifc::source().nopcodes,
		    ifc::source().header, ifc::source().linux_version);
	if (n < 500)
		fail("too few layouts (was an mlx5_ifc.h found?)", ifc::source().header);
	for (u32 i = 0; i < n; i++) {
		if (i && std::strcmp(l[i - 1].name, l[i].name) >= 0)
			fail("not sorted", l[i].name);
		if (ifc::find_layout(l[i].name) != &l[i])
			fail("find_layout", l[i].name);
		for (u32 f = 0; f < l[i].nfields; f++)
			if (l[i].fields[f].offset + l[i].fields[f].width > l[i].size_bits)
				fail("field outside its layout", l[i].name, l[i].fields[f].name);
	}
	if (ifc::find_layout("no_such_layout") || ifc::find_layout(""))
		fail("find_layout of an unknown name", "no_such_layout");
	// Stable facts (in every header since 5.10): a capability type the
	// core lacks, a nested field, a union alternative, an opcode.
	const prm::LayoutDesc *eth = ifc::find_layout("per_protocol_networking_offload_caps");
	if (!eth || eth->size_bits != 0x800)
		fail("size", "per_protocol_networking_offload_caps");
	expect_field("per_protocol_networking_offload_caps", "csum_cap", 0x0, 1);
	expect_field("query_hca_cap_out", "capability", 0x80, 0x8000);
	expect_field("query_hca_cap_out", "capability.cmd_hca_cap.log_max_qp", 0x80 + 155, 5);
	const prm::LayoutDesc *out = ifc::find_layout("query_hca_cap_out");
	if (!out || !ifc::is_container(*out, (u32)(field(*out, "capability") - out->fields)) ||
	    ifc::is_container(*out, 0))
		fail("is_container", "query_hca_cap_out");
	const char *op = ifc::opcode_name(0x100);
	if (!op || std::strcmp(op, "QUERY_HCA_CAP") || ifc::opcode_name(0xfffe))
		fail("opcode_name", "0x100");
}

// Layout names of the tables or the core.
bool known_layout(const char *name) { return prm::find_layout(name) || ifc::find_layout(name); }

// The metadata table (prm/opcodes.h) against the header: every command the
// header has (Opcode::command: not its range markers nor the op_mod value
// it keeps among them) is a row of the table under the same name, and each
// layout a row names for such an opcode is one of the header's (or the
// core's); a row for an opcode the header lacks (a vendor one, or one of a
// newer header) names layouts of the core or of some other header.
void check_metadata_table()
{
	u32 n = 0, checked = 0;
	const ifc::Opcode *ops = ifc::opcodes(&n);
	for (u32 i = 0; i < n; i++) {
		const char *name = ops[i].name;
		if (!ops[i].command)
			continue;
		const prm::OpcodeInfo *o = prm::opcode_info(ops[i].value);
		if (!o || std::strcmp(o->name, name)) {
			fail("header opcode not in the metadata table (or named otherwise)", name);
			continue;
		}
		checked++;
		if (o->in_layout[0] && !known_layout(o->in_layout))
			fail("metadata table: no such layout", name, o->in_layout);
		if (o->out_layout[0] && !known_layout(o->out_layout))
			fail("metadata table: no such layout", name, o->out_layout);
	}
	// Capability types: the union members of device.h's accessors.  Not
	// every header has every one (5.10 lacks cmd_hca_cap_2, 6.12 vector_calc_cap
	// and shampo_cap, only 7.x has psp_cap ...); those of every header must
	// resolve in any.
	const char *const in_every_header[] = {
		"cmd_hca_cap", "per_protocol_networking_offload_caps", "odp_cap", "atomic_caps",
		"roce_cap", "flow_table_nic_cap", "flow_table_eswitch_cap", "e_switch_cap", "qos_cap",
		"debug_cap", "device_mem_cap", "tls_cap", "virtio_emulation_cap", "device_event_cap",
		"ipsec_cap", "nvmf_cap" /* the core's */,
	};
	u32 nt = 0, resolved = 0;
	const prm::CapTypeInfo *t = prm::cap_type_table(&nt);
	for (const char *l : in_every_header) {
		bool named = false;
		for (u32 i = 0; i < nt; i++)
			named |= !std::strcmp(t[i].layout, l);
		if (!named || !known_layout(l))
			fail("capability layout", l);
	}
	for (u32 i = 0; i < nt; i++)
		resolved += known_layout(t[i].layout);
	std::printf("metadata table: %u of the header's commands checked; %u of %u capability types' "
		    "layouts in this header or the core\n", checked, resolved, nt);
}

} // namespace

int main()
{
	check_tables();
	check_registry();
	check_metadata_table();
	std::printf("%s (%u failures)\n", failures ? "FAILED" : "OK", failures);
	return failures ? 1 : 0;
}
