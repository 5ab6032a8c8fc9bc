// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Queue entries and mailbox blocks as text and JSON; dry runs (wire_view.h).
#include "wire_view.h"

#include <ostream>

#include "commands.h"
#include "fields.h"
#include "names.h"
#include "table.h"

#include "cxprm/prm/transport.h"
#include "cxprm/wire.h"

namespace cxprm::tool {

namespace {

constexpr size_t ENTRY = prm::cmd_queue_entry::size_bytes, BLOCK = prm::cmd_if_box::size_bytes;

std::vector<Bytes> split_blocks(const Bytes &all)
{
	std::vector<Bytes> v;
	for (size_t off = 0; off < all.size(); off += BLOCK)
		v.emplace_back(all.begin() + (long)off, all.begin() + (long)(off + BLOCK));
	return v;
}

Json hex_array(const uint8_t *p, size_t n)
{
	Json j = Json::array();
	for (const std::string &s : hex_lines(p, n))
		j.push(s);
	return j;
}

} // namespace

WireImage wire_encode(const Bytes &in, uint32_t outlen, bool sign)
{
	WireImage w;
	w.sign = sign;
	w.entry.assign(ENTRY, 0);
	Bytes ib((size_t)prm::mailbox_blocks((uint32_t)in.size()) * BLOCK);
	Bytes ob((size_t)prm::mailbox_blocks(outlen) * BLOCK);
	CmdWire cw{w.entry.data(), ib.data(), ob.data(), DRY_IN_BUS, DRY_OUT_BUS};
	cmd_wire_layout(cw, in.data(), (uint32_t)in.size(), outlen, DRY_TOKEN, sign);
	w.in_blocks = split_blocks(ib);
	w.out_blocks = split_blocks(ob);
	return w;
}

Json entry_json(const uint8_t *e)
{
	Json j = Json::object();
	j.set_json("fields", fields_json(decode_fields(prm::cmd_queue_entry::desc, e, ENTRY)));
	j.set("hex", to_hex(e, ENTRY));
	return j;
}

Json block_json(const Bytes &b)
{
	Json j = Json::object();
	j.set_json("control", fields_json(decode_fields(prm::cmd_if_box::desc, b.data(), b.size())));
	j.set_json("data", hex_array(b.data(), prm::MAILBOX_DATA));
	if (b.size() >= BLOCK) // the 64 control bytes as they are
		j.set("control_hex", to_hex(b.data() + prm::MAILBOX_DATA, BLOCK - prm::MAILBOX_DATA));
	return j;
}

void entry_lines(std::vector<std::string> &out, const std::string &title, const uint8_t *e)
{
	out.push_back(title);
	for (const FieldValue &v : decode_fields(prm::cmd_queue_entry::desc, e, ENTRY, 64, true))
		out.push_back(std::string("  ") + v.field->name + ": " + v.text);
	for (const std::string &l : hexdump(e, ENTRY, false))
		out.push_back("  " + l);
}

void block_lines(std::vector<std::string> &out, const char *dir, size_t i, const Bytes &b)
{
	std::string ctl;
	for (const FieldValue &v : decode_fields(prm::cmd_if_box::desc, b.data(), b.size(), 64, true))
		ctl += std::string(" ") + v.field->name + "=" + v.text;
	out.push_back(std::string(dir) + " block " + std::to_string(i) + ":" + ctl);
	for (const std::string &l : hexdump(b.data(), prm::MAILBOX_DATA))
		out.push_back("  " + l);
}

void mailboxes_json(Json &j, const std::vector<Bytes> &in, const std::vector<Bytes> &out)
{
	Json ib = Json::array(), ob = Json::array();
	for (const Bytes &b : in)
		ib.push_json(block_json(b));
	for (const Bytes &b : out)
		ob.push_json(block_json(b));
	j.set_json("input_mailboxes", ib);
	j.set_json("output_mailboxes", ob);
}

void mailboxes_lines(std::vector<std::string> &lines, const std::vector<Bytes> &in, const std::vector<Bytes> &out)
{
	for (size_t i = 0; i < in.size(); i++)
		block_lines(lines, "input", i, in[i]);
	for (size_t i = 0; i < out.size(); i++)
		block_lines(lines, "output", i, out[i]);
}

Json wire_json(const WireImage &w)
{
	Json j = Json::object();
	j.set("token", DRY_TOKEN);
	j.set("input_chain", hex_num(w.in_blocks.empty() ? 0 : DRY_IN_BUS));
	j.set("output_chain", hex_num(w.out_blocks.empty() ? 0 : DRY_OUT_BUS));
	j.set("addresses", "made up: block i of a chain at its first block + 1024 * i");
	j.set("mailbox_signatures", w.sign);
	j.set("in_blocks", (uint64_t)w.in_blocks.size());
	j.set("out_blocks", (uint64_t)w.out_blocks.size());
	j.set_json("entry", entry_json(w.entry.data()));
	mailboxes_json(j, w.in_blocks, w.out_blocks);
	return j;
}

std::vector<std::string> wire_lines(const WireImage &w)
{
	std::vector<std::string> out;
	out.push_back(std::to_string(w.in_blocks.size()) + " input and " + std::to_string(w.out_blocks.size()) +
		      " output mailbox block(s); made-up bus addresses: input chain " + hex_num(DRY_IN_BUS) +
		      ", output chain " + hex_num(DRY_OUT_BUS) + ", block i at +1024*i; token " + hex_num(DRY_TOKEN) +
		      "; mailbox blocks " + (w.sign ? "signed (cmd_checksum=1)" : "unsigned (cmd_checksum=0, the default)"));
	entry_lines(out, "queue entry as posted:", w.entry.data());
	mailboxes_lines(out, w.in_blocks, w.out_blocks);
	return out;
}

void print_dry_run(Ctx &ctx, bool json, const Bytes &in, uint32_t outlen, bool sign)
{
	const prm::FieldDesc &f_op = *find_field(prm::cmd_in::desc, "opcode");
	const prm::FieldDesc &f_mod = *find_field(prm::cmd_in::desc, "op_mod");
	uint16_t opcode = (uint16_t)field_get(in.data(), in.size(), f_op);
	uint16_t op_mod = (uint16_t)field_get(in.data(), in.size(), f_mod);
	WireImage w = wire_encode(in, outlen, sign);
	if (json) {
		Json j = Json::object();
		j.set("dry_run", true);
		j.set("opcode", opcode);
		j.set("opcode_name", opcode_label(opcode));
		j.set("op_mod", op_mod);
		j.set("inlen", (uint64_t)in.size());
		j.set("outlen", outlen);
		j.set_json("input", hex_array(in.data(), in.size()));
		j.set_json("wire", wire_json(w));
		print_json(ctx, j);
		return;
	}
	KvList head = {
		{"command", opcode_label(opcode) + " (" + hex_num(opcode) + "), op_mod " + hex_num(op_mod)},
		{"lengths", "input " + std::to_string(in.size()) + " bytes, output " + std::to_string(outlen) + " bytes"},
		{"dry run", "nothing sent, no device opened"},
	};
	print_kv(ctx.out, head);
	ctx.out << "input:\n";
	print_lines(ctx.out, hexdump(in.data(), in.size()), 2);
	ctx.out << "wire:\n";
	print_lines(ctx.out, wire_lines(w), 2);
}

} // namespace cxprm::tool
