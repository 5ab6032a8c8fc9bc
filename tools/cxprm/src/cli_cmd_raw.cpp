// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm raw DEV --opcode X ...: any firmware command through CXPRM_IOC_RAW.
#include <ostream>

#include "commands.h"
#include "errors.h"
#include "fields.h"
#include "names.h"
#include "raw_exec.h"
#include "wire_view.h"

#include "cxprm/prm/transport.h"

namespace cxprm::tool {

namespace {

const CommandSpec spec = {
	.name = "raw",
	.synopsis =
		"DEV (--opcode X [--op-mod Y] [--uid N] [--in HEX|@FILE] [--set F=V]... | --in-full HEX|@FILE) "
		"[--in-len N] [--out-len N] [--dump | --dry-run [--checksum]]",
	.summary = "run any firmware command (CXPRM_IOC_RAW) and decode its output",
	.description =
		"The input is built as:\n"
		"  bytes 0-7   the generic command header (prm::cmd_in): opcode, uid, op_mod\n"
		"              from --opcode, --uid, --op-mod;\n"
		"  bytes 8-    the --in bytes: the command-specific part, starting with\n"
		"              dword 2 (where most commands keep their parameters: dctn,\n"
		"              xrqn, eq_number, function_id...);\n"
		"  zero padding up to the opcode's *_in layout size (from the core's\n"
		"  registry) and at least 16 bytes, or exactly --in-len bytes;\n"
		"  then each --set FIELD=VALUE writes a field of that *_in layout by name\n"
		"  (e.g. --opcode QUERY_DCT --set dctn=0x1000).\n"
		"--in-full gives the whole input, header included; the opcode and op_mod are\n"
		"read from it (--opcode/--op-mod, if given, must agree).\n"
		"HEX: hex digits, spaces/commas ignored, 0x prefixes allowed; @FILE reads hex\n"
		"text (a saved dump is fine, @- is stdin), @bin:FILE raw bytes.\n"
		"--out-len: default the opcode's *_out layout size, or 256 without one.\n"
		"Output: firmware status (name and sentence, syndrome), the input and output\n"
		"as hexdumps, the output header, the decoding (the core's decoder, else the\n"
		"*_out layout's fields); --dump adds what went over the wire: the queue\n"
		"entry as posted and as completed (cmd_queue_entry fields) and every\n"
		"mailbox block (cmd_if_box fields + data).\n"
		"--dry-run sends nothing and needs no DEV, device or privilege: it prints\n"
		"what would go on the wire, laid out by the core's own encoder (the\n"
		"driver's): the queue entry as posted and every input and output mailbox\n"
		"block, with made-up bus addresses (input chain 0x10000000, output chain\n"
		"0x20000000, block i at +1024*i) and token 0x1; mailbox blocks unsigned as\n"
		"with the driver's default cmd_checksum=0, signed with --checksum.\n"
		"Privileges: read-only QUERY_* opcodes and ACCESS_REG reads (op_mod 1) need\n"
		"CAP_NET_ADMIN; anything else CAP_SYS_RAWIO and the module parameter\n"
		"allow_raw_write=1.\n"
		"Exit 3 when the firmware answers a bad status (everything is still printed).",
	.opts = {
		opt_opcode,
		opt_op_mod,
		{"uid", 0, "N", "cmd_in.uid (default 0)"},
		{"in", 'i', "HEX|@FILE", "command-specific input bytes, placed from byte 8"},
		{"in-full", 0, "HEX|@FILE", "the whole input, header included"},
		{"set", 's', "FIELD=VALUE", "set a field of the opcode's *_in layout", true},
		{"in-len", 0, "N", "input length in bytes (16.." "32784)"},
		{"out-len", 0, "N", "output length in bytes (16..32784)"},
		{"dump", 'd', nullptr, "show the queue entry and mailbox blocks that went over the wire"},
		{"dry-run", 'n', nullptr, "send nothing: show the queue entry and mailbox blocks it would post"},
		{"checksum", 0, nullptr, "with --dry-run: sign the mailbox blocks (as cmd_checksum=1)"},
		kScopeOpt,
	},
	.max_pos = 1,
	.json = true,
};

Bytes build_input(const Args &a, uint16_t *opcode_out, uint16_t *op_mod_out)
{
	Bytes in;
	uint16_t opcode = 0, op_mod = 0;
	const prm::FieldDesc &f_op = *find_field(prm::cmd_in::desc, "opcode");
	const prm::FieldDesc &f_mod = *find_field(prm::cmd_in::desc, "op_mod");
	try {
		if (a.has("opcode"))
			opcode = parse_opcode(a.str("opcode"), "--opcode");
		if (a.has("in-full")) {
			if (a.has("in") || a.has("uid"))
				a.fail("--in-full holds the whole input: no --in or --uid with it");
			in = load_bytes(a.str("in-full"), "--in-full");
			if (in.size() < prm::cmd_in::size_bytes)
				a.fail("--in-full: " + std::to_string(in.size()) + " bytes, the header alone is 8");
			uint16_t o = (uint16_t)field_get(in.data(), in.size(), f_op);
			uint16_t m = (uint16_t)field_get(in.data(), in.size(), f_mod);
			if (a.has("opcode") && o != opcode)
				a.fail("--opcode " + opcode_label(opcode) + " does not match the input's opcode " +
				       opcode_label(o));
			if (a.has("op-mod") && m != a.num("op-mod", 0xffff))
				a.fail("--op-mod does not match the input's op_mod " + hex_num(m));
			opcode = o;
			op_mod = m;
			if (in.size() < prm::INLINE_BYTES && !a.has("in-len"))
				in.resize(prm::INLINE_BYTES, 0);
		} else {
			if (!a.has("opcode"))
				a.fail("--opcode is required (or --in-full)");
			op_mod = (uint16_t)a.num("op-mod", 0xffff);
			Bytes body = a.has("in") ? load_bytes(a.str("in"), "--in") : Bytes{};
			const prm::LayoutDesc *l = layout_for_opcode(opcode, true);
			in = make_input(opcode, op_mod, (uint16_t)a.num("uid", 0xffff), body, l ? l->size_bits / 8 : 0);
		}
		if (a.has("in-len")) {
			size_t n = a.num("in-len", CXPRM_RAW_MAX);
			if (n < prm::INLINE_BYTES)
				a.fail("--in-len: at least 16");
			if (n < in.size())
				a.fail("--in-len " + std::to_string(n) + " is shorter than the " + std::to_string(in.size()) +
				       " input bytes given");
			in.resize(n, 0);
		}
		if (in.size() > CXPRM_RAW_MAX)
			a.fail("input of " + std::to_string(in.size()) + " bytes: at most " + std::to_string(CXPRM_RAW_MAX));
		for (const std::string &s : a.all("set")) {
			const prm::LayoutDesc *l = layout_for_opcode(opcode, true);
			if (!l)
				a.fail("--set: the core has no input layout for " + opcode_label(opcode) + "; use --in");
			apply_set_arg(a, *l, in.data(), in.size(), s);
		}
	} catch (const UsageError &e) {
		if (!e.command().empty())
			throw;
		a.fail(e.what());
	}
	*opcode_out = opcode;
	*op_mod_out = op_mod;
	return in;
}

Json hex_json(const Bytes &b)
{
	Json j = Json::array();
	for (const std::string &s : hex_lines(b.data(), b.size()))
		j.push(s);
	return j;
}

int run(Ctx &ctx, const Args &args)
{
	uint16_t opcode, op_mod;
	Bytes in = build_input(args, &opcode, &op_mod);
	uint32_t outlen;
	if (args.has("out-len")) {
		outlen = (uint32_t)args.num("out-len", CXPRM_RAW_MAX);
		if (outlen < prm::INLINE_BYTES)
			args.fail("--out-len: at least 16");
	} else {
		const prm::LayoutDesc *l = layout_for_opcode(opcode, false);
		outlen = l ? std::max<uint32_t>(l->size_bits / 8, prm::INLINE_BYTES) : 256;
	}

	if (args.has("dry-run")) {
		if (args.has("dump"))
			args.fail("--dump shows a command that ran: not with --dry-run");
		print_dry_run(ctx, args.json(), in, outlen, args.has("checksum"));
		return 0;
	}
	if (args.has("checksum"))
		args.fail("--checksum goes with --dry-run");
	if (args.pos().empty())
		args.fail("DEV is required (but with --dry-run)");
	auto [p, f, file] = open_dev_arg(args);
	apply_scope_arg(ctx, args, f);
	RawRun r = run_raw(f, in, outlen, args.has("dump"));
	// On an ioctl error the driver returns no output, but the status and
	// the wire dump (what was posted, what came back) when it has them.
	bool have_out = !r.err;
	OutDecoding d;
	std::vector<FieldValue> hdr;
	if (have_out) {
		d = decode_any(opcode, op_mod, r.out, &r.in);
		hdr = decode_fields(prm::cmd_out::desc, r.out.data(), r.out.size(), 64, true);
	}

	if (args.json()) {
		Json j = Json::object();
		j.set("pci_addr", p.bdf);
		j.set("opcode", opcode);
		j.set("opcode_name", opcode_label(opcode));
		j.set("op_mod", op_mod);
		j.set("inlen", (uint64_t)in.size());
		j.set("outlen", outlen);
		if (r.err)
			j.set("error", r.error);
		j.set_json("status", status_json(r.fw, true));
		j.set_json("input", hex_json(in));
		if (have_out) {
			j.set_json("output", hex_json(r.out));
			j.set_json("output_header", fields_json(hdr));
			j.set("decoder", d.source);
			j.set("decode_result", d.result);
			j.set_json("decoded", d.json);
		}
		if (args.has("dump"))
			j.set_json("dump", dump_json(r));
		print_json(ctx, j);
	} else {
		KvList head = {
			{"command", opcode_label(opcode) + " (" + hex_num(opcode) + "), op_mod " + hex_num(op_mod)},
			{"lengths", "input " + std::to_string(in.size()) + " bytes, output " + std::to_string(outlen) + " bytes"},
			{"result", r.err ? "ioctl failed: " + errno_name(r.err) + " (status as returned: " + describe(r.fw) + ")"
					 : describe(r.fw)},
			{"latency", std::to_string(r.fw.latency_ns) + " ns"},
		};
		print_kv(ctx.out, head);
		ctx.out << "input:\n";
		print_lines(ctx.out, hexdump(in.data(), in.size()), 2);
		if (have_out) {
			std::string h;
			for (const FieldValue &v : hdr)
				h += std::string(h.empty() ? "" : ", ") + v.field->name + " " + v.text;
			ctx.out << "output (header: " << h << "):\n";
			print_lines(ctx.out, hexdump(r.out.data(), r.out.size()), 2);
			ctx.out << "decoded (" << d.source << (d.result == "OK" ? "" : ": " + d.result) << "):\n";
			print_kv(ctx.out, d.kv, 2);
		}
		if (args.has("dump") && (have_out || r.dumped)) {
			ctx.out << "wire dump:\n";
			print_lines(ctx.out, dump_lines(r), 2);
		}
	}
	if (r.err)
		throw OsError(r.error);
	check_fw(r.fw, opcode_label(opcode));
	return 0;
}

} // namespace

const Command cmd_raw = {&spec, run};

} // namespace cxprm::tool
