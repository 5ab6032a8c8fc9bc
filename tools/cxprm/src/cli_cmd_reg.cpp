// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm reg [DEV] NAME|ID: one register through ACCESS_REG (sent like 'raw'
// sends a command, CXPRM_IOC_RAW), decoded with the register's layout from
// the core's register table (prm/reg.h CXPRM_REGISTERS).
#include <ostream>

#include "commands.h"
#include "errors.h"
#include "fields.h"
#include "hex.h"
#include "names.h"
#include "raw_exec.h"

#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/reg.h"
#include "wire_view.h"

namespace cxprm::tool {

namespace {

const CommandSpec spec = {
	.name = "reg",
	.synopsis =
		"[DEV] NAME|ID [--port N] [--set FIELD=VALUE]... [--write] [--len N] [--hex] [--nonzero] "
		"[--dry-run [--checksum]]",
	.summary = "read or write a register (ACCESS_REG) and decode it by name",
	.description =
		"NAME: a register of the core's table (case-insensitive): QCAM, PMTU, PTYS,\n"
		"PAOS, PPCNT, PCAM, HOST_ENDIANNESS, MCIA, MGIR, MTRC_CAP, MCAM, DTOR; or its\n"
		"id (0x5004).  An id outside the table needs --len (the register's bytes)\n"
		"and is shown as a hexdump.  The register data sent starts zeroed with\n"
		"the defaults a plain read needs (PTYS proto_mask=4 (Ethernet); MCIA\n"
		"i2c_device_address=0x50 size=48, page 0 from byte 0), local_port=--port\n"
		"(default 1) for the port registers (PAOS, PTYS, PMTU, PPCNT), then each\n"
		"--set FIELD=VALUE (e.g. MCIA --set device_address=148 --set size=16, PPCNT\n"
		"--set grp=0 --set clr=1).  --write sends op_mod WRITE (default READ); the\n"
		"answer is decoded either way.  PPCNT group 0 is decoded with its IEEE 802.3\n"
		"counters (64-bit values); MCIA's data is shown as bytes and text.\n"
		"Privileges: ACCESS_REG goes through CXPRM_IOC_RAW, as 'raw': a read is a\n"
		"query (CAP_NET_ADMIN), a write needs what a raw write needs.\n"
		"--dry-run sends nothing and needs no DEV, device or privilege: it prints\n"
		"the queue entry and mailbox blocks of the ACCESS_REG, as 'raw --dry-run'.\n"
		"Exit 3 when the firmware answers a bad status.",
	.opts = {
		{"port", 'p', "N", "local_port of a port register (default 1)"},
		{"set", 's', "FIELD=VALUE", "set a field of the register's input", true},
		{"write", 'w', nullptr, "an ACCESS_REG write (op_mod 0) instead of a read"},
		{"len", 0, "N", "register bytes of an id outside the table"},
		{"hex", 0, nullptr, "also dump the register's bytes"},
		{"nonzero", 0, nullptr, "only fields whose value is not zero"},
		{"dry-run", 'n', nullptr, "send nothing: show the queue entry and mailbox blocks it would post"},
		{"checksum", 0, nullptr, "with --dry-run: sign the mailbox blocks (as cmd_checksum=1)"},
		kScopeOpt,
	},
	.min_pos = 1,
	.max_pos = 2,
	.json = true,
};

// What a read of the register needs to be a valid request.
struct Default {
	uint16_t id;
	const char *field;
	uint64_t value;
};
const Default kDefaults[] = {
	{prm::reg_id::PTYS, "proto_mask", 4},
	{prm::reg_id::MCIA, "i2c_device_address", 0x50},
	{prm::reg_id::MCIA, "size", 48},
};

// Region fields decoded further: PPCNT group 0's counters, MCIA's bytes.
void nested(const prm::RegisterInfo &ri, const Bytes &data, KvList &extra, Json &jextra)
{
	if (ri.id == prm::reg_id::PPCNT &&
	    field_get(data.data(), data.size(), *find_field(*ri.layout, "grp")) == 0) {
		const prm::LayoutDesc &g = prm::eth_802_3_cntrs_grp_data_layout::desc;
		const uint32_t off = prm::ppcnt_reg::counter_set::offset / 8;
		Json counters = Json::object();
		for (uint32_t i = 0; i + 1 < g.nfields; i += 2) { // _high, _low pairs
			std::string name = g.fields[i].name;
			name = name.substr(0, name.size() - 5);
			uint64_t v = field_get(data.data() + off, data.size() - off, g.fields[i]) << 32 |
				     field_get(data.data() + off, data.size() - off, g.fields[i + 1]);
			extra.emplace_back(name, std::to_string(v));
			counters.set(name, v);
		}
		jextra.set_json("counters", counters);
	} else if (ri.id == prm::reg_id::MCIA) {
		uint64_t n = field_get(data.data(), data.size(), *find_field(*ri.layout, "size"));
		const uint32_t off = prm::mcia_reg::dwords::offset / 8;
		n = n > prm::mcia_reg::dwords::width / 8 ? prm::mcia_reg::dwords::width / 8 : n;
		Bytes b(data.begin() + off, data.begin() + off + n);
		std::string text;
		for (uint8_t c : b)
			text += c >= 0x20 && c < 0x7f ? (char)c : '.';
		extra.emplace_back("data", to_hex(b.data(), b.size()));
		extra.emplace_back("text", text);
		jextra.set("data", to_hex(b.data(), b.size()));
		jextra.set("text", text);
	}
}

int run(Ctx &ctx, const Args &args)
{
	const bool dry = args.has("dry-run");
	if (args.pos().size() < 2 && !dry)
		args.fail("DEV is required (but with --dry-run)");
	if (args.has("checksum") && !dry)
		args.fail("--checksum goes with --dry-run");
	const std::string &which = args.pos().back();
	const prm::RegisterInfo *ri = prm::find_register(which.c_str());
	uint16_t id = 0;
	if (ri)
		id = ri->id;
	else {
		try {
			id = (uint16_t)parse_num(which, "register", 0xffff);
		} catch (const UsageError &) {
			args.fail("no register '" + which + "' (a name of the table or an id)");
		}
		ri = prm::find_register(id);
	}
	const prm::LayoutDesc *l = ri ? ri->layout : nullptr;
	size_t bytes = l ? l->size_bits / 8 : 0;
	if (!l) {
		if (!args.has("len"))
			args.fail("register " + hex_num(id) + " is not in the table: give --len BYTES");
		bytes = args.num("len", 4096);
		if (!bytes || bytes % 4)
			args.fail("--len: a positive multiple of 4");
	} else if (args.has("len") && args.num("len", 4096) != bytes)
		args.fail("--len: " + std::string(ri->name) + " is " + std::to_string(bytes) + " bytes");
	if (args.has("port") && !(ri && ri->port))
		args.fail("--port: " + (ri ? std::string(ri->name) : hex_num(id)) + " is not indexed by local_port");
	if (args.has("set") && !l)
		args.fail("--set: no layout for register " + hex_num(id));

	const bool write = args.has("write");
	const uint32_t hdr = prm::access_register_in::size_bytes;
	Bytes data(bytes, 0);
	try {
		if (ri) {
			for (const Default &d : kDefaults)
				if (d.id == id)
					set_layout_field(args, *l, data.data(), bytes, d.field, d.value);
			if (ri->port)
				set_layout_field(args, *l, data.data(), bytes, "local_port", args.num("port", 0xff, 1));
		}
		for (const std::string &s : args.all("set"))
			apply_set_arg(args, *l, data.data(), bytes, s);
	} catch (const UsageError &e) {
		if (!e.command().empty())
			throw;
		args.fail(e.what());
	}
	const uint16_t op_mod = write ? prm::access_reg_op::WRITE : prm::access_reg_op::READ;
	Bytes body(hdr - 8 + bytes, 0); // access_register_in from byte 8, then the register
	Bytes in = make_input(prm::op::ACCESS_REG, op_mod, 0, body, hdr + bytes);
	field_set(in.data(), in.size(), *find_field(prm::access_register_in::desc, "register_id"), id);
	std::copy(data.begin(), data.end(), in.begin() + hdr);

	const uint32_t outlen = (uint32_t)(prm::access_register_out::size_bytes + bytes);
	if (dry) {
		print_dry_run(ctx, args.json(), in, outlen, args.has("checksum"));
		return 0;
	}
	auto [p, f, file] = open_dev_arg(args);
	apply_scope_arg(ctx, args, f);
	RawRun r = run_raw(f, in, outlen, false);
	if (r.err)
		throw OsError(r.error);
	const std::string name = ri ? ri->name : hex_num(id);
	const std::string what = std::string("ACCESS_REG ") + (write ? "write " : "read ") + name;
	Bytes out(r.out.begin() + std::min<size_t>(prm::access_register_out::size_bytes, r.out.size()), r.out.end());
	std::vector<FieldValue> fields;
	KvList extra;
	Json jextra = Json::object();
	if (r.fw.ok() && l) {
		for (FieldValue &v : decode_fields(*l, out.data(), out.size()))
			if (!args.has("nonzero") || (v.text != "0" && v.text != "0x0"))
				fields.push_back(std::move(v));
		nested(*ri, out, extra, jextra);
	}
	const bool hex = args.has("hex") || !l;

	if (args.json()) {
		Json j = Json::object();
		j.set("pci_addr", p.bdf);
		j.set("register", name);
		j.set("register_id", id);
		j.set("access", write ? "write" : "read");
		if (ri && ri->port)
			j.set("local_port", field_get(data.data(), data.size(), *find_field(*l, "local_port")));
		j.set_json("status", status_json(r.fw, true));
		j.set_json("layout", l ? Json::str(l->name) : Json::null());
		if (r.fw.ok() && l)
			j.set_json("fields", fields_json(fields));
		for (const auto &m : jextra.members()) // counters / data, text
			j.set_json(m.first, m.second);
		if (r.fw.ok() && hex) {
			Json img = Json::array();
			for (const std::string &s : hex_lines(out.data(), out.size()))
				img.push(s);
			j.set_json("image", img);
		}
		print_json(ctx, j);
	} else if (r.fw.ok()) {
		ctx.out << p.bdf << " register " << name << " (" << hex_num(id) << ")" << (write ? " written" : "");
		if (ri && ri->port)
			ctx.out << ", local_port " << field_get(data.data(), data.size(), *find_field(*l, "local_port"));
		if (l)
			ctx.out << ", layout " << l->name;
		ctx.out << "\n";
		KvList kv;
		for (const FieldValue &v : fields)
			kv.emplace_back(v.field->name, v.text);
		kv.insert(kv.end(), extra.begin(), extra.end());
		print_kv(ctx.out, kv, 2);
		if (hex) {
			ctx.out << "register (" << out.size() << " bytes):\n";
			print_lines(ctx.out, hexdump(out.data(), out.size()), 2);
		}
	}
	check_fw(r.fw, what);
	return 0;
}

} // namespace

const Command cmd_reg = {&spec, run};

} // namespace cxprm::tool
