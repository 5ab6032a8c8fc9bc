// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm decode: decode saved command outputs/inputs or any layout offline,
// with the core's decoders; no device needed.
#include <ostream>

#include "commands.h"
#include "decoded.h"
#include "errors.h"
#include "fields.h"
#include "hex.h"
#include "names.h"
#include "raw_exec.h"

#include "cxprm/commands/decode.h"
#include "cxprm/errors.h"
#include "cxprm/prm/registry.h"

namespace cxprm::tool {

namespace {

const CommandSpec spec = {
	.name = "decode",
	.synopsis = "--opcode X --out HEX|@FILE [--op-mod Y] | --in HEX|@FILE | --layout NAME --data HEX|@FILE",
	.summary = "decode a saved command output (or input, or any PRM layout) offline",
	.description =
		"--out: a command output as the firmware wrote it (header included),\n"
		"decoded by the core's decoder for --opcode (QUERY_HCA_CAP needs --op-mod:\n"
		"(cap type << 1) | 1 for CUR, 0 for MAX); opcodes without a decoder are\n"
		"decoded with their *_out layout when the core has one.\n"
		"--in: a command input (header included; the opcode comes from it).\n"
		"--layout: any layout of the core's registry (e.g. dctc, cmd_hca_cap,\n"
		"cmd_queue_entry) applied to --data.\n"
		"HEX/@FILE as for 'cxprm raw' (a hexdump printed by this tool reads back).\n"
		"Exit 0 when decoded (whatever firmware status the output holds), 1 when\n"
		"the bytes are too short or inconsistent for their layout.",
	.opts = {
		{"out", 0, "HEX|@FILE", "the output bytes"},
		opt_opcode,
		opt_op_mod,
		{"in", 'i', "HEX|@FILE", "input bytes to decode instead"},
		{"layout", 'l', "NAME", "decode --data with this layout"},
		{"data", 0, "HEX|@FILE", "bytes for --layout"},
		{"hex", 0, nullptr, "also print the bytes as a hexdump"},
	},
	.json = true,
};

void print_hex(Ctx &ctx, const Args &a, const Bytes &b, Json *j)
{
	if (!a.has("hex"))
		return;
	if (j) {
		Json arr = Json::array();
		for (const std::string &s : hex_lines(b.data(), b.size()))
			arr.push(s);
		j->set_json("hex", arr);
	} else {
		ctx.out << "bytes:\n";
		print_lines(ctx.out, hexdump(b.data(), b.size()), 2);
	}
}

int finish(Ctx &ctx, const Args &a, Json &j, const KvList &kv, const Bytes &b, const std::string &result,
	   bool bad)
{
	if (a.json()) {
		print_hex(ctx, a, b, &j);
		print_json(ctx, j);
	} else {
		print_kv(ctx.out, kv);
		print_hex(ctx, a, b, nullptr);
		if (result != "OK")
			ctx.err << "cxprm: decode: " << result << "\n";
	}
	return bad ? EXIT_USAGE : EXIT_OK;
}

int decode_layout(Ctx &ctx, const Args &a)
{
	const prm::LayoutDesc *l = any_layout(a.str("layout").c_str());
	if (!l) {
		u32 n;
		const prm::LayoutDesc *const *all = prm::all_layouts(&n);
		std::string names;
		for (u32 i = 0; i < n; i++)
			names += std::string(i ? ", " : "") + all[i]->name;
		a.fail("--layout: no layout '" + a.str("layout") + "' in the core or the build's mlx5_ifc.h "
		       "(the core's: " + names + ")");
	}
	if (!a.has("data"))
		a.fail("--layout needs --data");
	Bytes b = load_bytes(a.str("data"), "--data");
	std::vector<FieldValue> v = decode_fields(*l, b.data(), b.size(), 64);
	KvList kv;
	for (const FieldValue &f : v)
		kv.emplace_back(f.field->name, f.text);
	bool shorter = b.size() < l->size_bits / 8;
	std::string result = shorter ? std::to_string(b.size()) + " bytes, the layout has " +
					       std::to_string(l->size_bits / 8) + " (fields beyond are left out)"
				     : "OK";
	Json j = Json::object();
	j.set("layout", l->name);
	j.set("length", (uint64_t)b.size());
	j.set("layout_bytes", l->size_bits / 8);
	j.set("decode_result", result);
	j.set_json("fields", fields_json(v));
	return finish(ctx, a, j, kv, b, result, false);
}

int decode_input(Ctx &ctx, const Args &a)
{
	Bytes b = load_bytes(a.str("in"), "--in");
	if (b.size() < 8)
		a.fail("--in: " + std::to_string(b.size()) + " bytes; a command input has an 8-byte header at least");
	Decoded d = decode_in(b.data(), (uint32_t)b.size());
	uint16_t opcode = (uint16_t)(b[0] << 8 | b[1]);
	uint16_t op_mod = (uint16_t)(b[6] << 8 | b[7]);
	Json j = Json::object();
	j.set("opcode", opcode);
	j.set("opcode_name", opcode_label(opcode));
	j.set("op_mod", op_mod);
	j.set("length", (uint64_t)b.size());
	KvList kv = d.kv;
	Json dec = decoded_json(d);
	std::string source = "core", result = d.result_text();
	if (!d.supported()) {
		if (const prm::LayoutDesc *l = layout_for_opcode(opcode, true)) {
			source = std::string("layout:") + l->name;
			result = "OK";
			std::vector<FieldValue> v = decode_fields(*l, b.data(), b.size());
			kv.clear();
			for (const FieldValue &f : v)
				kv.emplace_back(f.field->name, f.text);
			dec = fields_json(v);
		} else {
			source = "none";
		}
	}
	j.set("decoder", source);
	j.set("decode_result", result);
	j.set_json("decoded", dec);
	return finish(ctx, a, j, kv, b, result, d.err == E_INVAL || d.err == E_PROTO);
}

int decode_output(Ctx &ctx, const Args &a)
{
	if (!a.has("opcode"))
		a.fail("--out needs --opcode");
	uint16_t opcode;
	try {
		opcode = parse_opcode(a.str("opcode"), "--opcode");
	} catch (const UsageError &e) {
		a.fail(e.what());
	}
	uint16_t op_mod = (uint16_t)a.num("op-mod", 0xffff);
	Bytes b = load_bytes(a.str("out"), "--out");
	if (b.size() < 12)
		a.fail("--out: " + std::to_string(b.size()) + " bytes; an output has a 12-byte header at least");
	OutDecoding d = decode_any(opcode, op_mod, b);
	Json j = Json::object();
	j.set("opcode", opcode);
	j.set("opcode_name", opcode_label(opcode));
	j.set("op_mod", op_mod);
	j.set("length", (uint64_t)b.size());
	j.set("decoder", d.source);
	j.set("decode_result", d.result);
	j.set_json("decoded", d.json);
	return finish(ctx, a, j, d.kv, b, d.result, d.malformed);
}

int run(Ctx &ctx, const Args &a)
{
	int modes = a.has("out") + a.has("in") + a.has("layout");
	if (modes != 1)
		a.fail("give one of --out (with --opcode), --in, or --layout (with --data)");
	if (a.has("layout"))
		return decode_layout(ctx, a);
	if (a.has("in"))
		return decode_input(ctx, a);
	return decode_output(ctx, a);
}

} // namespace

const Command cmd_decode = {&spec, run};

} // namespace cxprm::tool
