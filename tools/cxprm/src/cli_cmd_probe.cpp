// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm probe DEV: a fixed set of read-only queries, raw outputs next to
// their decoding, for comparing firmware versions (diffable JSON).
#include <algorithm>
#include <fstream>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "commands.h"
#include "errors.h"
#include "fields.h"
#include "json_parse.h"
#include "names.h"
#include "probe_diff.h"
#include "raw_exec.h"
#include "views.h"

#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/transport.h"

namespace cxprm::tool {

namespace {

const CommandSpec spec = {
	.name = "probe",
	.synopsis = "DEV [-o FILE] [--xrq N] [--nsid N] [--no-nvmf] [--no-esw] [--with-latency] | --diff A B",
	.summary = "run the probe command set and show raw outputs with their decoding",
	.description =
		"Runs, through CXPRM_IOC_RAW (so the outputs are the firmware's exact bytes):\n"
		"  QUERY_ADAPTER, QUERY_ISSI,\n"
		"  QUERY_HCA_CAP GENERAL CUR (op_mod 0x1) and MAX (op_mod 0x0),\n"
		"  QUERY_NVMF_NAMESPACE_CONTEXT of --xrq (default 0) / --nsid (default 1),\n"
		"  QUERY_ESW_FUNCTIONS (only on an ECPF eswitch manager, flag ECPF in\n"
		"  'cxprm info', as Linux sends it),\n"
		"and prints each output as a hexdump next to its decoding.  A firmware\n"
		"error is part of the report (a function without NVMF or an external host\n"
		"answers one); it makes the exit code 3 after everything is printed, an\n"
		"ioctl failure 2.  JSON: pretty, stable key order, hex as 16-byte lines, no\n"
		"timestamps, latencies or counters unless --with-latency, so two probes\n"
		"(two firmware versions) compare with diff.  All commands are read-only\n"
		"queries: CAP_NET_ADMIN.\n"
		"-o FILE also writes that JSON to FILE (the text still goes to stdout).\n"
		"--diff A B compares two such files, no device: per command, each decoded\n"
		"field whose value differs (name: A \u2192 B), status and error differences,\n"
		"how many output bytes differ, commands present in only one; the device\n"
		"line's differences first.  Exit 0 when identical, 1 when they differ, 2 on\n"
		"bad input (unreadable, not a probe's JSON), as diff(1).\n"
		"--all-caps adds the CUR image of every other capability type\n"
		"(query_hca_cap_ALIAS); a type the device refuses is left out, so --diff\n"
		"shows the types only one device has.",
	.opts = {
		{"xrq", 0, "N", "XRQ of the NVMF namespace query (default 0)"},
		{"nsid", 0, "N", "frontend namespace of the NVMF query (default 1)"},
		{"no-nvmf", 0, nullptr, "skip the NVMF namespace query"},
		{"no-esw", 0, nullptr, "skip the eswitch query"},
		{"all-caps", 0, nullptr, "also every other capability type the device answers"},
		{"with-latency", 0, nullptr, "include each command's latency (not diffable)"},
		{"output", 'o', "FILE", "also write the probe's JSON to FILE"},
		{"diff", 0, nullptr, "compare two saved probes A B (no device)"},
	},
	.min_pos = 1,
	.max_pos = 2,
	.json = true,
};

struct ProbeCmd {
	std::string name;
	uint16_t opcode, op_mod;
	Json params = Json::object();
	Bytes in;
	bool optional = false; // left out when the firmware refuses it
};

std::vector<ProbeCmd> command_set(const Args &a, int ecpf)
{
	namespace op = prm::op;
	namespace cap = prm::cap;
	std::vector<ProbeCmd> v;
	auto add = [&](const std::string &name, uint16_t opcode, uint16_t op_mod) -> ProbeCmd & {
		const prm::LayoutDesc *l = layout_for_opcode(opcode, true);
		v.push_back({name, opcode, op_mod, Json::object(), make_input(opcode, op_mod, 0, {}, l ? l->size_bits / 8 : 0)});
		return v.back();
	};
	add("query_adapter", op::QUERY_ADAPTER, 0);
	add("query_issi", op::QUERY_ISSI, 0);
	add("query_hca_cap_general_cur", op::QUERY_HCA_CAP, cap::op_mod(cap::GENERAL, cap::CUR));
	add("query_hca_cap_general_max", op::QUERY_HCA_CAP, cap::op_mod(cap::GENERAL, cap::MAX));
	if (a.has("all-caps")) {
#define CXPRM_PROBE_CAP_(name, value, alias, layout)                                              \
	if (cap::name != cap::GENERAL)                                                            \
		add("query_hca_cap_" #alias, op::QUERY_HCA_CAP, cap::op_mod(cap::name, cap::CUR)).optional = true;
#define CXPRM_PROBE_CAP_N_(name, str, value, alias, layout) CXPRM_PROBE_CAP_(name, value, alias, layout)
		CXPRM_CAP_TYPES(CXPRM_PROBE_CAP_, CXPRM_PROBE_CAP_N_)
#undef CXPRM_PROBE_CAP_
#undef CXPRM_PROBE_CAP_N_
	}
	if (!a.has("no-nvmf")) {
		uint32_t xrq = (uint32_t)a.num("xrq", 0xffffff, 0), nsid = (uint32_t)a.num("nsid", 0xffffffff, 1);
		ProbeCmd &c = add("query_nvmf_namespace_context", op::QUERY_NVMF_NAMESPACE_CONTEXT, 0);
		const prm::LayoutDesc &l = prm::query_nvmf_namespace_in::desc;
		field_set(c.in.data(), c.in.size(), *find_field(l, "xrqn"), xrq);
		field_set(c.in.data(), c.in.size(), *find_field(l, "frontend_namespace"), nsid);
		c.params.set("xrqn", xrq);
		c.params.set("nsid", nsid);
	}
	// ecpf < 0: not known (over fwctl the init segment's embedded_cpu bit
	// is out of reach): asked, and left out when the firmware refuses.
	if (!a.has("no-esw") && ecpf)
		add("query_esw_functions", op::QUERY_ESW_FUNCTIONS, 0).optional = ecpf < 0;
	return v;
}

uint32_t out_len(uint16_t opcode)
{
	const prm::LayoutDesc *l = layout_for_opcode(opcode, false);
	return l ? std::max<uint32_t>(l->size_bits / 8, prm::INLINE_BYTES) : 256;
}

// Hexdump on the left, decoding on the right.
void side_by_side(std::ostream &out, const std::vector<std::string> &left, const KvList &right)
{
	size_t w = 0, kw = 0;
	for (const auto &l : left)
		w = std::max(w, l.size());
	for (const auto &p : right)
		kw = std::max(kw, p.first.size());
	size_t n = std::max(left.size(), right.size());
	for (size_t i = 0; i < n; i++) {
		std::string l = i < left.size() ? left[i] : "";
		std::string line = "  " + l + std::string(w - l.size(), ' ');
		if (i < right.size())
			line += "  | " + right[i].first + ":" + std::string(kw - right[i].first.size() + 1, ' ') +
				right[i].second;
		while (!line.empty() && line.back() == ' ')
			line.pop_back();
		out << line << "\n";
	}
}

Json load_probe(const std::string &path, const char *which)
{
	std::ifstream f(path);
	std::stringstream ss;
	ss << f.rdbuf();
	if (!f)
		throw OsError(std::string("probe --diff: cannot read ") + which + " " + path);
	try {
		return JsonParser::parse(ss.str());
	} catch (const std::runtime_error &e) {
		throw OsError(std::string("probe --diff: ") + which + " " + path + ": " + e.what());
	}
}

// probe --diff A B: 0 identical, 1 different, 2 bad input (diff's codes).
int run_diff(Ctx &ctx, const Args &args)
{
	if (args.pos().size() != 2)
		throw OsError("probe --diff takes two saved probes (cxprm probe DEV -o FILE), A and B");
	const std::string &a = args.pos()[0], &b = args.pos()[1];
	ProbeDiff d;
	try {
		d = probe_diff(load_probe(a, "A"), load_probe(b, "B"));
	} catch (const OsError &) {
		throw;
	} catch (const std::runtime_error &e) {
		throw OsError(std::string("probe --diff: ") + e.what());
	}
	if (args.json())
		print_json(ctx, probe_diff_json(d, a, b));
	else
		print_lines(ctx.out, probe_diff_lines(d, a, b));
	return d.identical() ? EXIT_OK : 1;
}

void save(const std::string &path, const Json &top)
{
	std::ofstream f(path, std::ios::trunc);
	f << top.dump() << "\n";
	f.close();
	if (!f)
		throw OsError("probe -o: cannot write " + path);
}

int run(Ctx &ctx, const Args &args)
{
	if (args.has("diff"))
		return run_diff(ctx, args);
	if (args.pos().size() != 1)
		args.fail("one DEV (or --diff A B)");
	bool lat = args.has("with-latency");
	auto [p, f, file] = open_dev_arg(args);
	cxprm_info info = f.info();
	std::vector<ProbeCmd> cmds =
		command_set(args, f.via() == Via::FWCTL ? -1 : (info.flags & CXPRM_INFO_ECPF) != 0);

	Json dev = Json::object();
	dev.set("pci_addr", std::string(info.pci_addr));
	dev.set("pci_id", info_json(info, p).get("pci_id")->as_str());
	dev.set("model", model_name(info.vendor_id, info.device_id));
	dev.set("fw_version", fw_version(info));
	dev.set("cmdif_rev", info.cmdif_rev);
	dev.set("issi", info.issi);
	Json list = Json::array();
	int rc = EXIT_OK;

	if (!args.json()) {
		ctx.out << "probe of " << info.pci_addr << ": " << dev.get("pci_id")->as_str() << " "
			<< dev.get("model")->as_str() << ", firmware " << fw_version(info) << ", cmdif rev "
			<< info.cmdif_rev << ", ISSI " << info.issi << "\n";
	}
	for (const ProbeCmd &c : cmds) {
		Json j = Json::object();
		j.set("name", c.name);
		j.set("opcode", c.opcode);
		j.set("opcode_name", opcode_label(c.opcode));
		j.set("op_mod", c.op_mod);
		if (c.params.size())
			j.set_json("params", c.params);
		std::string title = "== " + c.name + ": " + opcode_label(c.opcode) + " op_mod " + hex_num(c.op_mod);
		try {
			RawRun r = run_raw(f, c.in, out_len(c.opcode), false);
			if (r.err)
				throw OsError(r.error);
			if (c.optional && !r.fw.ok())
				continue;
			OutDecoding d = decode_any(c.opcode, c.op_mod, r.out, &c.in);
			if (!r.fw.ok())
				rc = std::max<int>(rc, EXIT_FW);
			j.set_json("status", status_json(r.fw, lat));
			j.set("outlen", (uint64_t)r.out.size());
			Json hex = Json::array();
			for (const std::string &s : hex_lines(r.out.data(), r.out.size()))
				hex.push(s);
			j.set_json("output", hex);
			j.set("decoder", d.source);
			j.set_json("decoded", d.json);
			if (!args.json()) {
				ctx.out << "\n" << title << ": " << describe(r.fw);
				if (lat)
					ctx.out << " (" << r.fw.latency_ns << " ns)";
				ctx.out << "\n";
				side_by_side(ctx.out, hexdump(r.out.data(), r.out.size()), d.kv);
			}
		} catch (const Failure &e) {
			rc = EXIT_OS;
			j.set("error", e.what());
			if (!args.json())
				ctx.out << "\n" << title << ": error: " << e.what() << "\n";
		}
		list.push_json(j);
	}
	Json top = Json::object();
	top.set_json("device", dev);
	top.set_json("commands", list);
	if (args.json())
		print_json(ctx, top);
	if (args.has("output"))
		save(args.str("output"), top);
	if (rc == EXIT_FW)
		ctx.err << "cxprm: probe: some commands got a firmware error (see above)\n";
	else if (rc == EXIT_OS)
		ctx.err << "cxprm: probe: some commands failed (see above)\n";
	return rc;
}

} // namespace

const Command cmd_probe = {&spec, run};

} // namespace cxprm::tool
