// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm caps DEV: one capability image (CXPRM_IOC_QUERY_CAPS), decoded with
// the layout of that type: the core's (general: every prm::cmd_hca_cap
// field), else the one generated from the build's mlx5_ifc.h (tools/ifcgen).
#include <ostream>
#include <cstring>

#include "commands.h"
#include "errors.h"
#include "fields.h"
#include "fwstatus.h"
#include "hex.h"
#include "names.h"
#include "table.h"

#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/registry.h"

namespace cxprm::tool {

namespace {

const CommandSpec spec = {
	.name = "caps",
	.synopsis = "DEV [--type TYPE] [--max] [--hex] [--nonzero]",
	.summary = "show a capability image (QUERY_HCA_CAP through CXPRM_IOC_QUERY_CAPS)",
	.description =
		"TYPE: a short name -- general (default), eth, roce, esw, flow_table, qos,\n"
		"nvmf, general_2, ... (each of CXPRM_CAP_TYPES; the bash completion and the\n"
		"message for an unknown one list them all) -- a PRM name (ETHERNET_OFFLOADS)\n"
		"or a number.  CUR (what is set) unless --max\n"
		"(what can be set).  Each type is decoded field by field from its layout:\n"
		"the core's (general: cmd_hca_cap, nvmf: nvmf_cap), else the one generated\n"
		"from the build's mlx5_ifc.h (eth: per_protocol_networking_offload_caps),\n"
		"nested fields by dotted names.  A type neither has a layout for is shown\n"
		"as a hexdump of the 4096-byte image.  Needs CAP_NET_ADMIN.",
	.opts = {
		{"type", 't', "TYPE", "capability type (default general)"},
		{"max", 0, nullptr, "the MAX image (what can be set) instead of CUR"},
		{"hex", 0, nullptr, "also dump the raw image (always for types without a layout)"},
		{"nonzero", 0, nullptr, "only fields whose value is not zero"},
	},
	.min_pos = 1,
	.max_pos = 1,
	.json = true,
};

int run(Ctx &ctx, const Args &args)
{
	uint16_t type = 0;
	try {
		type = args.has("type") ? parse_cap_type(args.str("type"), "--type") : 0;
	} catch (const UsageError &e) {
		args.fail(e.what());
	}
	bool max = args.has("max");
	auto [p, f, file] = open_dev_arg(args);
	cxprm_caps c;
	std::memset(&c, 0, sizeof(c));
	c.cap_type = type;
	c.max = max ? 1 : 0;
	f.query_caps(c);
	FwResult r = FwResult::from(c.st);
	const prm::LayoutDesc *l = cap_layout(type);
	std::vector<FieldValue> fields;
	size_t nall = 0; // decoded fields before --nonzero
	if (l)
		for (FieldValue &v : decode_fields(*l, c.caps, sizeof(c.caps)))
			if (++nall, !args.has("nonzero") || (v.text != "0" && v.text != "0x0"))
				fields.push_back(std::move(v));
	bool hex = args.has("hex") || !l;
	std::string what = "QUERY_HCA_CAP " + cap_type_label(type) + (max ? " MAX" : " CUR");

	if (args.json()) {
		Json j = Json::object();
		j.set("pci_addr", p.bdf);
		j.set("cap_type", cap_type_label(type));
		j.set("cap_type_code", type);
		j.set("mode", max ? "MAX" : "CUR");
		j.set_json("status", status_json(r, true));
		j.set_json("layout", l ? Json::str(l->name) : Json::null());
		j.set_json("layout_source", !l ? Json::null() : Json::str(is_generated(*l) ? "mlx5_ifc.h" : "core"));
		if (r.ok() && l)
			j.set_json("fields", fields_json(fields));
		if (r.ok() && hex) {
			Json img = Json::array();
			for (const std::string &s : hex_lines(c.caps, sizeof(c.caps)))
				img.push(s);
			j.set_json("image", img);
		}
		print_json(ctx, j);
	} else if (r.ok()) {
		ctx.out << p.bdf << " capabilities " << cap_type_label(type) << " (" << (max ? "MAX" : "CUR") << ")";
		if (l)
			ctx.out << ", layout " << l->name << (is_generated(*l) ? " (mlx5_ifc.h)" : "") << ", "
				<< nall << " fields";
		else
			ctx.out << ", no layout for this type: raw image";
		ctx.out << "\n";
		if (l) {
			KvList kv;
			for (const FieldValue &v : fields)
				kv.emplace_back(v.field->name, v.text);
			print_kv(ctx.out, kv, 2);
		}
		if (hex) {
			ctx.out << "image (" << sizeof(c.caps) << " bytes):\n";
			print_lines(ctx.out, hexdump(c.caps, sizeof(c.caps)), 2);
		}
	}
	check_fw(r, what);
	return 0;
}

} // namespace

const Command cmd_caps = {&spec, run};

} // namespace cxprm::tool
